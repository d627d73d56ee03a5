package guard

import (
	"bytes"
	"cmp"
	"encoding/json"
	"hash/maphash"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

	"repair/fitness"
)

// Inputs returns at most max probe cases (fitness.Case.Probe) made from the
// call and I/O cases of s by changing one argument, or one number of the
// standard input, to a neighbouring value; origin[i] is the index in
// s.Cases of the case probe i was made from. Inputs equal to a case of the
// suite are left out (the suite already judges them), and so are
// duplicates. When there are more than max, they are taken evenly from
// every case. Deterministic: the same suite gives the same probes.
//
// The cases of a test file (Kind Test) have no inputs of their own: orig,
// the original's outcome on s when its run recorded the calls the tests
// made into the target (sandbox.RunOptions.Record), gives them theirs
// (fitness.Result.Calls), and origin[i] is then the test whose call
// probe i was made from.
//
// Inputs runs at process start, beside the parse of the program and the
// start of Python, so it is made cheap (BenchmarkProbes): each JSON value
// of the suite is parsed once into a tree that keeps its canonical
// encoding (what encoding/json, decoding with UseNumber and encoding
// without HTML escapes, makes of it), and a neighbour's encoding is that
// text with the moved value's spliced in; what the parser does not take
// (bad JSON, trailing text) goes through encoding/json. The output is
// byte for byte the earlier implementation's (inputs_ref_test.go).
func Inputs(s *fitness.Suite, orig *fitness.Outcome, max int) (probes []fitness.Case, origin []int) {
	if max <= 0 {
		return nil, nil
	}
	base, at := baseCases(s, orig)
	g := &gen{base: base, max: max}
	g.nodes = make([]jnode, 0, 4*len(base))
	g.enc = make([]byte, 0, 16*len(base))
	g.strs = make([]byte, 0, 8*len(base))
	g.seen.init(len(base) + 8*min(len(base), max))
	trees := make([]caseTrees, len(base))
	for k := range base {
		c, t := &base[k], &trees[k]
		t.args, t.kwargs, t.then = g.parse(c.Args), g.parse(c.Kwargs), g.parse(c.Then)
		g.key = g.caseKey(g.key[:0], c, t)
		g.seen.add(g.key)
	}
	var per []perCase
	for k := range base {
		if len(per) >= max {
			// The first round below takes the first probe of max cases:
			// the neighbours of later cases change nothing (they are
			// told apart only from earlier ones).
			break
		}
		lo := len(g.descs)
		g.n, g.before = 0, 0
		g.neighbours(int32(k), &trees[k])
		if g.n > 0 {
			per = append(per, perCase{from: k, lo: int32(lo), hi: int32(len(g.descs))})
			for r := range min(g.n, max) {
				if r == len(g.rounds) {
					g.rounds = append(g.rounds, 0)
				}
				g.rounds[r]++
			}
		}
	}
	// Round robin over the cases: each gets its first neighbours before
	// any gets its later ones.
	pick := make([]desc, 0, min(max, len(g.descs)))
	origin = make([]int, 0, cap(pick))
	for k := int32(0); len(pick) < max; k++ {
		added := false
		for j := range per {
			if p := &per[j]; p.lo+k < p.hi && len(pick) < max {
				pick = append(pick, g.descs[p.lo+k])
				origin = append(origin, p.from)
				added = true
			}
		}
		if !added {
			break
		}
	}
	if len(pick) == 0 {
		return nil, nil
	}
	if at != nil {
		for i, k := range origin {
			origin[i] = at[k]
		}
	}
	return g.cases(s, pick, origin), origin
}

// baseCases are the cases of s whose neighbours are probes, with the
// index of the case of s each stands for: s's own, and for its test cases
// the calls orig recorded of them, as call cases. A nil index slice means
// the cases are s.Cases themselves.
func baseCases(s *fitness.Suite, orig *fitness.Outcome) ([]fitness.Case, []int) {
	tests := false
	for i := range s.Cases {
		tests = tests || s.Cases[i].Kind == fitness.Test
	}
	if !tests {
		return s.Cases, nil
	}
	var base []fitness.Case
	var at []int
	for i, c := range s.Cases {
		if c.Kind != fitness.Test {
			base, at = append(base, c), append(at, i)
			continue
		}
		if orig == nil || i >= len(orig.Results) {
			continue
		}
		for _, rc := range orig.Results[i].Calls {
			base = append(base, fitness.Case{Name: c.Name, Kind: fitness.Call, Function: rc.Function,
				Args: rc.Args, Kwargs: rc.Kwargs, Then: rc.Then, Weight: 1, Timeout: c.Timeout, Tolerance: c.Tolerance})
			at = append(at, i)
		}
	}
	return base, at
}

// caseTrees are the roots of a case's parsed Args, Kwargs and Then (see
// gen.parse).
type caseTrees struct{ args, kwargs, then int32 }

const (
	noJSON  = -1 // the field is nil
	badJSON = -2 // encoding/json does not decode it
)

// perCase is a case's new neighbours that Inputs may take, g.descs[lo:hi],
// and its index in the base cases.
type perCase struct {
	from   int
	lo, hi int32
}

// desc is one neighbour of base case k: what it changes of the case (its
// Args, its Then or its Stdin) is gen.out[lo:hi].
type desc struct {
	k, lo, hi int32
	what      uint8
}

const (
	movedArgs = iota
	movedThen
	movedStdin
)

// gen makes the neighbours of a suite's cases.
type gen struct {
	jsonTrees
	base  []fitness.Case
	seen  keySet // the keys of the base cases and of their neighbours
	tmp   []byte // the encodings of one value's neighbours (perturb)
	spans []span // and where each is in tmp
	out   []byte // the moved part of every new neighbour
	descs []desc
	key   []byte
	max   int
	// rounds[r] is the number of cases before that have more than r new
	// neighbours; the case at hand has n so far, and before is the sum of
	// rounds[:n].
	rounds    []int
	n, before int
	// Scratch of sortedList.
	nums []float64
	idx  []int32
}

type span struct{ lo, hi int32 }

// caseKey tells cases apart by what they run: the same key is the same
// input (canonical JSON: equal values have equal text).
func (g *gen) caseKey(b []byte, c *fitness.Case, t *caseTrees) []byte {
	b = g.keyHead(b, c)
	b = g.canon(b, c.Args, t.args)
	b = append(b, 0)
	b = g.canon(b, c.Kwargs, t.kwargs)
	if c.Then != nil {
		b = append(b, 0)
		b = g.canon(b, c.Then, t.then)
	}
	if c.Stdin != nil {
		b = append(b, 0)
		b = append(b, *c.Stdin...)
	}
	return b
}

func (g *gen) keyHead(b []byte, c *fitness.Case) []byte {
	b = append(b, c.Kind.String()...)
	b = append(b, 0)
	b = append(b, c.Function...)
	return append(b, 0)
}

// canon appends the canonical text of raw, whose tree is root: raw itself
// when it does not decode.
func (g *gen) canon(b []byte, raw json.RawMessage, root int32) []byte {
	switch root {
	case noJSON:
		return b
	case badJSON:
		return append(b, raw...)
	}
	return append(b, g.text(root)...)
}

// neighbours adds the neighbours of base case k (see add), the probes of
// one case: no expectation, the case's function, timeout and memory; its
// arguments one moved at a time (perturb), then its object's life moved
// (stepNeighbours), or its input's numbers one at a time
// (stdinNeighbours).
func (g *gen) neighbours(k int32, t *caseTrees) {
	c := &g.base[k]
	switch c.Kind {
	case fitness.Call:
		if t.args == badJSON || t.args >= 0 && g.nodes[t.args].kind != jArr {
			return
		}
		if t.args >= 0 {
			g.perturbEach(k, t, movedArgs, g.kidsOf(&g.nodes[t.args]), &g.nodes[t.args], g.text(t.args))
		}
		if c.Then != nil && t.then >= 0 && g.nodes[t.then].kind == jArr {
			g.stepNeighbours(k, t)
		}
	case fitness.IO:
		if c.Stdin != nil {
			g.stdinNeighbours(k, t)
		}
	}
}

// perturbEach adds the neighbours of base case k that move one of the
// values vals (perturb) in what, whose text all is node root's.
func (g *gen) perturbEach(k int32, t *caseTrees, what uint8, vals []int32, root *jnode, all []byte) {
	for _, a := range vals {
		g.tmp = g.tmp[:0]
		g.spans = g.perturb(a, 0, -1, g.spans[:0])
		na := &g.nodes[a]
		pre, post := all[:na.s-root.s], all[na.e-root.s:]
		for _, sp := range g.spans {
			g.add(k, t, what, pre, g.tmp[sp.lo:sp.hi], post)
		}
	}
}

// add records the neighbour of base case k whose moved part (what) is
// the text pre+mid+post, unless g.seen holds its key.
func (g *gen) add(k int32, t *caseTrees, what uint8, pre, mid, post []byte) {
	c := &g.base[k]
	// The key is caseKey's of the probe: its Args are the moved ones, or
	// c's (none for an input); its Kwargs and Then c's, or the moved Then;
	// its Stdin the moved one.
	b := g.keyHead(g.key[:0], c)
	switch what {
	case movedArgs:
		b = append(append(append(b, pre...), mid...), post...)
	case movedThen:
		b = g.canon(b, c.Args, t.args)
	}
	b = append(b, 0)
	b = g.canon(b, c.Kwargs, t.kwargs)
	if what == movedThen {
		b = append(append(append(append(b, 0), pre...), mid...), post...)
	} else if c.Then != nil {
		b = append(b, 0)
		b = g.canon(b, c.Then, t.then)
	}
	if what == movedStdin {
		b = append(append(append(append(b, 0), pre...), mid...), post...)
	}
	g.key = b
	if !g.seen.add(b) {
		return
	}
	// The round robin of Inputs comes to this neighbour, the case's r-th
	// new one, after the case's r before it and the earlier cases'
	// neighbours of rounds 0 to r (later cases only add more): when those
	// are max already, neither it nor the case's later neighbours are ever
	// taken. They are counted (and their keys kept), not kept.
	r := g.n
	g.n++
	if r < len(g.rounds) {
		g.before += g.rounds[r]
	}
	if g.before+r >= g.max {
		return
	}
	lo := len(g.out)
	g.out = append(append(append(g.out, pre...), mid...), post...)
	g.descs = append(g.descs, desc{k: k, what: what, lo: int32(lo), hi: int32(len(g.out))})
}

// cases makes the probe cases of the neighbours picked, named after the
// cases of s they were made from (origin).
func (g *gen) cases(s *fitness.Suite, pick []desc, origin []int) []fitness.Case {
	probes := make([]fitness.Case, len(pick))
	n, inputs := 0, 0
	for _, d := range pick {
		n += int(d.hi - d.lo)
		if d.what == movedStdin {
			inputs++
		}
	}
	moved := make([]byte, 0, n) // every probe's moved JSON, each capped
	stdin := make([]string, 0, inputs)
	var names []byte // every probe's name: case~i
	ends := make([]int, len(pick))
	for i := range pick {
		names = append(names, s.Cases[origin[i]].Name...)
		names = strconv.AppendInt(append(names, '~'), int64(i), 10)
		ends[i] = len(names)
	}
	all := string(names)
	for i, d := range pick {
		c, text := &g.base[d.k], g.out[d.lo:d.hi]
		p := &probes[i]
		*p = fitness.Case{Kind: c.Kind, Function: c.Function, Kwargs: c.Kwargs, Then: c.Then, Weight: 1,
			Timeout: c.Timeout, Probe: true}
		switch d.what {
		case movedArgs, movedThen:
			lo := len(moved)
			moved = append(moved, text...)
			if d.what == movedArgs {
				p.Args = moved[lo:len(moved):len(moved)]
			} else {
				p.Args, p.Then = c.Args, moved[lo:len(moved):len(moved)]
			}
		case movedStdin:
			stdin = append(stdin, string(text))
			p.Stdin = &stdin[len(stdin)-1]
		}
		p.Name = all[:ends[i]]
		if i > 0 {
			p.Name = all[ends[i-1]:ends[i]]
		}
	}
	return probes
}

// perturb appends to dst where in g.tmp it wrote the neighbouring values
// of JSON value v (at most limit of them when limit >= 0): numbers ±1, 0,
// negated and doubled; strings and lists reversed, shortened at either
// end, extended by their first element, sorted, and (lists) with one of
// their first elements perturbed; objects with the value of one of their
// first keys perturbed (a graph as a dict of lists loses or gains an
// edge). Keys and null are left alone: their meaning is the program's.
// Values equal to v are left out; duplicates are not.
func (g *gen) perturb(v int32, depth, limit int, dst []span) []span {
	n := &g.nodes[v]
	own := g.text(v)
	if limit == 0 {
		return dst
	}
	got := 0
	// keep ends the value written to g.tmp from start: kept unless it is
	// v's. It reports whether limit is reached.
	keep := func(start int) bool {
		if bytes.Equal(g.tmp[start:], own) {
			g.tmp = g.tmp[:start]
			return false
		}
		dst = append(dst, span{int32(start), int32(len(g.tmp))})
		got++
		return got == limit
	}
	switch n.kind {
	case jFalse:
		start := len(g.tmp)
		g.tmp = append(g.tmp, "true"...)
		keep(start)
	case jTrue:
		start := len(g.tmp)
		g.tmp = append(g.tmp, "false"...)
		keep(start)
	case jNum:
		x := g.str(n)
		if i, ok := smallInt(x); ok {
			for _, m := range [...]int64{i + 1, i - 1, 0, -i, i << 1} {
				start := len(g.tmp)
				g.tmp = strconv.AppendInt(g.tmp, m, 10)
				if keep(start) {
					break
				}
			}
		} else if i, ok := new(big.Int).SetString(string(x), 10); ok {
			one := big.NewInt(1)
			for _, m := range []*big.Int{new(big.Int).Add(i, one), new(big.Int).Sub(i, one), big.NewInt(0),
				new(big.Int).Neg(i), new(big.Int).Lsh(i, 1)} {
				start := len(g.tmp)
				g.tmp = m.Append(g.tmp, 10)
				if keep(start) {
					break
				}
			}
		} else if f, err := strconv.ParseFloat(string(x), 64); err == nil && !math.IsInf(f, 0) {
			for _, h := range [...]float64{f + 0.5, f - 0.5, 0, -f, f * 2} {
				if math.IsInf(h, 0) {
					continue
				}
				start := len(g.tmp)
				g.tmp = strconv.AppendFloat(g.tmp, h, 'g', -1, 64)
				// A float stays a float in JSON: 2 would read back as
				// an int.
				if bytes.IndexAny(g.tmp[start:], ".eEn") < 0 {
					g.tmp = append(g.tmp, ".0"...)
				}
				if keep(start) {
					break
				}
			}
		}
	case jStr:
		g.perturbString(g.str(n), keep)
	case jObj:
		if depth < 1 {
			vals := g.kidsOf(n)
			for _, k := range vals[:min(3, len(vals))] {
				if g.spliced(v, k, depth, keep) {
					break
				}
			}
		}
	case jArr:
		x := g.kidsOf(n)
		if len(x) == 0 {
			break
		}
		first, last := &g.nodes[x[0]], &g.nodes[x[len(x)-1]]
		// Reversed.
		start := len(g.tmp)
		g.tmp = append(g.tmp, '[')
		for i := len(x) - 1; i >= 0; i-- {
			if i < len(x)-1 {
				g.tmp = append(g.tmp, ',')
			}
			g.tmp = append(g.tmp, g.text(x[i])...)
		}
		if g.tmp = append(g.tmp, ']'); keep(start) {
			break
		}
		// Without the first, without the last.
		start = len(g.tmp)
		g.tmp = append(g.tmp, '[')
		if len(x) > 1 {
			g.tmp = append(g.tmp, own[g.nodes[x[1]].s-n.s:last.e-n.s]...)
		}
		if g.tmp = append(g.tmp, ']'); keep(start) {
			break
		}
		start = len(g.tmp)
		g.tmp = append(g.tmp, '[')
		if len(x) > 1 {
			g.tmp = append(g.tmp, own[first.s-n.s:g.nodes[x[len(x)-2]].e-n.s]...)
		}
		if g.tmp = append(g.tmp, ']'); keep(start) {
			break
		}
		// With the first again at the end.
		start = len(g.tmp)
		g.tmp = append(append(append(g.tmp, own[:len(own)-1]...), ','), g.text(x[0])...)
		if g.tmp = append(g.tmp, ']'); keep(start) {
			break
		}
		if order, ok := g.sortedList(x); ok {
			start = len(g.tmp)
			g.tmp = append(g.tmp, '[')
			for i, k := range order {
				if i > 0 {
					g.tmp = append(g.tmp, ',')
				}
				g.tmp = append(g.tmp, g.text(k)...)
			}
			if g.tmp = append(g.tmp, ']'); keep(start) {
				break
			}
		}
		start = len(g.tmp)
		if g.tmp = append(g.tmp, "[]"...); keep(start) {
			break
		}
		if depth < 1 {
			for _, k := range x[:min(3, len(x))] {
				if g.spliced(v, k, depth, keep) {
					break
				}
			}
		}
	}
	return dst
}

// keepFunc is perturb's keep.
type keepFunc = func(start int) bool

// spliced writes the values v, a list or an object, with its element k
// moved to one of k's first two neighbours, and keeps them.
func (g *gen) spliced(v, k int32, depth int, keep keepFunc) (full bool) {
	n, e := &g.nodes[v], &g.nodes[k]
	own := g.text(v)
	pre, post := own[:e.s-n.s], own[e.e-n.s:]
	var buf [2]span
	ps := g.perturb(k, depth+1, 2, buf[:0])
	for _, p := range ps {
		start := len(g.tmp)
		g.tmp = append(append(append(g.tmp, pre...), g.tmp[p.lo:p.hi]...), post...)
		if keep(start) {
			return true
		}
	}
	return false
}

// perturbString writes a string's neighbours (see perturb).
func (g *gen) perturbString(x []byte, keep keepFunc) {
	str := func(s string) int {
		start := len(g.tmp)
		g.tmp = appendString(g.tmp, s)
		return start
	}
	if len(x) == 0 {
		keep(str("a"))
		return
	}
	if plainASCII(x) {
		// Its neighbours are plain too: their text is theirs quoted.
		quoted := func(s []byte) int {
			start := len(g.tmp)
			g.tmp = append(append(append(g.tmp, '"'), s...), '"')
			return start
		}
		if keep(quoted(nil)) || keep(quoted(x[1:])) || keep(quoted(x[:len(x)-1])) {
			return
		}
		start := len(g.tmp)
		g.tmp = append(append(append(append(g.tmp, '"'), x...), x[0]), '"')
		if keep(start) {
			return
		}
		start = len(g.tmp)
		g.tmp = append(g.tmp, '"')
		for i := len(x) - 1; i >= 0; i-- {
			g.tmp = append(g.tmp, x[i])
		}
		if g.tmp = append(g.tmp, '"'); keep(start) {
			return
		}
		start = len(g.tmp)
		g.tmp = append(append(g.tmp, '"'), x...)
		slices.Sort(g.tmp[start+1:])
		g.tmp = append(g.tmp, '"')
		keep(start)
		return
	}
	r := []rune(string(x))
	if keep(str("")) || keep(str(string(r[1:]))) || keep(str(string(r[:len(r)-1]))) ||
		keep(str(string(x)+string(r[:1]))) {
		return
	}
	rev := make([]rune, len(r))
	for i := range r {
		rev[len(r)-1-i] = r[i]
	}
	if keep(str(string(rev))) {
		return
	}
	slices.Sort(rev)
	keep(str(string(rev)))
}

// sortedList is the order of a list of numbers or of strings, sorted
// (stably: numbers by value, strings by their bytes).
func (g *gen) sortedList(x []int32) ([]int32, bool) {
	g.nums = g.nums[:0]
	allNum, allStr := true, true
	for _, k := range x {
		switch e := &g.nodes[k]; e.kind {
		case jNum:
			f, ok := float(g.str(e))
			if !ok {
				return nil, false
			}
			g.nums = append(g.nums, f)
			allStr = false
		case jStr:
			g.nums = append(g.nums, 0)
			allNum = false
		default:
			return nil, false
		}
	}
	g.idx = append(g.idx[:0], make([]int32, len(x))...)
	for i := range g.idx {
		g.idx[i] = int32(i)
	}
	switch {
	case allNum:
		slices.SortStableFunc(g.idx, func(a, b int32) int { return cmp.Compare(g.nums[a], g.nums[b]) })
	case allStr:
		slices.SortStableFunc(g.idx, func(a, b int32) int {
			return bytes.Compare(g.str(&g.nodes[x[a]]), g.str(&g.nodes[x[b]]))
		})
	default:
		return nil, false
	}
	for i, j := range g.idx {
		g.idx[i] = x[j]
	}
	return g.idx, true
}

// stepNeighbours are the neighbours of an object's life (fitness.Case.Then,
// [[name, args, kwargs], ...]): one method call left out, one call made
// alone on a fresh object (a query of an empty stack), or one argument of
// one call moved to a neighbouring value.
func (g *gen) stepNeighbours(k int32, t *caseTrees) {
	root := &g.nodes[t.then]
	all := g.text(t.then)
	steps := g.kidsOf(root)
	for j := range steps {
		b := g.tmp[:0]
		if len(steps) == 1 {
			b = append(b, "null"...) // encoding/json's nil list
		} else {
			b = append(b, '[')
			for i, st := range steps {
				if i != j {
					if len(b) > 1 {
						b = append(b, ',')
					}
					b = append(b, g.text(st)...)
				}
			}
			b = append(b, ']')
		}
		g.tmp = b
		g.add(k, t, movedThen, nil, b, nil)
	}
	for _, st := range steps {
		if len(steps) > 2 {
			g.add(k, t, movedThen, []byte{'['}, g.text(st), []byte{']'})
		}
	}
	for _, st := range steps {
		call := &g.nodes[st]
		if call.kind != jArr || call.kids.hi-call.kids.lo < 2 {
			continue
		}
		args := &g.nodes[g.kidsOf(call)[1]]
		if args.kind != jArr {
			continue
		}
		g.perturbEach(k, t, movedThen, g.kidsOf(args), root, all)
	}
}

// stdinNeighbours changes one integer of an input to a neighbour (±1,
// doubled), for the first 8 integers of the input (integerTokens).
func (g *gen) stdinNeighbours(k int32, t *caseTrees) {
	in := *g.base[k].Stdin
	var locs [8][2]int
	var inb []byte
	for _, l := range integerTokens(in, locs[:0]) {
		if inb == nil {
			inb = []byte(in)
		}
		tok := inb[l[0]:l[1]]
		pre, post := inb[:l[0]], inb[l[1]:]
		if i, ok := smallInt(tok); ok {
			for _, m := range [...]int64{i + 1, i - 1, i << 1} {
				if m != i {
					g.tmp = strconv.AppendInt(g.tmp[:0], m, 10)
					g.add(k, t, movedStdin, pre, g.tmp, post)
				}
			}
			continue
		}
		n, ok := new(big.Int).SetString(string(tok), 10)
		if !ok {
			continue
		}
		for _, m := range []*big.Int{new(big.Int).Add(n, big.NewInt(1)), new(big.Int).Sub(n, big.NewInt(1)), new(big.Int).Lsh(n, 1)} {
			if m.Cmp(n) != 0 {
				g.tmp = m.Append(g.tmp[:0], 10)
				g.add(k, t, movedStdin, pre, g.tmp, post)
			}
		}
	}
}

// integerTokens appends to locs (up to its capacity) where the integers
// of in are, as the regular expression -?\b\d+\b finds them: a run of
// digits between non-word characters (ASCII letters, digits and _ are
// word characters), with the minus sign before it.
func integerTokens(in string, locs [][2]int) [][2]int {
	digit := func(i int) bool { return i < len(in) && in[i] >= '0' && in[i] <= '9' }
	word := func(i int) bool {
		if i < 0 || i >= len(in) {
			return false
		}
		b := in[i]
		return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_'
	}
	for p := 0; p < len(in) && len(locs) < cap(locs); {
		q := p
		if in[p] == '-' && digit(p+1) {
			q = p + 1 // a minus sign then digits: at a word boundary
		} else if !digit(p) || word(p-1) {
			p++
			continue
		}
		e := q
		for digit(e) {
			e++
		}
		if word(e) {
			p++
			continue
		}
		locs = append(locs, [2]int{p, e})
		p = e
	}
	return locs
}

// smallInt reads an integer (-?[0-9]+) whose neighbours (±1, negated,
// doubled) fit in an int64: of at most 18 digits.
func smallInt(s []byte) (int64, bool) {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return 0, false
	}
	var i int64
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = 10*i + int64(c-'0')
	}
	if len(d) < len(s) {
		i = -i
	}
	return i, true
}

// float is a JSON number's value, as strconv.ParseFloat reads it.
func float(s []byte) (float64, bool) {
	if i, ok := smallInt(s); ok && -1<<53 <= i && i <= 1<<53 {
		return float64(i), true // exactly
	}
	f, err := strconv.ParseFloat(string(s), 64)
	return f, err == nil
}

// decode and encode are encoding/json's, as the suite's values are read
// (numbers kept as written) and as their canonical text is written.
func decode(raw []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(v)
}

func encode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// plainASCII: s is ASCII with no control character, quote or backslash,
// its JSON text itself quoted.
func plainASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// plainText: encode writes s quoted, no character of it escaped (as
// encoding/json's appendString, without HTML escapes: no control
// character, quote, backslash, byte that is not UTF-8, U+2028 or U+2029).
func plainText[T string | []byte](s T) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return false
		}
		i += size
	}
	return true
}

// appendString appends the JSON text of s as encode writes it.
func appendString[T string | []byte](b []byte, s T) []byte {
	if plainText(s) {
		return append(append(append(b, '"'), s...), '"')
	}
	return append(b, encode(string(s))...)
}

// keySet is a set of byte strings (the cases' keys), kept in one buffer:
// a map[string] would make a string of every key.
type keySet struct {
	seed  maphash.Seed
	slots []int32 // 1 + the index of a key in keys, or 0: open addressing
	keys  []setKey
	text  []byte // the keys one after the other
}

type setKey struct {
	hash uint32 // of the key's hash
	lo   int32  // the key is text[lo:] up to the next key's lo
}

// init makes room for about n keys.
func (s *keySet) init(n int) {
	s.seed = maphash.MakeSeed()
	s.keys = make([]setKey, 0, n)
	s.text = make([]byte, 0, 24*n)
	s.rehash(4*n/3 + 1)
}

// add adds k to the set, reporting whether it was not there.
func (s *keySet) add(k []byte) bool {
	if 4*(len(s.keys)+1) > 3*len(s.slots) {
		s.rehash(2 * len(s.slots))
	}
	h := maphash.Bytes(s.seed, k)
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		j := s.slots[i]
		if j == 0 {
			s.keys = append(s.keys, setKey{hash: uint32(h), lo: int32(len(s.text))})
			s.text = append(s.text, k...)
			s.slots[i] = int32(len(s.keys))
			return true
		}
		if e := s.keys[j-1]; e.hash == uint32(h) {
			hi := len(s.text)
			if int(j) < len(s.keys) {
				hi = int(s.keys[j].lo)
			}
			if bytes.Equal(s.text[e.lo:hi], k) {
				return false
			}
		}
	}
}

// rehash makes the table at least n slots.
func (s *keySet) rehash(n int) {
	size := 16
	for size < n {
		size *= 2
	}
	s.slots = make([]int32, size)
	mask := uint64(size - 1)
	for j, e := range s.keys {
		i := uint64(e.hash) & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = int32(j + 1)
	}
}
