package cpython

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"repair/fitness"
	"repair/internal/testutil/padded"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/enginetest"
)

// paddedMiddle is examples/middle's middle() in a file padded with
// never-called functions to about n lines (scripts/scale_bench.py's
// lines-N).
func paddedMiddle(tb testing.TB, n int) []byte {
	tb.Helper()
	mid, err := os.ReadFile(filepath.Join("..", "..", "examples", "middle", "middle.py"))
	if err != nil {
		tb.Fatal(err)
	}
	return padded.Source(mid, n)
}

// BenchmarkEvaluateLarge measures evaluations per second of a candidate
// that changes one token of middle() in files of 13 to 5,000 lines, 200
// cases: the original with coverage (as its run for localization), the
// candidate with coverage, compiled whole and run on every case, or
// compiled one changed
// definition at a time over the original's code (RunOptions.Change), and
// with test selection too (RunOptions.Select: the cases that reach the
// changed statement).
func BenchmarkEvaluateLarge(b *testing.B) {
	_, suite := middleSuite(b)
	for _, lines := range []int{13, 1000, 5000} {
		src := paddedMiddle(b, lines)
		p, err := program.Parse("middle.py", src)
		if err != nil {
			b.Fatal(err)
		}
		pt := enginetest.PaddedFix(p)
		cand, ch := p.RenderChange(pt)
		dir := b.TempDir()
		tgt := filepath.Join(dir, "middle.py")
		if err := os.WriteFile(tgt, src, 0o644); err != nil {
			b.Fatal(err)
		}
		e := newTestEngine(b, sandbox.Options{Suite: suite, Target: tgt}, config{})
		ctx := context.Background()
		orig, err := e.Run(ctx, src, sandbox.RunOptions{Coverage: true})
		if err != nil {
			b.Fatal(err)
		}
		sel := reaching(orig, p.Stmts[ch.Reach[0]].Line)
		for _, mode := range []string{"original", "coverage", "whole", "partial", "selected"} {
			b.Run(fmt.Sprintf("lines=%d/%s", lines, mode), func(b *testing.B) {
				o := sandbox.RunOptions{Timeout: time.Second, AbandonAfterTimeout: true}
				run := cand
				if mode == "original" || mode == "coverage" {
					o = sandbox.RunOptions{Coverage: true} // as the original's run
				} else if mode != "whole" {
					o.Change = &ch
				}
				if mode == "selected" {
					o.Select = sel
				}
				if mode == "original" {
					run = src
				}
				if _, err := e.Run(ctx, run, o); err != nil {
					b.Fatal(err)
				}
				st := e.Stats()
				cpu0 := engineCPU(e)
				start := time.Now()
				n := 0
				for b.Loop() {
					if _, err := e.Run(ctx, run, o); err != nil {
						b.Fatal(err)
					}
					n++
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "evals/s")
				b.ReportMetric((engineCPU(e)-cpu0).Seconds()*1e6/float64(n), "cpu-µs/eval")
				st2 := e.Stats()
				b.ReportMetric(float64(st2.Partial-st.Partial)/float64(n), "partial")
				b.ReportMetric(float64(st2.Kept-st.Kept)/float64(n), "kept")
				b.ReportMetric(float64(st2.Selected-st.Selected)/float64(n), "selected")
			})
		}
	}
}

// pytestFile is a test file of n plain test functions of middle(), most
// asserting one call, every third three (scripts/scale_bench.py's
// pytest_file, with its own numbers).
func pytestFile(n int) []byte {
	mid := func(x, y, z int) int { return max(min(x, y), min(max(x, y), z)) }
	var b strings.Builder
	b.WriteString("from middle import middle\n")
	r := uint32(7)
	next := func() int { r = r*1103515245 + 12345; return int(r>>16)%41 - 20 }
	for k := range n {
		fmt.Fprintf(&b, "\n\ndef test_middle_%d():\n", k)
		calls := 1
		if k%3 == 0 {
			calls = 3
		}
		for range calls {
			x, y, z := next(), next(), next()
			fmt.Fprintf(&b, "    assert middle(%d, %d, %d) == %d\n", x, y, z, mid(x, y, z))
		}
	}
	return []byte(b.String())
}

// BenchmarkEvaluatePytestLarge measures evaluations per second of the
// candidate of BenchmarkEvaluateLarge in a file of 2,000 lines against a
// pytest file of 100 tests (scale_bench.py's pytest-2000), one worker:
// compiled one changed definition at a time over the original's code,
// and with test selection too.
func BenchmarkEvaluatePytestLarge(b *testing.B) {
	py := realPytest(b)
	src := paddedMiddle(b, 2000)
	p, err := program.Parse("middle.py", src)
	if err != nil {
		b.Fatal(err)
	}
	// The fix: the "return y" after "elif x < z:" returns x.
	lines := strings.Split(string(src), "\n")
	line := slices.Index(lines, "        elif x < z:") + 2
	var pt program.Patch
	for i, s := range p.Sites {
		if p.Stmts[s.Stmt].Line == line && p.SiteText(i) == "y" {
			pt = program.Patch{{Op: program.ReplaceText, Site: i, Text: "x"}}
		}
	}
	cand, ch := p.RenderChange(pt)
	dir := b.TempDir()
	tgt := filepath.Join(dir, "middle.py")
	if err := os.WriteFile(tgt, src, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "test_middle.py"), pytestFile(100), 0o644); err != nil {
		b.Fatal(err)
	}
	suite, err := fitness.Load(filepath.Join(dir, "test_middle.py"))
	if err != nil {
		b.Fatal(err)
	}
	e := newTestEngine(b, sandbox.Options{Suite: suite, Target: tgt, Python: py.Path, Workers: 1}, config{})
	ctx := context.Background()
	orig, err := e.Run(ctx, src, sandbox.RunOptions{Coverage: true})
	if err != nil {
		b.Fatal(err)
	}
	sel := reaching(orig, p.Stmts[ch.Reach[0]].Line)
	var ve *Engine
	for _, mode := range []string{"partial", "selected", "whole", "verify"} {
		b.Run(mode, func(b *testing.B) {
			o := sandbox.RunOptions{Change: &ch}
			if mode == "selected" {
				o.Select = sel
			}
			if mode == "whole" || mode == "verify" {
				o = sandbox.RunOptions{Validate: true}
			}
			e := e
			if mode == "verify" {
				if ve == nil {
					ve = newTestEngine(b, sandbox.Options{Suite: suite, Target: tgt, Python: py.Path, Workers: 1, Verify: true}, config{})
				}
				e = ve
			}
			if _, err := e.Run(ctx, cand, o); err != nil {
				b.Fatal(err)
			}
			st := e.Stats()
			cpu0 := engineCPU(e)
			start := time.Now()
			n := 0
			for b.Loop() {
				out, err := e.Run(ctx, cand, o)
				if err != nil {
					b.Fatal(err)
				}
				for i, r := range out.Results {
					if r.Verdict != fitness.Passed && (mode != "selected" || sel[i]) {
						b.Fatalf("%s: %v %s", suite.Cases[i].Name, r.Verdict, r.Detail)
					}
				}
				n++
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "evals/s")
			b.ReportMetric((engineCPU(e)-cpu0).Seconds()*1e6/float64(n), "cpu-µs/eval")
			st2 := e.Stats()
			b.ReportMetric(float64(st2.Partial-st.Partial)/float64(n), "partial")
			b.ReportMetric(float64(st2.Selected-st.Selected)/float64(n), "selected")
			b.ReportMetric(float64(st2.Reused-st.Reused)/float64(n), "reused")
		})
	}
}
