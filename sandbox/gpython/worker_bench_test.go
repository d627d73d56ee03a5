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
		if err := w.evaluate(0, 0, 0, len(suite.Cases), src); err != nil {
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

// BenchmarkDecodeRecords measures the engine's decoding and judging of a
// candidate's 200 records (half of them returning a wrong value), with
// and without the worker's string cache.
func BenchmarkDecodeRecords(b *testing.B) {
	var buf []byte
	cases := make([]fitness.Case, 200)
	for i := range 200 {
		cases[i] = fitness.Case{Kind: fitness.Call, Expected: []byte(fmt.Sprint(i % 10))}
		got := i % 10
		if i%2 == 0 {
			got = i % 7
		}
		status, payload := fitness.AppendObservation(nil, &fitness.Observation{Ending: fitness.Returned,
			Value: fitness.Value{Kind: fitness.VInt, Int: int64(got)}})
		r := record{Case: i, Result: fitness.Result{Seconds: 1e-6}, Status: status, Payload: payload}
		buf = appendRecord(buf, r, false)
	}
	checks, err := fitness.NewChecks(cases, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, strs := range []strCache{nil, {}} {
		b.Run(fmt.Sprintf("cache=%v", strs != nil), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := newResults(checks, false).add(buf, strs, fitness.NewMemo(len(checks))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
