package repair

import (
	"context"
	"strings"
	"testing"

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
		opts := Defaults()
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
