package repair

import (
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/internal/testutil/proctest"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/engines"
)

// brief is what must not depend on faults of the engine: the fixes, the
// counters and the fitness history of a run (not its times).
type brief struct {
	Fixes       []Fix
	BestFitness float64
	Evaluations int
	Generations int
	History     [][3]float64 // best, mean, evaluations
	StopReason  string
}

func briefOf(r *Result) brief {
	b := brief{BestFitness: r.BestFitness, Evaluations: r.Evaluations, Generations: r.Generations, StopReason: r.StopReason}
	for _, f := range r.Fixes {
		f.Source, f.Seconds = nil, 0 // when it was delivered is the machine's
		b.Fixes = append(b.Fixes, f)
	}
	for _, g := range r.History {
		b.History = append(b.History, [3]float64{g.Best, g.Mean, float64(g.Evaluations)})
	}
	return b
}

// TestFaultInjection: an engine's worker (a cpython fork server, a gpython
// worker process) killed from outside in the middle of a run is replaced,
// and the run finishes with the same fixes, counters and history as an
// undisturbed run with the same seed. The servers are killed while the
// other worker may be running a candidate (or, "idle", between candidates).
func TestFaultInjection(t *testing.T) {
	const target = "../examples/middle/middle.py"
	p, err := program.ParseFile(target)
	if err != nil {
		t.Fatal(err)
	}
	suite, err := fitness.Load("../examples/middle/tests.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tests := []struct {
		name, engine string
		workers      int // 1: candidates one at a time, so kills find the worker idle
	}{
		{name: "cpython", engine: "cpython", workers: 2},
		// Once, the next candidate took the records the previous one left
		// in the dead worker's shared area as its own.
		{name: "gpython, idle", engine: "gpython", workers: 1},
		// Once, the case running when the worker was killed got
		// RUNTIME_ERROR (killed by signal SIGKILL).
		{name: "gpython, busy", engine: "gpython", workers: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(killEvery int) (brief, int) {
				eng, err := engines.Open(ctx, tt.engine, sandbox.Options{Suite: suite, Target: target, Workers: tt.workers})
				if errors.Is(err, sandbox.ErrNoPython) {
					t.Skip(err)
				}
				if err != nil {
					t.Fatal(err)
				}
				defer eng.Close()
				var mu sync.Mutex
				calls, kills := 0, 0
				runner := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
					mu.Lock()
					calls++
					if killEvery > 0 && calls%killEvery == 0 {
						for _, s := range servers() {
							if syscall.Kill(s.PID, syscall.SIGKILL) == nil {
								kills++
								break
							}
						}
					}
					mu.Unlock()
					return eng.Run(ctx, src, o)
				}
				opts := firstFix()
				opts.Seed = 7
				opts.Workers = tt.workers
				opts.All = true
				opts.Evaluations = 150
				opts.SearchTimeout = time.Second
				res, err := Run(ctx, p, suite, runner, opts)
				if err != nil {
					t.Fatal(err)
				}
				return briefOf(res), kills
			}
			want, _ := run(0)
			got, kills := run(20)
			if kills == 0 {
				t.Fatalf("no %s worker found to kill", tt.engine)
			}
			t.Logf("%d workers killed", kills)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%d workers killed: result mismatch (-undisturbed +disturbed):\n%s", kills, diff)
			}
			if left := proctest.Descendants(os.Getpid()); len(left) > 0 {
				t.Errorf("processes left:%s", proctest.Describe(left))
			}
		})
	}
}
