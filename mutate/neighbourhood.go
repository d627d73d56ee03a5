package mutate

import (
	"container/heap"
	"math"
	"math/rand/v2"

	"repair/program"
)

// Neighbourhood returns up to limit first-order edits of the program (the
// edits the operators propose at every target), in a random order drawn
// without replacement with the probabilities the Mutator draws them with:
// an operator by its weight, a target by suspiciousness, an edit at that
// target uniformly or by its ingredient's weight (Context.Scope). Efraimidis and Spirakis, "Weighted random sampling with
// a reservoir" (Information Processing Letters 97(5), 2006): each edit
// gets the key -ln(U)/p and the edits with the smallest keys come first.
//
// The search uses it so that single-edit fixes that random mutation would
// draw only rarely (an adapted copy of a statement, say) are still reached
// after at most the whole neighbourhood, and none is evaluated twice.
func Neighbourhood(c *Context, ops []Weighted, rng *rand.Rand, limit int) []program.Edit {
	if limit <= 0 {
		return nil
	}
	total := 0.0
	for _, o := range ops {
		if o.Weight > 0 && !o.Op.Targets(c).empty() {
			total += o.Weight
		}
	}
	h := &keyHeap{}
	var buf []program.Edit
	for _, o := range ops {
		s := o.Op.Targets(c)
		if o.Weight <= 0 || s.empty() {
			continue
		}
		pOp := o.Weight / total
		st := s.total()
		for i, t := range s.ids {
			buf = buf[:0]
			o.Op.Edits(c, t, func(e program.Edit) {
				if !c.denied(e) {
					buf = append(buf, e)
				}
			})
			if len(buf) == 0 {
				continue
			}
			p := pOp * s.w[i] / st / float64(len(buf))
			nearW, farW := c.weights(buf)
			if nearW != farW {
				nFar := 0
				for _, e := range buf {
					if c.far(e) {
						nFar++
					}
				}
				p = pOp * s.w[i] / st / (float64(len(buf)-nFar)*nearW + float64(nFar)*farW)
			}
			for _, e := range buf {
				pe := p
				if nearW != farW {
					if c.far(e) {
						pe *= farW
					} else {
						pe *= nearW
					}
				}
				k := -math.Log(1-rng.Float64()) / pe
				if h.Len() < limit {
					heap.Push(h, keyed{k, e})
				} else if k < (*h)[0].key {
					(*h)[0] = keyed{k, e}
					heap.Fix(h, 0)
				}
			}
		}
	}
	out := make([]program.Edit, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(keyed).e
	}
	return out
}

type keyed struct {
	key float64
	e   program.Edit
}

// keyHeap is a max-heap of keys: its root is the largest key kept.
type keyHeap []keyed

func (h keyHeap) Len() int           { return len(h) }
func (h keyHeap) Less(i, j int) bool { return h[i].key > h[j].key }
func (h keyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)        { *h = append(*h, x.(keyed)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
