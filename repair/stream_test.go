package repair

import (
	"slices"
	"testing"

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
