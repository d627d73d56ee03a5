// The operators' view of one program: its targets by kind with their
// weights, the donor pools of the file, and the predicates and helpers the
// operators share.

package mutate

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"repair/program"
)

// Context is what operators share about one program: its statements and
// sites by kind with their sampling weights, and the donor pools of the
// file (plastic surgery: ingredients come from the same file). What one
// operator alone needs — its own targets, a cache — it declares as a fact
// next to it (fact.go), which the context holds. Built once per run;
// afterwards only the facts fill, under their own locks, so it may be
// shared by goroutines (each with its own *rand.Rand).
type Context struct {
	Prog *program.Program
	// Weights are the suspiciousness of each statement (localize.Ranking).
	Weights []float64

	stmts  Sampler     // movable statements, by weight
	sites  [11]Sampler // sites by kind, weighted by their statement
	donors []int       // statements usable as insert/replace donors
	// The file's texts that replacements paste: distinct conditions and
	// expressions, literals by class (literalClass).
	conds, exprs []donorExpr
	// dynamicNames: the file binds names no parse sees (donorScope).
	dynamicNames bool
	// classes: the names of the file's classes (classNames), on first use.
	classOnce sync.Once
	classes   map[string]bool
	lits      map[string][]string
	bySpan    map[program.Span]int // condition and expression sites by span
	// inside are, per statement, the one-line sites in its text (its own
	// and its nested statements'), idents the name sites among them.
	inside, idents [][]int
	last           []bool // per statement: the last of its block
	// exits are the statements that always leave their block, dead those
	// that never run (after one of them); see reach.go.
	exits, dead []bool
	boundNames  map[string]bool // names the program binds anywhere

	// siteTexts are the texts of the program's sites, and outer the
	// outermost function around each statement (-1 outside functions):
	// the program's alone, found by Prepare for Scope.
	siteTexts map[string]bool
	outer     []int
	// farStmt are the statements far from the fault (nil when nothing is
	// far), near the rest of the ingredient scope (Scope).
	farStmt []bool
	near    nearCode

	// crash marks the statements where a failing case crashed
	// (SetCrashes), nil when none did; crashNames are the names they
	// read.
	crash      []bool
	crashNames map[string]bool
	// unbound are, per statement where a failing case crashed reading a
	// local name before assignment, those names (SetUnbound); unboundAt
	// those statements, init-unbound's targets.
	unbound   map[int][]string
	unboundAt Sampler
	// data marks the module-level tables weighed as their readers
	// (SetData), nil when none is.
	data []bool

	// ver counts the changes to what the operators target (Weigh,
	// SetCrashes, SetUnbound, SetData): Mutator's draw table is made
	// again after one.
	ver atomic.Uint64

	// facts are what the operators prepare (fact.go), by fact id.
	facts []factSlot
	deny  *denyInfo // the deny check (deny.go); nil: nothing to deny
	// repeats are the texts that would repeat an operand, per site
	// (redundant.go); nil: none.
	repeats [][]string
}

type donorExpr struct {
	text    string
	prec    int
	node    string
	q       bool // holds quotes, backslashes or line breaks
	boolish bool // a comparison, negation or boolean operation
	// async: an await or an async comprehension (program.AsyncText),
	// which only sites of an async function take (fitsAsync).
	async bool
	// site is the donor's first site; reads the names its text reads
	// (not an attribute's, not a keyword argument's), sorted, when known
	// (readsKnown: no name of its own bound in it, by a lambda, a
	// comprehension or :=).
	site       int
	reads      []string
	readsKnown bool
}

// donorScope is the scope whose names a donor at statement stmt may
// read (fitsScope), or -2 when the file may bind names the parse cannot
// see (import *, globals(), exec): then any donor fits.
func (c *Context) donorScope(stmt int) int {
	if c.dynamicNames {
		return -2
	}
	return c.Prog.Stmts[stmt].Scope
}

// fitsScope reports whether every name donor d reads is visible in scope
// sc (donorScope): a donor that reads a name of another function's,
// visible here by no binding, raises NameError wherever it runs, so it
// is never a fix. Dunder names (__name__, __file__) are the module's
// own.
func (c *Context) fitsScope(sc int, d *donorExpr) bool {
	if sc == -2 || !d.readsKnown {
		return true
	}
	for _, n := range d.reads {
		if !c.Prog.IsVisible(sc, n) && !(strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__")) {
			return false
		}
	}
	return true
}

// fillReads sets the names each donor expression and condition reads
// (donorExpr.reads), from the name sites inside its first site's span.
func (c *Context) fillReads() {
	p := c.Prog
	c.dynamicNames = dynamicNamesRE.Match(p.Src)
	fill := func(d *donorExpr) {
		if strings.Contains(d.text, "lambda") || strings.Contains(d.text, " for ") || strings.Contains(d.text, ":=") {
			return
		}
		s := &p.Sites[d.site]
		if s.Kind == program.SiteIdent {
			d.reads, d.readsKnown = []string{d.text}, true
			return
		}
		var names []string
		for _, j := range c.idents[s.Stmt] {
			t := &p.Sites[j]
			if t.Start < s.Start || t.End > s.End {
				continue
			}
			if t.Store {
				return
			}
			names = append(names, p.SiteText(j))
		}
		slices.Sort(names)
		d.reads, d.readsKnown = slices.Compact(names), true
	}
	for k := range c.exprs {
		fill(&c.exprs[k])
	}
	for k := range c.conds {
		fill(&c.conds[k])
	}
}

// dynamicNamesRE finds what binds names no parse sees: a star import,
// globals(), exec.
var dynamicNamesRE = regexp.MustCompile(`\bimport\s+\*|\bglobals\s*\(|\bexec\s*\(|__builtins__`)

// fitsAsync reports whether donor d may stand at site s: text with an
// await or an async comprehension only in an async function's body.
func fitsAsync(s *program.Site, d *donorExpr) bool { return s.Async || !d.async }

// Sampler draws ids with probability proportional to their weights.
type Sampler struct {
	ids []int
	w   []float64
	cum []float64
	// The targets before weighing (Context.Weigh): each id, and the
	// statement whose weight it takes.
	cands, at []int
	// keep, when set, tells whether a candidate is a target at all. It is
	// asked on first use, in weigh and only for candidates of some weight
	// (the others are never drawn), and its answer is kept in known (0 not
	// asked yet, 1 a target, 2 not): in a large file most candidates lie
	// in code the suite never runs, and their tests are the bulk of
	// Prepare's work.
	keep  func(id int) bool
	known []uint8
	// span: a target weighs as the heaviest statement it holds (a
	// function), not as the statement at.
	span bool
}

// add makes id a target, weighted by statement stmt.
func (s *Sampler) add(id, stmt int) {
	s.cands = append(s.cands, id)
	s.at = append(s.at, stmt)
}

// weigh draws the targets with weight w(stmt) of their statements,
// leaving out those of no weight.
func (s *Sampler) weigh(w func(int) float64) {
	s.ids, s.w, s.cum = s.ids[:0], s.w[:0], s.cum[:0]
	if s.keep != nil && s.known == nil {
		s.known = make([]uint8, len(s.cands))
	}
	for k, id := range s.cands {
		x := w(s.at[k])
		if x <= 0 {
			continue // put leaves it out
		}
		if s.keep != nil {
			if s.known[k] == 0 {
				s.known[k] = 2
				if s.keep(id) {
					s.known[k] = 1
				}
			}
			if s.known[k] != 1 {
				continue
			}
		}
		s.put(id, x)
	}
}

func (s *Sampler) put(id int, w float64) {
	if w <= 0 {
		return
	}
	total := w
	if n := len(s.cum); n > 0 {
		total += s.cum[n-1]
	}
	s.ids = append(s.ids, id)
	s.w = append(s.w, w)
	s.cum = append(s.cum, total)
}

func (s *Sampler) empty() bool { return len(s.ids) == 0 }

func (s *Sampler) total() float64 {
	if len(s.cum) == 0 {
		return 0
	}
	return s.cum[len(s.cum)-1]
}

func (s *Sampler) draw(rng *rand.Rand) int {
	x := rng.Float64() * s.total()
	i := sort.Search(len(s.cum), func(i int) bool { return s.cum[i] > x })
	if i >= len(s.ids) {
		i = len(s.ids) - 1
	}
	return s.ids[i]
}

// boolish reports whether a site's expression is a truth value by its
// form; expression surgery keeps such expressions among themselves.
func boolish(s *program.Site) bool {
	switch s.Node {
	case "comparison_operator", "not_operator", "boolean_operator", "true", "false":
		return true
	}
	return s.Role == program.RoleCond
}

// movable reports whether statement operators may target or copy a
// statement: not a docstring, a definition or an import, which no
// statement edit of a bug fix touches.
func movable(s *program.Stmt) bool {
	if s.Docstring {
		return false
	}
	switch s.Kind {
	case "function_definition", "class_definition", "decorated_definition",
		"import_statement", "import_from_statement", "future_import_statement":
		return false
	}
	return true
}

// NewContext prepares the operators' view of p; weights are per statement
// (nil means uniform).
func NewContext(p *program.Program, weights []float64) *Context {
	c := Prepare(p)
	c.Weigh(weights)
	return c
}

// Prepare is NewContext without the targets' weights, which [Context.Weigh]
// sets: all it computes is the program's alone — the shared facts and
// every operator's targets; the operators' other facts come on first use —
// so a repair prepares it while the original runs, before fault
// localization.
func Prepare(p *program.Program) *Context {
	c := &Context{Prog: p, lits: map[string][]string{}, facts: make([]factSlot, nFacts)}
	for i := range p.Stmts {
		s := &p.Stmts[i]
		if !movable(s) {
			continue
		}
		c.stmts.add(i, i)
		if !stringStmt(p.StmtText(i)) {
			c.donors = append(c.donors, i)
		}
	}
	c.outer = make([]int, len(p.Stmts))
	for i := range p.Stmts {
		c.outer[i] = -1
		for a := p.Stmts[i].Parent; a >= 0; a = p.Stmts[a].Parent {
			if k := p.Stmts[a].Kind; k == "function_definition" || k == "decorated_definition" {
				c.outer[i] = a
			}
		}
	}
	c.last = make([]bool, len(p.Stmts))
	// The last statement of each block, by block (-1 none yet).
	nBlocks := 0
	for i := range p.Stmts {
		nBlocks = max(nBlocks, p.Stmts[i].Block+1)
	}
	lastOf := make([]int, nBlocks)
	for b := range lastOf {
		lastOf[b] = -1
	}
	for i := range p.Stmts {
		if j := lastOf[p.Stmts[i].Block]; j < 0 || p.Stmts[i].Start > p.Stmts[j].Start {
			lastOf[p.Stmts[i].Block] = i
		}
	}
	for _, i := range lastOf {
		if i >= 0 {
			c.last[i] = true
		}
	}
	c.findReach()
	c.boundNames = map[string]bool{}
	for i := range p.Scopes {
		for _, n := range p.Scopes[i].Names {
			c.boundNames[n] = true
		}
	}
	c.sizeSites()
	seenCond, seenExpr, seenLit := map[string]bool{}, map[string]bool{}, map[string]bool{}
	c.siteTexts = make(map[string]bool, len(p.Sites)/4)
	for i := range p.Sites {
		s := &p.Sites[i]
		text := p.SiteText(i)
		c.siteTexts[text] = true
		c.sites[s.Kind].add(i, s.Stmt)
		oneLine := !strings.ContainsAny(text, "\r\n")
		if oneLine {
			for st := s.Stmt; st >= 0; st = p.Stmts[st].Parent {
				c.inside[st] = append(c.inside[st], i)
			}
		}
		switch s.Kind {
		case program.SiteCond:
			c.bySpan[program.Span{Start: s.Start, End: s.End}] = i
			if !seenCond[text] && !contextual(text) {
				seenCond[text] = true
				c.conds = append(c.conds, donorExpr{text: text, prec: s.Prec, node: s.Node, q: quoted(text), boolish: true, async: program.AsyncText(text), site: i})
			}
		case program.SiteExpr:
			c.bySpan[program.Span{Start: s.Start, End: s.End}] = i
			if !seenExpr[text] && !contextual(text) {
				seenExpr[text] = true
				c.exprs = append(c.exprs, donorExpr{text: text, prec: s.Prec, node: s.Node, q: quoted(text), boolish: boolish(s), async: program.AsyncText(text), site: i})
			}
		case program.SiteIdent:
			if oneLine {
				// The name sites inside each statement (its own and nested).
				for st := s.Stmt; st >= 0; st = p.Stmts[st].Parent {
					c.idents[st] = append(c.idents[st], i)
				}
			}
			if !seenExpr[text] && !s.Store {
				seenExpr[text] = true
				c.exprs = append(c.exprs, donorExpr{text: text, prec: s.Prec, node: s.Node, q: quoted(text), site: i})
			}
		case program.SiteLiteral:
			class := literalClass(s.Node)
			if !seenLit[text] {
				seenLit[text] = true
				c.lits[class] = append(c.lits[class], text)
			}
		}
	}
	c.initDeny()
	c.repeats = repeats(c)
	c.fillReads()
	// The operators' targets; their other facts come on first use.
	for _, f := range targets {
		f.get(c)
	}
	return c
}

// sizeSites makes room for what Prepare's walk of the sites fills, whose
// sizes a count finds: the samplers of sites by kind, bySpan, and per
// statement the one-line sites and name sites inside it (inside, idents),
// which share one array each instead of growing a slice per statement
// (a site counts in every statement around it).
func (c *Context) sizeSites() {
	p := c.Prog
	var perKind [len(c.sites)]int
	nSpan, nInside, nIdents := 0, 0, 0
	inside, idents := make([]int, len(p.Stmts)), make([]int, len(p.Stmts))
	for i := range p.Sites {
		s := &p.Sites[i]
		perKind[s.Kind]++
		if s.Kind == program.SiteCond || s.Kind == program.SiteExpr {
			nSpan++
		}
		if bytes.ContainsAny(p.Src[s.Start:s.End], "\r\n") {
			continue
		}
		for st := s.Stmt; st >= 0; st = p.Stmts[st].Parent {
			inside[st]++
			nInside++
			if s.Kind == program.SiteIdent {
				idents[st]++
				nIdents++
			}
		}
	}
	for k := range c.sites {
		c.sites[k].cands, c.sites[k].at = make([]int, 0, perKind[k]), make([]int, 0, perKind[k])
	}
	c.bySpan = make(map[program.Span]int, nSpan)
	c.inside, c.idents = make([][]int, len(p.Stmts)), make([][]int, len(p.Stmts))
	in, id := make([]int, nInside), make([]int, nIdents)
	for st := range p.Stmts {
		// Statements without sites keep nil; each slice's capacity is its
		// count, so an append past it copies.
		if n := inside[st]; n > 0 {
			c.inside[st], in = in[:0:n], in[n:]
		}
		if n := idents[st]; n > 0 {
			c.idents[st], id = id[:0:n], id[n:]
		}
	}
}

// Weigh sets the weights of the operators' targets: per statement, nil
// for uniform (every target weighs 1); a target of no weight is never
// drawn.
func (c *Context) Weigh(weights []float64) {
	defer c.ver.Add(1)
	c.Weights = weights
	w := func(stmt int) float64 {
		if weights == nil {
			return 1
		}
		return weights[stmt]
	}
	// A target that spans statements (a function a donor file defines)
	// weighs as its most suspicious statement.
	p := c.Prog
	span := func(i int) float64 {
		best := 0.0
		for j := range p.Stmts {
			if p.Contains(i, j) || j == i {
				best = max(best, w(j))
			}
		}
		return best
	}
	for _, s := range c.samplers() {
		if s.span {
			s.weigh(span)
		} else {
			s.weigh(w)
		}
	}
}

// samplers are the context's samplers of targets: the statements, the
// sites by kind, and the operators' own (newTargets).
func (c *Context) samplers() []*Sampler {
	out := []*Sampler{&c.stmts, &c.unboundAt}
	for k := range c.sites {
		out = append(out, &c.sites[k])
	}
	for _, f := range targets {
		out = append(out, f.get(c))
	}
	return out
}

// stringStmt reports whether a statement is a string alone (a docstring
// or a block of text out of place): never a donor, since pasting a spec
// into a body changes nothing but the patch's size.
func stringStmt(text string) bool {
	t := strings.TrimLeft(strings.TrimSpace(text), "rRbBuUfF")
	return (strings.HasPrefix(t, "'") || strings.HasPrefix(t, "\"")) &&
		(strings.HasSuffix(t, "'") || strings.HasSuffix(t, "\""))
}

func quoted(text string) bool { return strings.ContainsAny(text, "'\"\\\r\n") }

// contextual reports whether an expression compiles only in some places,
// so that it is no donor: an assignment expression (not in a
// comprehension's iterable, nor in a comprehension of a class body) or
// yield (only in a function, not in a comprehension). The test is on the
// text: a string holding one of them only costs a donor. (An await or an
// async comprehension is a donor for the sites of async functions:
// donorExpr.async.)
func contextual(text string) bool {
	if strings.Contains(text, ":=") {
		return true
	}
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
	}
	for _, kw := range []string{"yield"} {
		for i := 0; ; {
			j := strings.Index(text[i:], kw)
			if j < 0 {
				break
			}
			j += i
			if (j == 0 || !word(text[j-1])) && (j+len(kw) == len(text) || !word(text[j+len(kw)])) {
				return true
			}
			i = j + len(kw)
		}
	}
	return false
}

// droppable: a binary, boolean, unary or not operation with its operands.
func droppable(s *program.Site) bool {
	return s.Kind == program.SiteExpr && len(s.Parts) > 0 && (s.Node == "binary_operator" ||
		s.Node == "boolean_operator" || s.Node == "unary_operator" || s.Node == "not_operator")
}

// shiftable: an index, a call argument, an operand of a comparison, or a
// name or number assigned — the places where off-by-one bugs live — that
// may be a number.
func shiftable(s *program.Site) bool {
	switch s.Node {
	case "identifier", "integer", "binary_operator", "call", "subscript", "attribute",
		"parenthesized_expression", "unary_operator":
	default:
		return false
	}
	switch s.Role {
	case program.RoleIndex, program.RoleArg:
		return true
	case program.RoleValue:
		// hi = mid into hi = mid - 1.
		return s.Node == "identifier" || s.Node == "integer"
	case program.RoleOperand:
		return s.MinPrec == program.PrecBitOr // comparison operands
	}
	return false
}

func literalClass(node string) string {
	switch node {
	case "integer", "float":
		return "number"
	case "true", "false", "none":
		return "const"
	}
	return "string"
}

// local reports whether name is bound in the function (or the enclosing
// functions) holding statement stmt.
func (c *Context) local(stmt int, name string) bool {
	p := c.Prog
	for sc := p.Stmts[stmt].Scope; sc > 0; sc = p.Scopes[sc].Parent {
		if p.Scopes[sc].Kind == "function" && contains(p.Scopes[sc].Names, name) {
			return true
		}
	}
	return false
}

func inFamily(fams [][]string, x string) bool {
	for _, f := range fams {
		if slices.Contains(f, x) {
			return true
		}
	}
	return false
}

// boundName reports whether the program binds name anywhere (then it is
// not the builtin).
func (c *Context) boundName(name string) bool { return c.boundNames[name] }

func contains(xs []string, x string) bool {
	i := sort.SearchStrings(xs, x)
	return i < len(xs) && xs[i] == x
}

// fitsString reports whether text may stand at site s (no quotes, escapes
// or line breaks inside an f-string replacement field).
func fitsString(s *program.Site, q bool) bool { return !s.InString || !q }

func replaceText(site int, text string) program.Edit {
	return program.Edit{Op: program.ReplaceText, Site: site, Text: text}
}

// fit parenthesizes text of precedence prec for a place that needs min.
func fit(text string, prec, min int) string {
	if prec < min {
		return "(" + text + ")"
	}
	return text
}

// Target samplers.
func stmtTargets(c *Context) *Sampler { return &c.stmts }
func siteTargets(k program.SiteKind) func(c *Context) *Sampler {
	return func(c *Context) *Sampler { return &c.sites[k] }
}
