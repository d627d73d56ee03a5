// Operators on names (issue 28): a name into a similar one, one name
// renamed at every use in a statement or function, and a callable called.

package mutate

import (
	"slices"
	"strings"

	"repair/program"
)

// similar reports whether two names are alike enough to be confused:
// one extends the other (l_bar, l_bar_user), or they differ by one
// character (l_bar, r_bar; e1, e2), or by two in long names.
func similar(a, b string) bool {
	if a == b || len(a) < 2 || len(b) < 2 {
		return false
	}
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	if strings.HasPrefix(long, short) || strings.HasSuffix(long, short) && long[len(long)-len(short)-1] == '_' {
		return true
	}
	if len(long)-len(short) > 2 {
		return false
	}
	d := editDistance(a, b)
	return d == 1 || d == 2 && len(short) >= 6
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// similarNames returns the names visible at statement stmt that are
// similar to name, in the order of Visible: names the program binds (a
// builtin is the ident operator's business: str_op is not str).
//
// Every scope sees the module's names, so in a large file the names read
// times the names visible would be millions of comparisons: the similar
// names of each list ScopeVisible merges are kept per list and name.
func (c *Context) similarNames(stmt int, name string) []string {
	var out []string
	parts := 0
	in := similarIn.get(c)
	in.mu.Lock()
	c.Prog.VisibleParts(c.Prog.Stmts[stmt].Scope, func(scope int, names []string) {
		k := similarKey{scope, name}
		got, ok := in.m[k]
		if !ok {
			for _, n := range names {
				if similar(name, n) && c.boundName(n) {
					got = append(got, n)
				}
			}
			in.m[k] = got
		}
		if len(got) > 0 {
			out = append(out, got...)
			parts++
		}
	})
	in.mu.Unlock()
	if parts > 1 {
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// similarKey is a list of visible names (a scope, -1 the builtins) and a
// name, whose similar names in the list similarIn keeps.
type similarKey struct {
	scope int
	name  string
}

// similarIn caches similarNames' lists.
var similarIn = newCache[similarKey, []string]()

// hasSimilar reports whether the name read at site id has a similar name
// in scope (similar-name's targets).
func (c *Context) hasSimilar(id int) bool {
	p := c.Prog
	return len(c.similarNames(p.Sites[id].Stmt, p.SiteText(id))) > 0
}

// similarTargets are similar-name's: name reads with a similar name in
// scope.
var similarTargets = keptReads((*Context).hasSimilar)

// readSite reports whether site id is a name read that a name operator
// may change.
func readSite(p *program.Program, id int) bool {
	s := &p.Sites[id]
	return s.Kind == program.SiteIdent && !s.Store && !s.Pinned
}

var opSimilarName = Operator{
	Name: "similar-name",
	Doc: "replace a name by a similar name visible in the same scope\n\n" +
		"l_bar into l_bar_user, r_bar into l_bar, e1 into e2: a name that extends the\n" +
		"other or differs from it by a character (two in long names).",
	Targets: similarTargets.get,
	Weight:  0.25,
	Applies: func(c *Context, id int) bool {
		return readSite(c.Prog, id) && len(c.similarNames(c.Prog.Sites[id].Stmt, c.Prog.SiteText(id))) > 0
	},
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		if !readSite(p, id) {
			return
		}
		for _, n := range c.similarNames(p.Sites[id].Stmt, p.SiteText(id)) {
			emit(replaceText(id, n))
		}
	},
}

// renameLevels returns the statements a rename of the name read at site
// id may cover, innermost first: its statement, the statement of the
// function body (or module) that holds it, and the enclosing function.
// Each covers more uses of the name than the one before; the first site
// of the name in each (the edit's Site) and the count of its uses.
func (c *Context) renameLevels(id int) (stmts, firsts []int) {
	p := c.Prog
	name := p.SiteText(id)
	s := p.Sites[id].Stmt
	var levels []int
	levels = append(levels, s)
	fn := p.Scopes[p.Stmts[s].Scope].Stmt
	top := s
	for p.Stmts[top].Parent >= 0 && p.Stmts[top].Parent != fn {
		top = p.Stmts[top].Parent
	}
	levels = append(levels, top)
	if fn >= 0 && p.Scopes[p.Stmts[s].Scope].Kind == "function" {
		levels = append(levels, fn)
	}
	prev := 1
	for _, st := range levels {
		n, first := 0, -1
		for _, j := range c.idents[st] {
			if readSite(p, j) && p.SiteText(j) == name {
				if first < 0 {
					first = j
				}
				n++
			}
		}
		if n > prev {
			stmts, firsts = append(stmts, st), append(firsts, first)
			prev = n
		}
	}
	return stmts, firsts
}

// renameTargets are rename's: name reads that occur again in their
// statement or function, with a similar name or a conversion.
var renameTargets = keptReads(func(c *Context, i int) bool {
	p := c.Prog
	s := &p.Sites[i]
	stmts, _ := c.renameLevels(i)
	return len(stmts) > 0 && (c.hasSimilar(i) || stmts[0] == s.Stmt && !p.Stmts[s.Stmt].Compound &&
		p.Stmts[s.Stmt].Kind != "delete_statement" && len(c.conversions(p.SiteText(i))) > 0)
})

var opRename = Operator{
	Name: "rename",
	Doc: "rename a name at every use in a statement or function\n\n" +
		"format_meter(l_bar, n, l_bar) into format_meter(l_bar_user, n, l_bar_user): one\n" +
		"name read two or more times, changed into a similar name (as similar-name) at\n" +
		"each read of its statement, of the statement of the function that holds it, or\n" +
		"of the whole function; or wrapped in a conversion at each read of its statement:\n" +
		"f\"{n}B\" if gnu else f\"{n} B\" into f\"{int(n)}B\" if gnu else f\"{int(n)} B\".",
	Targets: renameTargets.get,
	Weight:  0.15,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		p := c.Prog
		if !readSite(p, id) {
			return
		}
		stmts, firsts := c.renameLevels(id)
		name := p.SiteText(id)
		names := c.similarNames(p.Sites[id].Stmt, name)
		for k, st := range stmts {
			for _, n := range names {
				emit(program.Edit{Op: program.Rename, Stmt: st, Site: firsts[k], Text: n})
			}
			if st != p.Sites[id].Stmt || p.Stmts[st].Compound || p.Stmts[st].Kind == "delete_statement" {
				continue // a simple statement only: del int(x) does not compile
			}
			// Wrapped at every read: of the statement only.
			for _, f := range c.conversions(name) {
				emit(program.Edit{Op: program.Rename, Stmt: st, Site: firsts[k], Text: f + "(" + name + ")"})
			}
		}
	},
}

// conversions returns the calls rename may wrap a name in at every read:
// int and abs for a name the file uses as a number, list and sorted for a
// sequence, else str and int — the builtins the program does not rebind.
func (c *Context) conversions(name string) []string {
	fs := []string{"str", "int"}
	switch {
	case c.shapes().num[name]:
		fs = []string{"int", "abs"}
	case c.shapes().seq[name]:
		fs = []string{"list", "sorted"}
	}
	var out []string
	for _, f := range fs {
		if c.builtin(f) && name != f {
			out = append(out, f)
		}
	}
	return out
}

// callable reports whether site id is a name or attribute used as a
// truth value or a result where a call of it may have been meant: a
// condition, the operand of not, and or or, a returned or assigned value,
// that the file uses as no number nor sequence.
func (c *Context) callable(id int) bool {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteExpr && s.Kind != program.SiteCond || s.Node != "identifier" && s.Node != "attribute" || s.Store {
		return false
	}
	switch s.Role {
	case program.RoleCond, program.RoleReturn, program.RoleValue:
	case program.RoleOperand:
		if s.MinPrec > program.PrecNot {
			return false
		}
	default:
		return false
	}
	text := p.SiteText(id)
	return !strings.ContainsAny(text, "\r\n") && !c.shapes().num[text] && !c.shapes().seq[text] && text != "self" && text != "cls"
}

// callArgs returns the argument lists a call of site id may take: none,
// each parameter of the lambda or function around it, and all of them.
func (c *Context) callArgs(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	var params [][]string
	if lp := lambdaParams(p, id); lp != nil {
		params = append(params, lp)
	}
	if sc := &p.Scopes[p.Stmts[s.Stmt].Scope]; sc.Kind == "function" && sc.Stmt >= 0 {
		params = append(params, defParams(p.StmtText(sc.Stmt)))
	}
	out := []string{""}
	seen := map[string]bool{"": true}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	self := p.SiteText(id)
	for _, ps := range params {
		for _, a := range ps {
			if a != self {
				add(a)
			}
		}
	}
	for _, ps := range params {
		if len(ps) > 1 {
			add(strings.Join(ps, ", "))
		}
	}
	return out
}

// defParams returns the parameter names of a def (a decorated one too),
// without self and cls and without the starred ones.
func defParams(text string) []string {
	i := strings.Index(text, "def ")
	if i < 0 {
		return nil
	}
	open := strings.IndexByte(text[i:], '(')
	if open < 0 {
		return nil
	}
	open += i
	return paramNames(text[open+1 : closing([]byte(text), open)])
}

// paramNames returns the plain names of a parameter list's text (not
// self, cls, nor the starred ones).
func paramNames(list string) []string {
	var out []string
	for _, a := range params(list) {
		if a != "self" && a != "cls" && !strings.HasPrefix(a, "*") {
			out = append(out, a)
		}
	}
	return out
}

// allParams returns every parameter name of a def, starred ones too.
func allParams(text string) []string {
	i := strings.Index(text, "def ")
	if i < 0 {
		return nil
	}
	open := strings.IndexByte(text[i:], '(')
	if open < 0 {
		return nil
	}
	open += i
	var out []string
	for _, a := range params(text[open+1 : closing([]byte(text), open)]) {
		out = append(out, strings.TrimLeft(a, "*"))
	}
	return out
}

// params returns the parameters of a parameter list's text: each name,
// with its stars.
func params(list string) []string {
	var out []string
	for _, a := range topLevel(list) {
		a = strings.TrimSpace(a)
		if a == "" || a == "*" || a == "/" {
			continue
		}
		a = strings.TrimSpace(strings.FieldsFunc(a, func(r rune) bool { return r == ':' || r == '=' })[0])
		if isName(strings.TrimLeft(a, "*")) {
			out = append(out, a)
		}
	}
	return out
}

func isName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' || r >= 0x80) {
			return false
		}
	}
	return s != ""
}

// lambdaParams returns the parameters of the innermost lambda of site
// id's statement whose body holds the site (nil when none): the text
// after "lambda" up to its colon, the body after it up to a comma or a
// closing bracket of its level.
func lambdaParams(p *program.Program, id int) []string {
	s := &p.Sites[id]
	st := &p.Stmts[s.Stmt]
	src := p.Src[:st.End]
	var best []string
	for i := st.Start; i+6 <= s.Start; i++ {
		if string(src[i:i+6]) != "lambda" || i > 0 && wordByte(src[i-1]) || i+6 < len(src) && wordByte(src[i+6]) {
			continue
		}
		// The parameters end at the first colon outside brackets.
		depth, colon := 0, -1
		for j := i + 6; j < len(src) && colon < 0; j++ {
			switch src[j] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ':':
				if depth == 0 {
					colon = j
				}
			}
		}
		if colon < 0 || colon >= s.Start {
			continue
		}
		// The body ends at a comma or closing bracket of its level.
		depth, end := 0, len(src)
		for j := colon + 1; j < len(src) && end == len(src); j++ {
			switch src[j] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth == 0 {
					end = j
				}
				depth--
			case ',':
				if depth == 0 {
					end = j
				}
			}
		}
		if s.End <= end {
			best = paramNames(string(src[i+6 : colon]))
			if best == nil {
				best = []string{}
			}
		}
	}
	return best
}

func wordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// callTargets are add-call's: names and attributes a call of may have
// been meant.
var callTargets = keptSites((*Context).callable, program.SiteExpr, program.SiteCond)

var opAddCall = Operator{
	Name: "add-call",
	Doc: "call a function used where its result was meant\n\n" +
		"lambda attr, value: not str_op into not str_op(attr, value); if check into\n" +
		"if check(x): a name or attribute tested or returned, called with no argument,\n" +
		"one parameter or all the parameters of the lambda or function around it.",
	Targets: callTargets.get,
	Weight:  0.15,
	Applies: (*Context).callable,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		if !c.callable(id) {
			return
		}
		s := &c.Prog.Sites[id]
		cur := c.Prog.SiteText(id)
		for _, a := range c.callArgs(id) {
			emit(replaceText(id, s.Fit(cur+"("+a+")", program.PrecAtom)))
		}
	},
}
