package cpython

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// TestCaseRange: a run with RunOptions.Cases runs the range's cases only:
// the looping case outside it costs nothing, and the results outside it
// are left zero.
func TestCaseRange(t *testing.T) {
	const src = "def f(x):\n    if x == 0:\n        while True:\n            pass\n    return x * 2\n"
	loop := call("f", "[0]", "0")
	loop.Timeout = 0.5
	cases := []fitness.Case{loop, call("f", "[1]", "2"), call("f", "[2]", "5"), call("f", "[3]", "6")}
	e := newTestEngine(t, sandbox.Options{
		Suite:  &fitness.Suite{MemoryMB: 256, Cases: cases},
		Target: target(t, "cand.py", nil),
	}, config{})
	const (
		P   = fitness.Passed
		WA  = fitness.WrongAnswer
		TLE = fitness.TimeLimitExceeded
	)
	tests := []struct {
		name string
		r    sandbox.CaseRange
		cov  bool
		want []fitness.Verdict
		ran  []bool
	}{
		{"all", sandbox.CaseRange{}, false, []fitness.Verdict{TLE, P, WA, P}, []bool{true, true, true, true}},
		{"middle", sandbox.CaseRange{First: 1, End: 3}, false, []fitness.Verdict{P, P, WA, P}, []bool{false, true, true, false}},
		{"middle with coverage", sandbox.CaseRange{First: 1, End: 3}, true, []fitness.Verdict{P, P, WA, P}, []bool{false, true, true, false}},
		{"head", sandbox.CaseRange{First: 0, End: 1}, false, []fitness.Verdict{TLE, P, P, P}, []bool{true, false, false, false}},
		{"tail past the end", sandbox.CaseRange{First: 2, End: 9}, false, []fitness.Verdict{P, P, WA, P}, []bool{false, false, true, true}},
		{"empty", sandbox.CaseRange{First: 2, End: 2}, false, []fitness.Verdict{P, P, P, P}, []bool{false, false, false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Cases: tc.r, Coverage: tc.cov})
			if err != nil {
				t.Fatal(err)
			}
			var got []fitness.Verdict
			var ran []bool
			for _, r := range out.Results {
				got = append(got, r.Verdict)
				ran = append(ran, r.Detail != "" || r.Seconds > 0 || len(r.Lines) > 0)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.ran, ran); diff != "" {
				t.Errorf("cases that ran (-want +got):\n%s", diff)
			}
		})
	}
}
