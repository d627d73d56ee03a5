package gpython

import (
	"context"
	"os"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// TestMiddle runs examples/middle: the buggy program passes 100 of its 200
// cases, the reference all of them.
func TestMiddle(t *testing.T) {
	target, suite := middleSuite(t)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Workers: 2}, config{})
	for _, tt := range []struct {
		file string
		pass int
	}{{target, 100}, {"../../examples/middle/reference.py", 200}} {
		src, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pass, _ := out.Counts()
		if pass != tt.pass {
			t.Errorf("%s: %d passed, want %d; first results %+v", tt.file, pass, tt.pass, out.Results[:3])
		}
		for _, r := range out.Results {
			if r.Verdict != fitness.Passed && r.Verdict != fitness.WrongAnswer {
				t.Fatalf("%s: %v %s", tt.file, r.Verdict, r.Detail)
			}
		}
	}
}
