// The operators that change a site of a statement: conditions, operator
// tokens, values and names, expressions, siblings and attributes.

package mutate

import (
	"slices"
	"strconv"
	"strings"

	"repair/program"
)

// condition operators (the Debugging Book's ConditionMutator) -------------

var opCondReplace = Operator{
	Name:    "cond-replace",
	Doc:     "replace a condition by another condition of the file, True or False",
	Targets: siteTargets(program.SiteCond),
	Weight:  1,
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
		sc := c.donorScope(s.Stmt)
		for k := range c.conds {
			d := &c.conds[k]
			if d.text != cur && fitsString(s, d.q) && fitsAsync(s, d) && c.fitsScope(sc, d) {
				emit(replaceText(id, s.Fit(d.text, d.prec)))
			}
		}
	},
}

var opCondNegate = Operator{
	Name:    "cond-negate",
	Doc:     "negate a condition, or drop its negation",
	Targets: siteTargets(program.SiteCond),
	Weight:  1,
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
	Weight:  1,
	Applies: onKind(program.SiteCond),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		sc := c.donorScope(s.Stmt)
		for k := range c.conds {
			d := &c.conds[k]
			if d.text == cur || !fitsString(s, d.q) || !fitsAsync(s, d) || !c.fitsScope(sc, d) {
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
// family; weight is its default weight.
func tokenOperator(name, doc string, weight float64, k program.SiteKind, fams ...[]string) Operator {
	return Operator{
		Name:    name,
		Doc:     doc,
		Weight:  weight,
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
	2, program.SiteCmpOp, cmpOrder, cmpIn, cmpIs)

var opArith = tokenOperator("arith-op",
	"change an arithmetic or bitwise operator\n\n+ - * / // % ** into one another; & | ^ << >> into one another.",
	2, program.SiteBinOp, arith, bitwise)

var opBool = tokenOperator("bool-op", "change `and` into `or` and back", 1, program.SiteBoolOp, []string{"and", "or"})

var opAug = tokenOperator("aug-op", "change an augmented assignment operator (+= into -= ...)", 1, program.SiteAugOp, augArith, augBits)

// value and identifier operators (the book's ValueMutator and
// IdentifierMutator) -----------------------------------------------------

var opLiteral = Operator{
	Name:    "literal",
	Doc:     "change a literal\n\nInto another constant of the file of the same kind, a number plus or minus one\nor with two adjacent digits swapped, True/False/None into one another, a string\ninto the empty string.",
	Targets: siteTargets(program.SiteLiteral),
	Weight:  2,
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
	Weight:  2,
	Applies: onKind(program.SiteIdent),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		if s.Pinned {
			return
		}
		names := p.Visible(s.Stmt)
		sc := p.Stmts[s.Stmt].Scope
		if s.Store {
			names = p.Scopes[sc].Names
		}
		cur := p.SiteText(id)
		for _, n := range names {
			if n != cur && !(s.Annotated && p.Declared(sc, n)) && !(dunder(n) && !dunder(cur)) {
				emit(replaceText(id, n))
			}
		}
	},
}

// expression operators (plastic surgery) -----------------------------------

var opExprReplace = Operator{
	Name:    "expr-replace",
	Doc:     "replace an expression by another expression of the file\n\nA call argument, an index, a return value, an operand or an assigned value;\nnot by one that reads a name the site's function cannot see.",
	Targets: siteTargets(program.SiteExpr),
	Weight:  2,
	Applies: onKind(program.SiteExpr),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		b := boolish(s)
		sc := c.donorScope(s.Stmt)
		for k := range c.exprs {
			d := &c.exprs[k]
			if d.text != cur && fitsString(s, d.q) && d.boolish == b && fitsAsync(s, d) && c.fitsScope(sc, d) {
				emit(replaceText(id, s.Fit(d.text, d.prec)))
			}
		}
	},
}

var opSwapArgs = Operator{
	Name:    "swap-args",
	Doc:     "swap two positional arguments of a call",
	Targets: siteTargets(program.SiteArgs),
	Weight:  1,
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
	Targets: dropTargets.get,
	Weight:  1,
	Applies: dropsAt,
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

// dropTargets are drop-operand's: binary, boolean, unary and not
// operations with their operands.
var dropTargets = sitesWhere(dropsAt, program.SiteExpr)

func dropsAt(c *Context, id int) bool { return droppable(&c.Prog.Sites[id]) }

var opShift = Operator{
	Name:    "shift",
	Doc:     "shift an index, a call argument, a compared bound or an assigned name by one\n\nj into j - 1 or j + 1; hi = mid into hi = mid - 1; a number literal into its\nneighbour.",
	Targets: shiftTargets.get,
	Weight:  2,
	Applies: shiftsAt,
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

// shiftTargets are shift's: the expressions an off-by-one shift applies
// to.
var shiftTargets = sitesWhere(shiftsAt, program.SiteExpr)

func shiftsAt(c *Context, id int) bool {
	s := &c.Prog.Sites[id]
	return s.Kind == program.SiteExpr && shiftable(s)
}

var opAddTerm = Operator{
	Name:    "add-term",
	Doc:     "extend an expression with a term of the file\n\nx into x - low, x + d, x * k, n - x, with a name of the enclosing\nfunctions or a number.",
	Targets: siteTargets(program.SiteExpr),
	Weight:  1,
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
		// cur and the operator, made once for every term (in a large
		// file, hundreds of numbers).
		var lefts [3]string
		var precs [3]int
		for k, op := range addTermOps {
			precs[k] = program.BinaryPrec(op)
			lefts[k] = fit(cur, s.Prec, precs[k]) + " " + op + " "
		}
		right := " - " + fit(cur, s.Prec, program.BinaryPrec("-")+1)
		for _, term := range terms {
			if term == cur || number(cur) && number(term) {
				// A number and a number make a constant: the literal
				// operator's business (1 - 100 fitted a suite).
				continue
			}
			for k, op := range addTermOps {
				emit(replaceText(id, s.Fit(lefts[k]+term, precs[k])))
				if op == "-" {
					// On the left too: n - i (n + i is i + n).
					emit(replaceText(id, s.Fit(term+right, precs[k])))
				}
			}
		}
	},
}

// addTermOps are add-term's operators, in the order of its edits.
var addTermOps = [3]string{"+", "-", "*"}

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
	Name:    "sibling",
	Doc:     "swap a builtin or a method for its sibling\n\nmin into max, any into all, sorted into reversed, int into round, list into set;\nappend into extend, lower into upper, startswith into endswith, keys into values.",
	Targets: siblingTargets.get,
	Weight:  1,
	Applies: hasSibling,
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

// siblingTargets are sibling's: builtin names read (not bound in the
// program) and method names that have a sibling.
var siblingTargets = sitesWhere(hasSibling, program.SiteAttr, program.SiteIdent)

func hasSibling(c *Context, id int) bool {
	s := &c.Prog.Sites[id]
	text := c.Prog.SiteText(id)
	switch s.Kind {
	case program.SiteAttr:
		return inFamily(methodSiblings, text)
	case program.SiteIdent:
		return !s.Store && inFamily(siblings, text) && !c.boundName(text)
	}
	return false
}

var opAttr = Operator{
	Name:    "attr",
	Doc:     "change an attribute or method name into another one of the file\n\nnode.left into node.right, s.count(x) into s.index(x).",
	Targets: siteTargets(program.SiteAttr),
	Weight:  1,
	Applies: onKind(program.SiteAttr),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		cur := c.Prog.SiteText(id)
		for _, a := range attrNames.get(c) {
			if a != cur {
				emit(replaceText(id, a))
			}
		}
	},
}

// attrNames are the distinct attribute names of the file, in order.
var attrNames = newFact(func(c *Context) []string {
	p := c.Prog
	var out []string
	seen := map[string]bool{}
	for i := range p.Sites {
		if p.Sites[i].Kind != program.SiteAttr {
			continue
		}
		if text := p.SiteText(i); !seen[text] {
			seen[text] = true
			out = append(out, text)
		}
	}
	return out
})

// attrAlike reports whether attribute names a and b are alike: the same
// words but one (next_patch and next_minor; isLeaf and isRoot), or
// similar as similar-name's names are (value and _value).
func attrAlike(a, b string) bool {
	if a == b {
		return false
	}
	if similar(a, b) {
		return true
	}
	wa, wb := nameWords(a), nameWords(b)
	if len(wa) < 2 || len(wa) != len(wb) {
		return false
	}
	diff := 0
	for i := range wa {
		if wa[i] != wb[i] {
			diff++
		}
	}
	return diff == 1
}

// nameWords splits a name at underscores and at lower-to-upper case
// changes, in lower case: "next_patch" and "nextPatch" into next, patch.
func nameWords(n string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(n); i++ {
		end := i == len(n) || n[i] == '_' || i > 0 && n[i] >= 'A' && n[i] <= 'Z' && n[i-1] >= 'a' && n[i-1] <= 'z'
		if end && start >= 0 {
			out = append(out, strings.ToLower(n[start:i]))
			start = -1
		}
		if i < len(n) && n[i] != '_' && start < 0 {
			start = i
		}
	}
	return out
}

// calledAttrs are the attribute names the file calls (x.name(...)) and
// the methods its classes define.
var calledAttrs = newFact(func(c *Context) map[string]bool {
	p := c.Prog
	out := map[string]bool{}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind == program.SiteAttr && s.End < len(p.Src) && p.Src[s.End] == '(' {
			out[p.SiteText(i)] = true
		}
	}
	for _, sc := range p.Scopes {
		if sc.Kind == "function" && sc.Parent >= 0 && p.Scopes[sc.Parent].Kind == "class" {
			out[sc.Name[strings.LastIndexByte(sc.Name, '.')+1:]] = true
		}
	}
	return out
})

// alikeAttrs returns the attribute names of the file alike (attrAlike)
// to attribute site id's and used alike: called where it is called, read
// where it is read; where it is called, the methods the file's classes
// define count too, called or not.
func (c *Context) alikeAttrs(id int) []string {
	return alikeIn.get(c).get(id, func() []string { return c.newAlikeAttrs(id) })
}

// alikeIn caches alikeAttrs' lists: its targets, its Applies and its
// Edits all ask for a site's.
var alikeIn = newCache[int, []string]()

func (c *Context) newAlikeAttrs(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteAttr {
		return nil
	}
	cur := p.SiteText(id)
	called := calledAttrs.get(c)
	isCall := s.End < len(p.Src) && p.Src[s.End] == '('
	var out []string
	seen := map[string]bool{}
	for _, a := range attrNames.get(c) {
		seen[a] = true
		if called[a] == isCall && attrAlike(cur, a) {
			out = append(out, a)
		}
	}
	if isCall {
		var methods []string
		for a := range called {
			if !seen[a] && attrAlike(cur, a) {
				methods = append(methods, a)
			}
		}
		slices.Sort(methods)
		out = append(out, methods...)
	}
	return out
}

var opAttrAlike = replacing(Operator{
	Name: "attr-alike",
	Doc: "change an attribute or method name into an alike one of the file\n\n" +
		"target.next_patch() into target.next_minor(), node.is_leaf into node.is_root,\n" +
		"self.value into self._value: the same words but one, or a name that extends\n" +
		"the other or differs from it by a character; a method for a method the file\n" +
		"calls, an attribute for one it reads.",
	Weight: 0.3,
}, (*Context).alikeAttrs, program.SiteAttr)
