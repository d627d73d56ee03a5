package repair

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"repair/fitness"
	"repair/guard"
	"repair/sandbox"
)

// line6 is line 6 of a candidate of middle.
func line6(src []byte) string {
	lines := strings.Split(string(src), "\n")
	if len(lines) < 6 {
		return ""
	}
	return strings.TrimSpace(lines[5])
}

// twoFixes is fakeRunner where line 6 returning x (the fix) or z (an
// overfitting patch) both pass the suite.
func twoFixes() Runner {
	inner := fakeRunner(nil)
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		return inner(ctx, twoFixesSource(src), opts)
	}
}

// probeRunner plays the programs on the guard's generated inputs: the
// original returns 1 on each; the fix returns 2 on the first; the
// overfitting patch raises on the first three.
func probeRunner(opened *int) func(context.Context, *fitness.Suite) (guard.Runner, func(), error) {
	return func(_ context.Context, ps *fitness.Suite) (guard.Runner, func(), error) {
		*opened++
		run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
			o := &fitness.Outcome{}
			for i := range ps.Cases {
				r := fitness.Result{Verdict: fitness.Passed, Detail: "returned 1"}
				switch l := line6(src); {
				case l == "return x" && i == 0:
					r.Detail = "returned 2"
				case l == "return z" && i < 3:
					r.Detail = "raised ValueError"
				}
				o.Results = append(o.Results, r)
			}
			return o, nil
		}
		return run, func() {}, nil
	}
}

func argSuite() *fitness.Suite {
	s := fakeSuite(10)
	for i := range s.Cases {
		s.Cases[i].Args = []byte(fmt.Sprintf("[%d, 2, 3]", i))
	}
	return s
}

// TestGuardRanksAll: with --all, the fix that changes least comes first,
// whatever order the search found them in.
func TestGuardRanksAll(t *testing.T) {
	p := parseMiddle(t)
	opts := firstFix()
	opts.All, opts.Generations, opts.Workers = true, 30, 2
	opened := 0
	opts.Guard = probeRunner(&opened)
	res, err := Run(context.Background(), p, argSuite(), twoFixes(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Fixes {
		got = append(got, fmt.Sprintf("%s [%v]", strings.Join(f.Describe, "; "), f.Guard))
	}
	if len(res.Fixes) < 2 || !strings.Contains(res.Fixes[0].Diff, "+            return x") {
		t.Fatalf("fixes not ranked with the fix first:\n%s", strings.Join(got, "\n"))
	}
	r := res.Fixes[0].Guard
	if r == nil || r.Changed != 1 || r.Broken != 0 || r.Inputs == 0 {
		t.Errorf("guard of the fix = %+v, want 1 changed, 0 broken", r)
	}
	last := res.Fixes[len(res.Fixes)-1].Guard
	if !last.Suspect() || !strings.Contains(last.Example, "returned 1 before, raised ValueError after") {
		t.Errorf("the overfitting patch is not suspect: %+v", last)
	}
	if opened != 1 {
		t.Errorf("guard engine opened %d times, want once", opened)
	}
}

// TestGuardSearchesOn: without --all, a first fix the guard finds suspect
// does not end the search; the fix it then finds is delivered first.
func TestGuardSearchesOn(t *testing.T) {
	p := parseMiddle(t)
	searchedOn := 0
	for seed := uint64(1); seed <= 12; seed++ {
		opts := firstFix()
		opts.Seed, opts.Workers = seed, 2
		opened := 0
		opts.Guard = probeRunner(&opened)
		res, err := Run(context.Background(), p, argSuite(), twoFixes(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Fixes) == 0 {
			t.Fatalf("seed %d: no fix (stop %s)", seed, res.StopReason)
		}
		if !strings.Contains(res.Fixes[0].Diff, "+            return x") {
			t.Errorf("seed %d: delivered %v (guard %v)", seed, res.Fixes[0].Describe, res.Fixes[0].Guard)
		}
		if len(res.Fixes) > 1 {
			searchedOn++
			if !res.Fixes[1].Guard.Suspect() {
				t.Errorf("seed %d: a second fix that is not suspect: %v", seed, res.Fixes[1].Guard)
			}
		}
	}
	if searchedOn == 0 {
		t.Errorf("no seed found the overfitting patch first: the test shows nothing")
	}
}

// TestGuardOff: without Options.Guard fixes carry no report.
func TestGuardOff(t *testing.T) {
	p := parseMiddle(t)
	opts := firstFix()
	res, err := Run(context.Background(), p, argSuite(), twoFixes(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) != 1 {
		t.Fatalf("%d fixes, want 1 (stop %s, best %v)", len(res.Fixes), res.StopReason, res.BestFitness)
	}
	if g := res.Fixes[0].Guard; g != nil {
		t.Errorf("the fix carries a guard report without a guard: %+v", g)
	}
}

// TestChangedLines: the size fixes are ranked by.
func TestChangedLines(t *testing.T) {
	d := "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n def f(x):\n-    return 1\n+    return 2\n x = 1\n"
	if n := changedLines(d); n != 2 {
		t.Errorf("changedLines = %d, want 2", n)
	}
}

// TestGuardProbesGiven: with Options.GuardProbes the guard's engine is
// opened on the inputs the caller made, asked for once, and its report
// covers them.
func TestGuardProbesGiven(t *testing.T) {
	p := parseMiddle(t)
	s := argSuite()
	made, origin := guard.Probes(s, nil, 5)
	asked := 0
	opts := firstFix()
	opts.GuardInputs = 5
	opts.GuardProbes = func() (*fitness.Suite, []int) {
		asked++
		return made, origin
	}
	opened := 0
	inner := probeRunner(&opened)
	opts.Guard = func(ctx context.Context, ps *fitness.Suite) (guard.Runner, func(), error) {
		if ps != made {
			t.Errorf("guard engine opened on other inputs than those given")
		}
		return inner(ctx, ps)
	}
	res, err := Run(context.Background(), p, s, twoFixes(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if asked != 1 || opened != 1 {
		t.Errorf("inputs asked for %d times, engine opened %d times; want once each", asked, opened)
	}
	if len(res.Fixes) == 0 || res.Fixes[0].Guard == nil || res.Fixes[0].Guard.Inputs == 0 {
		t.Fatalf("no guarded fix: %+v", res.Fixes)
	}
}

// TestGuardInRangesWhenCasesWait: when the original's cases mostly wait,
// the guard runs each program's generated inputs in ranges at once (and
// judges the fix as a run of every input does); otherwise in one run.
func TestGuardInRangesWhenCasesWait(t *testing.T) {
	for _, waiting := range []bool{false, true} {
		p := parseMiddle(t)
		opts := firstFix()
		opts.Seed, opts.Workers, opts.Reduce = 1, 2, false
		opts.Grow = func(_ context.Context, n int) (int, error) { return n, nil }
		inner := probeRunner(new(int))
		var ranged, whole atomic.Int64
		opts.Guard = func(ctx context.Context, ps *fitness.Suite) (guard.Runner, func(), error) {
			run, closeFn, err := inner(ctx, ps)
			return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				if o.Cases.End > 0 {
					ranged.Add(1)
				} else {
					whole.Add(1)
				}
				return run(ctx, src, o)
			}, closeFn, err
		}
		search := fakeRunner(nil)
		run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			out, err := search(ctx, src, o)
			if err == nil && o.Coverage && waiting {
				for i := range out.Results {
					out.Results[i].Seconds, out.Results[i].CPU = 0.05, 0.001
				}
			}
			return out, err
		}
		res, err := Run(context.Background(), p, argSuite(), run, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Fixes) == 0 {
			t.Fatalf("waiting %v: no fix", waiting)
		}
		if r := res.Fixes[0].Guard; r == nil || r.Changed != 1 || r.Broken != 0 {
			t.Errorf("waiting %v: guard of the fix = %+v, want 1 changed, 0 broken", waiting, r)
		}
		if waiting && (ranged.Load() < 4 || whole.Load() != 0) {
			t.Errorf("cases wait: %d ranged runs and %d whole ones, want the original's and the fix's inputs in ranges", ranged.Load(), whole.Load())
		}
		// The original runs twice (an input it does not repeat is not
		// judged), the fix once.
		if !waiting && (ranged.Load() != 0 || whole.Load() != 3) {
			t.Errorf("cases do not wait: %d ranged runs and %d whole ones, want three whole runs", ranged.Load(), whole.Load())
		}
	}
}
