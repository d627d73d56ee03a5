// Operators of control and data flow that developers' fixes of real bugs
// add: stop-after (a handler that reports an error and then falls through
// into the code the error should have skipped), use-local (a value
// computed into a local that is never read, and computed again where it
// was meant to be used), getattr-dunder (a __getattr__ that makes up
// special names too) and yield-nonempty (a generator's empty last chunk).

package mutate

import (
	"regexp"
	"slices"
	"strings"

	"repair/program"
)

// stopExits returns the statements that may follow statement s, the last
// statement of an except clause and a call whose result is dropped
// (too_short(), log.warning(...)), to leave what the error should have
// skipped: return in a function, break and continue in a loop. Nil for
// any other statement.
func (c *Context) stopExits(s int) []string {
	p := c.Prog
	st := &p.Stmts[s]
	if st.Kind != "expression_statement" || st.Compound || st.Docstring || !p.InFunction(s) {
		return nil
	}
	text := strings.TrimSpace(p.StmtText(s))
	if !strings.HasSuffix(text, ")") || strings.ContainsAny(text, "\r\n;") || !isCallee(text[:strings.IndexByte(text, '(')+1]) {
		return nil
	}
	if b := &p.Blocks[st.Block]; b.Stmts[len(b.Stmts)-1] != s || !exceptClause(p, st.Block) {
		return nil
	}
	out := []string{"return"}
	if p.InLoop(s) {
		out = append(out, "break", "continue")
	}
	return out
}

// isCallee reports whether head, a statement's text up to its first
// parenthesis, is a callee and that parenthesis (f(, self.log.warn().
func isCallee(head string) bool {
	n, ok := strings.CutSuffix(head, "(")
	if !ok {
		return false
	}
	for _, part := range strings.Split(n, ".") {
		if !isName(part) {
			return false
		}
	}
	return true
}

// exceptClause reports whether block b is the body of an except clause:
// a block of a try statement after its first, whose header says except.
func exceptClause(p *program.Program, b int) bool {
	o := p.Blocks[b].Owner
	if o < 0 || p.Stmts[o].Kind != "try_statement" {
		return false
	}
	bs := p.Stmts[o].Blocks
	for k := 1; k < len(bs); k++ {
		if bs[k] != b {
			continue
		}
		prev := p.Blocks[bs[k-1]].Stmts
		from := p.Stmts[prev[len(prev)-1]].End
		to := p.Stmts[p.Blocks[b].Stmts[0]].Start
		return from <= to && strings.HasPrefix(strings.TrimSpace(p.Text(from, to)), "except")
	}
	return false
}

var stopTargets = keptStmts(func(c *Context, s int) bool { return len(c.stopExits(s)) > 0 })

var opStopAfter = Operator{
	Name: "stop-after",
	Doc: "leave after an except clause's last call\n\n" +
		"except StopIteration: too_short() into except StopIteration: too_short();\n" +
		"return (break or continue in a loop): a handler that reports an error and\n" +
		"falls through into what the error should have skipped.",
	Targets: stopTargets.get,
	Weight:  0.15,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		text := strings.TrimSpace(c.Prog.StmtText(s))
		for _, x := range c.stopExits(s) {
			emit(program.Edit{Op: program.ReplaceLine, Stmt: s, Text: text + "\n" + x})
		}
	},
}

// deadStore matches a statement that assigns a call to a plain name.
var deadStore = regexp.MustCompile(`^([A-Za-z_]\w*)\s*=\s*([A-Za-z_][\w.]*)\(`)

// store is a local assigned a call's value and never read: its name,
// the callee, and the assigning statement.
type store struct {
	name, callee string
	stmt         int
}

// unreadStores are the file's locals assigned a call and never read in
// their function (a dead store, which linters flag: the code computed a
// value and meant to use it), by the site ids where use-local may put
// them: SiteExpr sites after the store, in its block or nested in it,
// whose text holds a call of the same callee (innermost site only).
var unreadStores = newFact(func(c *Context) map[int][]string {
	p := c.Prog
	var stores []store
	for i := range p.Stmts {
		st := &p.Stmts[i]
		if st.Kind != "expression_statement" || !p.InFunction(i) {
			continue
		}
		text := p.StmtText(i)
		if !strings.HasSuffix(text, ")") || strings.ContainsAny(text, "\r\n;") {
			continue
		}
		m := deadStore.FindStringSubmatch(text)
		if m == nil || closing([]byte(text), len(m[0])-1) != len(text)-1 || p.Declared(st.Scope, m[1]) {
			continue
		}
		stores = append(stores, store{m[1], m[2], i})
	}
	out := map[int][]string{}
	if len(stores) == 0 {
		return out
	}
	reads := map[string][]int{} // where each name is read, in order
	for i := range p.Sites {
		if s := &p.Sites[i]; s.Kind == program.SiteIdent && !s.Store {
			n := p.SiteText(i)
			reads[n] = append(reads[n], s.Start)
		}
	}
	for _, at := range reads {
		slices.Sort(at)
	}
	for _, d := range stores {
		def := &p.Stmts[p.Scopes[p.Stmts[d.stmt].Scope].Stmt]
		at := reads[d.name]
		if k, _ := slices.BinarySearch(at, def.Start); k < len(at) && at[k] < def.End {
			continue
		}
		for i := range p.Sites {
			s := &p.Sites[i]
			if s.Kind != program.SiteExpr || s.InString || p.Stmts[s.Stmt].Scope != p.Stmts[d.stmt].Scope || !follows(p, d.stmt, s.Stmt) {
				continue
			}
			text := p.SiteText(i)
			for _, r := range callsOf(text, d.callee) {
				if innermost(p, i, s.Start+r[0], s.Start+r[1]) {
					out[i] = append(out[i], s.Fit(text[:r[0]]+d.name+text[r[1]:], s.Prec))
				}
			}
		}
	}
	return out
})

// follows reports whether statement s runs after statement a wherever a
// runs first: it stands after a in a's block, or inside a statement that
// does.
func follows(p *program.Program, a, s int) bool {
	for t := s; t >= 0; t = p.Stmts[t].Parent {
		if p.Stmts[t].Block == p.Stmts[a].Block {
			return p.Stmts[t].Start > p.Stmts[a].End
		}
	}
	return false
}

// callsOf returns the byte ranges of the calls of callee in text: the
// callee not after a name's character or a dot, its parenthesis right
// after it, through the closing one.
func callsOf(text, callee string) [][2]int {
	var out [][2]int
	for from := 0; ; {
		i := strings.Index(text[from:], callee+"(")
		if i < 0 {
			return out
		}
		i += from
		from = i + len(callee)
		if i > 0 && (text[i-1] == '.' || text[i-1] == '_' || isWordByte(text[i-1])) {
			continue
		}
		if end := closing([]byte(text), i+len(callee)); end > 0 {
			out = append(out, [2]int{i, end + 1})
		}
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// innermost reports whether no other SiteExpr of site id's statement,
// inside site id, holds the byte range [start, end).
func innermost(p *program.Program, id, start, end int) bool {
	s := &p.Sites[id]
	for i := range p.Sites {
		o := &p.Sites[i]
		if i != id && o.Kind == program.SiteExpr && o.Stmt == s.Stmt && o.Start >= s.Start && o.End <= s.End &&
			(o.Start > s.Start || o.End < s.End) && o.Start <= start && end <= o.End {
			return false
		}
	}
	return true
}

var opUseLocal = replacing(Operator{
	Name: "use-local",
	Doc: "use a local that is assigned and never read for a call of the same function\n\n" +
		"p = Parser(fmt, case_sensitive=cs) then return Parser(fmt).findall(s) into\n" +
		"return p.findall(s): the code computed a value and meant to use it.",
	Weight: 0.2,
}, func(c *Context, id int) []string { return unreadStores.get(c)[id] }, program.SiteExpr)

// dunderRefusal returns the statement getattr-dunder puts before
// statement s, the first of a __getattr__ that makes attributes up
// without refusing special names ("" for any other statement): Python's
// protocols look special names up on the object (copy.copy asks for
// __reduce_ex__, pickle for __getstate__, hasattr(x, "__iter__")) and
// take an AttributeError for "not provided"; a __getattr__ that returns
// something for them breaks copying, pickling and more.
func (c *Context) dunderRefusal(s int) string {
	p := c.Prog
	sc := &p.Scopes[p.Stmts[s].Scope]
	if sc.Kind != "function" || !strings.HasSuffix("."+sc.Name, ".__getattr__") || sc.Stmt < 0 || c.bodyStart(s) != s {
		return ""
	}
	def := p.StmtText(sc.Stmt)
	if strings.Contains(def, `"__`) || strings.Contains(def, `'__`) || strings.Contains(def, "AttributeError") {
		return "" // it refuses some names already
	}
	i := strings.Index(def, "__getattr__(")
	if i < 0 {
		return ""
	}
	open := i + len("__getattr__")
	params := topLevel(def[open+1 : closing([]byte(def), open)])
	k := 0
	if p.Scopes[sc.Parent].Kind == "class" {
		k = 1 // after self
	}
	if len(params) <= k {
		return ""
	}
	name, _, _ := strings.Cut(strings.TrimSpace(params[k]), ":")
	if name = strings.TrimSpace(name); !isName(name) {
		return ""
	}
	return "if " + name + `.startswith("__"): raise AttributeError(` + name + ")"
}

var dunderTargets = keptStmts(func(c *Context, s int) bool { return c.dunderRefusal(s) != "" })

var opGetattrDunder = Operator{
	Name: "getattr-dunder",
	Doc: "make a __getattr__ refuse special names\n\n" +
		"if name.startswith(\"__\"): raise AttributeError(name) first in a __getattr__\n" +
		"that makes attributes up: copy, pickle and hasattr look special names up and\n" +
		"take an AttributeError for \"not provided\".",
	Targets: dunderTargets.get,
	Weight:  0.15,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		if t := c.dunderRefusal(s); t != "" {
			emit(program.Edit{Op: program.InsertText, Stmt: s, Text: t})
		}
	},
}

// guardedYields returns the names a generator yields only when they are
// not empty (if buf: yield buf), for the function of statement s.
func (c *Context) guardedYields(s int) []string {
	p := c.Prog
	sc := p.Stmts[s].Scope
	return guardedYieldsOf.get(c).get(sc, func() []string {
		var out []string
		for i := range p.Stmts {
			st := &p.Stmts[i]
			if st.Scope != sc || st.Kind != "if_statement" || len(st.Blocks) != 1 || len(p.Blocks[st.Blocks[0]].Stmts) != 1 {
				continue
			}
			head, _, _ := strings.Cut(p.StmtText(i), ":")
			n := strings.TrimSpace(strings.TrimPrefix(head, "if "))
			body := strings.TrimSpace(p.StmtText(p.Blocks[st.Blocks[0]].Stmts[0]))
			if isName(n) && body == "yield "+n && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
		return out
	})
}

var guardedYieldsOf = newCache[int, []string]()

// nonEmptyYields returns the lines yield-nonempty puts for statement s,
// a yield of a value built on the spot (yield list(it)) in a generator
// that yields other values only when they are not empty: the value under
// the name it yields so, yielded under the same guard.
func (c *Context) nonEmptyYields(s int) []string {
	p := c.Prog
	st := &p.Stmts[s]
	if st.Kind != "expression_statement" || st.Compound || !p.InFunction(s) {
		return nil
	}
	text := strings.TrimSpace(p.StmtText(s))
	v, ok := strings.CutPrefix(text, "yield ")
	if !ok || strings.HasPrefix(v, "from ") || strings.ContainsAny(text, "\r\n;") || isName(v) {
		return nil
	}
	var out []string
	for _, n := range c.guardedYields(s) {
		if !strings.Contains(v, n) {
			out = append(out, n+" = "+v+"\nif "+n+":\n    yield "+n)
		}
	}
	return out
}

var nonEmptyTargets = keptStmts(func(c *Context, s int) bool { return len(c.nonEmptyYields(s)) > 0 })

var opYieldNonEmpty = Operator{
	Name: "yield-nonempty",
	Doc: "yield a value only when it is not empty, as the generator does elsewhere\n\n" +
		"yield list(it) into buf = list(it); if buf: yield buf, in a generator that\n" +
		"has if buf: yield buf: the last chunk of a split may be empty.",
	Targets: nonEmptyTargets.get,
	Weight:  0.15,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		for _, t := range c.nonEmptyYields(s) {
			emit(program.Edit{Op: program.ReplaceLine, Stmt: s, Text: t})
		}
	},
}
