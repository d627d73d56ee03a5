// Operators that raise: a guard that raises an exception the file
// already raises, and a try/except that turns one exception into the
// module's own (or a try/except removed).

package mutate

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"repair/program"
)

// raised is an exception class the file raises, with the raise
// statements of it whose arguments read no name (raise Error("empty
// version")): a new raise may copy them anywhere.
type raised struct {
	class string
	n     int      // raise statements of it
	texts []string // whole "raise ..." texts
}

// maxRaised bounds the classes a new raise takes, the most raised first.
const maxRaised = 3

// raiseHead matches a raise statement's class: raise Error, raise
// errors.Error(...).
var raiseHead = regexp.MustCompile(`^raise\s+([A-Za-z_][A-Za-z0-9_.]*)\s*(\(|$)`)

// raisedClasses returns the exception classes the file raises, the most
// raised first (made once per context).
func (c *Context) raisedClasses() []raised { return raisedClassesFact.get(c) }

var raisedClassesFact = newFact(func(c *Context) []raised {
	p := c.Prog
	by := map[string]*raised{}
	var out []*raised
	for s := range p.Stmts {
		if p.Stmts[s].Kind != "raise_statement" {
			continue
		}
		text := strings.TrimSpace(p.StmtText(s))
		m := raiseHead.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		r := by[m[1]]
		if r == nil {
			r = &raised{class: m[1]}
			by[m[1]] = r
			out = append(out, r)
		}
		r.n++
		if len(r.texts) < 2 && !strings.ContainsAny(text, "\r\n") && !slices.Contains(r.texts, text) && c.readsNoName(s, m[1]) {
			r.texts = append(r.texts, text)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].n > out[j].n })
	var list []raised
	for _, r := range out {
		if len(r.texts) == 0 {
			r.texts = []string{"raise " + r.class}
		}
		list = append(list, *r)
	}
	return list
})

// readsNoName reports whether statement s reads no name but class's
// first part.
func (c *Context) readsNoName(s int, class string) bool {
	base, _, _ := strings.Cut(class, ".")
	for _, id := range c.idents[s] {
		if c.Prog.SiteText(id) != base {
			return false
		}
	}
	return true
}

// raiseConds returns the conditions a new raise at statement s tests:
// not n and n is None for each name and attribute of the function bound
// there, and the file's comparisons on them (as they stand).
func (c *Context) raiseConds(s int) []string {
	var out []string
	var names []string
	for _, n := range c.bound(s) {
		if n != "self" && n != "cls" {
			names = append(names, n)
		}
	}
	for _, n := range names {
		out = append(out, "not "+n, n+" is None")
	}
	k := 0
	for _, d := range c.conds {
		if k == maxAlts || d.q || d.node != "comparison_operator" || !mentions(d.text, names) || d.async && !c.Prog.InAsync(s) {
			continue
		}
		out = append(out, d.text)
		k++
	}
	return out
}

// raiseGuardTargets are raise-guard's.
var raiseGuardTargets = keptStmts(func(c *Context, s int) bool {
	return c.guardable(s) && len(c.raisedClasses()) > 0 && len(c.bound(s)) > 0
})

var opRaiseGuard = Operator{
	Name: "raise-guard",
	Doc: "insert a check that raises an exception the file raises\n\n" +
		"if not version: raise ValueError(\"empty version\") before a statement: the\n" +
		"condition not n or n is None on a name or attribute of the function, or a\n" +
		"comparison of the file on one; the raise a copy of one of the file's\n" +
		"(whose arguments read no name), or raise E for a class E the file raises.",
	Targets: raiseGuardTargets.get,
	Weight:  0.15,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		if !c.guardable(s) || c.Prog.Stmts[s].Kind == "raise_statement" {
			return
		}
		rs := c.raisedClasses()
		for _, cond := range c.raiseConds(s) {
			for _, r := range rs[:min(len(rs), maxRaised)] {
				for _, t := range r.texts {
					emit(program.Edit{Op: program.InsertText, Stmt: s, Text: "if " + cond + ": " + t})
				}
			}
		}
	},
}

// exceptHead matches an except clause's classes.
var exceptHead = regexp.MustCompile(`(?m)^[ \t]*except\s*\(?\s*([A-Za-z_][A-Za-z0-9_.]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_.]*)*)`)

// caughtClasses returns the exception classes the file's except clauses
// name.
func (c *Context) caughtClasses() []string { return caughtClassesFact.get(c) }

var caughtClassesFact = newFact(func(c *Context) []string {
	var out []string
	for _, m := range exceptHead.FindAllSubmatch(c.Prog.Src, -1) {
		for _, n := range strings.Split(string(m[1]), ",") {
			if n = strings.TrimSpace(n); n != "" && n != "Exception" && n != "BaseException" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
})

// maxCaught bounds the exceptions a new try catches.
const maxCaught = 4

// catches returns the exceptions a try around statement text may catch:
// those its calls raise by their kind (decode raises UnicodeError, int
// ValueError, a subscript KeyError or IndexError), the file's caught
// ones, then ValueError and TypeError.
func (c *Context) catches(text string) []string {
	var out []string
	add := func(n string) {
		if !slices.Contains(out, n) && len(out) < maxCaught {
			out = append(out, n)
		}
	}
	switch {
	case strings.Contains(text, ".decode(") || strings.Contains(text, ".encode("):
		add("UnicodeError")
	case strings.Contains(text, "int(") || strings.Contains(text, "float(") || strings.Contains(text, "loads("):
		add("ValueError")
	}
	if strings.Contains(text, "[") {
		add("KeyError")
		add("IndexError")
	}
	for _, n := range c.caughtClasses() {
		add(n)
	}
	add("ValueError")
	add("TypeError")
	return out
}

// wrappable reports whether statement s may be wrapped in a try: a
// simple statement on one line of a function that may run, not an exit.
func (c *Context) wrappable(s int) bool {
	p := c.Prog
	st := &p.Stmts[s]
	if !c.guardable(s) || st.Compound || c.exits[s] {
		return false
	}
	switch st.Kind {
	case "expression_statement", "return_statement", "assert_statement":
	default:
		return false
	}
	// A statement without a call or a subscript rarely raises.
	text := p.StmtText(s)
	return !strings.ContainsAny(text, "\r\n") && strings.ContainsAny(text, "([")
}

// unwrappable reports whether statement s is a try whose body is one
// statement, which removing the try leaves in its place.
func (c *Context) unwrappable(s int) bool {
	st := &c.Prog.Stmts[s]
	return st.Kind == "try_statement" && len(st.Blocks) > 0 && len(c.Prog.Blocks[st.Blocks[0]].Stmts) == 1 && !c.dead[s]
}

// tryExceptTargets are try-except's.
var tryExceptTargets = keptStmts(func(c *Context, s int) bool {
	return c.unwrappable(s) || c.wrappable(s) && len(c.raisedClasses()) > 0
})

var opTryExcept = Operator{
	Name: "try-except",
	Doc: "wrap a statement in a try that raises the module's error, or remove a try\n\n" +
		"text = data.decode(\"utf-8\") into try: / text = data.decode(\"utf-8\") /\n" +
		"except UnicodeError: / raise Error(str(exc)): the exception caught one its\n" +
		"calls raise (UnicodeError for decode, ValueError for int, KeyError for a\n" +
		"subscript), one the file catches, ValueError or TypeError; the one raised a\n" +
		"class the file raises, with a copy of one of its raises or the message of\n" +
		"the exception caught. And a try whose body is one statement into that\n" +
		"statement.",
	Targets: tryExceptTargets.get,
	Weight:  0.1,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if c.unwrappable(s) {
			body := p.Blocks[p.Stmts[s].Blocks[0]].Stmts[0]
			if movable(&p.Stmts[body]) {
				emit(program.Edit{Op: program.Replace, Stmt: s, Donor: body})
			}
			return
		}
		if !c.wrappable(s) {
			return
		}
		text := strings.TrimSpace(p.StmtText(s))
		unit := p.IndentUnit
		rs := c.raisedClasses()
		for _, e := range c.catches(text) {
			for _, r := range rs[:min(len(rs), maxRaised)] {
				if r.class == e {
					continue
				}
				emit(program.Edit{Op: program.ReplaceLine, Stmt: s,
					Text: "try:\n" + unit + text + "\nexcept " + e + " as exc:\n" + unit + "raise " + r.class + "(str(exc)) from exc"})
				if t := r.texts[0]; t != "raise "+r.class {
					emit(program.Edit{Op: program.ReplaceLine, Stmt: s,
						Text: "try:\n" + unit + text + "\nexcept " + e + ":\n" + unit + t})
				}
			}
		}
	},
}
