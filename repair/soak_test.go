package repair

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"repair/fitness"
	"repair/internal/testutil/proctest"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/engines"
)

// soakDuration reads REPAIR_SOAK (a duration such as 20s or 2h), or skips.
func soakDuration(t *testing.T) time.Duration {
	t.Helper()
	v := os.Getenv("REPAIR_SOAK")
	if v == "" {
		t.Skip("set REPAIR_SOAK to a duration (e.g. 20s) to run the soak test")
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("REPAIR_SOAK=%q: want a duration such as 20s", v)
	}
	return d
}

// verdicts counts what the candidates of a soak did.
type verdicts struct {
	mu                                     sync.Mutex
	runs, loops, recursions, memory, other int
}

func (v *verdicts) add(o *fitness.Outcome) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.runs++
	for _, r := range o.Results {
		switch {
		case r.Verdict == fitness.TimeLimitExceeded:
			v.loops++
		case r.Verdict == fitness.MemoryLimitExceeded:
			v.memory++
		case strings.Contains(r.Detail, "RecursionError"):
			v.recursions++
		case r.Verdict != fitness.Passed && r.Verdict != fitness.WrongAnswer:
			v.other++
		}
	}
}

// hostile are edits of testdata/soak/stats.py (old, new) that make it loop
// forever, recurse without end and allocate without bound.
var hostile = [][2]string{
	{"i += 1", "i += 0"},
	{"return depth(n - 1) + 1", "return depth(n) + 1"},
	{"while len(out) < n:", "while len(out) < n * 10**12:"},
}

// TestSoak (REPAIR_SOAK=DURATION) repairs testdata/soak/stats.py, whose
// mutants often loop forever, recurse without end, allocate without bound
// and flood their output, with the real engines: rounds of a fixed number
// of evaluations (cpython and gpython in turn, each round its own seed,
// with All so that a fix does not end it) until the duration has passed.
// Afterwards no process of ours is left, the open file descriptors and the
// temporary directories are what they were before, and the Go heap did not
// grow.
func TestSoak(t *testing.T) {
	d := soakDuration(t)
	tmp, err := os.MkdirTemp("", "repair-soak-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	t.Setenv("TMPDIR", tmp) // the engines' private directories go here

	const target = "testdata/soak/stats.py"
	p, err := program.ParseFile(target)
	if err != nil {
		t.Fatal(err)
	}
	suite, err := fitness.Load("testdata/soak/tests.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var seen verdicts
	round := func(i int) *Result {
		t.Helper()
		name := []string{"cpython", "gpython"}[i%2]
		eng, err := engines.Open(ctx, name, sandbox.Options{Suite: suite, Target: target, Workers: 2})
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		defer eng.Close()
		run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			out, err := eng.Run(ctx, src, o)
			if err == nil {
				seen.add(out)
			}
			return out, err
		}
		// Every round also runs one mutant of each hostile kind, so that
		// the soak exercises them all whatever the operators draw.
		for _, h := range hostile {
			mutant := strings.Replace(string(p.Src), h[0], h[1], 1)
			if mutant == string(p.Src) {
				t.Fatalf("hostile edit %q does not apply to %s", h[0], target)
			}
			if _, err := run(ctx, []byte(mutant), sandbox.RunOptions{Timeout: 300 * time.Millisecond, AbandonAfterTimeout: true}); err != nil {
				t.Fatalf("round %d (%s): hostile mutant %q: %v", i, name, h[1], err)
			}
		}
		opts := firstFix()
		opts.Seed = uint64(i + 1)
		opts.Workers = 2
		opts.Evaluations = 300
		opts.All = true
		res, err := Run(ctx, p, suite, run, opts)
		if err != nil {
			t.Fatalf("round %d (%s): %v", i, name, err)
		}
		t.Logf("round %d (%s): %d evaluations, %d fixes, stopped: %s", i, name, res.Evaluations, len(res.Fixes), res.StopReason)
		return res
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}

	// A first round warms up what the runtime opens once (its poller, the
	// gpython engine's shared state), then the baseline.
	round(0)
	round(1)
	fds, heap0 := openFDs(t), heap()
	start := time.Now()
	rounds := 2
	for ; rounds < 4 || time.Since(start) < d; rounds++ {
		round(rounds)
	}
	heap1 := heap()
	t.Logf("%d rounds, %d candidates: %d cases looped (timed out, flooded), %d recursed without end, %d ran out of memory, %d other errors; heap %.1f → %.1f MiB",
		rounds, seen.runs, seen.loops, seen.recursions, seen.memory, seen.other, float64(heap0)/(1<<20), float64(heap1)/(1<<20))

	if left := proctest.Descendants(os.Getpid()); len(left) > 0 {
		t.Errorf("processes left:%s", proctest.Describe(left))
	}
	if n := openFDs(t); n != fds {
		t.Errorf("%d open file descriptors after the soak, %d before", n, fds)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temporary directories left: %v", names)
	}
	if heap1 > heap0+64<<20 {
		t.Errorf("the heap grew from %d to %d bytes", heap0, heap1)
	}
	if seen.loops == 0 || seen.recursions == 0 || seen.memory == 0 {
		t.Errorf("the soak did not exercise every hostile kind: %+v", fmt.Sprint(seen.loops, seen.recursions, seen.memory))
	}
}
