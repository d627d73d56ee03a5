package guard

import (
	"context"
	"strings"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// TestExamples: a docstring example counts when the original passes it
// in both its runs and a patched program fails it in both of its; the
// second run of a failure is under the examples' own cap.
func TestExamples(t *testing.T) {
	s := &fitness.Suite{Cases: []fitness.Case{{Name: "ok", Kind: fitness.Call, Function: "f", Args: []byte(`[5]`), Timeout: 1}}}
	orig := &fitness.Outcome{Results: []fitness.Result{{Verdict: fitness.Passed}}}
	ex := &fitness.Suite{Doctest: true, Cases: []fitness.Case{
		{Name: "doctest:plural", Timeout: 2},
		{Name: "doctest:count", Timeout: 2}, // the original fails it: stale
		{Name: "doctest:flaky", Timeout: 2}, // the original passes it once
	}}
	pass := fitness.Result{Verdict: fitness.Passed, CPU: 0.004}
	fail := func(d string) fitness.Result { return fitness.Result{Verdict: fitness.RuntimeError, Detail: d} }
	tle := fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "timed out"}
	origRuns := 0
	var runs []sandbox.RunOptions
	// Each program's results on the examples, by its text and the run
	// (first: the cap from the original's slowest example).
	behave := map[string]func(first bool) []fitness.Result{
		"original": func(bool) []fitness.Result {
			origRuns++
			if origRuns == 2 {
				return []fitness.Result{pass, fail("stale"), fail("flaky")}
			}
			return []fitness.Result{pass, fail("stale"), pass}
		},
		"same": func(bool) []fitness.Result { return []fitness.Result{pass, fail("stale"), pass} },
		"breaks": func(bool) []fitness.Result {
			return []fitness.Result{fail("AssertionError: line 7: plural('cat'): expected 'cats', got 'cates'"), pass, fail("x")}
		},
		"flaky": func(first bool) []fitness.Result {
			if first {
				return []fitness.Result{fail("once"), pass, pass}
			}
			return []fitness.Result{pass, pass, pass}
		},
		"slow": func(first bool) []fitness.Result {
			if first {
				return []fitness.Result{tle, pass, pass}
			}
			return []fitness.Result{pass, pass, pass}
		},
		"loops": func(bool) []fitness.Result { return []fitness.Result{tle, pass, pass} },
	}
	run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		runs = append(runs, opts)
		if string(src) == "does not compile" {
			return &fitness.Outcome{CompileError: "SyntaxError: invalid syntax\nline 2"}, nil
		}
		return &fitness.Outcome{Results: behave[string(src)](opts.Cases.End == 0)}, nil
	}
	g, err := New(context.Background(), s, orig, []byte("original"), nil, nil, nil, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := g.AddExamples(context.Background(), ex, []byte("original"), run)
	if err != nil || n != 1 {
		t.Fatalf("AddExamples: %d examples, err %v; want the one the original passes twice", n, err)
	}
	tests := []struct {
		prog    string
		failed  int
		example string
	}{
		{"same", 0, ""},
		{"breaks", 1, "the docstring example of plural, line 7: plural('cat'): expected 'cats', got 'cates'"},
		{"flaky", 0, ""},
		{"slow", 0, ""},
		{"loops", 1, "the docstring example of plural, timed out"},
		{"does not compile", 1, "the patched program does not run its docstring examples: SyntaxError: invalid syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			runs = nil
			r, err := g.Check(context.Background(), []byte(tt.prog), nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Examples != 1 || r.ExamplesFailed != tt.failed || r.Broken != tt.failed || r.Changed != tt.failed || r.Example != tt.example {
				t.Errorf("got %+v, want 1 example, %d failed (and broken), example %q", r, tt.failed, tt.example)
			}
			if r.Suspect() != (tt.failed > 0) {
				t.Errorf("Suspect() = %v with %d examples failed", r.Suspect(), tt.failed)
			}
			if len(runs) == 0 || runs[0].Timeout != minExampleCap {
				t.Errorf("first run %+v; want the least cap %v (20 times 4ms is below it)", runs, minExampleCap)
			}
			if len(runs) > 1 && (runs[1].Timeout != 2*time.Second || runs[1].Cases.First != 0 || runs[1].Cases.End != 1) {
				t.Errorf("run again %+v; want example 0 alone under the suite's 2s", runs[1])
			}
			if want := "; 0 of the target's 1 docstring examples fail"; tt.failed == 0 && !strings.Contains(r.String(), want) {
				t.Errorf("String() = %q, want it to say %q", r.String(), want)
			}
		})
	}
}
