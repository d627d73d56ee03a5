package mutate

import (
	"cmp"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"repair/program"
)

// Neighbourhood returns up to limit first-order edits of the program (the
// edits the operators propose at every target), in a random order drawn
// without replacement with the probabilities the Mutator draws them with:
// an operator by its weight, a target by suspiciousness, an edit at that
// target uniformly or by its ingredient's weight (Context.Scope). Efraimidis and Spirakis, "Weighted random sampling with
// a reservoir" (Information Processing Letters 97(5), 2006): each edit
// gets the key -ln(U)/p and the edits with the smallest keys come first;
// the copies of far donors by one operator at one target, all of one p,
// draw their keys together as the order reaches them (farGroup).
//
// The search uses it so that single-edit fixes that random mutation would
// draw only rarely (an adapted copy of a statement, say) are still reached
// after at most the whole neighbourhood, and none is evaluated twice.
func Neighbourhood(c *Context, ops []Weighted, rng *rand.Rand, limit int) []program.Edit {
	st := NewStream(c, ops, rng, limit)
	out := make([]program.Edit, 0, st.Len())
	for e, ok := st.Next(); ok && len(out) < limit; e, ok = st.Next() {
		out = append(out, e)
	}
	return out
}

// Stream is [Neighbourhood] taken one edit at a time: the edits are drawn
// at once, ordered lazily (a search takes a few of them per generation),
// a far group's made as the stream reaches them.
type Stream struct {
	h     []keyed        // a min-heap of keys
	edits []program.Edit // their edits (keyed.at >= 0)
	more  bool           // the limit left edits out
	// groups are the far groups (keyed.at = -1-g), whose edits are made
	// as the stream reaches them; with more, none at or past bound (the
	// largest key kept) is: a stream drawn with a larger limit goes on
	// from there.
	groups []farGroup
	bound  float64
	c      *Context
	taken  int // edits returned
	head   int // the sweep's: its first edits, at the top-ranked statements (Head)
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
	top, second := topWeights(c.Weights)
	dr := streamDraw{rng: rng, limit: limit, kAll: math.Inf(1)}
	sw := sweepDraw{limit: sweepLimit, top: top, second: second, kBest: math.Inf(1), lastW: -1, lastOpW: -1, lastShare: -1}
	donorLine := c.Prog.DonorLine()
	// The edits kept are where the keys point (keyed.at): the near edits
	// kept, and the far donors' runs some of whose edits are kept, made
	// once the streams are trimmed to their limits (resolve).
	var near editList
	var runs []runRef
	eachEdit(c, ops, func(e program.Edit, p, w, opW, share float64) {
		at := int32(-1)
		if limit > 0 {
			if key, ok := dr.draw(p); ok {
				at = near.add(e)
				dr.keep(keyed{key: key, at: at})
			}
		}
		// The sweep leaves out copies of donor files' statements: a donor
		// (another submission of the same exercise) holds a whole working
		// version of the top statement's block, whose copy the sweep would
		// try first and the fix would be; the random stream still draws
		// them.
		if sweepLimit > 0 && !(donorLine > 0 && copiesDonor(c.Prog, e, donorLine)) {
			guard := 0 // 1: an if inserted before a crash, 2: one wrapped around it
			if c.crashGuard(e) {
				guard = 1
				if e.Op == program.Guard {
					guard = 2
				}
			}
			if key, ok := sw.key(w, opW, share, guard, func() bool { return c.importTaxed(e) }); ok {
				if at < 0 {
					at = near.add(e)
				}
				sw.keep(keyed{key: key, at: at})
			}
		}
	}, func(r *donorRun) {
		// A far donor's edits: each draws its key, and those that may be
		// among the first are kept as edit k of the run.
		ref := int32(0)
		refer := func() int32 {
			if ref == 0 {
				runs = append(runs, runRef{r.from, r.d})
				ref = -int32(len(runs))
			}
			return ref
		}
		if limit > 0 && r.group != dr.lastGroup {
			// The run's group, all far edits of one operator at one
			// target, draws its first key here (farGroup).
			dr.lastGroup = r.group
			dr.drawGroup(r)
		}
		if sweepLimit > 0 && !(donorLine > 0 && c.Prog.Stmts[r.d].Line >= donorLine) {
			// Whether the target runs at import, looked up only for a key
			// that may be kept.
			atImport := func() bool { return c.stmtImportTaxed(r.t) }
			for k := range r.n {
				key, ok := sw.key(r.w, r.opW, r.share, 0, atImport)
				if !ok {
					// The next edits' keys are larger: none is kept.
					sw.n += r.n - k - 1
					break
				}
				sw.keep(keyed{key: key, at: refer(), k: int32(k)})
			}
		}
	})
	stream.more = dr.more
	stream.init(dr.all, limit)
	sweep.init(sw.best, sweepLimit)
	for _, x := range sweep.h {
		if x.key < -headShift/2 {
			sweep.head++
		}
	}
	resolve(c, &near, runs, stream, sweep)
	stream.addGroups(c, dr.groups)
	return stream, sweep
}

// runRef is a far donor's edits at a target (a donorRun), for the edits
// of it that NewStreams keeps.
type runRef struct {
	from func(d int, emit func(program.Edit))
	d    int
}

// resolve makes the edits of the streams' keys (keyed.at: near's, or
// edit k of a run of runs) theirs: st.edits, in the order of st.h.
func resolve(c *Context, near *editList, runs []runRef, sts ...*Stream) {
	type ref struct {
		e    *program.Edit
		at   int32
		k    int32
		from int // the run's
	}
	var refs []ref
	for _, st := range sts {
		st.edits = make([]program.Edit, len(st.h))
		for i := range st.h {
			x := &st.h[i]
			if x.at >= 0 {
				st.edits[i] = near.at(x.at)
			} else {
				refs = append(refs, ref{&st.edits[i], x.at, x.k, int(-x.at - 1)})
			}
			x.at, x.k = int32(i), 0
		}
	}
	// Each run is made once.
	slices.SortFunc(refs, func(a, b ref) int { return cmp.Compare(a.from, b.from) })
	var made []program.Edit
	for i := 0; i < len(refs); {
		r := &runs[refs[i].from]
		made = made[:0]
		r.from(r.d, func(e program.Edit) {
			if !c.skipped(e) {
				made = append(made, e)
			}
		})
		for from := refs[i].from; i < len(refs) && refs[i].from == from; i++ {
			*refs[i].e = made[refs[i].k]
		}
	}
}

// streamDraw is the random stream's draw of keys in NewStreams.
type streamDraw struct {
	rng   *rand.Rand
	limit int
	all   []keyed
	// Once the draws are trimmed to the limit, an edit whose key is at or
	// above the largest kept (kAll) cannot be among the first.
	kAll float64
	// below is the test key < kAll without the logarithm: 1-U above
	// exp(-kAll·p), for the last p and kAll (edits at one target share
	// them), with a margin far above the rounding of Exp and Log; the
	// key of an edit that passes it is computed and compared exactly.
	lastP, lastK, below float64
	more                bool // the limit left edits out
	// groups are the far groups drawn (farGroup), lastGroup the last
	// run's (donorRun.group).
	groups    []farGroup
	lastGroup int
}

// drawGroup draws the first key of the far group of run r, the edits of
// r's operator at r's target that copy far donors (each of probability
// r.p): the smallest of their keys. It draws the seed of the group's own
// random source too, which orders its edits when the stream gets there.
func (d *streamDraw) drawGroup(r *donorRun) {
	q := 1 - d.rng.Float64()
	seed := d.rng.Uint64()
	if key := -math.Log(q) / (float64(r.groupN) * r.p); key < d.kAll {
		d.groups = append(d.groups, farGroup{key: key, seed: seed, op: r.op, t: r.t, n: r.groupN, p: r.p})
	}
}

// draw draws the key of the next edit, of probability p (every edit
// draws one: the order does not depend on the limit), and reports
// whether it may be among the first (keep it then).
func (d *streamDraw) draw(p float64) (float64, bool) {
	q := 1 - d.rng.Float64()
	inf := d.kAll == math.Inf(1)
	if !inf && (p != d.lastP || d.kAll != d.lastK) {
		d.lastP, d.lastK, d.below = p, d.kAll, math.Exp(-d.kAll*p)*(1-1e-9)
	}
	if inf || q > d.below {
		if key := -math.Log(q) / p; key < d.kAll {
			return key, true
		}
	}
	return 0, false
}

// keep keeps an edit with its key, trimming the draws to the limit when
// they are many.
func (d *streamDraw) keep(x keyed) {
	if len(d.all) == cap(d.all) && len(d.all) >= 4096 && cap(d.all) < 2*d.limit+trimSlack {
		// Many edits: room for all the draws kept at once, not a copy at
		// every doubling.
		d.all = append(make([]keyed, 0, 2*d.limit+trimSlack), d.all...)
	}
	d.all = append(d.all, x)
	if len(d.all) >= 2*d.limit+trimSlack {
		d.all = smallest(d.all, d.limit)
		d.kAll = maxKey(d.all)
		d.more = true
	}
}

// sweepDraw is the sweep's order in NewStreams.
type sweepDraw struct {
	limit       int
	top, second float64 // the largest weight of a statement, and the next (topWeights)
	best        []keyed
	n           int // the edits keyed so far
	// Once the sweep's edits have been trimmed to its limit, an edit
	// whose key is at or above the largest kept (kBest) cannot be among
	// the first: it is left out before its operator's and import's share
	// are looked at.
	kBest                     float64
	lastW, lastOpW, lastShare float64
	base, baseImport          float64
	guards                    [2]int // crash guards keyed first so far, inserted and wrapped
}

// key is the sweep's key of the next edit, at a target of weight w, of
// an operator of weight opW, with the given share of its edits there; it
// reports whether the edit may be among the first (keep it then).
// guard tells whether the edit is a guard where a failing case crashed
// (Context.crashGuard: 1 an if inserted before it, 2 one wrapped around
// it), which comes before the head, the first crashGuards of each; atImport
// whether it changes a statement run at import.
func (s *sweepDraw) key(w, opW, share float64, guard int, atImport func() bool) (float64, bool) {
	if w != s.lastW || opW != s.lastOpW || share != s.lastShare {
		s.lastW, s.lastOpW, s.lastShare = w, opW, share
		rel := 1.0
		if s.top > 0 {
			rel = w / s.top
		}
		// The logarithm of the score, the order of emission breaking ties
		// (added below).
		s.base = -0.5*math.Log(opW) - math.Log(share) - sweepSharpness*math.Log(rel) + headKey(w, s.second)
		s.baseImport = -0.5*math.Log(opW) - math.Log(share) - sweepSharpness*math.Log(rel*importShare) + headKey(w, s.second)
	}
	key := s.base + float64(s.n)*1e-9
	s.n++
	first := guard > 0 && s.guards[guard-1] < crashGuards
	if first {
		s.guards[guard-1]++
		key -= 2 * headShift
	}
	if key >= s.kBest {
		return 0, false
	}
	if !first && atImport() {
		if key = s.baseImport + float64(s.n-1)*1e-9; key >= s.kBest {
			return 0, false
		}
	}
	return key, true
}

// keep keeps an edit with its key, trimming the kept to the limit when
// they are many.
func (s *sweepDraw) keep(x keyed) {
	s.best = append(s.best, x)
	if len(s.best) >= 2*s.limit+trimSlack {
		s.best = smallest(s.best, s.limit)
		s.kBest = maxKey(s.best)
	}
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
// on a project's test file. A table the failing case's code reads
// (SetData) is exempt: its weight comes from that reader, which is
// evidence its coverage could not give.
const importShare = 0.5

// SetCrashes makes stmts the statements where a failing case crashed
// (localize.Ranking.Crashes): the sweep tries the guards proposed there
// before anything else (crashGuard).
func (c *Context) SetCrashes(stmts []int) {
	defer c.ver.Add(1)
	c.crash, c.crashNames = nil, nil
	p := c.Prog
	for _, s := range stmts {
		if s >= 0 && s < len(p.Stmts) {
			if c.crash == nil {
				c.crash, c.crashNames = make([]bool, len(p.Stmts)), map[string]bool{}
			}
			c.crash[s] = true
			for _, id := range c.idents[s] {
				if !p.Sites[id].Store {
					c.crashNames[p.SiteText(id)] = true
				}
			}
		}
	}
}

// SetUnbound records the local names failing cases read before
// assignment (localize.Ranking.Unbound), where statement
// stmts[i] read names[i]: init-unbound initialises them,
// and the sweep tries that first (crashGuard), as it tries a guard where
// a case crashed.
func (c *Context) SetUnbound(stmts []int, names []string) {
	defer c.ver.Add(1)
	c.unbound, c.unboundAt = nil, Sampler{}
	for i, s := range stmts {
		if s < 0 || s >= len(c.Prog.Stmts) || i >= len(names) {
			continue
		}
		if c.unbound == nil {
			c.unbound = map[int][]string{}
		}
		if len(c.unbound[s]) == 0 {
			c.unboundAt.add(s, s)
		}
		c.unbound[s] = append(c.unbound[s], names[i])
	}
	w := func(s int) float64 {
		if c.Weights == nil {
			return 1
		}
		return c.Weights[s]
	}
	c.unboundAt.weigh(w)
}

// crashGuards bounds the guards of each kind (inserted, wrapped) the
// sweep tries first (crashGuard), in the order it keys them: a call with
// many arguments had a thousand guards proposed before it, which pushed
// the head's own edits out of the sweep.
const crashGuards = 30

// identifier matches the names of a condition's text.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// crashGuard reports whether edit e puts a guard before a statement where
// a failing case crashed: an if that exits or raises (early-exit,
// raise-guard) inserted before it, or an if wrapped around it (guard),
// whose condition reads a name the statement reads (if not items: return
// before items[0]).
// A crash (an index out of range, None where an object was expected) is
// what a missing check shows, and template-based repair tries the check
// first where the crash is (Kim et al., "Automatic patch generation
// learned from human-written patches", ICSE 2013: the null pointer and
// range checkers); among the top statements' hundreds of edits the
// sweep's order put these last. init-unbound's initialisation of a name
// a failing case read before assignment counts as one.
func (c *Context) crashGuard(e program.Edit) bool {
	if e.Op == program.InsertText && c.unbound != nil && initsUnbound(c, e) {
		return true
	}
	if c.crash == nil || e.Stmt < 0 || e.Stmt >= len(c.crash) || !c.crash[e.Stmt] {
		return false
	}
	var cond string
	switch {
	case e.Op == program.Guard:
		cond = e.Text
	case e.Op == program.InsertText && strings.HasPrefix(e.Text, "if "):
		cond, _, _ = strings.Cut(e.Text[3:], ":")
	default:
		return false
	}
	for _, name := range identifier.FindAllString(cond, -1) {
		if c.crashNames[name] {
			return true
		}
	}
	return false
}

// initsUnbound reports whether e is init-unbound's: name = value for a
// name a failing case read before assignment.
func initsUnbound(c *Context, e program.Edit) bool {
	name, v, ok := strings.Cut(e.Text, " = ")
	if !ok || !slices.Contains(initValues, v) {
		return false
	}
	for _, names := range c.unbound {
		if slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// importTaxed reports whether edit e changes a statement that the sweep
// puts later by importShare (stmtImportTaxed).
func (c *Context) importTaxed(e program.Edit) bool {
	s := e.Stmt
	if e.Op == program.ReplaceText || e.Op == program.SwapText {
		s = c.Prog.Sites[e.Site].Stmt
	}
	return c.stmtImportTaxed(s)
}

// stmtImportTaxed reports whether statement s runs when the module is
// imported and its weight is its spectrum's: not a table whose weight
// is its most suspicious reader's (SetData), which the sweep tries as
// that reader.
func (c *Context) stmtImportTaxed(s int) bool {
	p := c.Prog
	if s < 0 || s >= len(p.Stmts) || c.data != nil && c.data[s] {
		return false
	}
	for sc := p.Stmts[s].Scope; sc >= 0; sc = p.Scopes[sc].Parent {
		if p.Scopes[sc].Kind == "function" {
			return false
		}
	}
	return true
}

// SetData makes stmts the module-level assignments whose weight is that
// of the most suspicious statement reading them (localize.Ranking.Data):
// the sweep does not put their edits later as it does other code that
// runs at import (importShare).
func (c *Context) SetData(stmts []int) {
	defer c.ver.Add(1)
	c.data = nil
	for _, s := range stmts {
		if s >= 0 && s < len(c.Prog.Stmts) {
			if c.data == nil {
				c.data = make([]bool, len(c.Prog.Stmts))
			}
			c.data[s] = true
		}
	}
}

// The sweep's head is every edit at the top-ranked statements, those of
// the largest two weights: it comes before every other edit, whatever its
// operator's weight and share, and the search takes it before it spends
// its evaluations elsewhere (Stream.Head). Where the order of score alone
// put an operator's edits at the top statement behind a hundred other
// statements' edits when the operator makes many there (a string's
// characters, a name's alternatives: a share of 1/2,000 weighs as a
// statement a fifth as suspicious), and the sweep got a quarter of the
// evaluations (half the immigrants, half the population), a one-edit fix
// at the first or second line was not tried within a thousand
// evaluations.
const headShift = 1e4

// headKey is the shift of the sweep's key of an edit at a statement of
// weight w: -headShift at the top-ranked statements (weight second or
// more, second the second largest weight), else 0.
func headKey(w, second float64) float64 {
	if w > 0 && w >= second {
		return -headShift
	}
	return 0
}

// topWeights returns the largest weight and the second largest distinct
// one (the largest when all are equal).
func topWeights(weights []float64) (top, second float64) {
	for _, w := range weights {
		top = max(top, w)
	}
	for _, w := range weights {
		if w < top {
			second = max(second, w)
		}
	}
	if second == 0 {
		second = top
	}
	return top, second
}

// Head is the number of edits of the sweep's head (the top-ranked
// statements' edits) not taken yet: none for a stream other than a sweep.
func (st *Stream) Head() int { return max(0, st.head-st.taken) }

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
//
// The edits of a far donor of an operator split by donor (Operator.From)
// are counted, not made: far gets them as a donorRun, in their place in
// the order, and makes those it needs (a large file's never-called code
// is most of its donors, and their copies most of its edits). With far
// nil, f gets them one by one.
func eachEdit(c *Context, ops []Weighted, f func(e program.Edit, p, w, opW, share float64), far func(r *donorRun)) {
	total := 0.0
	for _, o := range ops {
		if o.drawn(c) {
			total += o.Weight
		}
	}
	var buf editChunks
	add := func(e program.Edit) {
		if !c.skipped(e) {
			buf.add(e, c.farStmt != nil && c.far(e))
		}
	}
	// The far donors' edits at the target, counted: n of donor d before
	// the at-th edit of buf.
	type farCount struct{ n, d, at int }
	var runs []farCount
	run := donorRun{c: c}
	group := 0 // the far runs of one operator at one target
	for _, o := range ops {
		if !o.drawn(c) {
			continue
		}
		s := o.Op.Targets(c)
		pOp := o.Weight / total
		st := s.total()
		for i, t := range s.ids {
			buf.reset()
			runs = runs[:0]
			nRuns := 0 // the edits of runs
			var from func(d int, emit func(program.Edit))
			if o.Op.From != nil && c.farStmt != nil {
				if from = o.Op.From(c, t); from != nil {
					count := c.donorCount(&o.Op, t, from)
					for _, d := range c.donors {
						if !c.farStmt[d] {
							from(d, add)
							continue
						}
						if counted := count(d); counted > 0 {
							runs = append(runs, farCount{counted, d, buf.n})
							nRuns += counted
						}
					}
				}
			} else {
				o.Op.Edits(c, t, add)
			}
			n, nFar := buf.n+nRuns, buf.nFar+nRuns
			if n == 0 {
				continue
			}
			nearW, farW := c.weightsOf(n, nFar)
			share := 1 / (float64(n-nFar)*nearW + float64(nFar)*farW)
			p := pOp * s.w[i] / st
			seNear, seFar := share*nearW, share*farW
			pNear, pFar := p*seNear, p*seFar
			swNear, swFar := seNear, seFar
			if nearW != farW {
				near := float64(n-nFar) * seNear // the near edits' share in all
				swNear, swFar = seNear/near, seFar/near
			}
			r := 0
			if len(runs) > 0 {
				group++
				run.group, run.groupN, run.op = group, nRuns, &o.Op
			}
			flush := func(at int) {
				for ; r < len(runs) && runs[r].at == at; r++ {
					run.reset(runs[r].n, runs[r].d, t, from, pFar, s.w[i], o.Weight, swFar)
					if far != nil {
						far(&run)
						continue
					}
					for _, e := range run.edits() {
						f(e, pFar, s.w[i], o.Weight, swFar)
					}
				}
			}
			for k := 0; k < buf.n; k++ {
				if r < len(runs) {
					flush(k)
				}
				e := &buf.edits[k>>chunkShift][k&chunkMask]
				if buf.far[k>>chunkShift][k&chunkMask] {
					f(*e, pFar, s.w[i], o.Weight, swFar)
				} else {
					f(*e, pNear, s.w[i], o.Weight, swNear)
				}
			}
			flush(buf.n)
		}
	}
}

// donorCount returns how many edits from (op's Operator.From at target
// t) emits for a donor, the denied ones left out: op's Count when it has
// one and nothing is denied, else a count of from's edits.
func (c *Context) donorCount(op *Operator, t int, from func(d int, emit func(program.Edit))) func(d int) int {
	if op.Count != nil && c.deny == nil {
		return op.Count(c, t)
	}
	n := 0
	count := func(e program.Edit) {
		if !c.skipped(e) {
			n++
		}
	}
	return func(d int) int {
		n = 0
		from(d, count)
		return n
	}
}

// donorRun is the edits of one far donor at a target (Operator.From),
// counted and not made until asked for: all far, so of one probability
// and share.
type donorRun struct {
	n    int // how many
	d, t int // the donor and the target
	// group numbers the far runs of one operator (op) at one target
	// (from 1), groupN their edits.
	group, groupN    int
	op               *Operator
	p, w, opW, share float64 // as eachEdit's f gets them
	from             func(d int, emit func(program.Edit))
	c                *Context
	made             []program.Edit
	ok               bool // made holds the edits
}

// reset makes r the run of the n edits of donor d at target t.
func (r *donorRun) reset(n, d, t int, from func(d int, emit func(program.Edit)), p, w, opW, share float64) {
	r.n, r.d, r.t, r.from = n, d, t, from
	r.p, r.w, r.opW, r.share = p, w, opW, share
	r.made, r.ok = r.made[:0], false
}

// edits returns the run's edits, in order, made on first use (the slice
// is the run's: valid until the next run).
func (r *donorRun) edits() []program.Edit {
	if !r.ok {
		r.ok = true
		r.from(r.d, func(e program.Edit) {
			if !r.c.skipped(e) {
				r.made = append(r.made, e)
			}
		})
	}
	return r.made
}

// editList is the near edits NewStreams keeps, in chunks: unlike a
// slice, they are not copied as they grow (thousands of edits on a large
// file, most of them trimmed away later).
type editList struct {
	chunks [][]program.Edit
	n      int
}

const listShift = 10

// add appends e and returns its index.
func (l *editList) add(e program.Edit) int32 {
	c := l.n >> listShift
	if c == len(l.chunks) {
		l.chunks = append(l.chunks, make([]program.Edit, 1<<listShift))
	}
	l.chunks[c][l.n&(1<<listShift-1)] = e
	l.n++
	return int32(l.n - 1)
}

// at returns the i-th edit added.
func (l *editList) at(i int32) program.Edit { return l.chunks[i>>listShift][i&(1<<listShift-1)] }

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

// Len is the number of edits left, counting a far group's as one.
func (st *Stream) Len() int { return len(st.h) }

// Taken is the number of edits Next returned.
func (st *Stream) Taken() int { return st.taken }

// addGroups adds the far groups gs, drawn while the stream's edits were,
// to its heap: those whose first key may come before the stream ends.
func (st *Stream) addGroups(c *Context, gs []farGroup) {
	st.c, st.bound = c, math.Inf(1)
	if st.more {
		st.bound = maxKey(st.h)
	}
	for _, g := range gs {
		if g.key < st.bound {
			st.groups = append(st.groups, g)
			st.h = append(st.h, keyed{key: g.key, at: int32(-len(st.groups))})
		}
	}
	if len(st.groups) > 0 {
		for i := len(st.h)/2 - 1; i >= 0; i-- {
			st.down(i)
		}
	}
}

// More reports whether the limit left edits out: a stream drawn again
// with a larger limit (and the same random source) continues this one's
// order past its end, the first Taken edits of which are this one's. (A
// stream returns its limit's edits and the far groups' before the last
// of them: at least its limit.)
func (st *Stream) More() bool { return st.more }

// Next returns the next edit, or false at the end.
func (st *Stream) Next() (program.Edit, bool) {
	for len(st.h) > 0 {
		x := &st.h[0]
		if x.at >= 0 {
			e := st.edits[x.at]
			st.pop()
			st.taken++
			return e, true
		}
		// A far group's next edit, then the group's next key.
		g := &st.groups[-x.at-1]
		e, ok := g.next(st.c)
		if key, more := g.after(x.key); more && key < st.bound {
			x.key = key
			st.down(0)
		} else {
			st.pop()
		}
		if ok {
			st.taken++
			return e, true
		}
	}
	return program.Edit{}, false
}

// pop removes the heap's top.
func (st *Stream) pop() {
	n := len(st.h) - 1
	st.h[0] = st.h[n]
	st.h = st.h[:n]
	st.down(0)
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

// keyed is an edit's key and where the edit is: in a Stream, edits[at];
// while NewStreams draws, the at-th near edit kept or, when at < 0, edit
// k of far run -at-1 (resolve).
type keyed struct {
	key   float64
	at, k int32
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
