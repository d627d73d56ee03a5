package cpython

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

func TestMiddle(t *testing.T) {
	target, suite := middleSuite(t)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Workers: 2}, config{})
	src, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[fitness.Verdict]int{}
	details := map[string]int{}
	for _, r := range out.Results {
		counts[r.Verdict]++
		if r.Verdict == fitness.WrongAnswer {
			details[r.Detail]++
		}
		if r.Lines != nil {
			t.Errorf("Lines = %v without coverage", r.Lines)
		}
	}
	if diff := cmp.Diff(map[fitness.Verdict]int{fitness.Passed: 100, fitness.WrongAnswer: 100}, counts); diff != "" {
		t.Errorf("verdicts mismatch (-want +got):\n%s", diff)
	}
	for d := range details {
		if !strings.HasPrefix(d, "expected ") || !strings.Contains(d, ", got ") {
			t.Errorf("detail %q does not read like \"expected 2, got 1\"", d)
		}
	}
	// The first failing case of the suite: middle(2, 1, 3) returns 1.
	for i, c := range suite.Cases {
		if string(c.Args) == "[2,1,3]" || string(c.Args) == "[2, 1, 3]" {
			if got := out.Results[i].Detail; got != "expected 2, got 1" {
				t.Errorf("middle(2, 1, 3): detail %q; want %q", got, "expected 2, got 1")
			}
		}
	}
}
