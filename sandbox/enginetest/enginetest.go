// Package enginetest holds tests that every sandbox engine must pass, run
// by each engine's own tests with an engine it opens.
package enginetest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// Open returns an engine for suite whose target module is cand.py; the
// test closes it.
type Open func(t *testing.T, suite *fitness.Suite) sandbox.Engine

// CaseRange checks that a run with RunOptions.Cases runs the range's cases
// only: a looping case outside it costs nothing, and the results outside it
// are left zero.
func CaseRange(t *testing.T, open Open) {
	const src = "def f(x):\n    if x == 0:\n        while True:\n            pass\n    return x * 2\n"
	call := func(arg, want string, timeout float64) fitness.Case {
		return fitness.Case{Kind: fitness.Call, Function: "f", Args: json.RawMessage(arg), Expected: json.RawMessage(want),
			Weight: 1, Timeout: timeout, Tolerance: 1e-9}
	}
	cases := []fitness.Case{call("[0]", "0", 0.5), call("[1]", "2", 5), call("[2]", "5", 5), call("[3]", "6", 5)}
	e := open(t, &fitness.Suite{MemoryMB: 256, Cases: cases})
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

// PaddedFix is the one-token fix of examples/middle's middle() in p (a
// padded copy of it, internal/testutil/padded): the second "return y"
// returns x. The engines' large-file benchmarks run it.
func PaddedFix(p *program.Program) program.Patch {
	seen := 0
	for i, s := range p.Sites {
		if p.FirstLine(s.Stmt) == "return y" && p.SiteText(i) == "y" {
			if seen++; seen == 2 {
				return program.Patch{{Op: program.ReplaceText, Site: i, Text: "x"}}
			}
		}
	}
	return nil
}
