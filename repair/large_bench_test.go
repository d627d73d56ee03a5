package repair

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/localize"
	"repair/mutate"
	"repair/program"
	"repair/sandbox"
)

// paddedTemplates are scripts/scale_bench.py's never-called helpers.
var paddedTemplates = []string{
	"def helper_%[1]d(a, b):\n    total = a + %[1]d\n    for i in range(b):\n        if i %% %[2]d == 0:\n            total -= i\n        else:\n            total += a * i\n    return total\n",
	"def scale_%[1]d(items, factor=%[2]d):\n    out = []\n    for item in items:\n        if item is None:\n            continue\n        out.append(item * factor)\n    return out\n",
	"def find_%[1]d(xs, target):\n    lo, hi = 0, len(xs) - 1\n    while lo <= hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < target:\n            lo = mid + 1\n        elif xs[mid] > target:\n            hi = mid - 1\n        else:\n            return mid\n    return -%[2]d\n",
	"def label_%[1]d(n):\n    if n < %[2]d:\n        return \"small\"\n    if n > %[1]d:\n        return \"large\"\n    return \"medium\"\n",
}

// paddedMiddle is examples/middle's middle() in a file padded with
// never-called functions to about n lines, as scale_bench.py's lines-N.
func paddedMiddle(tb testing.TB, n int) []byte {
	tb.Helper()
	mid, err := os.ReadFile(filepath.Join("..", "examples", "middle", "middle.py"))
	if err != nil {
		tb.Fatal(err)
	}
	var before, after []string
	total := strings.Count(string(mid), "\n")
	for k := 0; total < n; k++ {
		t := fmt.Sprintf(paddedTemplates[k%len(paddedTemplates)], k, 2+k%8)
		if k%2 == 0 {
			before = append(before, t)
		} else {
			after = append(after, t)
		}
		total += strings.Count(t, "\n") + 2
	}
	return []byte(strings.Join(append(append(before, string(mid)), after...), "\n\n"))
}

// BenchmarkSetupLarge measures the Go side of a repair's set-up on
// middle() padded to 13 and 5,000 lines (its 200 cases, the original's
// coverage from the cpython engine): parsing, ranking, the operators'
// context with its ingredient scope, the sweep and the stream of
// first-order edits, and test selection's reach. Each should follow the
// code the suite runs, not the file's size.
func BenchmarkSetupLarge(b *testing.B) {
	ctx := context.Background()
	suite, err := fitness.Load(filepath.Join("..", "examples", "middle", "tests.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, lines := range []int{13, 5000} {
		src := paddedMiddle(b, lines)
		dir := b.TempDir()
		target := filepath.Join(dir, "middle.py")
		if err := os.WriteFile(target, src, 0o644); err != nil {
			b.Fatal(err)
		}
		p, err := program.Parse(target, src)
		if err != nil {
			b.Fatal(err)
		}
		eng, err := OpenEngine(ctx, "cpython", sandbox.Options{Suite: suite, Target: target, Workers: 1})
		if errors.Is(err, sandbox.ErrNoPython) {
			b.Skip(err)
		}
		if err != nil {
			b.Fatal(err)
		}
		orig, err := eng.Run(ctx, src, sandbox.RunOptions{Coverage: true})
		eng.Close()
		if err != nil {
			b.Fatal(err)
		}
		opts := Defaults()
		rk := localize.Rank(p, orig, localize.Ochiai)
		res := &Result{Original: orig, Ranking: rk}
		mc := newMutateContext(p, nil, res)
		b.Run(fmt.Sprintf("parse/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				if _, err := program.Parse(target, src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("rank/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				localize.Rank(p, orig, localize.Ochiai)
			}
		})
		b.Run(fmt.Sprintf("context/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				newMutateContext(p, nil, res)
			}
		})
		b.Run(fmt.Sprintf("streams/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				mutate.NewStreams(mc, opts.Operators, rand.New(rand.NewPCG(1, 2)), neighbourhoodLimit, sweepLimit)
			}
		})
		b.Run(fmt.Sprintf("selector/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				newSelector(p, orig, &opts)
			}
		})
	}
}
