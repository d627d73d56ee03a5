package repair

import (
	"math"
	"slices"
	"testing"

	"repair/fitness"
	"repair/mutate"
	"repair/program"
)

// TestStreamRefill: a search that takes every edit of its first,
// short, neighbourhood stream goes on with the edits the same order has
// past it (refill), up to the whole neighbourhood, none twice: on
// middle(), and on middle() beside never-called functions, whose copies
// into it are far groups (mutate.farGroup) that a stream expands as it
// reaches them.
func TestStreamRefill(t *testing.T) {
	padded, err := program.Parse("middle.py", paddedMiddle(t, 150))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    *program.Program
		ctx  func(p *program.Program) *mutate.Context
	}{
		{"middle", parseMiddle(t), func(p *program.Program) *mutate.Context { return mutate.NewContext(p, nil) }},
		{"padded middle", padded, func(p *program.Program) *mutate.Context {
			// The suite runs middle() alone, the file's first function.
			weights := make([]float64, len(p.Stmts))
			ran := make([]bool, len(p.Stmts))
			for i, s := range p.Stmts {
				if s.Line <= 13 {
					weights[i], ran[i] = 1, true
				}
			}
			c := mutate.NewContext(p, weights)
			c.Scope(ran)
			return c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			opts := Defaults()
			mc := tc.ctx(p)
			for _, seed := range []uint64{1, 2} {
				opts.Seed = seed
				st := &search{opts: opts, prog: p, mctx: mc, streamLimit: 3}
				want := mutate.Neighbourhood(mc, opts.Operators, st.rngFor(-1, -1), neighbourhoodLimit)
				if len(want) < 600 {
					t.Fatalf("only %d edits: the stream is not refilled often", len(want))
				}
				st.stream = mutate.NewStream(mc, opts.Operators, st.rngFor(-1, -1), st.streamLimit)
				var got []program.Edit
				refills := 0
				for {
					e, ok := st.stream.Next()
					if ok {
						got = append(got, e)
						continue
					}
					if !st.refill() {
						break
					}
					refills++
				}
				if refills < 3 {
					t.Errorf("seed %d: %d refills", seed, refills)
				}
				if len(got) > len(want) {
					// The last stream ends where its limit leaves off; the
					// neighbourhood at the limit.
					got = got[:len(want)]
				}
				if !slices.Equal(got, want) {
					t.Errorf("seed %d: the refilled stream gives %d edits, not the neighbourhood's %d in its order", seed, len(got), len(want))
				}
			}
		})
	}
}

// TestSweepHeadFirst: until every edit at the top-ranked statements (the
// sweep's head) has been tried, every immigrant is the sweep's, a single
// edit at one of those statements, generation 0 all of them; after it,
// the immigrants take turns with the weighted stream again.
func TestSweepHeadFirst(t *testing.T) {
	p := parseMiddle(t)
	weights := make([]float64, len(p.Stmts))
	for i, s := range p.Stmts {
		switch s.Line {
		case 5, 6:
			weights[i] = 1 // elif x < z: return y (the bug)
		case 2, 3:
			weights[i] = 0.7
		default:
			weights[i] = 0.3
		}
	}
	mc := mutate.NewContext(p, weights)
	opts := Defaults()
	opts.Seed = 1
	st := &search{opts: opts, prog: p, mctx: mc, streamLimit: firstStreamLimit,
		seen: map[fitness.Key]bool{}, bred: map[fitness.Key]bool{}, keys: fitness.NewPrefixed(p.Src),
		mut: mutate.NewMutator(opts.Operators)}
	st.stream, st.sweep = mutate.NewStreams(mc, opts.Operators, st.rngFor(-1, -1), st.streamLimit, sweepLimit)
	head := st.sweep.Head()
	if head < 2*opts.Population {
		t.Fatalf("a head of %d edits: the test needs two generations of it", head)
	}
	top := func(e program.Edit) bool {
		s := e.Stmt
		if e.Op == program.ReplaceText || e.Op == program.SwapText {
			s = p.Sites[e.Site].Stmt
		}
		return weights[s] >= 0.7
	}
	pop := make([]individual, opts.Population)
	for i := range pop {
		ind, ok := st.immigrant()
		if !ok || len(ind.patch) != 1 || !top(ind.patch[0]) {
			t.Fatalf("generation 0, candidate %d: %v, not an edit at a top statement", i, ind.patch)
		}
		st.seen[ind.key] = true
		pop[i] = ind
	}
	elite := int(math.Ceil(opts.Elitism * float64(opts.Population)))
	immigrants := int(math.Round(opts.Immigrants * float64(opts.Population)))
	next := st.breed(1, pop)
	for i, ind := range next[elite : elite+immigrants] {
		if len(ind.patch) != 1 || !top(ind.patch[0]) {
			t.Errorf("generation 1, immigrant %d: %v, not an edit of the head", i, ind.patch)
		}
	}
	if len(next) != opts.Population {
		t.Errorf("generation 1 has %d candidates", len(next))
	}
	// Past the head: the sweep and the stream take turns.
	for st.sweep.Head() > 0 {
		st.sweep.Next()
	}
	clear(st.bred)
	fromStream := 0
	for range 10 {
		before := st.stream.Taken()
		if _, ok := st.immigrant(); !ok {
			t.Fatal("no immigrant after the head")
		}
		if st.stream.Taken() > before {
			fromStream++
		}
	}
	if fromStream < 4 {
		t.Errorf("after the head, %d of 10 immigrants from the weighted stream, want half", fromStream)
	}
}
