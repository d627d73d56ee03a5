package gpython

import (
	"os"
	"syscall"
	"testing"
	"time"
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
