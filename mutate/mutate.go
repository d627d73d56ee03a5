package mutate

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"repair/program"
)

// Operator is a mutation operator: it proposes one edit of the program.
type Operator struct {
	// Name is flag-safe (lowercase, digits and '-').
	Name string
	// Doc's first line is a lowercase title without a final period; more
	// lines may follow.
	Doc string
	// Apply proposes an edit, drawing its target in proportion to the
	// suspiciousness of the statement that holds it. It returns false when
	// the operator has nothing to change in this program.
	Apply func(c *Context, rng *rand.Rand) (program.Edit, bool)
}

// Context is what operators need about one program: its sites grouped by
// kind with their sampling weights, and the donor pools of the file
// (plastic surgery: ingredients come from the same file). Built once per
// run; read-only afterwards, so it may be shared by goroutines (each with
// its own *rand.Rand).
type Context struct {
	Prog *program.Program
	// Weights are the suspiciousness of each statement (localize.Ranking).
	Weights []float64

	stmts   sampler             // mutable statements (no docstrings), by weight
	donors  []int               // statements usable as insert/replace donors
	sites   [10]sampler         // sites by kind, weighted by their statement
	shift   sampler             // expressions an off-by-one shift applies to
	drop    sampler             // binary/boolean/unary expressions with parts
	conds   []string            // distinct condition texts of the file
	condPre map[string]int      // their precedence
	exprs   []donorExpr         // distinct expression texts of the file
	lits    map[string][]string // literal texts by class
	bySpan  map[program.Span]int
}

type donorExpr struct {
	text    string
	prec    int
	node    string
	q       bool // holds quotes, backslashes or line breaks
	boolish bool // a comparison, negation or boolean operation
}

// boolish reports whether a site's expression is a truth value by its
// form; expression surgery keeps such expressions among themselves.
func boolish(s *program.Site, text string) bool {
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

// sampler draws ids with probability proportional to their weights.
type sampler struct {
	ids []int
	cum []float64
}

func (s *sampler) add(id int, w float64) {
	if w <= 0 {
		return
	}
	total := w
	if n := len(s.cum); n > 0 {
		total += s.cum[n-1]
	}
	s.ids = append(s.ids, id)
	s.cum = append(s.cum, total)
}

func (s *sampler) empty() bool { return len(s.ids) == 0 }

func (s *sampler) draw(rng *rand.Rand) int {
	x := rng.Float64() * s.cum[len(s.cum)-1]
	i := sort.SearchFloat64s(s.cum, x)
	if i >= len(s.ids) {
		i = len(s.ids) - 1
	}
	// SearchFloat64s finds the first cum >= x; x == cum[i] exactly belongs
	// to the next bucket, which only matters on measure-zero draws.
	return s.ids[i]
}

// NewContext prepares the operators' view of p; weights are per statement
// (nil means uniform).
func NewContext(p *program.Program, weights []float64) *Context {
	c := &Context{Prog: p, Weights: weights, condPre: map[string]int{}, lits: map[string][]string{}, bySpan: map[program.Span]int{}}
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
		c.donors = append(c.donors, i)
	}
	seenCond, seenExpr, seenLit := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range p.Sites {
		s := &p.Sites[i]
		text := p.SiteText(i)
		c.sites[s.Kind].add(i, w(s.Stmt))
		switch s.Kind {
		case program.SiteCond:
			if !seenCond[text] {
				seenCond[text] = true
				c.conds = append(c.conds, text)
				c.condPre[text] = s.Prec
			}
		case program.SiteExpr:
			c.bySpan[program.Span{Start: s.Start, End: s.End}] = i
			if shiftable(s) {
				c.shift.add(i, w(s.Stmt))
			}
			if len(s.Parts) > 0 && (s.Node == "binary_operator" || s.Node == "boolean_operator" || s.Node == "unary_operator" || s.Node == "not_operator") {
				c.drop.add(i, w(s.Stmt))
			}
			fallthrough
		case program.SiteIdent:
			if !seenExpr[text] && !s.Store {
				seenExpr[text] = true
				c.exprs = append(c.exprs, donorExpr{text: text, prec: s.Prec, node: s.Node,
					q: strings.ContainsAny(text, "'\"\\\r\n"), boolish: boolish(s, text)})
			}
		case program.SiteLiteral:
			class := literalClass(s.Node, text)
			if !seenLit[text] {
				seenLit[text] = true
				c.lits[class] = append(c.lits[class], text)
			}
		}
		if s.Kind == program.SiteCond {
			c.bySpan[program.Span{Start: s.Start, End: s.End}] = i
		}
	}
	return c
}

// shiftable: an index, a call argument, or an operand of a comparison —
// the places where off-by-one bugs live — that may be a number.
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
	case program.RoleOperand:
		return s.MinPrec == program.PrecBitOr // comparison operands
	}
	return false
}

func literalClass(node, text string) string {
	switch node {
	case "integer", "float":
		return "number"
	case "true", "false", "none":
		return "const"
	}
	return "string"
}

// targetStmt draws a mutable statement by weight.
func (c *Context) targetStmt(rng *rand.Rand) (int, bool) {
	if c.stmts.empty() {
		return 0, false
	}
	return c.stmts.draw(rng), true
}

// donor draws a statement uniformly.
func (c *Context) donor(rng *rand.Rand) int { return c.donors[rng.IntN(len(c.donors))] }

// site draws a site of kind k by weight, accepting only those ok approves.
func (c *Context) site(rng *rand.Rand, k program.SiteKind, ok func(*program.Site) bool) (int, bool) {
	return drawFrom(&c.sites[k], c.Prog, rng, ok)
}

func drawFrom(s *sampler, p *program.Program, rng *rand.Rand, ok func(*program.Site) bool) (int, bool) {
	if s.empty() {
		return 0, false
	}
	for try := 0; try < tries; try++ {
		id := s.draw(rng)
		if ok == nil || ok(&p.Sites[id]) {
			return id, true
		}
	}
	return 0, false
}

// tries bounds the attempts of an operator to find a valid edit.
const tries = 24

func replaceText(site int, text string) program.Edit {
	return program.Edit{Op: program.ReplaceText, Site: site, Text: text}
}

// pick returns a random element of xs different from not, or false.
func pick(rng *rand.Rand, xs []string, not string) (string, bool) {
	n := 0
	for _, x := range xs {
		if x != not {
			n++
		}
	}
	if n == 0 {
		return "", false
	}
	k := rng.IntN(n)
	for _, x := range xs {
		if x != not {
			if k == 0 {
				return x, true
			}
			k--
		}
	}
	return "", false
}

func contains(xs []string, x string) bool {
	i := sort.SearchStrings(xs, x)
	return i < len(xs) && xs[i] == x
}

// fitsString reports whether text may stand inside an f-string field.
func fitsString(s *program.Site, text string) bool {
	return !s.InString || !strings.ContainsAny(text, "'\"\\\r\n")
}

// statement operators -------------------------------------------------------

var opDelete = Operator{
	Name: "delete",
	Doc:  "delete a statement\n\nA block left empty gets pass.",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		for try := 0; try < tries; try++ {
			s, ok := c.targetStmt(rng)
			if !ok {
				return program.Edit{}, false
			}
			if c.Prog.CanRemove(s) {
				return program.Edit{Op: program.Delete, Stmt: s}, true
			}
		}
		return program.Edit{}, false
	},
}

var opInsert = Operator{
	Name: "insert",
	Doc:  "insert a copy of another statement of the file before or after a statement",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		for try := 0; try < tries; try++ {
			s, ok := c.targetStmt(rng)
			if !ok {
				return program.Edit{}, false
			}
			d := c.donor(rng)
			if !c.Prog.CanPlace(d, s) {
				continue
			}
			op := program.InsertBefore
			if rng.IntN(2) == 1 {
				op = program.InsertAfter
			}
			return program.Edit{Op: op, Stmt: s, Donor: d}, true
		}
		return program.Edit{}, false
	},
}

var opReplace = Operator{
	Name: "replace",
	Doc:  "replace a statement by a copy of another statement of the file",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		for try := 0; try < tries; try++ {
			s, ok := c.targetStmt(rng)
			if !ok {
				return program.Edit{}, false
			}
			d := c.donor(rng)
			if d == s || !p.CanRemove(s) || !p.CanPlace(d, s) || p.StmtText(d) == p.StmtText(s) || p.Contains(s, d) {
				continue
			}
			return program.Edit{Op: program.Replace, Stmt: s, Donor: d}, true
		}
		return program.Edit{}, false
	},
}

var opSwap = Operator{
	Name: "swap",
	Doc:  "swap a statement with another statement of the file",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		for try := 0; try < tries; try++ {
			s, ok := c.targetStmt(rng)
			if !ok {
				return program.Edit{}, false
			}
			d := c.donor(rng)
			if d == s || p.Contains(s, d) || p.Contains(d, s) || !p.CanRemove(s) || !p.CanRemove(d) ||
				!p.CanPlace(d, s) || !p.CanPlace(s, d) || p.StmtText(d) == p.StmtText(s) {
				continue
			}
			return program.Edit{Op: program.Swap, Stmt: s, Donor: d}, true
		}
		return program.Edit{}, false
	},
}

// condition operators (the Debugging Book's ConditionMutator) --------------

var opCondReplace = Operator{
	Name: "cond-replace",
	Doc:  "replace a condition by another condition of the file, True or False",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		id, ok := c.site(rng, program.SiteCond, nil)
		if !ok {
			return program.Edit{}, false
		}
		s := &c.Prog.Sites[id]
		cur := c.Prog.SiteText(id)
		pool := append([]string{"True", "False"}, c.conds...)
		for try := 0; try < tries; try++ {
			d, ok := pick(rng, pool, cur)
			if !ok {
				return program.Edit{}, false
			}
			prec, known := c.condPre[d]
			if !known {
				prec = program.PrecAtom
			}
			if !fitsString(s, d) {
				continue
			}
			return replaceText(id, s.Fit(d, prec)), true
		}
		return program.Edit{}, false
	},
}

var opCondNegate = Operator{
	Name: "cond-negate",
	Doc:  "negate a condition, or drop its negation",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		id, ok := c.site(rng, program.SiteCond, nil)
		if !ok {
			return program.Edit{}, false
		}
		p := c.Prog
		s := &p.Sites[id]
		if s.Node == "not_operator" && len(s.Parts) == 1 {
			part := p.Text(s.Parts[0].Start, s.Parts[0].End)
			prec := program.PrecAtom
			if e, ok := c.bySpan[s.Parts[0]]; ok {
				prec = p.Sites[e].Prec
			}
			return replaceText(id, s.Fit(part, prec)), true
		}
		inner := (&program.Site{MinPrec: program.PrecNot}).Fit(p.SiteText(id), s.Prec)
		return replaceText(id, s.Fit("not "+inner, program.PrecNot)), true
	},
}

var opCondExtend = Operator{
	Name: "cond-extend",
	Doc:  "extend a condition with `and` or `or` another condition of the file",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		id, ok := c.site(rng, program.SiteCond, nil)
		if !ok {
			return program.Edit{}, false
		}
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		d, ok := pick(rng, c.conds, cur)
		if !ok || !fitsString(s, d) {
			return program.Edit{}, false
		}
		op, prec := "and", program.PrecAnd
		if rng.IntN(2) == 1 {
			op, prec = "or", program.PrecOr
		}
		left := (&program.Site{MinPrec: prec}).Fit(cur, s.Prec)
		right := (&program.Site{MinPrec: prec + 1}).Fit(d, c.condPre[d])
		if rng.IntN(2) == 1 {
			left, right = (&program.Site{MinPrec: prec}).Fit(d, c.condPre[d]), (&program.Site{MinPrec: prec + 1}).Fit(cur, s.Prec)
		}
		return replaceText(id, s.Fit(left+" "+op+" "+right, prec)), true
	},
}

// operator-token operators -------------------------------------------------

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

// tokenOperator replaces an operator token of kind k by another of its
// family.
func tokenOperator(name, doc string, k program.SiteKind, fams ...[]string) Operator {
	return Operator{
		Name: name,
		Doc:  doc,
		Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
			for try := 0; try < tries; try++ {
				id, ok := c.site(rng, k, nil)
				if !ok {
					return program.Edit{}, false
				}
				cur := normalizeOp(c.Prog.SiteText(id))
				f := family(cur, fams...)
				if f == nil {
					continue
				}
				t, ok := pick(rng, f, cur)
				if !ok {
					continue
				}
				return replaceText(id, t), true
			}
			return program.Edit{}, false
		},
	}
}

// normalizeOp collapses the spacing of two-word operators ("not  in").
func normalizeOp(s string) string { return strings.Join(strings.Fields(s), " ") }

var opCmp = tokenOperator("cmp-op",
	"change a comparison operator\n\n< <= > >= == != into one another, in into not in, is into is not.",
	program.SiteCmpOp, cmpOrder, cmpIn, cmpIs)

var opArith = tokenOperator("arith-op",
	"change an arithmetic or bitwise operator\n\n+ - * / // % ** into one another; & | ^ << >> into one another.",
	program.SiteBinOp, arith, bitwise)

var opBool = tokenOperator("bool-op", "change `and` into `or` and back", program.SiteBoolOp, []string{"and", "or"})

var opAug = tokenOperator("aug-op", "change an augmented assignment operator (+= into -= ...)", program.SiteAugOp, augArith, augBits)

// value and identifier operators (the book's ValueMutator and
// IdentifierMutator) ------------------------------------------------------

var opLiteral = Operator{
	Name: "literal",
	Doc:  "change a literal\n\nInto another constant of the file of the same kind, a number plus or minus one,\nTrue/False/None into one another, a string into the empty string.",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		for try := 0; try < tries; try++ {
			id, ok := c.site(rng, program.SiteLiteral, nil)
			if !ok {
				return program.Edit{}, false
			}
			p := c.Prog
			s := &p.Sites[id]
			cur := p.SiteText(id)
			class := literalClass(s.Node, cur)
			pool := append([]string(nil), c.lits[class]...)
			switch class {
			case "number":
				if v, err := strconv.ParseInt(strings.ReplaceAll(cur, "_", ""), 0, 64); err == nil {
					pool = append(pool, strconv.FormatInt(v+1, 10), strconv.FormatInt(v-1, 10))
				} else if f, err := strconv.ParseFloat(cur, 64); err == nil {
					pool = append(pool, strconv.FormatFloat(f+1, 'g', -1, 64), strconv.FormatFloat(f-1, 'g', -1, 64))
				}
				pool = append(pool, "0", "1")
			case "const":
				pool = []string{"True", "False", "None"}
			case "string":
				pool = append(pool, `""`)
			}
			t, ok := pick(rng, pool, cur)
			if !ok || !fitsString(s, t) {
				continue
			}
			// A negative number where an operand stands needs parentheses.
			prec := program.PrecAtom
			if strings.HasPrefix(t, "-") {
				prec = program.PrecUnary
			}
			return replaceText(id, s.Fit(t, prec)), true
		}
		return program.Edit{}, false
	},
}

var opIdent = Operator{
	Name: "ident",
	Doc:  "replace a name by another name visible in the same scope",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		for try := 0; try < tries; try++ {
			id, ok := c.site(rng, program.SiteIdent, func(s *program.Site) bool { return !s.Pinned })
			if !ok {
				return program.Edit{}, false
			}
			s := &p.Sites[id]
			names := p.Visible(s.Stmt)
			if s.Store {
				names = p.Scopes[p.Stmts[s.Stmt].Scope].Names
			}
			t, ok := pick(rng, names, p.SiteText(id))
			if !ok {
				continue
			}
			return replaceText(id, t), true
		}
		return program.Edit{}, false
	},
}

// expression operators (plastic surgery) ------------------------------------

var opExprReplace = Operator{
	Name: "expr-replace",
	Doc:  "replace an expression by another expression of the file\n\nA call argument, an index, a return value, an operand or an assigned value.",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		if len(c.exprs) < 2 {
			return program.Edit{}, false
		}
		for try := 0; try < tries; try++ {
			id, ok := c.site(rng, program.SiteExpr, nil)
			if !ok {
				return program.Edit{}, false
			}
			s := &p.Sites[id]
			d := c.exprs[rng.IntN(len(c.exprs))]
			if d.text == p.SiteText(id) || (s.InString && d.q) || d.boolish != boolish(s, "") {
				continue
			}
			return replaceText(id, s.Fit(d.text, d.prec)), true
		}
		return program.Edit{}, false
	},
}

var opSwapArgs = Operator{
	Name: "swap-args",
	Doc:  "swap two positional arguments of a call",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		for try := 0; try < tries; try++ {
			id, ok := c.site(rng, program.SiteArgs, nil)
			if !ok {
				return program.Edit{}, false
			}
			parts := p.Sites[id].Parts
			i := rng.IntN(len(parts))
			j := rng.IntN(len(parts) - 1)
			if j >= i {
				j++
			}
			a, okA := c.bySpan[parts[i]]
			b, okB := c.bySpan[parts[j]]
			if !okA || !okB || p.SiteText(a) == p.SiteText(b) {
				continue
			}
			if i > j {
				a, b = b, a
			}
			return program.Edit{Op: program.SwapText, Site: a, Site2: b}, true
		}
		return program.Edit{}, false
	},
}

var opDropOperand = Operator{
	Name: "drop-operand",
	Doc:  "drop one operand of a binary or boolean operation, or a unary operator\n\n1 + f(x) into f(x); a and b into b; -x into x.",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		id, ok := drawFrom(&c.drop, p, rng, nil)
		if !ok {
			return program.Edit{}, false
		}
		s := &p.Sites[id]
		part := s.Parts[rng.IntN(len(s.Parts))]
		prec := program.PrecAtom
		if e, ok := c.bySpan[part]; ok {
			prec = p.Sites[e].Prec
		}
		return replaceText(id, s.Fit(p.Text(part.Start, part.End), prec)), true
	},
}

var opShift = Operator{
	Name: "shift",
	Doc:  "shift an index, a call argument or a compared bound by one\n\nj into j - 1 or j + 1; a number literal into its neighbour.",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		id, ok := drawFrom(&c.shift, p, rng, nil)
		if !ok {
			return program.Edit{}, false
		}
		s := &p.Sites[id]
		text := p.SiteText(id)
		delta := 1
		if rng.IntN(2) == 1 {
			delta = -1
		}
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			t := strconv.FormatInt(v+int64(delta), 10)
			prec := program.PrecAtom
			if v+int64(delta) < 0 {
				prec = program.PrecUnary
			}
			return replaceText(id, s.Fit(t, prec)), true
		}
		if strings.ContainsAny(text, "\r\n") {
			return program.Edit{}, false
		}
		left := (&program.Site{MinPrec: program.PrecAdd}).Fit(text, s.Prec)
		op := " + 1"
		if delta < 0 {
			op = " - 1"
		}
		return replaceText(id, s.Fit(left+op, program.PrecAdd)), true
	},
}

var opAddTerm = Operator{
	Name: "add-term",
	Doc:  "extend an expression with a term of the file\n\nx into x - low, x + d, x * k, with a name or literal of the file.",
	Apply: func(c *Context, rng *rand.Rand) (program.Edit, bool) {
		p := c.Prog
		for try := 0; try < tries; try++ {
			id, ok := c.site(rng, program.SiteExpr, func(s *program.Site) bool {
				return s.Role == program.RoleOperand || s.Role == program.RoleArg || s.Role == program.RoleIndex || s.Role == program.RoleReturn || s.Role == program.RoleValue
			})
			if !ok {
				return program.Edit{}, false
			}
			s := &p.Sites[id]
			d := c.exprs[rng.IntN(len(c.exprs))]
			if d.text == p.SiteText(id) || strings.ContainsAny(p.SiteText(id), "\r\n") || boolish(s, "") {
				continue
			}
			// Terms are local names and numbers: x - low, i + 1.
			switch d.node {
			case "integer", "float":
			case "identifier":
				if !contains(p.Scopes[p.Stmts[s.Stmt].Scope].Names, d.text) {
					continue
				}
			default:
				continue
			}
			ops := []string{"+", "-", "*"}
			op := ops[rng.IntN(len(ops))]
			prec := program.BinaryPrec(op)
			left := (&program.Site{MinPrec: prec}).Fit(p.SiteText(id), s.Prec)
			return replaceText(id, s.Fit(left+" "+op+" "+d.text, prec)), true
		}
		return program.Edit{}, false
	},
}

// All lists every operator, statement operators first.
var All = []Operator{
	opDelete, opInsert, opReplace, opSwap,
	opCondReplace, opCondNegate, opCondExtend,
	opCmp, opArith, opBool, opAug,
	opLiteral, opIdent,
	opExprReplace, opSwapArgs, opDropOperand, opShift, opAddTerm,
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
		"delete": 1, "insert": 1, "replace": 1, "swap": 0.5,
		"cond-replace": 1, "cond-negate": 1, "cond-extend": 1,
		"cmp-op": 2, "arith-op": 2, "bool-op": 1, "aug-op": 1,
		"literal": 2, "ident": 2,
		"expr-replace": 2, "swap-args": 1, "drop-operand": 1, "shift": 2, "add-term": 1,
	}
	var out []Weighted
	for _, o := range All {
		out = append(out, Weighted{o, w[o.Name]})
	}
	return out
}

// ParseSpec parses an --operators value: "all", or a comma-separated list
// of NAME or NAME=WEIGHT ("delete,insert=2,cmp-op=3"); a name without a
// weight weighs 1.
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
		i := sort.SearchFloat64s(m.cum, x)
		if i >= len(m.ops) {
			i = len(m.ops) - 1
		}
		if e, ok := m.ops[i].Op.Apply(c, rng); ok {
			return e, m.ops[i].Op.Name, true
		}
	}
	return program.Edit{}, "", false
}
