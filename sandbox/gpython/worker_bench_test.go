package gpython

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"repair/fitness"
)

// BenchmarkWorkerRun measures a worker's evaluation of
// examples/middle in this process (no pipes, no sandbox): what one
// candidate costs the interpreter. cpu-µs/op is the CPU time of the
// process per evaluation (the collector included): on a loaded machine a
// steadier figure than ns/op.
func BenchmarkWorkerRun(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	w := benchWorker(b, suite.Cases, "middle")
	cpu0 := processCPUTime()
	n := 0
	for b.Loop() {
		if err := w.evaluate(0, 0, src); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(processCPUTime()-cpu0)/float64(time.Microsecond)/float64(n), "cpu-µs/op")
}

// processCPUTime is the user and system time of this process so far.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDecodeRecords measures the engine's decoding of a candidate's
// 200 records (half of them failing with a detail), with and without the
// worker's string cache (warm: the details of the previous candidate).
func BenchmarkDecodeRecords(b *testing.B) {
	var buf []byte
	for i := range 200 {
		r := record{Case: i, Result: fitness.Result{Verdict: fitness.Passed, Seconds: 1e-6}}
		if i%2 == 0 {
			r.Result.Verdict = fitness.WrongAnswer
			r.Result.Detail = fmt.Sprintf("expected %d, got %d", i%10, i%7)
		}
		buf = appendRecord(buf, r, false)
	}
	for _, strs := range []strCache{nil, {}} {
		b.Run(fmt.Sprintf("cache=%v", strs != nil), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := newResults(200, false).add(buf, strs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
