package cpython

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// BenchmarkEvaluate measures candidate evaluations per second on
// examples/middle (one small candidate, 200 cases), with 1 and 2 workers
// each driven by its own goroutine.
func BenchmarkEvaluate(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			e := newTestEngine(b, sandbox.Options{Suite: suite, Target: target, Workers: workers}, config{})
			ctx := context.Background()
			// Warm up: the first fork of a server touches more pages.
			if _, err := e.Run(ctx, src, sandbox.RunOptions{}); err != nil {
				b.Fatal(err)
			}
			evals := 0
			start := time.Now()
			for b.Loop() {
				var wg sync.WaitGroup
				errs := make([]error, workers)
				for w := 0; w < workers; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						out, err := e.Run(ctx, src, sandbox.RunOptions{})
						if err == nil && len(out.Results) != len(suite.Cases) {
							err = fmt.Errorf("%d results", len(out.Results))
						}
						errs[w] = err
					}()
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				evals += workers
			}
			b.ReportMetric(float64(evals)/time.Since(start).Seconds(), "evals/s")
		})
	}
}

// BenchmarkForkRoundTrip measures one candidate with a single trivial case:
// the cost of a request, a fork, an exit and the answer.
func BenchmarkForkRoundTrip(b *testing.B) {
	target, _ := middleSuite(b)
	suite := &fitness.Suite{MemoryMB: 512, Cases: []fitness.Case{{
		Kind: fitness.Call, Function: "f", Args: []byte("[]"), Expected: []byte("1"), Weight: 1, Timeout: 2,
	}}}
	e := newTestEngine(b, sandbox.Options{Suite: suite, Target: target, Workers: 1}, config{})
	src := []byte("def f():\n    return 1\n")
	ctx := context.Background()
	for b.Loop() {
		out, err := e.Run(ctx, src, sandbox.RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if out.Results[0].Verdict != fitness.Passed {
			b.Fatal(out.Results[0])
		}
	}
}

// BenchmarkPoolStartup measures New (interpreter already resolved) with
// two workers, up to every server being ready, and Close.
func BenchmarkPoolStartup(b *testing.B) {
	target, suite := middleSuite(b)
	py := python(b)
	ctx := context.Background()
	for b.Loop() {
		e, err := New(ctx, sandbox.Options{Suite: suite, Target: target, Workers: 2, Python: py.Path})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}
