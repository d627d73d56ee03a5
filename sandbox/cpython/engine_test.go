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

// TestOriginalRunSame: the original runs on the code its server made
// when it started, which its children have (no code through the shared
// memory), and gets what the same program compiled as any candidate gets:
// the same verdicts, details and coverage lines, with coverage (pure or
// not, a module kept across cases or imported afresh) and without.
func TestOriginalRunSame(t *testing.T) {
	padded := string(paddedMiddle(t, 300))
	tests := []struct {
		name  string
		src   string
		cases []fitness.Case
	}{
		{"padded middle", padded, []fitness.Case{
			call("middle", "[2, 1, 3]", "2"), call("middle", "[3, 2, 1]", "2"), call("middle", "[1, 2, 3]", "2"),
			call("middle", "[1, 1, 1]", "1"), call("middle", "[5, 2, 9]", "5"),
		}},
		{"global state", "N = []\n\n\ndef f(x):\n    global N\n    N = N + [x]\n    return len(N)\n",
			[]fitness.Case{call("f", "[1]", "1"), call("f", "[2]", "1"), call("f", "[3]", "2")}},
		{"attributes and an import", "import math\n\n\nclass P:\n    def __init__(self, x):\n        self.x = x\n\n\ndef f(x):\n    p = P(x)\n    if x > 2:\n        p.x = math.floor(x / 2)\n    return p.x\n",
			[]fitness.Case{call("f", "[1]", "1"), call("f", "[5]", "2"), call("f", "[9]", "3")}},
		{"raises", "def f(x):\n    if x:\n        raise ValueError(x)\n    return 0\n",
			[]fitness.Case{call("f", "[0]", "0"), call("f", "[1]", "0")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{
				Suite:  &fitness.Suite{MemoryMB: 256, Cases: tt.cases},
				Target: target(t, "prog.py", map[string]string{"prog.py": tt.src}),
			}, config{})
			for _, cov := range []bool{true, false} {
				run := func(src string) *fitness.Outcome {
					out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Coverage: cov})
					if err != nil {
						t.Fatal(err)
					}
					for i := range out.Results {
						out.Results[i].Seconds, out.Results[i].CPU = 0, 0
					}
					return out
				}
				// A comment line at the end: another program to the
				// server, with the same lines.
				want, got := run(tt.src+"# not the original\n"), run(tt.src)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("coverage %v: the original's run mismatch (-as a candidate +as the original):\n%s", cov, diff)
				}
				if cov && len(got.Results[0].Lines) == 0 {
					t.Errorf("no coverage lines")
				}
			}
		})
	}
}
