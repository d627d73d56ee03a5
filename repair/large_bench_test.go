package repair

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"repair/fitness"
	"repair/internal/testutil/padded"
	"repair/localize"
	"repair/mutate"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/engines"
)

// paddedMiddle is examples/middle's middle() in a file padded with
// never-called functions to about n lines, as scale_bench.py's lines-N.
func paddedMiddle(tb testing.TB, n int) []byte {
	tb.Helper()
	mid, err := os.ReadFile(filepath.Join("..", "examples", "middle", "middle.py"))
	if err != nil {
		tb.Fatal(err)
	}
	return padded.Source(mid, n)
}

// BenchmarkSetupLarge measures the Go side of a repair's set-up on
// middle() padded to 13 and 5,000 lines (its 200 cases, the original's
// coverage from the cpython engine): parsing, ranking, the operators'
// context with its ingredient scope (prepared while the original runs,
// then weighed), the sweep and the stream of
// first-order edits, a random mutation (per candidate) and test
// selection's reach. Each should follow the
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
		eng, err := engines.Open(ctx, "cpython", sandbox.Options{Suite: suite, Target: target, Workers: 1})
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
		opts := firstFix()
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
		// The context's two halves: what Run makes while the original
		// runs, and what it adds once the original's run is ranked.
		b.Run(fmt.Sprintf("prepare/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				mutate.Prepare(p)
			}
		})
		b.Run(fmt.Sprintf("weigh/lines=%d", lines), func(b *testing.B) {
			prepared := mutate.Prepare(p)
			for b.Loop() {
				newMutateContext(p, prepared, res)
			}
		})
		b.Run(fmt.Sprintf("streams/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				mutate.NewStreams(mc, opts.Operators, rand.New(rand.NewPCG(1, 2)), firstStreamLimit, sweepLimit)
			}
		})
		b.Run(fmt.Sprintf("mutation/lines=%d", lines), func(b *testing.B) {
			m := mutate.NewMutator(opts.Operators)
			rng := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				m.Mutate(mc, rng)
			}
		})
		// A generation's rendering and keys (evaluate, before the first
		// candidate starts).
		b.Run(fmt.Sprintf("render/lines=%d", lines), func(b *testing.B) {
			m := mutate.NewMutator(opts.Operators)
			rng := rand.New(rand.NewPCG(1, 2))
			var patches []program.Patch
			for len(patches) < opts.Population {
				if e, _, ok := m.Mutate(mc, rng); ok {
					patches = append(patches, program.Patch{e})
				}
			}
			st := &search{prog: p, keys: fitness.NewPrefixed(p.Src)}
			pop := make([]individual, len(patches))
			for b.Loop() {
				for i := range pop {
					pop[i] = individual{patch: patches[i]}
				}
				st.render(pop)
			}
		})
		b.Run(fmt.Sprintf("selector/lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				newSelector(p, orig, &opts)
			}
		})
	}
}
