// Operators that add a condition (issue 28): statements wrapped in a new
// if, an early return or continue under one, a value chosen by a
// conditional expression. Conditions are built from the names in scope.

package mutate

import (
	"slices"
	"strings"

	"repair/program"
)

// maxGuarded bounds the statements one guard wraps.
const maxGuarded = 3

// maxAlts bounds the other values of a conditional expression: with
// every name of a long method, a value would have thousands of edits.
const maxAlts = 6

// tests returns the one-name conditions on the names and attributes of
// the function around stmt bound before it: n, not n, n is None, n is not
// None.
func (c *Context) tests(stmt int) []string {
	var out []string
	for _, n := range c.bound(stmt) {
		out = append(out, n, "not "+n, n+" is None", n+" is not None")
	}
	return out
}

// bound returns the names of the functions around statement stmt and
// the attributes of them its function reads (self.total) that have a
// value where stmt starts: a parameter, a name of an enclosing function,
// a name bound by an import or a def, or one the function assigns in a
// statement before stmt (a name first assigned at or after it would raise
// NameError).
func (c *Context) bound(stmt int) []string {
	var out []string
	p := c.Prog
	for _, n := range c.locals(stmt) {
		if c.boundAt(stmt, n) {
			out = append(out, n)
		}
	}
	for _, a := range scopeAttrs.get(c)[p.Stmts[stmt].Scope] {
		base, _, _ := strings.Cut(a, ".")
		if c.local(stmt, base) && c.boundAt(stmt, base) {
			out = append(out, a)
		}
	}
	return out
}

// scopeAttrs are, per scope, the attributes of names (node.left,
// self.total) its statements read, in order.
var scopeAttrs = newFact(func(c *Context) [][]string {
	p := c.Prog
	attrs := make([][]string, len(p.Scopes))
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr && s.Kind != program.SiteCond || s.Node != "attribute" || s.Store {
			continue
		}
		t := p.SiteText(i)
		if quoted(t) || strings.ContainsAny(t, "()[] \t\r\n") {
			continue
		}
		sc := p.Stmts[s.Stmt].Scope
		if !slices.Contains(attrs[sc], t) {
			attrs[sc] = append(attrs[sc], t)
		}
	}
	return attrs
})

// boundAt reports whether local name n has a value where stmt starts.
func (c *Context) boundAt(stmt int, n string) bool {
	p := c.Prog
	sc := p.Stmts[stmt].Scope
	first, ok := firstStore.get(c)[sc][n]
	if !ok || first < p.Stmts[stmt].Start {
		return true
	}
	def := p.Scopes[sc].Stmt
	return def >= 0 && slices.Contains(allParams(p.StmtText(def)), n)
}

// firstStore is, per scope, the start of the first statement that
// assigns each name (assignments, for targets, walrus).
var firstStore = newFact(func(c *Context) []map[string]int {
	p := c.Prog
	first := make([]map[string]int, len(p.Scopes))
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteIdent || !s.Store {
			continue
		}
		st := &p.Stmts[s.Stmt]
		m := first[st.Scope]
		if m == nil {
			m = map[string]int{}
			first[st.Scope] = m
		}
		n := p.SiteText(i)
		if at, ok := m[n]; !ok || st.Start < at {
			m[n] = st.Start
		}
	}
	return first
})

// guardable reports whether statement s may be wrapped in a guard or
// get an early exit before it: a statement of a function that may run
// and may stand in a new block.
func (c *Context) guardable(s int) bool {
	p := c.Prog
	return movable(&p.Stmts[s]) && p.Movable(s) && !c.dead[s] && p.InFunction(s)
}

// reads returns the distinct names of the function read by statements
// stmts (their own text and nested statements').
func (c *Context) reads(stmts []int) []string {
	p := c.Prog
	var out []string
	seen := map[string]bool{}
	for _, s := range stmts {
		for _, id := range c.idents[s] {
			n := p.SiteText(id)
			if readSite(p, id) && !seen[n] && c.local(s, n) {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

var opGuard = Operator{
	Name: "guard",
	Doc: "wrap statements in a new if on names of the function\n\n" +
		"One to three statements of a block under if n:, if not n:, if n is None:,\n" +
		"if n is not None: (n a name or attribute of the function bound there) or\n" +
		"if a == b:, if a != b: (a a name they read, b another, neither used as a\n" +
		"number): if upload_date is not None: around a return, if e1 == e2: around\n" +
		"ret.add(e1).",
	Targets: stmtTargets,
	Weight:  0.2,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if !c.guardable(s) {
			return
		}
		unary := c.tests(s)
		blk := p.Blocks[p.Stmts[s].Block].Stmts
		k := 0
		for k < len(blk) && blk[k] != s {
			k++
		}
		for j := k; j < len(blk) && j < k+maxGuarded && c.guardable(blk[j]); j++ {
			if strings.TrimSpace(p.StmtText(blk[j])) == "pass" {
				break
			}
			// Comparisons of two values (e1 == e2), not of numbers: an
			// equality of two counters or indices (rows == cols) mostly
			// keeps a crash from happening, which the fitness rewards
			// (a wrong answer where the original crashed), rather than
			// fixing it.
			conds := unary
			for _, a := range c.reads(blk[k : j+1]) {
				if !c.boundAt(s, a) || c.shapes().num[a] {
					continue
				}
				for _, b := range c.locals(s) {
					if a != b && c.boundAt(s, b) && !c.shapes().num[b] {
						conds = append(conds, a+" == "+b, a+" != "+b)
					}
				}
			}
			for _, cond := range conds {
				if j == k && p.FirstLine(s) == "if "+cond+":" {
					continue // if c: around if c: changes nothing
				}
				emit(program.Edit{Op: program.Guard, Stmt: s, Donor: blk[j], Text: cond})
			}
		}
	},
}

// exitValues returns the values a return that leaves the function of
// statement s early may give: the literal values its returns give
// (0, [], False, ""), the empty value of the kind its other returns
// build (a string of an f-string, str() or join gives "", a list
// comprehension or list() or sorted() gives []), at most four in all;
// then the function's parameters, at most two (a guard clause that hands
// its input back: if not self.group_map: return text).
func (c *Context) exitValues(s int) []string {
	// They depend on the scope alone: looked for once per scope among
	// the file's sites (tens of thousands in a large file).
	sc := c.Prog.Stmts[s].Scope
	return exitValues.get(c).get(sc, func() []string { return c.scopeExitValues(sc) })
}

// exitValues caches exitValues per scope.
var exitValues = newCache[int, []string]()

// scopeExitValues is exitValues for the statements of scope sc.
func (c *Context) scopeExitValues(sc int) []string {
	p := c.Prog
	var out []string
	seen := map[string]bool{"None": true}
	add := func(t string) {
		if !seen[t] && len(out) < 4 {
			seen[t] = true
			out = append(out, t)
		}
	}
	for i := range p.Sites {
		site := &p.Sites[i]
		if site.Kind != program.SiteExpr || site.Role != program.RoleReturn || p.Stmts[site.Stmt].Scope != sc ||
			p.Stmts[site.Stmt].Kind != "return_statement" {
			continue
		}
		t := p.SiteText(i)
		if literal(site.Node) || t == "[]" || t == "{}" || t == "()" || t == "-1" {
			if !quoted(t) || len(t) <= 2 {
				add(t) // not a long string: an early exit's value
			}
			continue
		}
		if e := emptyOfKind(t); e != "" {
			add(e)
		}
	}
	for i, n := range c.plainParams(sc) {
		if i == 2 {
			break
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// emptyOfKind returns the empty value of the kind expression t builds,
// when its text says it: "" for a string, [] for a list; else "".
func emptyOfKind(t string) string {
	switch {
	case strings.HasPrefix(t, "f\"") || strings.HasPrefix(t, "f'") || strings.HasPrefix(t, "str(") ||
		strings.Contains(t, ".join(") || strings.Contains(t, ".format("):
		return `""`
	case strings.HasPrefix(t, "[") && strings.Contains(t, " for ") && strings.HasSuffix(t, "]"),
		strings.HasPrefix(t, "list(") || strings.HasPrefix(t, "sorted("):
		return "[]"
	}
	return ""
}

// plainParams returns the parameters of function scope sc, in order,
// without self, cls and starred ones.
func (c *Context) plainParams(sc int) []string {
	p := c.Prog
	if sc <= 0 || sc >= len(p.Scopes) || p.Scopes[sc].Kind != "function" || p.Scopes[sc].Stmt < 0 {
		return nil
	}
	return defParams(p.StmtText(p.Scopes[sc].Stmt))
}

var opEarlyExit = Operator{
	Name: "early-exit",
	Doc: "insert an early return or continue under a new if\n\n" +
		"if node is None: return, if not n: return 0, if x is None: continue before a\n" +
		"statement (not before an early exit already there): the tests of guard; the\n" +
		"literal values of the function's returns, the empty value of what it builds\n" +
		"(\"\" for an f-string, [] for a list comprehension), its parameters\n" +
		"(if not items: return \"\", if not text: return text).",
	Targets: stmtTargets,
	Weight:  0.1,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if !c.guardable(s) || c.earlyExit(s) {
			return
		}
		var exits []string
		if p.InLoop(s) {
			exits = append(exits, "continue")
		}
		exits = append(exits, "return")
		if p.ReturnsValue(s) {
			for _, v := range c.exitValues(s) {
				exits = append(exits, "return "+v)
			}
		}
		for _, cond := range c.tests(s) {
			for _, x := range exits {
				emit(program.Edit{Op: program.InsertText, Stmt: s, Text: "if " + cond + ": " + x})
			}
		}
	},
}

// earlyExit reports whether statement s is an early exit already: an if
// without elif or else whose body leaves (if amount == 0: return 1). A
// new one goes after such base cases, not before them, where it would
// override them (if not coins: return 0 before if amount == 0: return 1
// is wrong for change_ways(0, [])); one among them is cond-name's edit.
func (c *Context) earlyExit(s int) bool {
	st := &c.Prog.Stmts[s]
	if st.Kind != "if_statement" || len(st.Blocks) != 1 {
		return false
	}
	body := c.Prog.Blocks[st.Blocks[0]].Stmts
	return len(body) == 1 && c.exits[body[0]]
}

// valueTargets are cond-expr's: the values a conditional expression may
// choose.
var valueTargets = keptSites((*Context).choosable, program.SiteExpr, program.SiteCond)

// choosable reports whether site id is a value cond-expr may make
// conditional: an assigned, returned or argument value on one line.
func (c *Context) choosable(id int) bool {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteExpr || boolish(s) || s.InString {
		return false
	}
	switch s.Role {
	case program.RoleValue, program.RoleReturn, program.RoleArg:
	default:
		return false
	}
	return !strings.ContainsAny(p.SiteText(id), "\r\n") && len(c.bound(s.Stmt)) > 0
}

var opCondExpr = Operator{
	Name: "cond-expr",
	Doc: "choose a value with a conditional expression\n\n" +
		"v into v if c else w, or w if c else v: c a test on a name or attribute of the\n" +
		"function (n, not n, n is None, n is not None) or a condition of the file on a\n" +
		"name v reads (not isinstance(v, bool)), w a name or attribute of the function\n" +
		"or None: total into len(xs) if xs else total; or a choice between two of the\n" +
		"value's operands: a + b into a if prefer_a else b.",
	Targets: valueTargets.get,
	Weight:  0.15,
	Applies: (*Context).choosable,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		if !c.choosable(id) {
			return
		}
		s := &p.Sites[id]
		cur := p.SiteText(id)
		subj := c.bound(s.Stmt)
		type cond struct {
			text string
			prec int
			pos  bool // a positive test: the other order covers its negation
		}
		var conds []cond
		for _, n := range subj {
			conds = append(conds, cond{n, program.PrecAtom, true}, cond{"not " + n, program.PrecNot, false},
				cond{n + " is not None", program.PrecCompare, true}, cond{n + " is None", program.PrecCompare, false})
		}
		// Conditions of the file on a name the value reads.
		var names []string
		for _, j := range c.idents[s.Stmt] {
			if t := &p.Sites[j]; t.Start >= s.Start && t.End <= s.End && readSite(p, j) {
				names = append(names, p.SiteText(j))
			}
		}
		for k := range c.conds {
			d := &c.conds[k]
			if d.q || !mentions(d.text, names) || !fitsAsync(s, d) {
				continue
			}
			conds = append(conds, cond{d.text, d.prec, true},
				cond{"not " + fit(d.text, d.prec, program.PrecNot), program.PrecNot, false})
		}
		// The other value: None, or (at most maxAlts) a name or
		// attribute, those the statement reads first.
		var alts []string
		for _, j := range c.idents[s.Stmt] {
			if n := p.SiteText(j); readSite(p, j) && slices.Contains(subj, n) && !slices.Contains(alts, n) {
				alts = append(alts, n)
			}
		}
		for _, n := range subj {
			if !slices.Contains(alts, n) {
				alts = append(alts, n)
			}
		}
		alts = append([]string{"None"}, alts[:min(len(alts), maxAlts)]...)
		// A choice between two of the value's own operands: a + b into
		// a if c else b.
		if len(s.Parts) >= 2 {
			var ops []string
			for _, sp := range s.Parts {
				t := p.Text(sp.Start, sp.End)
				if !atomText(t) {
					t = "(" + t + ")"
				}
				ops = append(ops, t)
			}
			for _, cd := range conds {
				ct := fit(cd.text, cd.prec, program.PrecOr)
				for i, a := range ops {
					for j, b := range ops {
						if i != j && a != b && (cd.pos || i < j) {
							emit(replaceText(id, s.Fit(a+" if "+ct+" else "+b, program.PrecTernary)))
						}
					}
				}
			}
		}
		v := fit(cur, s.Prec, program.PrecOr)
		for _, cd := range conds {
			ct := fit(cd.text, cd.prec, program.PrecOr)
			for _, w := range alts {
				if w == cur {
					continue
				}
				emit(replaceText(id, s.Fit(v+" if "+ct+" else "+w, program.PrecTernary)))
				if cd.pos {
					emit(replaceText(id, s.Fit(w+" if "+ct+" else "+fit(cur, s.Prec, program.PrecTernary), program.PrecTernary)))
				}
			}
		}
	},
}

// mentions reports whether text reads one of names (as a whole word).
func mentions(text string, names []string) bool {
	for _, n := range names {
		for i := 0; ; {
			j := strings.Index(text[i:], n)
			if j < 0 {
				break
			}
			j += i
			if (j == 0 || !wordByte(text[j-1])) && (j+len(n) == len(text) || !wordByte(text[j+len(n)])) {
				return true
			}
			i = j + len(n)
		}
	}
	return false
}

// atomText reports whether an operand's text needs no parentheses in a
// conditional expression: no space outside brackets and strings (a name,
// a number, a call, a subscript, an attribute).
func atomText(t string) bool {
	ok := outsideStrings(t, func(i, depth int) bool {
		ch := t[i]
		return depth != 0 || ch != ' ' && ch != '\t' && (ch != '-' || i != 0)
	})
	return t != "" && ok
}

// outsideStrings calls f for each byte of t outside its string literals
// (a quote ends where the same quote comes again, past a backslash's
// escape), with the bracket depth after that byte, until f returns false.
// It reports whether f never did and t ends outside a string.
func outsideStrings(t string, f func(i, depth int) bool) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(t); i++ {
		ch := t[i]
		switch {
		case quote != 0:
			if ch == '\\' {
				i++
			} else if ch == quote {
				quote = 0
			}
			continue
		case ch == '\'' || ch == '"':
			quote = ch
			continue
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		}
		if !f(i, depth) {
			return false
		}
	}
	return quote == 0
}
