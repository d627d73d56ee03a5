package mutate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"repair/program"
)

// Operator is a mutation operator. It changes one kind of target — a
// statement, or a site of some kind — and at a given target it proposes a
// small set of edits (its neighbourhood there).
type Operator struct {
	// Name is flag-safe (lowercase, digits and '-').
	Name string
	// Doc's first line is a lowercase title without a final period; more
	// lines may follow.
	Doc string
	// Targets returns the operator's targets with their weights: the
	// statements or sites it changes, weighted by the suspiciousness of the
	// statement that holds them.
	Targets func(c *Context) *Sampler
	// Edits emits every edit the operator proposes at target t (a
	// statement or a site id, per Targets). Every emitted edit is valid.
	Edits func(c *Context, t int, emit func(program.Edit))
	// NeedsDonors: the operator proposes edits only for a program with
	// donor files (program.ParseWithDonors).
	NeedsDonors bool
	// Applies, for an operator that changes sites, reports whether it
	// changes site id (whatever its weight): Refine uses it on the sites of
	// an inserted copy. Nil for statement operators.
	Applies func(c *Context, id int) bool
}

// Apply draws a target by weight and one of the operator's edits there
// uniformly. It returns false when the operator has nothing to change.
func (o *Operator) Apply(c *Context, rng *rand.Rand) (program.Edit, bool) {
	s := o.Targets(c)
	if s.empty() {
		return program.Edit{}, false
	}
	var buf []program.Edit
	for try := 0; try < tries; try++ {
		t := s.draw(rng)
		buf = buf[:0]
		o.Edits(c, t, func(e program.Edit) { buf = append(buf, e) })
		if len(buf) > 0 {
			return buf[rng.IntN(len(buf))], true
		}
	}
	return program.Edit{}, false
}

// tries bounds the targets an operator draws before giving up.
const tries = 16

// Context is what operators need about one program: its targets grouped by
// kind with their sampling weights, and the donor pools of the file
// (plastic surgery: ingredients come from the same file). Built once per
// run; read-only afterwards, so it may be shared by goroutines (each with
// its own *rand.Rand).
type Context struct {
	Prog *program.Program
	// Weights are the suspiciousness of each statement (localize.Ranking).
	Weights []float64

	stmts Sampler // movable statements, by weight
	funcs Sampler // functions of the target a donor file also defines, by their statements' weight
	// donorFuncs are the donor files' function definitions by name.
	donorFuncs map[string][]int
	donors     []int       // statements usable as insert/replace donors
	sites      [11]Sampler // sites by kind, weighted by their statement
	attrs      []string    // distinct attribute names of the file
	shift      Sampler     // expressions an off-by-one shift applies to
	// siblingSites are builtin names read (not bound in the program) and
	// method names that have a sibling.
	siblingSites Sampler
	drop         Sampler // binary/boolean/unary expressions with parts
	binary       Sampler // binary and boolean operations with two operands
	seqs         Sampler // expressions that may be sequences (sequenceLike)
	assigns      []assignDonor
	scopeLocals  [][]string      // per scope: the names of its enclosing functions
	numNames     map[string]bool // names the file uses as numbers
	seqNames     map[string]bool // names and attributes the file uses as sequences
	// inside are, per statement, the one-line sites in its text (its own
	// and its nested statements').
	inside [][]int
	conds  []donorExpr
	exprs  []donorExpr // distinct expression texts of the file
	lits   map[string][]string
	bySpan map[program.Span]int
	idents [][]int // per statement: one-line name sites inside it
	last   []bool  // per statement: the last of its block
}

type donorExpr struct {
	text    string
	prec    int
	node    string
	q       bool // holds quotes, backslashes or line breaks
	boolish bool // a comparison, negation or boolean operation
}

// Sampler draws ids with probability proportional to their weights.
type Sampler struct {
	ids []int
	w   []float64
	cum []float64
}

func (s *Sampler) add(id int, w float64) {
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
	c := &Context{Prog: p, Weights: weights, lits: map[string][]string{}, bySpan: map[program.Span]int{}}
	w := func(stmt int) float64 {
		if weights == nil {
			return 1
		}
		return weights[stmt]
	}
	for i := range p.Stmts {
		s := &p.Stmts[i]
		if !movable(s) {
			continue
		}
		c.stmts.add(i, w(i))
		if !stringStmt(p.StmtText(i)) {
			c.donors = append(c.donors, i)
		}
	}
	c.findFuncs(w)
	c.last = make([]bool, len(p.Stmts))
	lastOf := map[int]int{}
	for i := range p.Stmts {
		if j, ok := lastOf[p.Stmts[i].Block]; !ok || p.Stmts[i].Start > p.Stmts[j].Start {
			lastOf[p.Stmts[i].Block] = i
		}
	}
	for _, i := range lastOf {
		c.last[i] = true
	}
	c.findLocals()
	c.findAssigns()
	c.findShapes()
	c.idents = make([][]int, len(p.Stmts))
	c.inside = make([][]int, len(p.Stmts))
	seenCond, seenExpr, seenLit, seenAttr := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range p.Sites {
		s := &p.Sites[i]
		text := p.SiteText(i)
		c.sites[s.Kind].add(i, w(s.Stmt))
		if !strings.ContainsAny(text, "\r\n") {
			for st := s.Stmt; st >= 0; st = p.Stmts[st].Parent {
				c.inside[st] = append(c.inside[st], i)
			}
		}
		switch s.Kind {
		case program.SiteCond:
			c.bySpan[program.Span{Start: s.Start, End: s.End}] = i
			if !seenCond[text] && !contextual(text) {
				seenCond[text] = true
				c.conds = append(c.conds, donorExpr{text: text, prec: s.Prec, node: s.Node, q: quoted(text), boolish: true})
			}
			if swappable(s) {
				c.binary.add(i, w(s.Stmt))
			}
		case program.SiteExpr:
			c.bySpan[program.Span{Start: s.Start, End: s.End}] = i
			if shiftable(s) {
				c.shift.add(i, w(s.Stmt))
			}
			if droppable(s) {
				c.drop.add(i, w(s.Stmt))
			}
			if swappable(s) {
				c.binary.add(i, w(s.Stmt))
			}
			if c.sequence(i) {
				c.seqs.add(i, w(s.Stmt))
			}
			if !seenExpr[text] && !contextual(text) {
				seenExpr[text] = true
				c.exprs = append(c.exprs, donorExpr{text: text, prec: s.Prec, node: s.Node, q: quoted(text), boolish: boolish(s)})
			}
		case program.SiteAttr:
			if inFamily(methodSiblings, text) {
				c.siblingSites.add(i, w(s.Stmt))
			}
			if !seenAttr[text] {
				seenAttr[text] = true
				c.attrs = append(c.attrs, text)
			}
		case program.SiteIdent:
			if !s.Store && inFamily(siblings, text) && !c.bound(text) {
				c.siblingSites.add(i, w(s.Stmt))
			}
			if !strings.ContainsAny(text, "\r\n") {
				// The name sites inside each statement (its own and nested).
				for st := s.Stmt; st >= 0; st = p.Stmts[st].Parent {
					c.idents[st] = append(c.idents[st], i)
				}
			}
			if !seenExpr[text] && !s.Store {
				seenExpr[text] = true
				c.exprs = append(c.exprs, donorExpr{text: text, prec: s.Prec, node: s.Node, q: quoted(text)})
			}
		case program.SiteLiteral:
			class := literalClass(s.Node)
			if !seenLit[text] {
				seenLit[text] = true
				c.lits[class] = append(c.lits[class], text)
			}
		}
	}
	return c
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
// comprehension's iterable, nor in a comprehension of a class body), await
// (only in an async function) or yield (only in a function, not in a
// comprehension). The test is on the text: a string holding one of them
// only costs a donor.
func contextual(text string) bool {
	if strings.Contains(text, ":=") {
		return true
	}
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
	}
	for _, kw := range []string{"await", "yield"} {
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

// bound reports whether the program binds name anywhere (then it is not
// the builtin).
func (c *Context) bound(name string) bool {
	for i := range c.Prog.Scopes {
		for _, n := range c.Prog.Scopes[i].Names {
			if n == name {
				return true
			}
		}
	}
	return false
}

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

// statement operators ------------------------------------------------------

var opDelete = Operator{
	Name:    "delete",
	Doc:     "delete a statement\n\nA block left empty gets pass.",
	Targets: stmtTargets,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		if c.Prog.CanRemove(s) {
			emit(program.Edit{Op: program.Delete, Stmt: s})
		}
	},
}

var opInsert = Operator{
	Name:    "insert",
	Doc:     "insert a copy of another statement of the file before or after a statement",
	Targets: stmtTargets,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		for _, d := range c.donors {
			if c.Prog.CanPlace(d, s) {
				c.inserts(s, d, 0, "", emit)
			}
		}
	},
}

var opInsertRenamed = Operator{
	Name:    "insert-renamed",
	Doc:     "insert a copy of another statement with one name changed\n\nThe new name is one visible where the copy goes: result.extend(first[k:])\nbecomes result.extend(second[k:]).",
	Targets: stmtTargets,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		names := p.Visible(s)
		for _, d := range c.donors {
			if !p.CanPlace(d, s) {
				continue
			}
			for _, site := range c.idents[d] {
				if p.Sites[site].Pinned {
					continue // renaming the binding a nested nonlocal needs cannot compile
				}
				cur := p.SiteText(site)
				for _, n := range names {
					if n == cur {
						continue
					}
					c.inserts(s, d, site, n, emit)
				}
			}
		}
	},
}

var opReplace = Operator{
	Name:    "replace",
	Doc:     "replace a statement by a copy of another statement of the file",
	Targets: stmtTargets,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if !p.CanRemove(s) {
			return
		}
		for _, d := range c.donors {
			if d != s && p.CanPlace(d, s) && !p.Contains(s, d) && p.StmtText(d) != p.StmtText(s) {
				emit(program.Edit{Op: program.Replace, Stmt: s, Donor: d})
			}
		}
	},
}

// opReplaceFunction transplants a whole function from a donor file
// (program.ParseWithDonors): the last resort when the fix needs more than
// an edit can make. Only functions of the same name are replaced, and
// only with donors present.
var opReplaceFunction = Operator{
	Name:        "replace-function",
	Doc:         "replace a function by a donor file's function of the same name (only with --donors)",
	NeedsDonors: true,
	Targets:     func(c *Context) *Sampler { return &c.funcs },
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if !p.CanRemove(s) {
			return
		}
		for _, d := range c.donorFuncs[funcName(p.StmtText(s))] {
			if p.CanPlace(d, s) && p.StmtText(d) != p.StmtText(s) {
				emit(program.Edit{Op: program.Replace, Stmt: s, Donor: d})
			}
		}
	},
}

// inserts emits the copies of donor d (adapted at site to text when text
// is not empty) before and after statement s. A copy of a return, raise,
// break or continue goes only after the last statement of a block: anywhere
// else it leaves the statements after it dead (return new; return old),
// which a replace says better.
func (c *Context) inserts(s, d, site int, text string, emit func(program.Edit)) {
	switch c.Prog.Stmts[d].Kind {
	case "return_statement", "raise_statement", "break_statement", "continue_statement":
		if c.last[s] {
			emit(program.Edit{Op: program.InsertAfter, Stmt: s, Donor: d, Site: site, Text: text})
		}
		return
	}
	emit(program.Edit{Op: program.InsertBefore, Stmt: s, Donor: d, Site: site, Text: text})
	emit(program.Edit{Op: program.InsertAfter, Stmt: s, Donor: d, Site: site, Text: text})
}

// findFuncs fills funcs and donorFuncs: the target's function
// definitions that a donor file also defines, weighted by the most
// suspicious statement they hold.
func (c *Context) findFuncs(w func(int) float64) {
	p := c.Prog
	dl := p.DonorLine()
	if dl == 0 {
		return
	}
	c.donorFuncs = map[string][]int{}
	for i := range p.Stmts {
		st := &p.Stmts[i]
		if st.Kind == "function_definition" && st.Line >= dl {
			name := funcName(p.StmtText(i))
			c.donorFuncs[name] = append(c.donorFuncs[name], i)
		}
	}
	for i := range p.Stmts {
		st := &p.Stmts[i]
		if st.Kind != "function_definition" || st.Line >= dl || len(c.donorFuncs[funcName(p.StmtText(i))]) == 0 {
			continue
		}
		best := 0.0
		for j := range p.Stmts {
			if p.Contains(i, j) || j == i {
				best = max(best, w(j))
			}
		}
		c.funcs.add(i, best)
	}
}

// funcName is the name a "def NAME(" statement defines.
func funcName(text string) string {
	text = strings.TrimSpace(text)
	text = strings.TrimPrefix(text, "async ")
	text, ok := strings.CutPrefix(text, "def ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(text, "(")
	return strings.TrimSpace(name)
}

var opSwap = Operator{
	Name:    "swap",
	Doc:     "swap a statement with another statement of the file",
	Targets: stmtTargets,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if !p.CanRemove(s) {
			return
		}
		for _, d := range c.donors {
			if d == s || p.Contains(s, d) || p.Contains(d, s) || !p.CanRemove(d) ||
				!p.CanPlace(d, s) || !p.CanPlace(s, d) || p.StmtText(d) == p.StmtText(s) {
				continue
			}
			emit(program.Edit{Op: program.Swap, Stmt: s, Donor: d})
		}
	},
}

// condition operators (the Debugging Book's ConditionMutator) -------------

var opCondReplace = Operator{
	Name:    "cond-replace",
	Doc:     "replace a condition by another condition of the file, True or False",
	Targets: siteTargets(program.SiteCond),
	Applies: onKind(program.SiteCond),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		for _, t := range []string{"True", "False"} {
			if t != cur {
				emit(replaceText(id, t))
			}
		}
		for _, d := range c.conds {
			if d.text != cur && fitsString(s, d.q) {
				emit(replaceText(id, s.Fit(d.text, d.prec)))
			}
		}
	},
}

var opCondNegate = Operator{
	Name:    "cond-negate",
	Doc:     "negate a condition, or drop its negation",
	Targets: siteTargets(program.SiteCond),
	Applies: onKind(program.SiteCond),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		if s.Node == "not_operator" && len(s.Parts) == 1 {
			prec := program.PrecAtom
			if e, ok := c.bySpan[s.Parts[0]]; ok {
				prec = p.Sites[e].Prec
			}
			emit(replaceText(id, s.Fit(p.Text(s.Parts[0].Start, s.Parts[0].End), prec)))
			return
		}
		emit(replaceText(id, s.Fit("not "+fit(p.SiteText(id), s.Prec, program.PrecNot), program.PrecNot)))
	},
}

var opCondExtend = Operator{
	Name:    "cond-extend",
	Doc:     "extend a condition with `and` or `or` another condition of the file",
	Targets: siteTargets(program.SiteCond),
	Applies: onKind(program.SiteCond),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		for _, d := range c.conds {
			if d.text == cur || !fitsString(s, d.q) {
				continue
			}
			for _, op := range []string{"and", "or"} {
				prec := program.BinaryPrec(op)
				emit(replaceText(id, s.Fit(fit(cur, s.Prec, prec)+" "+op+" "+fit(d.text, d.prec, prec+1), prec)))
				emit(replaceText(id, s.Fit(fit(d.text, d.prec, prec)+" "+op+" "+fit(cur, s.Prec, prec+1), prec)))
			}
		}
	},
}

// operator-token operators ------------------------------------------------

var (
	cmpOrder = []string{"<", "<=", ">", ">=", "==", "!="}
	cmpIn    = []string{"in", "not in"}
	cmpIs    = []string{"is", "is not"}
	arith    = []string{"+", "-", "*", "/", "//", "%", "**"}
	bitwise  = []string{"&", "|", "^", "<<", ">>"}
	augArith = []string{"+=", "-=", "*=", "/=", "//=", "%=", "**="}
	augBits  = []string{"&=", "|=", "^=", "<<=", ">>="}
)

func family(tok string, fams ...[]string) []string {
	for _, f := range fams {
		for _, x := range f {
			if x == tok {
				return f
			}
		}
	}
	return nil
}

// tokenOperator replaces an operator token of kind k by the others of its
// family.
func tokenOperator(name, doc string, k program.SiteKind, fams ...[]string) Operator {
	return Operator{
		Name:    name,
		Doc:     doc,
		Targets: siteTargets(k),
		Applies: onKind(k),
		Edits: func(c *Context, id int, emit func(program.Edit)) {
			cur := strings.Join(strings.Fields(c.Prog.SiteText(id)), " ")
			for _, t := range family(cur, fams...) {
				if t != cur {
					emit(replaceText(id, t))
				}
			}
		},
	}
}

var opCmp = tokenOperator("cmp-op",
	"change a comparison operator\n\n< <= > >= == != into one another, in into not in, is into is not.",
	program.SiteCmpOp, cmpOrder, cmpIn, cmpIs)

var opArith = tokenOperator("arith-op",
	"change an arithmetic or bitwise operator\n\n+ - * / // % ** into one another; & | ^ << >> into one another.",
	program.SiteBinOp, arith, bitwise)

var opBool = tokenOperator("bool-op", "change `and` into `or` and back", program.SiteBoolOp, []string{"and", "or"})

var opAug = tokenOperator("aug-op", "change an augmented assignment operator (+= into -= ...)", program.SiteAugOp, augArith, augBits)

// value and identifier operators (the book's ValueMutator and
// IdentifierMutator) -----------------------------------------------------

var opLiteral = Operator{
	Name:    "literal",
	Doc:     "change a literal\n\nInto another constant of the file of the same kind, a number plus or minus one\nor with two adjacent digits swapped, True/False/None into one another, a string\ninto the empty string.",
	Targets: siteTargets(program.SiteLiteral),
	Applies: onKind(program.SiteLiteral),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		class := literalClass(s.Node)
		pool := append([]string(nil), c.lits[class]...)
		switch class {
		case "number":
			if v, err := strconv.ParseInt(strings.ReplaceAll(cur, "_", ""), 0, 64); err == nil {
				pool = append(pool, strconv.FormatInt(v+1, 10), strconv.FormatInt(v-1, 10))
			} else if f, err := strconv.ParseFloat(cur, 64); err == nil {
				pool = append(pool, strconv.FormatFloat(f+1, 'g', -1, 64), strconv.FormatFloat(f-1, 'g', -1, 64))
			}
			pool = append(pool, "0", "1")
			pool = append(pool, transposed(cur)...)
		case "const":
			pool = []string{"True", "False", "None"}
		case "string":
			pool = append(pool, `""`)
		}
		seen := map[string]bool{cur: true}
		for _, t := range pool {
			if seen[t] || !fitsString(s, quoted(t)) {
				continue
			}
			seen[t] = true
			prec := program.PrecAtom
			if strings.HasPrefix(t, "-") {
				prec = program.PrecUnary // a negative number as an operand needs parentheses
			}
			emit(replaceText(id, s.Fit(t, prec)))
		}
	},
}

// transposed returns the number text with two adjacent digits swapped, for
// each pair of different adjacent digits: the typo 84600 for 86400.
func transposed(num string) []string {
	var out []string
	for i := 0; i+1 < len(num); i++ {
		a, b := num[i], num[i+1]
		if a == b || a < '0' || a > '9' || b < '0' || b > '9' || (i == 0 && b == '0') {
			continue
		}
		out = append(out, num[:i]+string(b)+string(a)+num[i+2:])
	}
	return out
}

var opIdent = Operator{
	Name:    "ident",
	Doc:     "replace a name by another name visible in the same scope",
	Targets: siteTargets(program.SiteIdent),
	Applies: onKind(program.SiteIdent),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		if s.Pinned {
			return
		}
		names := p.Visible(s.Stmt)
		if s.Store {
			names = p.Scopes[p.Stmts[s.Stmt].Scope].Names
		}
		cur := p.SiteText(id)
		for _, n := range names {
			if n != cur {
				emit(replaceText(id, n))
			}
		}
	},
}

// expression operators (plastic surgery) -----------------------------------

var opExprReplace = Operator{
	Name:    "expr-replace",
	Doc:     "replace an expression by another expression of the file\n\nA call argument, an index, a return value, an operand or an assigned value.",
	Targets: siteTargets(program.SiteExpr),
	Applies: onKind(program.SiteExpr),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		b := boolish(s)
		for _, d := range c.exprs {
			if d.text != cur && fitsString(s, d.q) && d.boolish == b {
				emit(replaceText(id, s.Fit(d.text, d.prec)))
			}
		}
	},
}

var opSwapArgs = Operator{
	Name:    "swap-args",
	Doc:     "swap two positional arguments of a call",
	Targets: siteTargets(program.SiteArgs),
	Applies: onKind(program.SiteArgs),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		parts := p.Sites[id].Parts
		for i := range parts {
			for j := i + 1; j < len(parts); j++ {
				a, okA := c.bySpan[parts[i]]
				b, okB := c.bySpan[parts[j]]
				if okA && okB && p.SiteText(a) != p.SiteText(b) {
					emit(program.Edit{Op: program.SwapText, Site: a, Site2: b})
				}
			}
		}
	},
}

var opDropOperand = Operator{
	Name:    "drop-operand",
	Doc:     "drop one operand of a binary or boolean operation, or a unary operator\n\n1 + f(x) into f(x); a and b into b; -x into x.",
	Targets: func(c *Context) *Sampler { return &c.drop },
	Applies: func(c *Context, id int) bool { return droppable(&c.Prog.Sites[id]) },
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		for _, part := range s.Parts {
			prec := program.PrecAtom
			if e, ok := c.bySpan[part]; ok {
				prec = p.Sites[e].Prec
			}
			emit(replaceText(id, s.Fit(p.Text(part.Start, part.End), prec)))
		}
	},
}

var opShift = Operator{
	Name:    "shift",
	Doc:     "shift an index, a call argument, a compared bound or an assigned name by one\n\nj into j - 1 or j + 1; hi = mid into hi = mid - 1; a number literal into its\nneighbour.",
	Targets: func(c *Context) *Sampler { return &c.shift },
	Applies: func(c *Context, id int) bool {
		s := &c.Prog.Sites[id]
		return s.Kind == program.SiteExpr && shiftable(s)
	},
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		text := p.SiteText(id)
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			for _, n := range []int64{v + 1, v - 1} {
				prec := program.PrecAtom
				if n < 0 {
					prec = program.PrecUnary
				}
				emit(replaceText(id, s.Fit(strconv.FormatInt(n, 10), prec)))
			}
			return
		}
		if strings.ContainsAny(text, "\r\n") {
			return
		}
		left := fit(text, s.Prec, program.PrecAdd)
		emit(replaceText(id, s.Fit(left+" + 1", program.PrecAdd)))
		emit(replaceText(id, s.Fit(left+" - 1", program.PrecAdd)))
	},
}

var opAddTerm = Operator{
	Name:    "add-term",
	Doc:     "extend an expression with a term of the file\n\nx into x - low, x + d, x * k, n - x, with a name of the enclosing\nfunctions or a number.",
	Targets: siteTargets(program.SiteExpr),
	Applies: onKind(program.SiteExpr),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		if boolish(s) || strings.ContainsAny(cur, "\r\n") || s.Role == program.RoleNone {
			return
		}
		// Terms are names of the enclosing functions (a parameter read
		// nowhere too) and numbers of the file.
		terms := slices.Clone(c.locals(s.Stmt))
		for _, d := range c.exprs {
			if d.node == "integer" || d.node == "float" {
				terms = append(terms, d.text)
			}
		}
		number := func(t string) bool { return t != "" && (t[0] >= '0' && t[0] <= '9' || t[0] == '.') }
		for _, term := range terms {
			if term == cur || number(cur) && number(term) {
				// A number and a number make a constant: the literal
				// operator's business (1 - 100 fitted a suite).
				continue
			}
			for _, op := range []string{"+", "-", "*"} {
				prec := program.BinaryPrec(op)
				emit(replaceText(id, s.Fit(fit(cur, s.Prec, prec)+" "+op+" "+term, prec)))
				if op == "-" {
					// On the left too: n - i (n + i is i + n).
					emit(replaceText(id, s.Fit(term+" "+op+" "+fit(cur, s.Prec, prec+1), prec)))
				}
			}
		}
	},
}

// siblings are builtins and methods a fix often exchanges for one
// another (a family each: any name of it into the others).
var siblings = [][]string{
	{"min", "max"}, {"any", "all"}, {"sorted", "reversed"}, {"int", "round", "float"},
	{"list", "set", "tuple"}, {"sum", "len"},
}

var methodSiblings = [][]string{
	{"append", "extend"}, {"lower", "upper"}, {"startswith", "endswith"},
	{"find", "rfind"}, {"index", "rindex"}, {"keys", "values", "items"},
	{"strip", "lstrip", "rstrip"}, {"split", "rsplit"}, {"remove", "discard"},
	{"isdigit", "isalpha", "isalnum", "isspace"}, {"add", "update"}, {"pop", "popleft"},
	{"appendleft", "append"}, {"get", "setdefault"},
}

var opSibling = Operator{
	Name: "sibling",
	Doc:  "swap a builtin or a method for its sibling\n\nmin into max, any into all, sorted into reversed, int into round, list into set;\nappend into extend, lower into upper, startswith into endswith, keys into values.",
	Targets: func(c *Context) *Sampler {
		return &c.siblingSites
	},
	Applies: func(c *Context, id int) bool {
		s := &c.Prog.Sites[id]
		text := c.Prog.SiteText(id)
		switch s.Kind {
		case program.SiteAttr:
			return inFamily(methodSiblings, text)
		case program.SiteIdent:
			return !s.Store && inFamily(siblings, text) && !c.bound(text)
		}
		return false
	},
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		cur := p.SiteText(id)
		fams := siblings
		if p.Sites[id].Kind == program.SiteAttr {
			fams = methodSiblings
		}
		for _, f := range fams {
			for _, x := range f {
				if x != cur && slices.Contains(f, cur) {
					emit(replaceText(id, x))
				}
			}
		}
	},
}

var opAttr = Operator{
	Name:    "attr",
	Doc:     "change an attribute or method name into another one of the file\n\nnode.left into node.right, s.count(x) into s.index(x).",
	Targets: siteTargets(program.SiteAttr),
	Applies: onKind(program.SiteAttr),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		cur := c.Prog.SiteText(id)
		for _, a := range c.attrs {
			if a != cur {
				emit(replaceText(id, a))
			}
		}
	},
}

// All lists every operator, statement operators first.
var All = []Operator{
	opDelete, opInsert, opInsertRenamed, opReplace, opSwap,
	opCondReplace, opCondNegate, opCondExtend,
	opCmp, opArith, opBool, opAug,
	opLiteral, opIdent,
	opExprReplace, opSwapArgs, opDropOperand, opShift, opAddTerm,
	opSibling, opAttr,
	opCondName, opWrap, opSwapOperands, opSlice, opAssign, opInsertChanged,
	opReplaceFunction,
}

// ByName returns the operator with the given name.
func ByName(name string) (Operator, bool) {
	for _, o := range All {
		if o.Name == name {
			return o, true
		}
	}
	return Operator{}, false
}

// Weighted is an operator with its selection weight.
type Weighted struct {
	Op     Operator
	Weight float64
}

// Default are the default operators and weights: the finer operators,
// which fix most one-line bugs of small programs, weigh more than the
// statement operators.
func Default() []Weighted {
	w := map[string]float64{
		"delete": 1, "insert": 1, "insert-renamed": 1, "replace": 1, "swap": 0.5,
		"cond-replace": 1, "cond-negate": 1, "cond-extend": 1,
		"cmp-op": 2, "arith-op": 2, "bool-op": 1, "aug-op": 1,
		"literal": 2, "ident": 2,
		"expr-replace": 2, "swap-args": 1, "drop-operand": 1, "shift": 2, "add-term": 1,
		"sibling": 1, "attr": 1,
		"cond-name": 0.25, "wrap": 0.25, "swap-operands": 0.25, "slice": 0.25, "assign": 0.25, "insert-changed": 0.25,
		"replace-function": 0.2,
	}
	var out []Weighted
	for _, o := range All {
		out = append(out, Weighted{o, w[o.Name]})
	}
	return out
}

// ParseSpec parses an --operators value: "default", "all", or a
// comma-separated list of NAME or NAME=WEIGHT ("delete,insert=2,cmp-op=3");
// a name without a weight weighs 1.
func ParseSpec(spec string) ([]Weighted, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "default" {
		return Default(), nil
	}
	if spec == "all" {
		var out []Weighted
		for _, o := range All {
			out = append(out, Weighted{o, 1})
		}
		return out, nil
	}
	var out []Weighted
	seen := map[string]bool{}
	for _, item := range strings.Split(spec, ",") {
		name, ws, hasW := strings.Cut(strings.TrimSpace(item), "=")
		o, ok := ByName(name)
		if !ok {
			return nil, fmt.Errorf("unknown operator %q (see 'repair operators')", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("operator %q given twice", name)
		}
		seen[name] = true
		w := 1.0
		if hasW {
			v, err := strconv.ParseFloat(ws, 64)
			if err != nil || v < 0 || v != v || v > 1e6 {
				return nil, fmt.Errorf("operator %q: weight %q must be a number from 0 to 1e6", name, ws)
			}
			w = v
		}
		out = append(out, Weighted{o, w})
	}
	total := 0.0
	for _, x := range out {
		total += x.Weight
	}
	if total == 0 {
		return nil, fmt.Errorf("operators %q: every weight is 0", spec)
	}
	return out, nil
}

// Mutator draws operators by weight and applies them.
type Mutator struct {
	ops []Weighted
	cum []float64
}

// NewMutator returns a mutator over the given operators.
func NewMutator(ops []Weighted) *Mutator {
	m := &Mutator{}
	total := 0.0
	for _, o := range ops {
		if o.Weight <= 0 {
			continue
		}
		total += o.Weight
		m.ops = append(m.ops, o)
		m.cum = append(m.cum, total)
	}
	return m
}

// Mutate proposes one edit, retrying other operators when one has nothing
// to change. It returns the operator's name too.
func (m *Mutator) Mutate(c *Context, rng *rand.Rand) (program.Edit, string, bool) {
	if len(m.ops) == 0 {
		return program.Edit{}, "", false
	}
	for try := 0; try < 4*len(m.ops); try++ {
		x := rng.Float64() * m.cum[len(m.cum)-1]
		i := sort.Search(len(m.cum), func(i int) bool { return m.cum[i] > x })
		if i >= len(m.ops) {
			i = len(m.ops) - 1
		}
		if e, ok := m.ops[i].Op.Apply(c, rng); ok {
			return e, m.ops[i].Op.Name, true
		}
	}
	return program.Edit{}, "", false
}
