package repair

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// TestVerifyRefuses: with a test file, a fix whose tests fail under the
// check of delivered fixes (it passed them by what it did to the test
// machinery) is refused and never delivered; the search goes on, and a
// fix that passes there too is delivered. The check's engine opens once.
func TestVerifyRefuses(t *testing.T) {
	p := parseMiddle(t)
	plain := fakeRunner(nil)
	opened, refused := 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		s := fakeSuite(10)
		s.TestSource = []byte("def test_x(): ...\n") // the check applies to test files
		opts := firstFix()
		opts.Seed, opts.Workers, opts.All, opts.Generations = seed, 2, true, 30
		opts.Verify = func(context.Context) (Runner, func(), error) {
			opened++
			return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				out, err := plain(ctx, twoFixesSource(src), o)
				if err == nil && line6(src) == "return z" {
					out.Results[0] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "the test machinery changed while the test ran"}
				}
				return out, err
			}, func() {}, nil
		}
		res, err := Run(context.Background(), p, s, twoFixes(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Fixes) == 0 {
			t.Fatalf("seed %d: no fix (stop %s)", seed, res.StopReason)
		}
		for _, f := range res.Fixes {
			if strings.Contains(f.Diff, "+            return z") {
				t.Errorf("seed %d: delivered a fix the check refuses: %v", seed, f.Describe)
			}
		}
		for _, why := range res.Refused {
			if !strings.HasPrefix(why, "c0: RUNTIME_ERROR (the test machinery changed") {
				t.Errorf("seed %d: refused because %q", seed, why)
			}
		}
		refused += len(res.Refused)
	}
	if refused == 0 {
		t.Errorf("no seed found the forging fix: the test shows nothing")
	}
	if opened != 6 {
		t.Errorf("the check's engine opened %d times in 6 runs, want once a run", opened)
	}
}

// twoFixesSource is src as twoFixes judges it: the forging fix passes as
// the fix does.
func twoFixesSource(src []byte) []byte {
	if line6(src) == "return z" {
		return []byte(strings.Replace(string(src), "return z", "return x", 1))
	}
	return src
}

// TestCheckBesideValidation: a fix's run under the check of delivered
// fixes and its validation run at once (on engines of their own), and the
// fix is delivered after both; a refused fix's check still ends before
// the search goes on to the next generation.
func TestCheckBesideValidation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		refuse bool
	}{{"delivered", false}, {"refused", true}} {
		t.Run(tc.name, func(t *testing.T) {
			p := parseMiddle(t)
			plain := fakeRunner(nil)
			validating, checking := make(chan struct{}), make(chan struct{})
			var vOnce, cOnce sync.Once
			var overlapV, overlapC, checkRunning atomic.Bool
			meet := func(mine, other chan struct{}, once *sync.Once, saw *atomic.Bool) {
				once.Do(func() { close(mine) })
				select {
				case <-other:
					saw.Store(true)
				case <-time.After(5 * time.Second):
				}
			}
			s := fakeSuite(10)
			s.TestSource = []byte("def test_x(): ...\n")
			opts := firstFix()
			opts.Seed, opts.Workers = 1, 2
			opts.Verify = func(context.Context) (Runner, func(), error) {
				return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
					checkRunning.Store(true)
					defer checkRunning.Store(false)
					meet(checking, validating, &cOnce, &overlapC)
					out, err := plain(ctx, src, o)
					if err == nil && tc.refuse && line6(src) == "return x" {
						out.Results[0] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "the test machinery changed while the test ran"}
					}
					return out, err
				}, func() {}, nil
			}
			run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				if o.Validate {
					meet(validating, checking, &vOnce, &overlapV)
				}
				return plain(ctx, src, o)
			}
			// The rest of the fix's generation may run beside its
			// delivery; the next generation may not.
			opts.Progress = func(Progress) {
				if checkRunning.Load() {
					t.Errorf("a generation ended while a fix's check still ran")
				}
			}
			opts.Generations = 5
			res, err := Run(context.Background(), p, s, run, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !overlapV.Load() || !overlapC.Load() {
				t.Errorf("the check and the validation did not run at once (validation saw the check: %v, the check saw the validation: %v)", overlapV.Load(), overlapC.Load())
			}
			if tc.refuse && (len(res.Fixes) != 0 || len(res.Refused) == 0) {
				t.Errorf("%d fixes, refused %q: want the fix refused", len(res.Fixes), res.Refused)
			}
			if !tc.refuse && len(res.Fixes) != 1 {
				t.Errorf("%d fixes, refused %q: want one", len(res.Fixes), res.Refused)
			}
		})
	}
}

// TestSameCasesSelect: a selection of the check (by the search's order of
// the cases) reaches an engine that collected them in another order by
// name, and what it skipped comes back in the search's order; a case the
// search does not know runs.
func TestSameCasesSelect(t *testing.T) {
	want := &fitness.Suite{Cases: []fitness.Case{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	got := &fitness.Suite{Cases: []fitness.Case{{Name: "c"}, {Name: "extra"}, {Name: "a"}, {Name: "b"}}}
	var seen []bool
	run := SameCases(want, got, func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		seen = o.Select
		out := &fitness.Outcome{Results: make([]fitness.Result, len(got.Cases))}
		if o.Select != nil {
			out.Skipped = make([]bool, len(got.Cases))
			for i, s := range o.Select {
				out.Skipped[i] = !s
			}
		}
		return out, nil
	})
	for _, tc := range []struct {
		name        string
		sel         []bool
		wantSel     []bool // in got's order
		wantSkipped []bool // in want's order
	}{
		{"every case", nil, nil, nil},
		{"c alone", []bool{false, false, true}, []bool{true, true, false, false}, []bool{true, true, false}},
		{"a and b", []bool{true, true, false}, []bool{false, true, true, true}, []bool{false, false, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := run(context.Background(), nil, sandbox.RunOptions{Select: tc.sel})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seen, tc.wantSel) {
				t.Errorf("the engine's selection %v, want %v", seen, tc.wantSel)
			}
			if !slices.Equal(o.Skipped, tc.wantSkipped) {
				t.Errorf("skipped %v, want %v", o.Skipped, tc.wantSkipped)
			}
		})
	}
}
