package gpython

import (
	"os"
	"testing"
	"time"

	"repair/internal/testutil/padded"
	"repair/program"
	"repair/sandbox/enginetest"
)

// BenchmarkWorkerRunLarge measures a worker's evaluation of a candidate
// that changes one token of middle() in examples/middle padded to 5,000
// lines (internal/testutil/padded), in this process: compiled whole, and
// with its Change (only the changed definition compiled, partial.go; the
// original compiled once, at the first such run).
func BenchmarkWorkerRunLarge(b *testing.B) {
	target, suite := middleSuite(b)
	mid, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	src := padded.Source(mid, 5000)
	p, err := program.Parse("middle.py", src)
	if err != nil {
		b.Fatal(err)
	}
	pt := enginetest.PaddedFix(p)
	cand, ch := p.RenderChange(pt)
	if len(ch.Defs) != 1 {
		b.Fatal("not one changed definition")
	}
	w := benchWorker(b, suite.Cases, "middle")
	w.original = src
	for _, mode := range []string{"whole", "partial"} {
		b.Run(mode, func(b *testing.B) {
			flags, req := byte(0), cand
			if mode == "partial" {
				flags = runPartial
				req = append(appendSpans(nil, []partialSpan{{ch.Cand[0].Start, ch.Cand[0].End, ch.Orig[0].Start, ch.Orig[0].End}}), cand...)
			}
			cpu0 := processCPUTime()
			n := 0
			for b.Loop() {
				if err := w.evaluate(flags, 0, 0, len(suite.Cases), req); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(processCPUTime()-cpu0)/float64(time.Microsecond)/float64(n), "cpu-µs/op")
		})
	}
}
