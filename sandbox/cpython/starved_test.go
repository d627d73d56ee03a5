package cpython

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"repair/fitness"
	"repair/sandbox"
)

// TestStarvedCaseBusy: a case that computes on a CPU other processes
// crowd (a loaded machine) waits for the CPU, not for I/O: the CPU time a
// coverage run reports for it counts the time it waited for a CPU, so
// that it does not read as a case that sleeps (repair's waits), while a
// case that sleeps still reports next to none.
func TestStarvedCaseBusy(t *testing.T) {
	python(t)
	src := `import time
def spin():
    n = 0
    t = time.process_time()
    while time.process_time() - t < 0.1:
        n += 1
    return 1
def nap():
    time.sleep(0.3)
    return 1
`
	cases := []fitness.Case{call("spin", "", "1"), call("nap", "", "1")}
	for i := range cases {
		cases[i].Timeout = 10
	}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil), Workers: 1}, config{})
	// Every process of the server on CPU 0, with four busy threads.
	var cpu0 unix.CPUSet
	cpu0.Set(0)
	for _, pid := range serverPIDs(e) {
		for _, p := range append([]int{pid}, descendants(pid)...) {
			if err := unix.SchedSetaffinity(p, &cpu0); err != nil {
				t.Skipf("sched_setaffinity: %v", err)
			}
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if unix.SchedSetaffinity(0, &cpu0) != nil {
				return
			}
			for {
				select {
				case <-stop:
					return
				default:
				}
			}
		})
	}
	out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Coverage: true})
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	spin, nap := out.Results[0], out.Results[1]
	if spin.Verdict != fitness.Passed || nap.Verdict != fitness.Passed {
		t.Fatalf("verdicts %v (%s), %v (%s)", spin.Verdict, spin.Detail, nap.Verdict, nap.Detail)
	}
	if spin.CPU < spin.Seconds/2 {
		t.Errorf("starved computing case: %.3f s busy of %.3f s; want most of it", spin.CPU, spin.Seconds)
	}
	if nap.CPU > nap.Seconds/2 {
		t.Errorf("sleeping case: %.3f s busy of %.3f s; want little of it", nap.CPU, nap.Seconds)
	}
}
