package mutate

// The search's streams as NewStreams makes them, with every edit made,
// kept in a buffer and visited (no far runs counted instead of made, no
// far group expanded as the stream reaches it): the reference that
// TestStreamsMatchReference compares NewStreams with.

import (
	"math"
	"math/rand/v2"

	"repair/program"
)

// refStreams is NewStreams visiting every edit.
func refStreams(c *Context, ops []Weighted, rng *rand.Rand, limit, sweepLimit int) (stream, sweep *refStream) {
	stream, sweep = &refStream{}, &refStream{}
	if limit <= 0 && sweepLimit <= 0 {
		return stream, sweep
	}
	top := 0.0
	for _, w := range c.Weights {
		top = max(top, w)
	}
	second := 0.0
	for _, w := range c.Weights {
		if w < top {
			second = max(second, w)
		}
	}
	if second == 0 {
		second = top
	}
	head := func(w float64) float64 {
		if w > 0 && w >= second {
			return -headShift
		}
		return 0
	}
	var all, best []refKeyed
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
	var groups []refGroup
	var lastFirst *program.Edit // the first edit of the last group
	refEachEdit(c, ops, func(e program.Edit, p, w, opW, share float64, group []program.Edit) {
		if limit > 0 && group != nil {
			// The first edit of a far group draws the group's key and
			// seed; its edits draw none.
			if &group[0] != lastFirst {
				lastFirst = &group[0]
				q := 1 - rng.Float64()
				seed := rng.Uint64()
				groups = append(groups, refGroup{key: -math.Log(q) / (float64(len(group)) * p), seed: seed, p: p, edits: group})
			}
		} else if limit > 0 {
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
						all = append(make([]refKeyed, 0, 2*limit+trimSlack), all...)
					}
					all = append(all, refKeyed{key, e})
					if len(all) >= 2*limit+trimSlack {
						all = refSmallest(all, limit)
						kAll = refMaxKey(all)
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
				base = -0.5*math.Log(opW) - math.Log(share) - sweepSharpness*math.Log(rel) + head(w)
				baseImport = -0.5*math.Log(opW) - math.Log(share) - sweepSharpness*math.Log(rel*importShare) + head(w)
			}
			key := base + float64(n)*1e-9
			n++
			if key >= kBest {
				return
			}
			if c.importTaxed(e) {
				if key = baseImport + float64(n-1)*1e-9; key >= kBest {
					return
				}
			}
			best = append(best, refKeyed{key, e})
			if len(best) >= 2*sweepLimit+trimSlack {
				best = refSmallest(best, sweepLimit)
				kBest = refMaxKey(best)
			}
		}
	})
	stream.init(all, limit)
	sweep.init(best, sweepLimit)
	if limit > 0 {
		stream.bound = math.Inf(1)
		if stream.more {
			stream.bound = refMaxKey(stream.h)
		}
		for i := range groups {
			if g := &groups[i]; g.key < stream.bound {
				stream.groups = append(stream.groups, g)
			}
		}
	}
	return stream, sweep
}

// refGroup is a far group with its edits made (farGroup).
type refGroup struct {
	key   float64
	seed  uint64
	p     float64
	edits []program.Edit
	rng   *rand.Rand
	perm  []int
	taken int
}

// next takes the group's next edit, uniform among those left, and
// returns it with the key of the one after (false: none).
func (g *refGroup) next() (program.Edit, float64, bool) {
	if g.rng == nil {
		g.rng = rand.New(rand.NewPCG(g.seed, 0x9e3779b97f4a7c15))
		g.perm = make([]int, len(g.edits))
		for i := range g.perm {
			g.perm[i] = i
		}
	}
	i := g.taken
	left := len(g.edits) - i
	j := i + g.rng.IntN(left)
	g.perm[i], g.perm[j] = g.perm[j], g.perm[i]
	e := g.edits[g.perm[i]]
	g.taken++
	left--
	if left == 0 {
		return e, 0, false
	}
	g.key -= math.Log(1-g.rng.Float64()) / (float64(left) * g.p)
	return e, g.key, true
}

// refEachEdit is eachEdit with every edit buffered and visited; an edit of
// a far group (farGroup: a copy of a far donor by an operator split by
// donor) comes with all its group's edits.
func refEachEdit(c *Context, ops []Weighted, f func(e program.Edit, p, w, opW, share float64, group []program.Edit)) {
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
				if !c.skipped(e) {
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
			// The far group: the copies of far donors by an operator split
			// by donor.
			var group []program.Edit
			inGroup := func(e *program.Edit) bool {
				return o.Op.From != nil && c.farStmt != nil && e.Donor >= 0 && e.Donor < len(c.farStmt) && c.farStmt[e.Donor]
			}
			for k := 0; k < buf.n; k++ {
				if e := &buf.edits[k>>chunkShift][k&chunkMask]; inGroup(e) {
					group = append(group, *e)
				}
			}
			for k := 0; k < buf.n; k++ {
				e := &buf.edits[k>>chunkShift][k&chunkMask]
				switch {
				case inGroup(e):
					f(*e, pFar, s.w[i], o.Weight, swFar, group)
				case buf.far[k>>chunkShift][k&chunkMask]:
					f(*e, pFar, s.w[i], o.Weight, swFar, nil)
				default:
					f(*e, pNear, s.w[i], o.Weight, swNear, nil)
				}
			}
		}
	}
}

// refKeyed, refStream, refSmallest and refMaxKey are keyed, Stream,
// smallest and maxKey as they were, with each key's edit beside it.
type refKeyed struct {
	key float64
	e   program.Edit
}

type refStream struct {
	h      []refKeyed
	more   bool
	bound  float64
	groups []*refGroup
}

func (st *refStream) init(all []refKeyed, limit int) {
	if len(all) > limit {
		all = refSmallest(all, limit)
		st.more = true
	}
	st.h = all
	for i := len(all)/2 - 1; i >= 0; i-- {
		st.down(i)
	}
}

func (st *refStream) More() bool { return st.more }

func (st *refStream) Next() (program.Edit, bool) {
	// The group of the smallest key, if one is before the top edit.
	var gmin *refGroup
	for _, g := range st.groups {
		if g.taken < len(g.edits) && g.key < st.bound && (gmin == nil || g.key < gmin.key) {
			gmin = g
		}
	}
	if gmin != nil && (len(st.h) == 0 || gmin.key < st.h[0].key) {
		e, _, more := gmin.next()
		if !more {
			gmin.taken = len(gmin.edits)
		}
		return e, true
	}
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

func (st *refStream) down(i int) {
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

func refMaxKey(xs []refKeyed) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x.key)
	}
	return m
}

func refSmallest(xs []refKeyed, k int) []refKeyed {
	lo, hi := 0, len(xs)
	for hi-lo > 1 {
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
