package crossover

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"repair/internal/pygen"
	"repair/mutate"
	"repair/program"
)

// Crossover children of real candidates on random programs from
// internal/pygen (docs/design.md §9): parents are patches the Mutator draws, as
// in the search; every child renders to code that parses again and that
// CPython compiles.

// parents draws k candidates of 1 to 4 mutations each.
func parents(c *mutate.Context, m *mutate.Mutator, rng *rand.Rand, k int) []program.Patch {
	var out []program.Patch
	for ; k > 0; k-- {
		var pt program.Patch
		for j := 1 + rng.IntN(4); j > 0; j-- {
			if e, _, ok := m.Mutate(c, rng); ok {
				pt = append(pt, e)
			}
		}
		out = append(out, pt)
	}
	return out
}

// checkChild renders a child: it must parse and compile.
func checkChild(t testing.TB, comp *pygen.Compiler, p *program.Program, a, b, child program.Patch) bool {
	t.Helper()
	out := p.Render(child)
	fail := func(what string) {
		var sb strings.Builder
		for _, e := range child {
			fmt.Fprintf(&sb, "  %+v: %s\n", e, p.Describe(e))
		}
		t.Errorf("%s\nparents %v and %v, child:\n%soriginal:\n%s\nrendered:\n%s", what, a, b, sb.String(), p.Src, out)
	}
	if _, err := program.Parse("out.py", out); err != nil {
		fail(fmt.Sprintf("child does not parse: %v", err))
		return false
	}
	if comp == nil {
		return true
	}
	msg, err := comp.Compile(out)
	if err != nil {
		t.Fatal(err)
	}
	if msg != "" {
		fail("CPython: " + msg)
		return false
	}
	return true
}

// TestGeneratedChildren crosses over Mutator patches on pygen programs of
// seeds 0..N-1, with both crossovers.
func TestGeneratedChildren(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	comp := pygen.Shared(t)
	m := mutate.NewMutator(mutate.Default())
	var programs, children int
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 3))
			src := pygen.Generate(rng, pygen.Config{Stmts: 30})
			p, err := program.Parse("gen.py", src)
			if err != nil {
				t.Fatalf("a generated program does not parse: %v\n%s", err, src)
			}
			programs++
			c := mutate.NewContext(p, nil)
			ps := parents(c, m, rng, 8)
			for k := 0; k < 10; k++ {
				a, b := ps[rng.IntN(len(ps))], ps[rng.IntN(len(ps))]
				for _, f := range []Func{OnePoint, Uniform} {
					c1, c2 := f(a, b, rng)
					for _, child := range []program.Patch{c1, c2} {
						if checkChild(t, comp, p, a, b, child) {
							children++
						}
					}
				}
			}
		})
	}
	t.Logf("%d generated programs: %d crossover children rendered, parsed and compiled", programs, children)
}

// FuzzCrossover: on a program of the fuzzer's choosing, the children of
// Mutator patches (drawn by seed) always render to code that parses and
// compiles.
func FuzzCrossover(f *testing.F) {
	f.Add([]byte{}, uint64(1))
	f.Add([]byte{200, 150, 99, 250, 7, 180, 33, 255, 255, 90}, uint64(2))
	f.Add(bytes.Repeat([]byte{170, 60, 255, 3}, 30), uint64(3))
	m := mutate.NewMutator(mutate.Default())
	f.Fuzz(func(t *testing.T, prog []byte, seed uint64) {
		src := pygen.Generate(rand.New(pygen.Bytes(prog)), pygen.Config{Stmts: 20})
		p, err := program.Parse("gen.py", src)
		if err != nil {
			t.Fatalf("a generated program does not parse: %v\n%s", err, src)
		}
		rng := rand.New(rand.NewPCG(seed, 0))
		c := mutate.NewContext(p, nil)
		ps := parents(c, m, rng, 2)
		for _, f := range []Func{OnePoint, Uniform} {
			c1, c2 := f(ps[0], ps[1], rng)
			checkChild(t, pygen.Shared(t), p, ps[0], ps[1], c1)
			checkChild(t, pygen.Shared(t), p, ps[0], ps[1], c2)
		}
	})
}
