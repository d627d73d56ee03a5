package mutate

import (
	"math"
	"math/rand/v2"
	"sort"

	"repair/program"
)

// farGroup is the edits of one operator at one target that copy far
// donors (Context.Scope: never-executed statements, a large file's
// never-called code), all of one probability p, in the random stream.
// NewStreams does not draw a key for each: the smallest of n exponential
// keys of rate p is exponential of rate n·p, and after the smallest the
// rest are, by memorylessness, the next one's key plus an exponential of
// rate (n-1)·p, and so on; which edit holds each key is uniform among
// those left (Rényi's representation of exponential order statistics;
// Efraimidis and Spirakis, "Weighted random sampling with a reservoir",
// IPL 97(5), 2006, for the keys themselves). So the group draws one key
// in NewStreams and the rest of its order as the stream reaches it, with
// a random source of its own, and makes only the edits taken: the order
// is the one drawing every edit's key would give, in distribution, at the
// cost of the edits the search takes.
type farGroup struct {
	key  float64 // the first key
	seed uint64  // of rng
	op   *Operator
	t, n int     // the target, the number of edits
	p    float64 // each edit's probability

	// Made when the stream first reaches the group (expand).
	rng  *rand.Rand
	left int             // edits not taken yet
	swap map[int32]int32 // a sparse Fisher-Yates shuffle of 0..n-1
	from func(d int, emit func(program.Edit))
	ds   []int32 // the far donors with edits, in c.donors' order
	ends []int32 // the end of each's edits in 0..n-1
	d    int     // the donor whose edits made holds (-1: none)
	made []program.Edit
}

// expand finds the group's donors, counting their edits as eachEdit does.
func (g *farGroup) expand(c *Context) {
	g.rng = rand.New(rand.NewPCG(g.seed, 0x9e3779b97f4a7c15))
	g.swap, g.d = map[int32]int32{}, -1
	g.from = g.op.From(c, g.t)
	total := 0
	if g.from != nil {
		count := c.donorCount(g.op, g.t, g.from)
		for _, d := range c.donors {
			if !c.farStmt[d] {
				continue
			}
			if k := count(d); k > 0 {
				total += k
				g.ds = append(g.ds, int32(d))
				g.ends = append(g.ends, int32(total))
			}
		}
	}
	// eachEdit counted the same edits: n is theirs.
	g.n = min(g.n, total)
	g.left = g.n
}

// next returns the group's next edit, uniform among those not taken, or
// false when none is left.
func (g *farGroup) next(c *Context) (program.Edit, bool) {
	if g.rng == nil {
		g.expand(c)
	}
	if g.left == 0 {
		return program.Edit{}, false
	}
	i := int32(g.n - g.left)
	j := i + int32(g.rng.IntN(g.left))
	m := g.at(j)
	g.swap[j] = g.at(i)
	g.left--
	return g.edit(c, m)
}

// at is position i of the shuffle.
func (g *farGroup) at(i int32) int32 {
	if v, ok := g.swap[i]; ok {
		return v
	}
	return i
}

// after returns the key of the group's next edit after one of key key,
// and false when none is left.
func (g *farGroup) after(key float64) (float64, bool) {
	if g.left == 0 {
		return 0, false
	}
	return key - math.Log(1-g.rng.Float64())/(float64(g.left)*g.p), true
}

// edit makes the group's m-th edit (in c.donors' order).
func (g *farGroup) edit(c *Context, m int32) (program.Edit, bool) {
	k := sort.Search(len(g.ends), func(i int) bool { return g.ends[i] > m })
	if k == len(g.ends) {
		return program.Edit{}, false
	}
	if d := int(g.ds[k]); d != g.d {
		g.d, g.made = d, g.made[:0]
		g.from(d, func(e program.Edit) {
			if !c.skipped(e) {
				g.made = append(g.made, e)
			}
		})
	}
	if k > 0 {
		m -= g.ends[k-1]
	}
	if int(m) >= len(g.made) {
		return program.Edit{}, false
	}
	return g.made[m], true
}
