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

// TestAsyncChildren: an await or an async comprehension of an async
// function never reaches a class body or a plain function through a
// child, on programs written for it: whether a parent puts the text
// there itself (Render drops that edit) or the Mutator's patches are
// crossed over.
func TestAsyncChildren(t *testing.T) {
	tests := []struct {
		name, src string
		text      string // the async text
		class     string // the text of an expression site outside any async function
	}{
		{"async comprehension into a class body", `async def fetch(y, g):
    acc = {x async for x in y}
    total = len(acc)
    class Box:
        size = len(y)
    return acc, total, Box
`, "{x async for x in y}", "len(y)"},
		{"await into a class body", `class Box:
    size = len([1, 2])

    def get(self, items):
        return sorted(items)


async def fetch(g, items):
    v = await g()
    w = sorted(items)
    return v + w
`, "await g()", "len([1, 2])"},
	}
	comp := pygen.Shared(t)
	m := mutate.NewMutator(mutate.Default())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("async.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			site := func(text string) int {
				for i := range p.Sites {
					if p.Sites[i].Kind == program.SiteExpr && p.SiteText(i) == text {
						return i
					}
				}
				t.Fatalf("no site %q", text)
				return -1
			}
			a := program.Patch{{Op: program.ReplaceText, Site: site(tt.class), Text: tt.text}}
			b := program.Patch{{Op: program.ReplaceText, Site: site(tt.text), Text: "None"}}
			rng := rand.New(rand.NewPCG(1, 2))
			for _, f := range []Func{OnePoint, Uniform} {
				c1, c2 := f(a, b, rng)
				checkChild(t, comp, p, a, b, c1)
				checkChild(t, comp, p, a, b, c2)
			}
			c := mutate.NewContext(p, nil)
			for seed := uint64(0); seed < 40; seed++ {
				rng := rand.New(rand.NewPCG(seed, 5))
				ps := parents(c, m, rng, 4)
				for k := 0; k < 4; k++ {
					a, b := ps[rng.IntN(len(ps))], ps[rng.IntN(len(ps))]
					for _, f := range []Func{OnePoint, Uniform} {
						c1, c2 := f(a, b, rng)
						checkChild(t, comp, p, a, b, c1)
						checkChild(t, comp, p, a, b, c2)
					}
				}
			}
		})
	}
}
