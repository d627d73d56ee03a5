package mutate

// The search's streams as NewStreams made them when every edit of a far
// donor was kept in a buffer and visited (before lazy far runs): the
// reference that TestStreamsMatchReference compares NewStreams with.

import (
	"math"
	"math/rand/v2"

	"repair/program"
)

// refStreams is NewStreams visiting every edit.
func refStreams(c *Context, ops []Weighted, rng *rand.Rand, limit, sweepLimit int) (stream, sweep *Stream) {
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
	refEachEdit(c, ops, func(e program.Edit, p, w, opW, share float64) {
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
					all = append(all, keyed{key: key, e: e})
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
			best = append(best, keyed{key: key, e: e})
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

// refEachEdit is eachEdit with every edit buffered and visited.
func refEachEdit(c *Context, ops []Weighted, f func(e program.Edit, p, w, opW, share float64)) {
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
