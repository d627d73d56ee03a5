package repair

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/engines"
)

// fakeEngine is a sandbox.Engine over a Runner, counting its runs.
type fakeEngine struct {
	run  Runner
	runs atomic.Int64 // a fix's validation runs beside its generation's candidates
}

func (e *fakeEngine) Name() string { return "cpython" }
func (e *fakeEngine) Close() error { return nil }
func (e *fakeEngine) Run(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
	e.runs.Add(1)
	return e.run(ctx, src, o)
}

// lenientSearch is fakeRunner, but it also passes every case when line 6
// returns z: a fix only the fast engine believes in.
func lenientSearch() Runner {
	inner := fakeRunner(nil)
	return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		if line6(src) == "return z" {
			src = []byte(strings.Replace(string(src), "return z", "return x", 1))
		}
		return inner(ctx, src, o)
	}
}

// TestHybrid: the search runs on the fast engine; every fix is validated
// on the judge, which rejects the fix only the fast engine passes (twice,
// then the candidate scores what the judge saw and the search goes on);
// and an original on which the two disagree sends every run to the judge.
func TestHybrid(t *testing.T) {
	tests := []struct {
		name        string
		fast        Runner
		wantAgree   bool
		wantOnFast  bool // the search's runs went to the fast engine
		wantRejects bool
	}{
		{"agree", fakeRunner(nil), true, true, false},
		{"the fast engine passes a wrong fix", lenientSearch(), true, true, true},
		{"disagree on the original", func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			out, err := fakeRunner(nil)(ctx, src, o)
			if err == nil && len(out.Results) > 0 {
				out.Results[0].Verdict = fitness.RuntimeError
			}
			return out, err
		}, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rejected := 0
			for seed := uint64(1); seed <= 8; seed++ {
				fast, truth := &fakeEngine{run: tt.fast}, &fakeEngine{run: fakeRunner(nil)}
				h := engines.NewHybrid(fast, truth, io.Discard)
				opts := firstFix()
				opts.Seed, opts.Workers, opts.Generations = seed, 1, 60
				res, err := Run(context.Background(), parseMiddle(t), fakeSuite(10), h.Run, opts)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Fixes) != 1 || !strings.Contains(res.Fixes[0].Diff, "+            return x") {
					t.Fatalf("seed %d: fixes %v, want the one that returns x", seed, res.Fixes)
				}
				st := h.Stats()
				if st.Agree != tt.wantAgree {
					t.Errorf("seed %d: agree = %v, want %v (%s)", seed, st.Agree, tt.wantAgree, st.Mismatch)
				}
				if (st.Search > 0) != tt.wantOnFast || (fast.runs.Load() > 1) != tt.wantOnFast {
					t.Errorf("seed %d: %d search runs on the fast engine (%d in all), want some: %v", seed, st.Search, fast.runs.Load(), tt.wantOnFast)
				}
				if st.Rejected != 2*res.Rejected {
					t.Errorf("seed %d: %d validations rejected, %d fixes rejected: each is validated twice", seed, st.Rejected, res.Rejected)
				}
				rejected += res.Rejected
			}
			if (rejected > 0) != tt.wantRejects {
				t.Errorf("%d fixes rejected over 8 seeds, want some: %v", rejected, tt.wantRejects)
			}
		})
	}
}
