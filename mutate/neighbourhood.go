package mutate

import (
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
	st := NewStream(c, ops, rng, limit)
	out := make([]program.Edit, 0, st.Len())
	for e, ok := st.Next(); ok; e, ok = st.Next() {
		out = append(out, e)
	}
	return out
}

// Stream is [Neighbourhood] taken one edit at a time: the edits are drawn
// at once, ordered lazily (a search takes a few of them per generation).
type Stream struct {
	h    []keyed // a min-heap of keys
	more bool    // the limit left edits out
}

// NewStream is the stream of [Neighbourhood]'s edits, in its order.
func NewStream(c *Context, ops []Weighted, rng *rand.Rand, limit int) *Stream {
	st, _ := NewStreams(c, ops, rng, limit, 0)
	return st
}

// NewStreams returns, from one pass over the edits, [NewStream]'s stream
// and the sweep: the first sweepLimit first-order edits at the most
// suspicious statements, in a fixed order, by a score that is the product
// of the suspiciousness of the edit's statement relative to the most
// suspicious one's, to the power sweepSharpness (a draw counts it
// linearly), the square root of its operator's weight (a draw counts it
// linearly: the sweep tries a rarer operator's few edits at a statement
// before a common operator's many edits at the next ones) and the edit's
// share of its operator's edits at its target. The sweep is the
// systematic first phase of template-based repair tools (Liu et al.,
// "TBar: revisiting template-based automated program repair", ISSTA
// 2019; Ghanbari et al., "Practical program repair via bytecode
// mutation", ISSTA 2019): every edit the operators make at the
// top-ranked statements, each tried once, most suspicious first. Where a
// random draw of one given edit among thousands is a matter of luck (a
// wrap of one name at the top statement is one draw in ten thousand),
// the sweep reaches it after the edits it ranks before it. Ties keep the
// operators' order.
func NewStreams(c *Context, ops []Weighted, rng *rand.Rand, limit, sweepLimit int) (stream, sweep *Stream) {
	stream, sweep = &Stream{}, &Stream{}
	if limit <= 0 && sweepLimit <= 0 {
		return stream, sweep
	}
	top := 0.0
	for _, w := range c.Weights {
		top = max(top, w)
	}
	var all, best []keyed
	n := 0
	donorLine := c.Prog.DonorLine()
	kAll := math.Inf(1)
	// Once the sweep's edits have been trimmed to its limit, an edit whose
	// key is at or above the largest kept (kBest) cannot be among the
	// first: it is left out before its operator's and import's share are
	// looked at.
	kBest := math.Inf(1)
	lastW, lastOpW, lastShare := -1.0, -1.0, -1.0
	var base, baseImport float64
	// below is the test key < kAll without the logarithm: 1-U above
	// exp(-kAll·p), for the last p and kAll (edits at one target share
	// them), with a margin far above the rounding of Exp and Log; the
	// key of an edit that passes it is computed and compared exactly.
	lastP, lastK, below := -1.0, -1.0, 0.0
	eachEdit(c, ops, func(e program.Edit, p, w, opW, share float64) {
		if limit > 0 {
			// Every edit draws its key (the order does not depend on the
			// limit); once the draws are trimmed to the limit, one at or
			// above the largest kept (kAll) cannot be among the first.
			q := 1 - rng.Float64()
			if kAll < math.Inf(1) && (p != lastP || kAll != lastK) {
				lastP, lastK, below = p, kAll, math.Exp(-kAll*p)*(1-1e-9)
			}
			if kAll == math.Inf(1) || q > below {
				if key := -math.Log(q) / p; key < kAll {
					if len(all) == cap(all) && len(all) >= 4096 && cap(all) < 2*limit+trimSlack {
						// Many edits: room for all the draws kept at once,
						// not a copy at every doubling.
						all = append(make([]keyed, 0, 2*limit+trimSlack), all...)
					}
					all = append(all, keyed{key, e})
					if len(all) >= 2*limit+trimSlack {
						all = smallest(all, limit)
						kAll = maxKey(all)
						stream.more = true
					}
				}
			}
		}
		// The sweep leaves out copies of donor files' statements: a donor
		// (another submission of the same exercise) holds a whole working
		// version of the top statement's block, whose copy the sweep would
		// try first and the fix would be; the random stream still draws
		// them.
		if sweepLimit > 0 && !(donorLine > 0 && copiesDonor(c.Prog, e, donorLine)) {
			if w != lastW || opW != lastOpW || share != lastShare {
				lastW, lastOpW, lastShare = w, opW, share
				rel := 1.0
				if top > 0 {
					rel = w / top
				}
				// The logarithm of the score, the order of emission
				// breaking ties (added below).
				base = -0.5*math.Log(opW) - math.Log(share) - sweepSharpness*math.Log(rel)
				baseImport = -0.5*math.Log(opW) - math.Log(share) - sweepSharpness*math.Log(rel*importShare)
			}
			key := base + float64(n)*1e-9
			n++
			if key >= kBest {
				return
			}
			if c.atImport(e) {
				if key = baseImport + float64(n-1)*1e-9; key >= kBest {
					return
				}
			}
			best = append(best, keyed{key, e})
			if len(best) >= 2*sweepLimit+trimSlack {
				best = smallest(best, sweepLimit)
				kBest = maxKey(best)
			}
		}
	})
	stream.init(all, limit)
	sweep.init(best, sweepLimit)
	return stream, sweep
}

// maxKey returns the largest key of xs.
func maxKey(xs []keyed) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x.key)
	}
	return m
}

// copiesDonor reports whether e copies a statement of the donor files,
// which start at line donorLine.
func copiesDonor(p *program.Program, e program.Edit, donorLine int) bool {
	switch e.Op {
	case program.InsertBefore, program.InsertAfter, program.Replace, program.Swap:
		return e.Donor >= 0 && e.Donor < len(p.Stmts) && p.Stmts[e.Donor].Line >= donorLine
	}
	return false
}

// importShare scales, in the sweep's order, the suspiciousness of a
// statement that runs when the module is imported (at module or class
// level): every case runs it, so its coverage says little, and a change
// to it runs every case again (no test selection), often for a minute
// on a project's test file.
const importShare = 0.5

// atImport reports whether edit e changes a statement that runs when the
// module is imported: one outside every function.
func (c *Context) atImport(e program.Edit) bool {
	p := c.Prog
	s := e.Stmt
	if e.Op == program.ReplaceText || e.Op == program.SwapText {
		s = p.Sites[e.Site].Stmt
	}
	if s < 0 || s >= len(p.Stmts) {
		return false
	}
	for sc := p.Stmts[s].Scope; sc >= 0; sc = p.Scopes[sc].Parent {
		if p.Scopes[sc].Kind == "function" {
			return false
		}
	}
	return true
}

// sweepSharpness is the power of a statement's relative suspiciousness in
// the sweep's order: with 5, an edit of a statement half as suspicious as
// the top one comes after the top one's edits thirty-two times rarer.
const sweepSharpness = 5

func (st *Stream) init(all []keyed, limit int) {
	if len(all) > limit {
		all = smallest(all, limit)
		st.more = true
	}
	st.h = all
	for i := len(all)/2 - 1; i >= 0; i-- {
		st.down(i)
	}
}

// eachEdit calls f with every first-order edit of the operators, the
// probability p that the Mutator draws it (an operator by its weight, a
// target by its weight, an edit there uniformly or by its ingredient's
// weight), the weight w of its target, its operator's weight and its
// share of the operator's edits at the target for the sweep: where the
// scope sets far edits apart (Context.Scope), the near edits' shares are
// as if the far ones were not there, and the far ones' in proportion, so
// that a file's unexecuted code does not push an operator's near edits
// behind another operator's in the sweep (a name's replacement by x,
// whose alternatives include a thousand never-called functions' names,
// behind a condition's negation, which has none).
func eachEdit(c *Context, ops []Weighted, f func(e program.Edit, p, w, opW, share float64)) {
	total := 0.0
	for _, o := range ops {
		if o.Weight > 0 && !o.Op.Targets(c).empty() {
			total += o.Weight
		}
	}
	var buf editChunks
	for _, o := range ops {
		s := o.Op.Targets(c)
		if o.Weight <= 0 || s.empty() {
			continue
		}
		pOp := o.Weight / total
		st := s.total()
		for i, t := range s.ids {
			buf.reset()
			o.Op.Edits(c, t, func(e program.Edit) {
				if !c.denied(e) {
					buf.add(e, c.farStmt != nil && c.far(e))
				}
			})
			if buf.n == 0 {
				continue
			}
			nearW, farW := c.weightsOf(buf.n, buf.nFar)
			share := 1 / (float64(buf.n-buf.nFar)*nearW + float64(buf.nFar)*farW)
			p := pOp * s.w[i] / st
			seNear, seFar := share*nearW, share*farW
			pNear, pFar := p*seNear, p*seFar
			swNear, swFar := seNear, seFar
			if nearW != farW {
				near := float64(buf.n-buf.nFar) * seNear // the near edits' share in all
				swNear, swFar = seNear/near, seFar/near
			}
			for k := 0; k < buf.n; k++ {
				e := &buf.edits[k>>chunkShift][k&chunkMask]
				if buf.far[k>>chunkShift][k&chunkMask] {
					f(*e, pFar, s.w[i], o.Weight, swFar)
				} else {
					f(*e, pNear, s.w[i], o.Weight, swNear)
				}
			}
		}
	}
}

// editChunks are a target's edits, with whether each is far (Context.far),
// in chunks that the next target reuses: unlike a slice, they are not
// copied as they grow (an operator makes up to tens of thousands of
// edits at a target of a large file).
type editChunks struct {
	edits   [][]program.Edit
	far     [][]bool
	n, nFar int
}

const (
	chunkShift = 12
	chunkMask  = 1<<chunkShift - 1
)

func (b *editChunks) reset() { b.n, b.nFar = 0, 0 }

func (b *editChunks) add(e program.Edit, far bool) {
	c := b.n >> chunkShift
	if c == len(b.edits) {
		b.edits = append(b.edits, make([]program.Edit, 1<<chunkShift))
		b.far = append(b.far, make([]bool, 1<<chunkShift))
	}
	b.edits[c][b.n&chunkMask] = e
	b.far[c][b.n&chunkMask] = far
	b.n++
	if far {
		b.nFar++
	}
}

// Len is the number of edits left.
func (st *Stream) Len() int { return len(st.h) }

// More reports whether the limit left edits out: a stream drawn again
// with a larger limit (and the same random source) continues this one's
// order past its end.
func (st *Stream) More() bool { return st.more }

// Next returns the next edit, or false at the end.
func (st *Stream) Next() (program.Edit, bool) {
	if len(st.h) == 0 {
		return program.Edit{}, false
	}
	e := st.h[0].e
	n := len(st.h) - 1
	st.h[0] = st.h[n]
	st.h = st.h[:n]
	st.down(0)
	return e, true
}

func (st *Stream) down(i int) {
	h := st.h
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].key < h[l].key {
			m = r
		}
		if h[m].key >= h[i].key {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// trimSlack is how far past twice its limit a stream's draws grow before
// they are trimmed to the limit.
const trimSlack = 1024

type keyed struct {
	key float64
	e   program.Edit
}

// smallest returns the k entries of xs with the smallest keys (in xs's
// memory, in no order): a quickselect.
func smallest(xs []keyed, k int) []keyed {
	lo, hi := 0, len(xs)
	for hi-lo > 1 {
		// Median of three as the pivot.
		a, b, c := lo, lo+(hi-lo)/2, hi-1
		if xs[b].key < xs[a].key {
			a, b = b, a
		}
		if xs[c].key < xs[b].key {
			b = c
			if xs[b].key < xs[a].key {
				b = a
			}
		}
		pivot := xs[b].key
		i, j := lo, hi-1
		for i <= j {
			for xs[i].key < pivot {
				i++
			}
			for xs[j].key > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j + 1
		case k >= i:
			lo = i
		default:
			return xs[:k]
		}
	}
	return xs[:k]
}
