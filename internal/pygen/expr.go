// Expressions: every precedence level with the parentheses it needs,
// calls, displays, comprehensions, literals and f-strings.

package pygen

import "strings"

// Precedence levels, lowest first (Python Language Reference 6.17).
const (
	precLambda  = 0
	precTernary = 1
	precOr      = 2
	precAnd     = 3
	precNot     = 4
	precCompare = 5
	precBitOr   = 6
	precBitXor  = 7
	precBitAnd  = 8
	precShift   = 9
	precAdd     = 10
	precMul     = 11
	precUnary   = 12
	precPower   = 13
	precAwait   = 14
	precAtom    = 15
)

// ectx is the context of an expression.
type ectx struct {
	depth  int
	await  bool // await allowed
	walrus bool // (x := e) allowed
	quote  byte // the quote of the enclosing f-string, or 0
	multi  bool // line breaks allowed (in brackets)
}

func (g *gen) name() string { return one(g, vars) }

// expr returns an expression that may stand where precedence min is
// required, parenthesized if needed.
func (g *gen) expr(e ectx, min int) string {
	s, p := g.expr1(e)
	if p < min {
		return "(" + s + ")"
	}
	return s
}

func (g *gen) expr1(e ectx) (string, int) {
	if e.depth >= g.cfg.ExprDepth {
		return g.leaf(e), precAtom
	}
	e.depth++
	switch g.weighted(12, 5, 3, 6, 3, 2, 2, 1, 2, 1, 1, 2, 1) {
	case 1: // binary
		lvl := one(g, []int{precAdd, precAdd, precMul, precBitOr, precBitXor, precBitAnd, precShift, precPower})
		if lvl == precPower {
			return g.expr(e, precAwait) + " ** " + g.expr(e, precUnary), precPower
		}
		op := one(g, binops[lvl])
		return g.expr(e, lvl) + g.spaced(op) + g.expr(e, lvl+1), lvl
	case 2: // unary
		return one(g, []string{"-", "+", "~"}) + g.expr(e, precUnary), precUnary
	case 3:
		return g.compare(e), precCompare
	case 4: // boolean
		if g.maybe(50) {
			return g.expr(e, precAnd) + " or " + g.expr(e, precAnd+1), precOr
		}
		return g.expr(e, precNot) + " and " + g.expr(e, precNot), precAnd
	case 5:
		return "not " + g.expr(e, precNot), precNot
	case 6:
		return g.expr(e, precOr) + " if " + g.expr(e, precOr) + " else " + g.expr(e, precTernary), precTernary
	case 7:
		if e.quote != 0 {
			break
		}
		le := e
		le.await = false
		ps := ""
		switch g.n(4) {
		case 1:
			ps = g.name()
		case 2:
			ps = "a, b=1"
		case 3:
			ps = "*args, **kw"
		}
		if ps != "" {
			ps = " " + ps
		}
		return "lambda" + ps + ": " + g.expr(le, precTernary), precLambda
	case 8:
		if e.await {
			return "await " + g.primary(e), precAwait
		}
	case 9:
		return g.primary(e), precAtom
	case 10:
		if e.walrus && e.quote == 0 {
			return "(" + g.name() + " := " + g.expr(e, precLambda+1) + ")", precAtom
		}
	case 11:
		return g.comprehension(e), precAtom
	case 12:
		return g.display(e), precAtom
	}
	return g.leaf(e), precAtom
}

func (g *gen) spaced(op string) string {
	if g.maybe(15) {
		return op
	}
	return " " + op + " "
}

func (g *gen) compare(e ectx) string {
	s := g.expr(e, precBitOr)
	for k := 1 + g.weighted(8, 2); k > 0; k-- {
		if op := one(g, cmpops); op[0] >= 'a' && op[0] <= 'z' {
			s += " " + op + " "
		} else {
			s += g.spaced(op)
		}
		s += g.expr(e, precBitOr)
	}
	return s
}

// primary is a name, attribute reference, subscript or call.
func (g *gen) primary(e ectx) string {
	switch g.weighted(4, 3, 2, 2) {
	case 1:
		return g.call(e)
	case 2:
		return g.name() + "." + one(g, attrs)
	case 3:
		return g.subscript(e)
	}
	return g.name()
}

func (g *gen) subscript(e ectx) string {
	base := one(g, []string{g.name(), g.name() + "." + one(g, attrs), g.call(e)})
	e.depth++
	var idx string
	switch g.weighted(5, 2, 1, 1, 1) {
	case 1:
		idx = g.slice(e)
	case 2:
		idx = g.slice(e) + ", " + g.expr(e, precLambda+1)
	case 3:
		idx = g.expr(e, precTernary) + ", " + g.expr(e, precTernary)
	case 4:
		idx = "::" + g.expr(e, precLambda+1)
	default:
		idx = g.expr(e, precLambda+1)
	}
	return base + "[" + idx + "]"
}

func (g *gen) slice(e ectx) string {
	var a, b string
	if g.maybe(60) {
		a = g.expr(e, precLambda+1)
	}
	if g.maybe(60) {
		b = g.expr(e, precLambda+1)
	}
	s := a + ":" + b
	if g.maybe(15) {
		s += ":" + g.expr(e, precLambda+1)
	}
	return s
}

func (g *gen) call(e ectx) string {
	var callee string
	switch g.weighted(3, 3, 2, 1) {
	case 1:
		callee = one(g, builtins)
	case 2:
		callee = g.name() + "." + one(g, methods)
	case 3:
		if len(g.funcs) > 0 {
			callee = one(g, g.funcs)
		} else {
			callee = "print"
		}
	default:
		callee = g.name()
	}
	if e.depth >= g.cfg.ExprDepth {
		return callee + "()"
	}
	e.depth++
	var args []string
	if g.maybe(5) {
		// A generator expression as the only argument needs no parentheses.
		c := g.comprehension(e)
		if strings.HasPrefix(c, "(") {
			return callee + c
		}
		args = append(args, c)
	}
	for k := g.weighted(2, 4, 3, 1); k > 0; k-- {
		args = append(args, g.expr(e, precLambda))
	}
	if g.maybe(10) {
		args = append(args, "*"+g.expr(e, precBitOr))
	}
	used := map[string]bool{}
	for k := g.weighted(6, 2, 1); k > 0; k-- {
		kw := one(g, vars)
		if used[kw] {
			continue
		}
		used[kw] = true
		args = append(args, kw+"="+g.expr(e, precLambda))
	}
	if g.maybe(5) {
		args = append(args, "**"+g.expr(e, precBitOr))
	}
	return callee + "(" + g.join(e, args) + ")"
}

// join joins the items of a display or an argument list, sometimes over
// several lines, with comments and a trailing comma.
func (g *gen) join(e ectx, items []string) string {
	if len(items) == 0 {
		return ""
	}
	if !e.multi || e.quote != 0 || !g.maybe(15) {
		s := strings.Join(items, ", ")
		if g.maybe(5) {
			s += ","
		}
		return s
	}
	var sb strings.Builder
	for i, it := range items {
		if i > 0 {
			sb.WriteString(",")
			if g.maybe(20) {
				sb.WriteString("  # " + g.words())
			}
		}
		sb.WriteString("\n" + indentMark + strings.Repeat(" ", 1+g.n(8)) + it)
	}
	if g.maybe(50) {
		sb.WriteString(",")
	}
	sb.WriteString("\n" + indentMark)
	return sb.String()
}

func (g *gen) display(e ectx) string {
	var items []string
	n := g.weighted(2, 4, 3, 2)
	switch g.weighted(4, 2, 2, 1) {
	case 1: // tuple
		for k := n; k > 0; k-- {
			items = append(items, g.expr(e, precLambda+1))
		}
		if len(items) == 1 {
			return "(" + items[0] + ",)"
		}
		return "(" + g.join(e, items) + ")"
	case 2: // dict
		for k := n; k > 0; k-- {
			if g.maybe(10) {
				items = append(items, "**"+g.expr(e, precBitOr))
				continue
			}
			items = append(items, g.expr(e, precLambda+1)+": "+g.expr(e, precLambda+1))
		}
		return "{" + g.join(e, items) + "}"
	case 3: // set
		for k := max(n, 1); k > 0; k-- {
			items = append(items, g.expr(e, precLambda+1))
		}
		return "{" + g.join(e, items) + "}"
	}
	for k := n; k > 0; k-- {
		if g.maybe(10) {
			items = append(items, "*"+g.expr(e, precBitOr))
			continue
		}
		items = append(items, g.expr(e, precLambda+1))
	}
	return "[" + g.join(e, items) + "]"
}

func (g *gen) comprehension(e ectx) string {
	e.walrus = false
	elt := g.expr(e, precLambda+1)
	var clauses []string
	for k := 1 + g.weighted(8, 2); k > 0; k-- {
		kw := "for "
		if e.await && g.maybe(20) {
			kw = "async for "
		}
		clauses = append(clauses, kw+one(g, []string{g.name(), g.name() + ", " + g.name()})+" in "+g.expr(e, precOr))
		for j := g.weighted(6, 3, 1); j > 0; j-- {
			clauses = append(clauses, "if "+g.expr(e, precOr))
		}
	}
	body := strings.Join(clauses, " ")
	switch g.n(4) {
	case 1:
		return "{" + elt + " " + body + "}"
	case 2:
		return "{" + g.expr(e, precLambda+1) + ": " + elt + " " + body + "}"
	case 3:
		return "(" + elt + " " + body + ")"
	}
	return "[" + elt + " " + body + "]"
}

func (g *gen) leaf(e ectx) string {
	switch g.weighted(10, 5, 4, 2, 2, 1) {
	case 1:
		return g.number()
	case 2:
		return g.str(e)
	case 3:
		return one(g, []string{"True", "False", "None"})
	case 4:
		if len(g.funcs) > 0 && g.maybe(50) {
			return one(g, g.funcs)
		}
		return one(g, builtins)
	case 5:
		if e.quote == 0 && e.depth < g.cfg.ExprDepth+1 {
			return g.fstring(e)
		}
	}
	return g.name()
}

func (g *gen) number() string {
	return one(g, []string{"0", "1", "2", "10", "3", "100", "-1", "3.5", "0.0", "1e3", "2.5e-3", "0x1F", "0o17", "0b101", "1_000", "2j", ".5", "5.", "84600", "12", "255"})
}

// str returns a string literal that may stand inside the f-string whose
// quote is e.quote (if any): then without that quote or backslashes.
func (g *gen) str(e ectx) string {
	if e.quote != 0 {
		q := "'"
		if e.quote == '\'' {
			q = `"`
		}
		return q + one(g, []string{"", "a", "key", "x y", "{}"}) + q
	}
	switch g.weighted(6, 4, 1, 1, 1, 1, 1, 1, 1) {
	case 1:
		return "'" + one(g, []string{"", "abc", "its", "a b", "%d items"}) + "'"
	case 2:
		return `"a\nb\t\"c\""`
	case 3:
		return `r'\d+\s*'`
	case 4:
		return `b"bytes\x00"`
	case 5:
		return `"""tri ple"""`
	case 6:
		return `"con" 'cat'` // implicit concatenation
	case 7:
		return "'''line one\nline two at column 0\n  indented'''"
	case 8:
		return `"é ü 日本"`
	}
	return `"` + one(g, []string{"", "x", "hello", "a, b", "{}", "%s"}) + `"`
}

func (g *gen) fstring(e ectx) string {
	q := one(g, []string{`"`, "'"})
	in := e
	in.quote = q[0]
	in.walrus = false
	in.multi = false
	var sb strings.Builder
	sb.WriteString("f" + q)
	for k := 1 + g.n(3); k > 0; k-- {
		switch g.n(4) {
		case 0:
			sb.WriteString(one(g, []string{"text ", "{{braces}} ", ": ", "x="}))
			continue
		}
		field := g.expr(in, precLambda+1)
		if strings.HasPrefix(field, "{") {
			field = " " + field // {{ would be a literal brace
		}
		sb.WriteString("{" + field)
		switch g.weighted(6, 2, 2, 1, 1) {
		case 1:
			sb.WriteString(one(g, []string{"!r", "!s", "!a"}))
		case 2:
			sb.WriteString(":" + one(g, []string{">10", "03d", ",.2f", "^5", "x", "<{w}"}))
		case 3:
			sb.WriteString("!r:>{" + g.name() + "}")
		case 4:
			sb.WriteString("=")
		}
		sb.WriteString("}")
	}
	sb.WriteString(q)
	return sb.String()
}
