package gpython

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/cpython"
)

// BenchmarkEvaluate measures candidate evaluations per second on
// examples/middle (one small candidate, 200 cases) with gpython and, in the
// same run, with cpython (when a CPython is installed), with 1 and 2
// workers each driven by its own goroutine.
func BenchmarkEvaluate(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	for _, engine := range []string{"gpython", "cpython"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", engine, workers), func(b *testing.B) {
				opts := sandbox.Options{Suite: suite, Target: target, Workers: workers}
				var e sandbox.Engine
				if engine == "gpython" {
					e = newTestEngine(b, opts, config{})
				} else {
					ce, err := cpython.New(context.Background(), opts)
					if err != nil {
						b.Skipf("cpython: %v", err)
					}
					b.Cleanup(func() { ce.Close() })
					e = ce
				}
				ctx := context.Background()
				if _, err := e.Run(ctx, src, sandbox.RunOptions{}); err != nil {
					b.Fatal(err)
				}
				// Each worker is kept busy by its own goroutine, as the
				// search's fan-out does.
				var next atomic.Int64
				self0, workers0 := engineCPU(e)
				start := time.Now()
				b.ResetTimer()
				var wg sync.WaitGroup
				errs := make([]error, workers)
				for w := 0; w < workers; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for next.Add(1) <= int64(b.N) {
							out, err := e.Run(ctx, src, sandbox.RunOptions{})
							if err == nil && len(out.Results) != len(suite.Cases) {
								err = fmt.Errorf("%d results", len(out.Results))
							}
							if err != nil {
								errs[w] = err
								return
							}
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				evals := b.N
				b.ReportMetric(float64(evals)/time.Since(start).Seconds(), "evals/s")
				self1, workers1 := engineCPU(e)
				b.ReportMetric((self1-self0).Seconds()*1e6/float64(evals), "tool-cpu-µs/eval")
				b.ReportMetric((workers1-workers0).Seconds()*1e6/float64(evals), "worker-cpu-µs/eval")
			})
		}
	}
}

// engineCPU is the CPU time used so far by this process, and by every
// process of e's sandboxes (the workers, or the cpython servers with their
// children). On a busy machine it is what bounds the rate; wall-clock rates
// mostly measure the other load.
func engineCPU(e sandbox.Engine) (self, workers time.Duration) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	ticks := 0
	for _, pid := range descendants(os.Getpid()) {
		ticks += statTicks(pid)
	}
	return self, time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// statTicks reads utime+stime+cutime+cstime of /proc/PID/stat.
func statTicks(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 15 {
		return 0
	}
	n := 0
	for _, x := range f[11:15] {
		v, _ := strconv.Atoi(x)
		n += v
	}
	return n
}

// BenchmarkPoolStartup measures New with two workers (and its check run of
// the original program) up to every worker being ready, and Close.
func BenchmarkPoolStartup(b *testing.B) {
	target, suite := middleSuite(b)
	ctx := context.Background()
	for b.Loop() {
		e, err := New(ctx, sandbox.Options{Suite: suite, Target: target, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}

// BenchmarkCrash measures a candidate whose one case kills its worker (a
// huge allocation): the worker's death, its MEMORY_LIMIT_EXCEEDED and the
// start of a fresh worker, the price of what the probes cannot stop.
func BenchmarkCrash(b *testing.B) {
	suite := &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{call("f", "", "1")}}
	e := newTestEngine(b, sandbox.Options{Suite: suite, Target: target(b, "cand.py", nil), Workers: 1}, config{noCheck: true})
	src := []byte("def f():\n    return len([0] * 10 ** 11)\n")
	for b.Loop() {
		out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if v := out.Results[0].Verdict; v != fitness.MemoryLimitExceeded {
			b.Fatal(v, out.Results[0].Detail)
		}
	}
}
