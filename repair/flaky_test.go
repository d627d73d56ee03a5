package repair

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// outcomeOf is an outcome of the given verdicts, one per case.
func outcomeOf(vs ...fitness.Verdict) *fitness.Outcome {
	o := &fitness.Outcome{}
	for _, v := range vs {
		o.Results = append(o.Results, fitness.Result{Verdict: v})
	}
	return o
}

func verdictsOf(o *fitness.Outcome) []fitness.Verdict {
	var vs []fitness.Verdict
	for _, r := range o.Results {
		vs = append(vs, r.Verdict)
	}
	return vs
}

// TestJudgeRuns: a case passes only if it passed every run, keeps its
// first failing verdict otherwise, and is listed as changed when its
// verdict was not the same in every run; an ignored case passes whatever
// it gave.
func TestJudgeRuns(t *testing.T) {
	const (
		P  = fitness.Passed
		WA = fitness.WrongAnswer
		RE = fitness.RuntimeError
		TL = fitness.TimeLimitExceeded
	)
	tests := []struct {
		name        string
		runs        [][]fitness.Verdict
		ignore      []bool
		want        []fitness.Verdict
		wantChanged []int
	}{
		{"one run", [][]fitness.Verdict{{P, WA}}, nil, []fitness.Verdict{P, WA}, nil},
		{"the same every time", [][]fitness.Verdict{{P, WA, P}, {P, WA, P}, {P, WA, P}}, nil, []fitness.Verdict{P, WA, P}, nil},
		{"passed once of three", [][]fitness.Verdict{{WA, P}, {P, P}, {WA, P}}, nil, []fitness.Verdict{WA, P}, []int{0}},
		{"failed once of three", [][]fitness.Verdict{{P, P}, {P, RE}, {P, P}}, nil, []fitness.Verdict{P, RE}, []int{1}},
		{"the first failure's verdict", [][]fitness.Verdict{{P}, {TL}, {WA}}, nil, []fitness.Verdict{TL}, []int{0}},
		{"failing kinds that change", [][]fitness.Verdict{{WA, P}, {RE, P}}, nil, []fitness.Verdict{WA, P}, []int{0}},
		{"several changed", [][]fitness.Verdict{{P, WA, P}, {WA, P, P}, {P, P, P}}, nil, []fitness.Verdict{WA, WA, P}, []int{0, 1}},
		{"ignored cases pass", [][]fitness.Verdict{{WA, WA}, {P, WA}, {WA, WA}}, []bool{true, false}, []fitness.Verdict{P, WA}, []int{0}},
		{"ignored and stable", [][]fitness.Verdict{{WA, P}, {WA, P}}, []bool{true, false}, []fitness.Verdict{P, P}, nil},
		{"a run that did not compile lists no results", [][]fitness.Verdict{{P, P}, nil, {P, P}}, nil, []fitness.Verdict{fitness.CompilationError, fitness.CompilationError}, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var runs []*fitness.Outcome
			for _, vs := range tt.runs {
				o := outcomeOf(vs...)
				if vs == nil {
					o.CompileError = "SyntaxError"
				}
				runs = append(runs, o)
			}
			got, changed, err := judgeRuns(runs, tt.ignore)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, verdictsOf(got)); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantChanged, changed); diff != "" {
				t.Errorf("changed (-want +got):\n%s", diff)
			}
			wantPass := !slices.ContainsFunc(tt.want, func(v fitness.Verdict) bool { return v != fitness.Passed })
			if passes(got, nil) != wantPass {
				t.Errorf("passes = %v, want %v", !wantPass, wantPass)
			}
		})
	}
}

// TestJudgeRunsErrors: runs that do not agree on the number of cases are
// an error, not a panic.
func TestJudgeRunsErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		runs   []*fitness.Outcome
		ignore []bool
		want   string
	}{
		{"no run", nil, nil, "judge: no run"},
		{"lengths differ", []*fitness.Outcome{outcomeOf(fitness.Passed), outcomeOf()}, nil, "judge: run 2 has 0 results, another 1"},
		{"ignore of another length", []*fitness.Outcome{outcomeOf(fitness.Passed)}, []bool{true, true}, "judge: 2 cases to ignore or not for 1 results"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := judgeRuns(tt.runs, tt.ignore); err == nil || err.Error() != tt.want {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// flakyRunner is fakeRunner whose validation runs (RunOptions.Validate)
// are changed by orig, for the original program's, and fix, for any other
// program's: each gets the program's validation runs counted from 1.
func flakyRunner(origSrc []byte, orig, fix func(k int, o *fitness.Outcome)) Runner {
	plain := fakeRunner(nil)
	var mu sync.Mutex
	runs := map[fitness.Key]int{}
	return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		out, err := plain(ctx, src, o)
		if err != nil || !o.Validate {
			return out, err
		}
		mu.Lock()
		k := fitness.KeyOf(src)
		runs[k]++
		n := runs[k]
		mu.Unlock()
		if bytes.Equal(src, origSrc) {
			if orig != nil {
				orig(n, out)
			}
		} else if fix != nil && allPassed(out) {
			fix(n, out)
		}
		return out, nil
	}
}

// failOn makes case i fail on the runs whose count is in ks.
func failOn(i int, ks ...int) func(int, *fitness.Outcome) {
	return func(k int, o *fitness.Outcome) {
		for _, want := range ks {
			if k == want {
				o.Results[i] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "flaky"}
			}
		}
	}
}

// TestFlakySearch: a fix whose verdicts change when it runs again is
// judged on what held every time; the search goes on when that is no fix
// (never "found" without one), and delivers it when only the original's
// own flaky cases failed; stderr says which tests were flaky, once.
func TestFlakySearch(t *testing.T) {
	p := parseMiddle(t)
	tests := []struct {
		name          string
		orig, fix     func(int, *fitness.Outcome)
		wantFix       bool
		wantFlaky     []int
		wantOrigFlaky []int
		wantLog       string
	}{
		{
			name: "the fix alone is flaky",
			// Every fix fails c0 in its first and third validation runs;
			// the original passes it every time.
			fix:       failOn(0, 1, 3),
			wantFlaky: []int{0},
			wantLog: "repair: a candidate that passed the search's runs fails its validation on what held in all 3 of its runs (c0: WRONG_ANSWER); searching on\n" +
				"repair: 1 test gave different verdicts on re-runs (flaky): c0; judged on what held every time\n",
		},
		{
			name:          "the original is flaky too",
			orig:          failOn(0, 1),
			fix:           failOn(0, 1, 3),
			wantFix:       true,
			wantFlaky:     []int{0},
			wantOrigFlaky: []int{0},
			wantLog:       "repair: 1 test gave different verdicts on re-runs (flaky): c0; judged on what held every time; its verdict changed on the original too: left out of the fitness and of the fixes' validation\n",
		},
		{
			name: "the fix fails alike twice, the original changes",
			// The validation's two runs agree; the original's re-runs
			// show that c0 is flaky whatever the code.
			orig:          failOn(0, 2),
			fix:           failOn(0, 1, 2),
			wantFix:       true,
			wantFlaky:     []int{0},
			wantOrigFlaky: []int{0},
			wantLog:       "repair: 1 test gave different verdicts on re-runs (flaky): c0; judged on what held every time; its verdict changed on the original too: left out of the fitness and of the fixes' validation\n",
		},
		{
			name:    "nothing changes",
			wantFix: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log strings.Builder
			opts := firstFix()
			opts.Seed, opts.Workers, opts.Generations, opts.Log = 1, 2, 15, &log
			res, err := Run(context.Background(), p, fakeSuite(10), flakyRunner(p.Src, tt.orig, tt.fix), opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Fixes) > 0; got != tt.wantFix {
				t.Fatalf("fix found: %v, want %v (stopped: %s)\n%s", got, tt.wantFix, res.StopReason, log.String())
			}
			if tt.wantFix && !strings.Contains(res.Fixes[0].Diff, "+            return x") {
				t.Errorf("the fix does not return x:\n%s", res.Fixes[0].Diff)
			}
			if !tt.wantFix && (res.StopReason == "found" || res.Rejected == 0) {
				t.Errorf("stopped: %s with no fix, %d rejected: want the search to go on past each flaky candidate", res.StopReason, res.Rejected)
			}
			if diff := cmp.Diff(tt.wantFlaky, res.Flaky); diff != "" {
				t.Errorf("Flaky (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantOrigFlaky, res.FlakyOriginal); diff != "" {
				t.Errorf("FlakyOriginal (-want +got):\n%s", diff)
			}
			got := log.String()
			if tt.wantLog == "" {
				if strings.Contains(got, "flaky") {
					t.Errorf("log speaks of flaky tests:\n%s", got)
				}
			} else if strings.Count(got, "(flaky)") != 1 || !strings.Contains(got, tt.wantLog) {
				t.Errorf("log lacks, once:\n%s\ngot:\n%s", tt.wantLog, got)
			}
		})
	}
}

// TestFlakyNothingLeft: when every case the original fails turns out
// flaky on its re-runs, nothing is left to repair: one line, an input
// error.
func TestFlakyNothingLeft(t *testing.T) {
	p := parseMiddle(t)
	// The original's failing half passes on its second validation run;
	// the fix's first validation fails c0, which sends the original to
	// its re-runs.
	orig := func(k int, o *fitness.Outcome) {
		if k == 2 {
			for i := range o.Results {
				o.Results[i] = fitness.Result{Verdict: fitness.Passed}
			}
		}
	}
	opts := firstFix()
	opts.Seed, opts.Workers, opts.Generations = 1, 2, 15
	_, err := Run(context.Background(), p, fakeSuite(10), flakyRunner(p.Src, orig, failOn(0, 1)), opts)
	want := "tests.json: every case the original fails gives different verdicts when it runs again (flaky: c10, c11, c12, c13, c14, c15, c16, c17, c18, c19): nothing is left to repair"
	if err == nil || err.Error() != want || !inputerr.Is(err) {
		t.Fatalf("err = %v, want the input error %q", err, want)
	}
}

// TestFlakyFromTheCheck: when the check of the original (the parity check
// with plain pytest) runs it again, the search takes those runs: a case
// whose verdict changed there is left out from the start, and the
// original does not run again.
func TestFlakyFromTheCheck(t *testing.T) {
	p := parseMiddle(t)
	var mu sync.Mutex
	origRuns := 0
	orig := func(k int, o *fitness.Outcome) {
		mu.Lock()
		origRuns++
		mu.Unlock()
		failOn(0, 2)(k, o)
	}
	opts := firstFix()
	opts.Seed, opts.Workers, opts.Generations = 1, 2, 15
	var changed []int
	opts.CheckOriginal = func(ctx context.Context, first *fitness.Outcome, again func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
		for range 2 { // a second call returns the same runs
			runs, err := again(ctx)
			if err != nil {
				return nil, err
			}
			if len(runs) != flakyRuns || runs[0] != first {
				t.Fatalf("%d runs, the first the check's: %v; want %d", len(runs), runs[0] == first, flakyRuns)
			}
			_, changed, err = judgeRuns(runs, nil)
			if err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	res, err := Run(context.Background(), p, fakeSuite(10), flakyRunner(p.Src, orig, nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changed, []int{0}) || !slices.Equal(res.FlakyOriginal, []int{0}) || !slices.Equal(res.Flaky, []int{0}) {
		t.Errorf("the check saw %v change; FlakyOriginal %v, Flaky %v: want [0] each", changed, res.FlakyOriginal, res.Flaky)
	}
	if origRuns != flakyRuns-1 {
		t.Errorf("the original ran again %d times, want %d", origRuns, flakyRuns-1)
	}
	if len(res.Fixes) != 1 {
		t.Errorf("%d fixes (stopped: %s), want 1", len(res.Fixes), res.StopReason)
	}
}

// TestFlakyUnderTheCheck: a fix whose run under the check of delivered
// fixes fails a test its validation passed is refused, unless that test's
// verdict changes on the original's runs: flaky whatever the code, it is
// not held against the fix.
func TestFlakyUnderTheCheck(t *testing.T) {
	p := parseMiddle(t)
	for _, tt := range []struct {
		name       string
		orig       func(int, *fitness.Outcome)
		wantFix    bool
		wantFlaky  []int
		wantRefuse bool
	}{
		{"the original is flaky too", failOn(0, 1), true, []int{0}, false},
		{"the original is not", nil, false, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fakeSuite(10)
			s.TestSource = []byte("def test_x(): ...\n") // the check applies to test files
			plain := fakeRunner(nil)
			opts := firstFix()
			opts.Seed, opts.Workers, opts.Generations = 1, 2, 10
			opts.Verify = func(context.Context) (Runner, func(), error) {
				return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
					out, err := plain(ctx, src, o)
					if err == nil && allPassed(out) {
						out.Results[0] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "drew badly"}
					}
					return out, err
				}, func() {}, nil
			}
			res, err := Run(context.Background(), p, s, flakyRunner(p.Src, tt.orig, nil), opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Fixes) > 0; got != tt.wantFix {
				t.Errorf("fix delivered: %v, want %v (stopped: %s, refused %v)", got, tt.wantFix, res.StopReason, res.Refused)
			}
			if got := len(res.Refused) > 0; got != tt.wantRefuse {
				t.Errorf("refused %v, want some: %v", res.Refused, tt.wantRefuse)
			}
			if !slices.Equal(res.FlakyOriginal, tt.wantFlaky) {
				t.Errorf("FlakyOriginal = %v, want %v", res.FlakyOriginal, tt.wantFlaky)
			}
		})
	}
}

// TestFlakyRescue: a case the original failed in its first run and
// passes on one of its re-runs, which every candidate's run fails (no
// candidate reaches it: test selection gives it the original's verdict),
// leaves no candidate plausible, so no validation ever runs the original
// again; when the search ends without a fix, the original runs again, and
// the best candidate, which fails only that case, is validated without
// it and delivered. A search whose best fails a stable case delivers
// nothing.
func TestFlakyRescue(t *testing.T) {
	p := parseMiddle(t)
	for _, tt := range []struct {
		name          string
		origAgain     func(int, *fitness.Outcome) // the original's validation runs
		wantFix       bool
		wantOrigFlaky []int
	}{
		{"flaky on the original", func(k int, o *fitness.Outcome) {
			if k == 2 {
				o.Results[0] = fitness.Result{Verdict: fitness.Passed}
			}
		}, true, []int{0}},
		{"stable on the original", nil, false, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			inner := flakyRunner(p.Src, func(k int, o *fitness.Outcome) {
				o.Results[0] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "drew badly"}
				if tt.origAgain != nil {
					tt.origAgain(k, o)
				}
			}, nil)
			run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				out, err := inner(ctx, src, o)
				if err == nil && !o.Validate && out.CompileError == "" {
					// The search's runs, the original's first among them.
					out.Results[0] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "drew badly"}
				}
				return out, err
			}
			var log strings.Builder
			opts := firstFix()
			opts.Seed, opts.Workers, opts.Generations, opts.Log = 1, 2, 5, &log
			res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Fixes) > 0; got != tt.wantFix {
				t.Fatalf("fix delivered: %v, want %v (stopped: %s)\n%s", got, tt.wantFix, res.StopReason, log.String())
			}
			if tt.wantFix && !strings.Contains(res.Fixes[0].Diff, "+            return x") {
				t.Errorf("the fix does not return x:\n%s", res.Fixes[0].Diff)
			}
			if res.StopReason != "generations" {
				t.Errorf("stopped: %s, want generations (the budget ended the search)", res.StopReason)
			}
			if !slices.Equal(res.FlakyOriginal, tt.wantOrigFlaky) {
				t.Errorf("FlakyOriginal = %v, want %v", res.FlakyOriginal, tt.wantOrigFlaky)
			}
		})
	}
}

// TestProgress: the search's best candidate is worth running the
// original again for only when it passes a case the original failed and
// fails none the original passed.
func TestProgress(t *testing.T) {
	const P, WA = fitness.Passed, fitness.WrongAnswer
	orig := outcomeOf(P, WA, WA)
	for _, tt := range []struct {
		name string
		e    fitness.Entry
		want bool
	}{
		{"fixed one, one left", fitness.Entry{Verdicts: []fitness.Verdict{P, P, WA}}, true},
		{"no progress", fitness.Entry{Verdicts: []fitness.Verdict{P, WA, WA}}, false},
		{"broke a passing case", fitness.Entry{Verdicts: []fitness.Verdict{WA, P, WA}}, false},
		{"does not compile", fitness.Entry{CompileError: "x", Verdicts: []fitness.Verdict{P, P, WA}}, false},
		{"another suite's", fitness.Entry{Verdicts: []fitness.Verdict{P, P}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := progress(tt.e, orig); got != tt.want {
				t.Errorf("progress = %v, want %v", got, tt.want)
			}
		})
	}
}
