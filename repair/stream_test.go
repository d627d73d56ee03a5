package repair

import (
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
			opts := firstFix()
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
// sweep's head) has been tried, two immigrants in three are the sweep's,
// each a single edit at one of those statements, the third the weighted
// stream's; after it, the two take turns.
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
	if head := st.sweep.Head(); head < 2*opts.Population {
		t.Fatalf("a head of %d edits: the test needs two generations of it", head)
	}
	top := func(e program.Edit) bool {
		s := e.Stmt
		if e.Op == program.ReplaceText || e.Op == program.SwapText {
			s = p.Sites[e.Site].Stmt
		}
		return weights[s] >= 0.7
	}
	// counts takes n immigrants and counts those of the sweep.
	counts := func(n int, inHead bool) (sweep, stream int) {
		for i := 0; i < n; i++ {
			before := st.sweep.Taken()
			ind, ok := st.immigrant()
			if !ok {
				t.Fatal("no immigrant")
			}
			st.seen[ind.key] = true
			if st.sweep.Taken() == before {
				stream++
				continue
			}
			sweep++
			if inHead && (len(ind.patch) != 1 || !top(ind.patch[0])) {
				t.Errorf("immigrant %d of the head: %v, not an edit at a top statement", i, ind.patch)
			}
		}
		return sweep, stream
	}
	if sw, str := counts(30, true); sw != 20 || str != 10 {
		t.Errorf("in the head: %d immigrants of the sweep, %d of the stream; want 20 and 10", sw, str)
	}
	for st.sweep.Head() > 0 {
		st.sweep.Next()
	}
	if sw, str := counts(30, false); sw != 15 || str != 15 {
		t.Errorf("after the head: %d immigrants of the sweep, %d of the stream; want 15 each", sw, str)
	}
}
