package gpython

import (
	"os"
	"testing"
)

// BenchmarkWorkerRun measures a worker's evaluation of
// examples/middle in this process (no pipes, no sandbox): what one
// candidate costs the interpreter.
func BenchmarkWorkerRun(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	w := benchWorker(b, suite.Cases, "middle")
	for b.Loop() {
		if err := w.evaluate(0, 0, src); err != nil {
			b.Fatal(err)
		}
	}
}
