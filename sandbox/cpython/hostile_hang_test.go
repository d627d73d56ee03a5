package cpython

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// TestHostileHang: a candidate cannot make the tool wait past its bound.
// A candidate that stops the manager (whose heartbeat the engine's
// watchdog listens to) is killed by the forker, which lets the manager go
// on: the case that stopped it is a RUNTIME_ERROR (or, when the child
// finished first, PASSED) and the cases finished before keep their
// verdicts. A candidate that stops the forker (without a PID namespace),
// so that the manager waits for a child that is never reaped, makes the
// manager give up on its server; Go's bound of a stage, which no process
// of the sandbox can extend past one restart a case, catches a manager
// that would not. Either way the engine goes on.
func TestHostileHang(t *testing.T) {
	python(t)
	stop := func(which string) string {
		return `import os, signal
def f(x):
    me, forker = os.getpid(), os.getppid()
    target = forker
    if "` + which + `" == "manager":
        for name in os.listdir("/proc"):
            if name.isdigit() and int(name) != me:
                try:
                    stat = open("/proc/%s/stat" % name).read()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == forker:
                    target = int(name)
    os.kill(target, signal.SIGSTOP)
    return x * 2
`
	}
	cases := []fitness.Case{with(call("f", "[1]", "2"), func(c *fitness.Case) { c.Timeout = 1 }),
		with(call("f", "[2]", "4"), func(c *fitness.Case) { c.Timeout = 1 })}
	for _, tt := range []struct {
		name, which string
		cfg         config
	}{
		{"stop the manager", "manager", config{}},
		{"stop the manager, degraded", "manager", config{noNamespaces: true}},
		{"stop the forker, degraded", "forker", config{noNamespaces: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.which == "forker" {
				tt.cfg.boundSlack = time.Second // it runs into the bound: keep it short
				tt.cfg.setupCPU = 0.5
			}
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil), Workers: 1}, tt.cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			out, err := e.Run(ctx, []byte(stop(tt.which)), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// A stopped forker never reaps the child: the manager gives
			// up on the server (FORKER_WAIT) before Go's bound of a
			// stage, which catches a manager that would not.
			want, detail := fitness.RuntimeError, "the sandbox server died"
			if tt.which == "manager" {
				want, detail = fitness.RuntimeError, "killed by signal SIGKILL"
			}
			failed := 0
			for _, r := range out.Results {
				if r.Verdict == fitness.Passed {
					continue // reported before the stop took effect
				}
				if r.Verdict != want || !strings.Contains(r.Detail, detail) {
					t.Errorf("%v (%s); want %v with %q", r.Verdict, r.Detail, want, detail)
				}
				failed++
			}
			if failed == 0 && tt.which == "forker" {
				t.Errorf("no case failed: %v", briefs(out))
			}
			out, err = e.Run(ctx, []byte("def f(x):\n    return x * 2\n"), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range out.Results {
				if r.Verdict != fitness.Passed {
					t.Errorf("the next candidate: %v (%s)", r.Verdict, r.Detail)
				}
			}
			e.Close()
			if left := descendants(os.Getpid()); len(left) > 0 {
				t.Errorf("%d processes left behind", len(left))
			}
		})
	}
}
