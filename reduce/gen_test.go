package reduce

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"repair/internal/pygen"
	"repair/mutate"
	"repair/program"
)

// checkMinimal runs Minimize on in with test and checks what docs/design.md §7
// promises: the result passes, is a subset of in in its order, and is
// 1-minimal; no subset is tested twice.
func checkMinimal(t *testing.T, in program.Patch, test Test) program.Patch {
	t.Helper()
	tested := map[string]bool{}
	var dup []string
	counting := func(ctx context.Context, sub program.Patch) (bool, error) {
		k := sub.Key()
		if tested[k] {
			dup = append(dup, k)
		}
		tested[k] = true
		return test(ctx, sub)
	}
	got, err := Minimize(context.Background(), in, counting)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := test(context.Background(), got); !ok {
		t.Fatalf("result %v does not pass", got)
	}
	j := 0
	for _, e := range got {
		for j < len(in) && in[j] != e {
			j++
		}
		if j == len(in) {
			t.Fatalf("result %v is not a subset of %v in order", got, in)
		}
		j++
	}
	for k := range got {
		sub := append(append(program.Patch{}, got[:k]...), got[k+1:]...)
		if ok, _ := test(context.Background(), sub); ok {
			t.Fatalf("result %v is not 1-minimal: it passes without edit %d", got, k)
		}
	}
	if len(dup) > 0 {
		t.Errorf("%d subsets tested twice (of %d tests), e.g. %q", len(dup), len(tested)+len(dup), dup[0])
	}
	return got
}

// TestGeneratedMinimize reduces Mutator patches of pygen programs against
// "renders to the same program as the whole patch": the result's edits all
// apply (an edit Render drops could go), and it renders the same.
func TestGeneratedMinimize(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	m := mutate.NewMutator(mutate.Default())
	var in, out int
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 4))
			src := pygen.Generate(rng, pygen.Config{Stmts: 30})
			p, err := program.Parse("gen.py", src)
			if err != nil {
				t.Fatalf("a generated program does not parse: %v\n%s", err, src)
			}
			c := mutate.NewContext(p, nil)
			for k := 0; k < 5; k++ {
				var pt program.Patch
				for j := 2 + rng.IntN(8); j > 0; j-- {
					if e, _, ok := m.Mutate(c, rng); ok {
						pt = append(pt, e)
					}
					if rng.IntN(4) == 0 && len(pt) > 0 {
						pt = append(pt, pt[rng.IntN(len(pt))]) // a repeated edit never applies twice
					}
				}
				whole := p.Render(pt)
				same := func(_ context.Context, sub program.Patch) (bool, error) {
					return bytes.Equal(p.Render(sub), whole), nil
				}
				got := checkMinimal(t, pt, same)
				for i, ok := range p.Resolve(got) {
					if !ok {
						t.Errorf("the reduced patch keeps edit %+v, which Render drops", got[i])
					}
				}
				in += len(pt)
				out += len(got)
			}
		})
	}
	t.Logf("%d generated programs: 5 patches each reduced from %d edits to %d", n, in, out)
}

// FuzzMinimize: for any subset predicate (the fuzzer's bytes choose which
// edits it needs, which it forbids, and a pseudo-random verdict on the
// rest), Minimize returns a 1-minimal ordered subset that passes.
func FuzzMinimize(f *testing.F) {
	f.Add(uint8(8), []byte{1, 0, 0, 1}, uint64(0), false)
	f.Add(uint8(13), []byte{0, 2, 1, 0, 0, 1, 1}, uint64(7), true)
	f.Add(uint8(1), []byte{1}, uint64(3), true)
	f.Fuzz(func(t *testing.T, n uint8, marks []byte, seed uint64, chaotic bool) {
		in := edits(int(n % 48))
		key := func(sub program.Patch) uint64 {
			h := fnv.New64a()
			h.Write([]byte(sub.Key()))
			return h.Sum64() ^ seed
		}
		whole := in.Key()
		test := func(_ context.Context, sub program.Patch) (bool, error) {
			if sub.Key() == whole {
				return true, nil // Minimize's precondition
			}
			have := map[int]bool{}
			for _, e := range sub {
				have[e.Stmt] = true
			}
			for i, m := range marks {
				if i >= len(in) {
					break
				}
				if m%3 == 1 && !have[i] || m%3 == 2 && have[i] {
					return false, nil // needed missing, forbidden present
				}
			}
			if chaotic {
				return key(sub)%3 != 0, nil
			}
			return true, nil
		}
		checkMinimal(t, in, test)
	})
}
