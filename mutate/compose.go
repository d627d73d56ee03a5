package mutate

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"

	"repair/internal/pymod"
	"repair/program"
)

// Operators that compose new text from the names in scope, rather than
// copy text of the file: the shapes of many one-line fixes that plastic
// surgery cannot reach (a condition on a variable no condition tests yet,
// max(0, x), arr[1:], an assignment the program never made).

// locals returns the names bound in the functions enclosing statement
// stmt (parameters, assigned names), innermost first, without repeats.
// Computed once per scope (a fact); the slice is shared.
func (c *Context) locals(stmt int) []string { return scopeLocals.get(c)[c.Prog.Stmts[stmt].Scope] }

// scopeLocals are, per scope, the names of its enclosing functions.
var scopeLocals = newFact(func(c *Context) [][]string {
	p := c.Prog
	locals := make([][]string, len(p.Scopes))
	for id := range p.Scopes {
		var out []string
		seen := map[string]bool{}
		for sc := id; sc > 0; sc = p.Scopes[sc].Parent {
			if p.Scopes[sc].Kind != "function" {
				continue
			}
			for _, n := range p.Scopes[sc].Names {
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
		locals[id] = out
	}
	return locals
})

// subjects are the names and attribute reads (node.left) of the function
// enclosing stmt that a condition may test.
func (c *Context) subjects(stmt int) []string {
	out := slices.Clone(c.locals(stmt))
	for _, d := range c.exprs {
		if d.node != "attribute" || d.q || strings.ContainsAny(d.text, "()[] \t\r\n") {
			continue
		}
		base, _, _ := strings.Cut(d.text, ".")
		if c.local(stmt, base) {
			out = append(out, d.text)
		}
	}
	return out
}

// literal reports whether a node type is a literal (a constant is never
// wrapped: max(0, 1) is a constant too).
func literal(node string) bool {
	switch node {
	case "integer", "float", "string", "concatenated_string", "true", "false", "none":
		return true
	}
	return false
}

// builtin reports whether name means the builtin where the program runs
// (the program binds it nowhere).
func (c *Context) builtin(name string) bool { return !c.boundName(name) }

var opCondName = Operator{
	Name:    "cond-name",
	Doc:     "make a condition from a name or attribute of the function\n\nwhile True into while queue; if x into if node is not None; extend a\ncondition with `or not coins`, `and node is not None`; guard a read of\nan item by the length: part[0] == \"0\" into len(part) > 1 and part[0] == \"0\".",
	Targets: siteTargets(program.SiteCond),
	Weight:  0.25,
	Applies: onKind(program.SiteCond),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		if strings.ContainsAny(cur, "\r\n") {
			return
		}
		// A condition is replaced whole only when it tests no
		// comparison yet (while True, if x): a comparison the file wrote
		// is extended, not thrown away for a name that fits the suite.
		whole := s.Node == "true" || s.Node == "false" || s.Node == "integer" ||
			s.Node == "identifier" || s.Node == "attribute" || s.Node == "not_operator"
		// Length guards need an item read and the builtin len.
		guardLen := strings.Contains(cur, "[") && c.builtin("len")
		for _, n := range c.subjects(s.Stmt) {
			forms := []struct {
				text string
				prec int
			}{
				{n, program.PrecAtom}, {"not " + n, program.PrecNot},
				{n + " is None", program.PrecCompare}, {n + " is not None", program.PrecCompare},
			}
			for k, f := range forms {
				if f.text == cur {
					continue
				}
				if whole {
					emit(replaceText(id, s.Fit(f.text, f.prec)))
				}
				if k == 0 {
					// A bare name extends nothing a fix needs: "and j"
					// tests an index for 0 and fits suites.
					continue
				}
				for _, op := range []string{"and", "or"} {
					prec := program.BinaryPrec(op)
					emit(replaceText(id, s.Fit(fit(cur, s.Prec, prec)+" "+op+" "+f.text, prec)))
				}
			}
			// A condition that reads an item of n by a constant index
			// is guarded by n's length, ahead of the read: part[0] ==
			// "0" into len(part) > 1 and part[0] == "0" (a lone "0" is
			// no leading zero), xs[1] into len(xs) > 1 and xs[1].
			if !guardLen {
				continue
			}
			prec := program.BinaryPrec("and")
			for _, k := range lengthGuards(cur, n) {
				emit(replaceText(id, s.Fit("len("+n+") > "+k+" and "+fit(cur, s.Prec, prec), prec)))
			}
		}
	},
}

// lengthGuards lists the bounds k of the guards len(n) > k that a
// condition reading n[i] for constant indices i may need: i (the item
// exists) and 1 (n holds more than one item), each once.
func lengthGuards(cond, n string) []string {
	var out []string
	for at := 0; ; {
		j := strings.Index(cond[at:], n+"[")
		if j < 0 {
			break
		}
		j += at
		at = j + len(n) + 1
		if j > 0 && (isIdentByte(cond[j-1]) || cond[j-1] == '.') {
			continue
		}
		end := strings.IndexByte(cond[at:], ']')
		if end < 1 {
			continue
		}
		i := cond[at : at+end]
		if strings.Trim(i, "0123456789") != "" || len(i) > 2 {
			continue
		}
		i = strings.TrimLeft(i, "0")
		if i == "" {
			i = "0"
		}
		for _, k := range []string{i, "1"} {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// wrapNumbers are the bounds max(·) and min(·) take besides names: 0
// (never below zero); other constants fit a suite more often than a bug.
var wrapNumbers = []string{"0"}

var opWrap = Operator{
	Name: "wrap",
	Doc: "wrap an expression in a call fixes often add, or unwrap a call\n\n" +
		"x into max(a, x), min(a, x), abs(x), len(x), list(x), [x], not x; a is a name\n" +
		"of the function or 0. A sequence into set(xs), sorted(xs), tuple(xs),\n" +
		"list(set(xs)); another name, attribute, call or subscript into str(x), int(x);\n" +
		"a == b into set(a) == set(b) (sorted, len, list, str, int); a call into one of\n" +
		"its arguments: yield flatten(x) into yield x; a display of one element into the\n" +
		"conversion of it: [src] into list(src). In an f-string's field, x into int(x).",
	Targets: siteTargets(program.SiteExpr),
	Weight:  0.25,
	Applies: onKind(program.SiteExpr),
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		if s.Role == program.RoleNone || strings.ContainsAny(cur, "\r\n") || literal(s.Node) {
			return
		}
		if boolish(s) {
			if s.Node != "not_operator" {
				emit(replaceText(id, s.Fit("not "+fit(cur, s.Prec, program.PrecNot), program.PrecNot)))
			}
			c.wrapOperands(id, emit)
			return
		}
		arg := fit(cur, s.Prec, program.PrecTernary)
		for _, f := range []string{"abs", "len", "list"} {
			if c.builtin(f) && !strings.HasPrefix(cur, f+"(") {
				emit(replaceText(id, f+"("+arg+")"))
			}
		}
		// Conversions: of a sequence into another collection, of
		// anything else into a string or a number.
		convs := []string{"str", "int"}
		if s.InString {
			convs = []string{"int"} // a replacement field formats with str already
		}
		if c.sequence(id) {
			convs = []string{"set", "sorted", "tuple", "list(set"}
		} else if s.Node != "identifier" && s.Node != "attribute" && s.Node != "call" && s.Node != "subscript" {
			convs = nil
		}
		for _, f := range convs {
			outer, inner, nested := strings.Cut(f, "(")
			if !c.builtin(outer) || nested && !c.builtin(inner) || strings.HasPrefix(cur, f+"(") {
				continue
			}
			if nested {
				emit(replaceText(id, f+"("+arg+"))"))
				continue
			}
			emit(replaceText(id, f+"("+arg+")"))
		}
		c.unwrap(id, emit)
		c.displayToCall(id, emit)
		if !s.InString || !strings.HasPrefix(cur, "{") {
			emit(replaceText(id, "["+arg+"]"))
		}
		for _, f := range []string{"max", "min"} {
			if !c.builtin(f) {
				continue
			}
			for _, a := range append(c.numeric(s.Stmt), wrapNumbers...) {
				if a != cur {
					emit(replaceText(id, f+"("+a+", "+arg+")"))
				}
			}
		}
	},
}

// wrapOperands: a == b into f(a) == f(b) for the conversions a
// comparison of two collections or values of another type needs.
func (c *Context) wrapOperands(id int, emit func(program.Edit)) {
	p := c.Prog
	s := &p.Sites[id]
	if s.Node != "comparison_operator" || len(s.Parts) != 2 {
		return
	}
	l, r := s.Parts[0], s.Parts[1]
	op := p.Text(l.End, r.Start)
	if strings.ContainsAny(op, "\r\n#\\") {
		return
	}
	for _, part := range s.Parts {
		if e, ok := c.bySpan[part]; !ok || literal(p.Sites[e].Node) {
			return // a constant converted is a constant
		}
	}
	lt, rt := p.Text(l.Start, l.End), p.Text(r.Start, r.End)
	for _, f := range []string{"set", "sorted", "len", "list", "str", "int"} {
		if c.builtin(f) && !strings.HasPrefix(lt, f+"(") {
			emit(replaceText(id, s.Fit(f+"("+lt+")"+op+f+"("+rt+")", program.PrecCompare)))
		}
	}
}

// unwrap: a call into one of its positional arguments (up to three),
// f(x) into x.
func (c *Context) unwrap(id int, emit func(program.Edit)) {
	p := c.Prog
	s := &p.Sites[id]
	cur := p.SiteText(id)
	if s.Node != "call" || !strings.HasSuffix(cur, ")") {
		return
	}
	// The argument list is the last bracket group at the top level.
	depth, open := 0, -1
	for i := len(cur) - 1; i >= 0 && open < 0; i-- {
		switch cur[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				open = i
			}
		}
	}
	if open <= 0 {
		return
	}
	args := topLevel(cur[open+1 : len(cur)-1])
	if len(args) > 3 {
		return
	}
	at := s.Start + open + 1
	for _, a := range args {
		lead := len(a) - len(strings.TrimLeft(a, " \t"))
		sp := program.Span{Start: at + lead, End: at + len(strings.TrimRight(a, " \t"))}
		at += len(a) + 1
		if e, ok := c.bySpan[sp]; ok && p.Sites[e].Role == program.RoleArg {
			emit(replaceText(id, s.Fit(p.SiteText(e), p.Sites[e].Prec)))
		}
	}
}

// displayToCall proposes, for a display of one element, the conversion
// of that element: [src] into list(src), {x} into set(x), (x,) into
// tuple(x) — a collection of the element's items, not the element.
func (c *Context) displayToCall(id int, emit func(program.Edit)) {
	p := c.Prog
	s := &p.Sites[id]
	cur := p.SiteText(id)
	var f string
	switch s.Node {
	case "list":
		f = "list"
	case "set":
		f = "set"
	case "tuple":
		f = "tuple"
	default:
		return
	}
	if !c.builtin(f) || len(cur) < 3 || !strings.ContainsRune("[{(", rune(cur[0])) {
		return
	}
	inner := strings.TrimSpace(cur[1 : len(cur)-1])
	if f == "tuple" {
		inner = strings.TrimSpace(strings.TrimSuffix(inner, ","))
	}
	if args := topLevel(inner); len(args) != 1 || inner == "" || strings.HasPrefix(inner, "*") {
		return
	}
	emit(replaceText(id, f+"("+inner+")"))
}

var opSwapOperands = Operator{
	Name:    "swap-operands",
	Doc:     "swap the operands of a binary or boolean operation\n\nn - i into i - n; i < len(a) and a[i] into a[i] and i < len(a).",
	Targets: binaryTargets.get,
	Weight:  0.25,
	Applies: swapsOperands,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		if len(s.Parts) != 2 {
			return
		}
		l, r := s.Parts[0], s.Parts[1]
		op := p.Text(l.End, r.Start)
		tok := strings.TrimSpace(op)
		if strings.ContainsAny(op, "\r\n#\\") || tok == "" {
			return
		}
		li, okL := c.bySpan[l]
		ri, okR := c.bySpan[r]
		if !okL || !okR {
			return
		}
		lt, rt := p.SiteText(li), p.SiteText(ri)
		if lt == rt {
			return
		}
		prec := program.BinaryPrec(tok)
		lmin, rmin := prec, prec+1
		if tok == "**" {
			lmin, rmin = program.PrecAwait, program.PrecUnary
		}
		text := fit(rt, p.Sites[ri].Prec, lmin) + op + fit(lt, p.Sites[li].Prec, rmin)
		emit(replaceText(id, s.Fit(text, prec)))
	},
}

// swappable: a binary or boolean operation with both operands (an
// expression or a condition).
func swappable(s *program.Site) bool {
	return (s.Kind == program.SiteExpr || s.Kind == program.SiteCond) && len(s.Parts) == 2 &&
		(s.Node == "binary_operator" || s.Node == "boolean_operator")
}

// binaryTargets are swap-operands': binary and boolean operations with two
// operands.
var binaryTargets = sitesWhere(swapsOperands, program.SiteExpr, program.SiteCond)

func swapsOperands(c *Context, id int) bool { return swappable(&c.Prog.Sites[id]) }

// seqTargets are slice's: the expressions that may be sequences.
var seqTargets = sitesWhere((*Context).sequence, program.SiteExpr)

var opSlice = Operator{
	Name:    "slice",
	Doc:     "slice a sequence, or change a subscript\n\narr into arr[1:], arr[:-1], arr[k:], arr[:k], arr[::-1]; a[i] into a[i:] or\na[:i + 1]; a[i:j] into a[:j] or a[i:]; dp[i][j] into dp[j][i]. A sequence is a\nname the file uses as one, a subscript, a list display or comprehension\n([...][1:]), a call of sorted, list, split, strip..., or of a function the file\nsubscripts elsewhere (v.to_tuple() into v.to_tuple()[:-1] beside v.to_tuple()[:3]).",
	Targets: seqTargets.get,
	Weight:  0.25,
	Applies: (*Context).sequence,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		s := &p.Sites[id]
		cur := p.SiteText(id)
		if quoted(cur) {
			return
		}
		if s.Node == "subscript" {
			base, idx := subscripts(cur)
			if len(idx) == 0 {
				return
			}
			last := idx[len(idx)-1]
			head := base + strings.Join(wrapIdx(idx[:len(idx)-1]), "")
			if len(idx) == 2 && idx[0] != idx[1] {
				emit(replaceText(id, base+"["+idx[1]+"]["+idx[0]+"]"))
			}
			if lo, hi, ok := strings.Cut(last, ":"); ok {
				if strings.Contains(hi, ":") {
					return
				}
				if strings.TrimSpace(lo) != "" {
					emit(replaceText(id, head+"[:"+hi+"]"))
				}
				if strings.TrimSpace(hi) != "" {
					emit(replaceText(id, head+"["+lo+":]"))
				}
				return
			}
			if strings.Contains(last, ",") {
				return
			}
			for _, t := range []string{last + ":", ":" + last, last + " + 1:", ":" + last + " + 1"} {
				emit(replaceText(id, head+"["+t+"]"))
			}
			return
		}
		base := fit(cur, s.Prec, program.PrecAtom)
		for _, t := range []string{"1:", ":-1", "::-1"} {
			emit(replaceText(id, base+"["+t+"]"))
		}
		for _, k := range c.numeric(s.Stmt) {
			if k != cur {
				emit(replaceText(id, base+"["+k+":]"))
				emit(replaceText(id, base+"[:"+k+"]"))
			}
		}
	},
}

// sequence reports whether site id is an expression read as a value (a
// call argument, an assigned or returned value, an operand, an index) that
// the file uses as a sequence: a subscript, a list display or
// comprehension, a name or attribute the file subscripts, iterates or
// takes the len of, or a call of sorted, list, str... or of a method
// returning a list or a string (split, strip, join...).
func (c *Context) sequence(id int) bool {
	s := &c.Prog.Sites[id]
	if s.Kind != program.SiteExpr || s.Store || s.Role == program.RoleNone || s.Role == program.RoleCond {
		return false
	}
	switch s.Node {
	case "subscript", "list", "list_comprehension":
		return true
	case "identifier", "attribute":
		return c.shapes().seq[c.Prog.SiteText(id)]
	case "call":
		text := c.Prog.SiteText(id)
		if c.shapes().callees[calleeName(text)] {
			return true
		}
		callee, _, _ := strings.Cut(text, "(")
		if i := strings.LastIndexByte(callee, '.'); i >= 0 {
			return slices.Contains(seqMethods, callee[i+1:])
		}
		return slices.Contains(seqBuiltins, callee) && c.builtin(callee)
	}
	return false
}

// calleeName is the name of the function or method a call's text calls:
// to_tuple of self.to_tuple().
func calleeName(call string) string {
	callee, _, _ := strings.Cut(call, "(")
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		callee = callee[i+1:]
	}
	return strings.TrimSpace(callee)
}

// seqBuiltins and seqMethods are the calls whose results are sequences a
// fix may slice.
var (
	seqBuiltins = []string{"sorted", "list", "tuple", "range", "str"}
	seqMethods  = []string{"split", "rsplit", "splitlines", "readlines", "strip", "lstrip", "rstrip",
		"lower", "upper", "replace", "join", "copy"}
)

// seqCalls are builtins whose argument is a sequence.
var seqCalls = []string{"len", "sorted", "reversed", "enumerate", "sum", "list", "zip", "set", "tuple"}

// numeric returns the names of the function enclosing stmt that the file
// uses as numbers (in an index, arithmetic, or range()).
func (c *Context) numeric(stmt int) []string {
	var out []string
	for _, n := range c.locals(stmt) {
		if c.shapes().num[n] {
			out = append(out, n)
		}
	}
	return out
}

// closing returns the index of the bracket closing the one at src[open]
// (or len(src)). Brackets inside strings may mislead it: it only
// suggests names.
func closing(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(src)
}

// topLevel splits a text at its commas outside brackets.
func topLevel(text string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, text[from:i])
				from = i + 1
			}
		}
	}
	return append(out, text[from:])
}

// nameShapes are the names the file uses as numbers and those (names and
// attributes) it uses as sequences, and the functions and methods whose
// calls it subscripts.
type nameShapes struct{ num, seq, callees map[string]bool }

func (c *Context) shapes() *nameShapes { return shapes.get(c) }

// shapes finds nameShapes from how the file uses its names: subscripted,
// iterated or measured ones are sequences; indices, operands of
// arithmetic and range() arguments are numbers (the name itself, not a
// name inside them: len(xs) - 1 makes no number of xs).
var shapes = newFact(func(c *Context) *nameShapes {
	p := c.Prog
	sh := &nameShapes{num: map[string]bool{}, seq: map[string]bool{}, callees: map[string]bool{}}
	nums := map[int][]program.Span{} // by statement
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr {
			continue
		}
		if s.Role == program.RoleIndex {
			nums[s.Stmt] = append(nums[s.Stmt], program.Span{Start: s.Start, End: s.End})
		}
		if s.Node == "binary_operator" {
			nums[s.Stmt] = append(nums[s.Stmt], s.Parts...)
		}
	}
	// Calls followed by [ return sequences: the file's other calls of the
	// same function or method do too.
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr || s.Node != "subscript" {
			continue
		}
		if base, _ := subscripts(p.SiteText(i)); strings.HasSuffix(base, ")") {
			sh.callees[calleeName(base)] = true
		}
	}
	// Names followed by [ are subscripted; the arguments of range() are
	// numbers and those of len(), sorted(), zip()... sequences.
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteIdent || s.Store || s.End >= len(p.Src) {
			continue
		}
		name := p.SiteText(i)
		switch p.Src[s.End] {
		case '[':
			sh.seq[name] = true
		case '(':
			if name != "range" && !slices.Contains(seqCalls, name) {
				continue
			}
			for _, a := range topLevel(p.Text(s.End+1, closing(p.Src, s.End))) {
				if name == "range" {
					sh.num[strings.TrimSpace(a)] = true
				} else {
					sh.seq[strings.TrimSpace(a)] = true
				}
			}
		}
	}
	for i := range p.Stmts {
		if p.Stmts[i].Kind != "for_statement" {
			continue
		}
		line := p.FirstLine(i)
		if _, it, ok := strings.Cut(line, " in "); ok {
			sh.seq[strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(it), ":"))] = true
		}
	}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteIdent || s.Store {
			continue
		}
		for _, sp := range nums[s.Stmt] {
			if sp.Start == s.Start && s.End == sp.End {
				sh.num[p.SiteText(i)] = true
				break
			}
		}
	}
	return sh
})

// subscripts splits "a[i][j]" into "a" and ["i", "j"]: the trailing
// bracket groups at the top level. A text that does not end in a bracket
// group gives no indices.
func subscripts(text string) (string, []string) {
	var idx []string
	end := len(text)
	for end > 0 && text[end-1] == ']' {
		depth := 0
		i := end - 1
		for ; i >= 0; i-- {
			switch text[i] {
			case ']', ')', '}':
				depth++
			case '[', '(', '{':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if i <= 0 || text[i] != '[' {
			break
		}
		idx = append([]string{text[i+1 : end-1]}, idx...)
		end = i
	}
	return text[:end], idx
}

func wrapIdx(idx []string) []string {
	out := make([]string, len(idx))
	for i, x := range idx {
		out[i] = "[" + x + "]"
	}
	return out
}

// assignDonor is a statement NAME = VALUE of the file whose value site a
// copy may replace: inserting it builds an assignment from names in
// scope.
type assignDonor struct {
	name  string
	stmt  int
	value int // the value's expression site
}

// assigns are assign's donors: one one-line assignment per target name.
var assigns = newFact(func(c *Context) []assignDonor {
	p := c.Prog
	var out []assignDonor
	seen := map[string]bool{}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr || s.Role != program.RoleValue || s.InString {
			continue
		}
		st := &p.Stmts[s.Stmt]
		if st.Kind != "expression_statement" || !movable(st) {
			continue
		}
		text := p.StmtText(s.Stmt)
		if strings.ContainsAny(text, "\r\n") {
			continue
		}
		eq := strings.Index(text, "=")
		if eq < 0 || strings.HasPrefix(text[eq:], "==") {
			continue
		}
		name := strings.TrimSpace(text[:eq])
		after := text[eq+1:]
		at := eq + 1 + len(after) - len(strings.TrimLeft(after, " \t"))
		if !pymod.Identifier(name) || seen[name] || s.Start-st.Start != at || s.End != st.End {
			continue
		}
		seen[name] = true
		out = append(out, assignDonor{name: name, stmt: s.Stmt, value: i})
	}
	return out
})

var opAssign = Operator{
	Name:    "assign",
	Doc:     "insert an assignment built from names of the function\n\nBefore or after a statement: a = b, a = b + 1, a = b - 1, a = 0, a = None,\nwhere a is a name the file assigns and b a name of the function.",
	Targets: stmtTargets,
	Weight:  0.25,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		names := c.locals(s)
		nums := c.numeric(s)
		for _, a := range assigns.get(c) {
			if !c.local(s, a.name) || !p.CanPlace(a.stmt, s) {
				continue
			}
			cur := p.SiteText(a.value)
			vals := []string{"0", "1", "None"}
			for _, n := range names {
				if n != a.name {
					vals = append(vals, n)
				}
			}
			for _, n := range nums {
				vals = append(vals, n+" + 1", n+" - 1")
			}
			for _, v := range vals {
				if v == cur {
					continue
				}
				for _, op := range []program.Op{program.InsertBefore, program.InsertAfter} {
					if c.insertOK(op, s) {
						emit(program.Edit{Op: op, Stmt: s, Donor: a.stmt, Site: a.value, Text: v})
					}
				}
			}
		}
	},
}

// initValues are the values init-unbound gives a name: none, and the
// empty value of the kinds a name most often holds.
var initValues = []string{"None", `""`, "0", "[]"}

var opInitUnbound = Operator{
	Name: "init-unbound",
	Doc: "initialise a local name a failing test read before assignment\n\n" +
		"Where a failing case raised UnboundLocalError for name (a name bound only in a\n" +
		"branch or a loop that did not run): name = None, name = \"\", name = 0 or\n" +
		"name = [] as the first statement of the function, after its docstring.",
	Targets:    func(c *Context) *Sampler { return &c.unboundAt },
	Weight:     0.25,
	NeedsCrash: true,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		first := c.bodyStart(s)
		if first < 0 {
			return
		}
		for _, name := range c.unbound[s] {
			if !c.local(s, name) {
				continue
			}
			for _, v := range initValues {
				emit(program.Edit{Op: program.InsertText, Stmt: first, Text: name + " = " + v})
			}
		}
	},
}

// bodyStart is the first statement of the body of the function holding
// statement s, after its docstring; -1 outside a function.
func (c *Context) bodyStart(s int) int {
	p := c.Prog
	sc := p.Stmts[s].Scope
	for sc > 0 && p.Scopes[sc].Kind != "function" {
		sc = p.Scopes[sc].Parent
	}
	if sc <= 0 || p.Scopes[sc].Stmt < 0 {
		return -1
	}
	def := &p.Stmts[p.Scopes[sc].Stmt]
	if len(def.Blocks) == 0 {
		return -1
	}
	body := p.Blocks[def.Blocks[0]].Stmts
	if len(body) > 1 && p.Stmts[body[0]].Docstring {
		return body[1]
	}
	if p.Stmts[body[0]].Docstring {
		return -1
	}
	return body[0]
}

// Refinable reports whether e puts in a copy of a statement as it is (an
// insert or replace without adaptation), which Refine can then edit.
func Refinable(e program.Edit) bool {
	return (e.Op == program.InsertBefore || e.Op == program.InsertAfter || e.Op == program.Replace) && e.Text == ""
}

// Refine edits the text a Refinable edit puts in: one site of the copy
// changed by a site operator of ops (drawn by weight among those that
// apply there), so that a later mutation can refine what an earlier one
// inserted (a copied `lo = mid` becoming `lo = mid + 1`). Every edit of a
// patch refers to the original program, so the change is carried by the
// insert itself (Edit.Site and Edit.Text adapt the copy).
func Refine(c *Context, ops []Weighted, e program.Edit, rng *rand.Rand) (program.Edit, bool) {
	if !Refinable(e) || e.Donor < 0 || e.Donor >= len(c.inside) {
		return e, false
	}
	sites := c.inside[e.Donor]
	var buf []program.Edit
	var cands []Weighted
	for try := 0; try < tries && len(sites) > 0; try++ {
		site := sites[rng.IntN(len(sites))]
		cands = cands[:0]
		total := 0.0
		for _, o := range ops {
			if o.Weight > 0 && o.Op.Applies != nil && o.Op.Applies(c, site) {
				cands = append(cands, o)
				total += o.Weight
			}
		}
		if total == 0 {
			continue
		}
		x := rng.Float64() * total
		o := cands[len(cands)-1].Op
		for _, w := range cands {
			if x < w.Weight {
				o = w.Op
				break
			}
			x -= w.Weight
		}
		buf = buf[:0]
		o.Edits(c, site, func(r program.Edit) {
			if r.Op == program.ReplaceText && r.Site == site && !strings.ContainsAny(r.Text, "\r\n") {
				buf = append(buf, r)
			}
		})
		if len(buf) == 0 {
			continue
		}
		r := buf[rng.IntN(len(buf))]
		if program.AsyncText(r.Text) && !c.Prog.InAsync(e.Stmt) {
			continue // the copy stands where await does not compile
		}
		refined := e
		refined.Site, refined.Text = site, r.Text
		if !c.skipped(refined) {
			return refined, true
		}
	}
	return e, false
}

// onKind is the Applies of an operator on every site of kind k.
func onKind(k program.SiteKind) func(c *Context, id int) bool {
	return func(c *Context, id int) bool { return c.Prog.Sites[id].Kind == k }
}

var opInsertChanged = Operator{
	Name:    "insert-changed",
	Doc:     "insert a copy of another one-line statement with one operator changed\n\ndepth += 1 copied as depth -= 1, lo < hi as lo <= hi: a copy and an edit of it\nin one step (mutate.Refine makes the same change to a copy already inserted).",
	Targets: stmtTargets,
	Weight:  0.25,
	Edits:   byDonor(insertChangedFrom),
	From:    insertChangedFrom,
	Count:   insertChangedCount,
}

func insertChangedCount(c *Context, s int) func(d int) int {
	return copiesAt(c, s, c.changedCopies()) // 0 for a copy of more than one line
}

// changedCopies returns, per statement, the copies of it with one
// operator changed that insert-changed makes at each place, 0 for a
// statement of more than one line, which it does not copy (made once).
func (c *Context) changedCopies() []int { return changedCopies.get(c) }

var changedCopies = newFact(func(c *Context) []int {
	p := c.Prog
	changed := make([]int, len(p.Stmts))
	for _, d := range c.donors {
		if bytes.ContainsAny(p.StmtSrc(d), "\r\n") {
			continue
		}
		changedOperators(p, c.inside[d], func(int, string) { changed[d]++ })
	}
	return changed
})

// changedOperators calls f with each operator site among sites and each
// other operator of its family: the one-operator changes of a statement
// that insert-changed copies.
func changedOperators(p *program.Program, sites []int, f func(site int, text string)) {
	for _, site := range sites {
		var fams [][]string
		switch p.Sites[site].Kind {
		case program.SiteAugOp:
			fams = [][]string{augArith, augBits}
		case program.SiteCmpOp:
			fams = [][]string{cmpOrder, cmpIn, cmpIs}
		case program.SiteBinOp:
			fams = [][]string{arith, bitwise}
		default:
			continue
		}
		cur := strings.Join(strings.Fields(p.SiteText(site)), " ")
		for _, t := range family(cur, fams...) {
			if t != cur {
				f(site, t)
			}
		}
	}
}

func insertChangedFrom(c *Context, s int) func(d int, emit func(program.Edit)) {
	p := c.Prog
	return func(d int, emit func(program.Edit)) {
		// Simple statements only: a copied block with a changed
		// condition (if score == 90: return "A") fits a suite's
		// points rather than fixing.
		if bytes.ContainsAny(p.StmtSrc(d), "\r\n") || !p.CanPlace(d, s) {
			return
		}
		before, after := c.places(s, d)
		if !before && !after {
			return
		}
		changedOperators(p, c.inside[d], func(site int, t string) { insertsAt(s, d, site, t, before, after, emit) })
	}
}
