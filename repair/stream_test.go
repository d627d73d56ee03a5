package repair

import (
	"slices"
	"testing"

	"repair/mutate"
	"repair/program"
)

// TestStreamRefill: a search that takes every edit of its first,
// short, neighbourhood stream goes on with the edits the same order has
// past it (refill), up to the whole neighbourhood, none twice.
func TestStreamRefill(t *testing.T) {
	p := parseMiddle(t)
	opts := Defaults()
	mc := mutate.NewContext(p, nil)
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
		if !slices.Equal(got, want) {
			t.Errorf("seed %d: the refilled stream gives %d edits, not the neighbourhood's %d in its order", seed, len(got), len(want))
		}
	}
}
