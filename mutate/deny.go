// The deny list: names that reach the test machinery or the process,
// which no edit brings into a function that did not use them.

package mutate

import (
	"regexp"
	"strings"
	"sync"

	"repair/program"
)

// Denied is the deny list: names and forms by which code under test can
// reach the test framework, the interpreter's frames and objects or the
// process, and so forge the verdict of a test file it runs next to (a
// test-file suite's asserts run in the candidate's process; see
// docs/engines.md). An edit that brings one of them into a function (or
// class, or module-level code) whose original text does not use it is
// never proposed: not by an operator, the neighbourhood, a refinement or
// a donor's code. Code that already uses one may keep using it.
var Denied = []DenyEntry{
	{"pytest", `\bpytest\b`},
	{"_pytest", `\b_pytest\b`},
	{"doctest", `\bdoctest\b`},
	{"sys._getframe", `\b_getframe\b`},
	{"inspect", `\binspect\b`},
	{"gc", `\bgc\b`},
	{"ctypes", `\bctypes\b`},
	{"builtins", `\b(?:__)?builtins(?:__)?\b`},
	{"__code__", `\b__code__\b`},
	{"__globals__", `\b__globals__\b`},
	{"os._exit", `\b_exit\b`},
	{"atexit", `\batexit\b`},
	{"sys.modules", `\bsys\s*\.\s*modules\b`},
	{"a new __eq__", `\bdef\s+__eq__\b|\b__eq__\s*=`},
	{"a new __hash__", `\bdef\s+__hash__\b|\b__hash__\s*=`},
}

// DenyEntry is one entry of [Denied]: its name and the pattern that finds
// it in code.
type DenyEntry struct {
	Name    string
	Pattern string
}

// denyKeys are, per entry of Denied, a substring every match holds (a
// quick test before the pattern); denyRes compiles the patterns on first
// use (a process that never mutates, such as a sandboxed worker, never
// pays for them).
var (
	denyKeys = []string{"pytest", "_pytest", "doctest", "_getframe", "inspect", "gc", "ctypes", "builtins",
		"__code__", "__globals__", "_exit", "atexit", "modules", "__eq__", "__hash__"}
	denyRes = sync.OnceValue(func() []*regexp.Regexp {
		res := make([]*regexp.Regexp, len(Denied))
		for i, d := range Denied {
			res[i] = regexp.MustCompile(d.Pattern)
		}
		return res
	})
)

// denyMask is the set of entries of Denied that text uses, as bits.
func denyMask(text string) uint32 {
	var m uint32
	for i, k := range denyKeys {
		if strings.Contains(text, k) && denyRes()[i].MatchString(text) {
			m |= 1 << i
		}
	}
	return m
}

// DeniedNames lists the entries of Denied that text uses, in the list's
// order (for messages: `repair batch` reports a submission that uses
// them).
func DeniedNames(text string) []string {
	var out []string
	m := denyMask(text)
	for i, d := range Denied {
		if m&(1<<i) != 0 {
			out = append(out, d.Name)
		}
	}
	return out
}

// denyInfo is what Context.denied needs: nil when the program (donors
// included) uses no entry of Denied, so that no edit can bring one in.
type denyInfo struct {
	stmt  []uint32 // per statement, the entries its text uses
	scope []uint32 // per scope, the entries its original text uses
}

// initDeny prepares the deny check of c's program.
func (c *Context) initDeny() {
	p := c.Prog
	if denyMask(string(p.Src)) == 0 {
		return
	}
	d := &denyInfo{stmt: make([]uint32, len(p.Stmts)), scope: make([]uint32, len(p.Scopes))}
	for i := range p.Stmts {
		d.stmt[i] = denyMask(p.StmtText(i))
	}
	for i, sc := range p.Scopes {
		if sc.Stmt < 0 {
			d.scope[i] = denyMask(string(p.Strip(p.Src)))
		} else {
			d.scope[i] = d.stmt[sc.Stmt]
		}
	}
	c.deny = d
}

// denied reports whether edit e brings an entry of Denied into code whose
// original does not use it: the function (class, module-level code) that
// receives the text the edit puts in.
func (c *Context) denied(e program.Edit) bool {
	d := c.deny
	if d == nil {
		return false
	}
	p := c.Prog
	// home is what the original of the code receiving text at statement
	// s uses: its scope's, or for a definition replaced whole, its own.
	home := func(s int, replaced bool) uint32 {
		if replaced && definition(&p.Stmts[s]) {
			return d.stmt[s]
		}
		return d.scope[p.Stmts[s].Scope]
	}
	switch e.Op {
	case program.InsertBefore, program.InsertAfter, program.Replace:
		in := d.stmt[e.Donor]
		if e.Text != "" {
			in |= denyMask(e.Text)
		}
		return in&^home(e.Stmt, e.Op == program.Replace) != 0
	case program.Swap:
		return d.stmt[e.Donor]&^home(e.Stmt, true) != 0 || d.stmt[e.Stmt]&^home(e.Donor, true) != 0
	case program.ReplaceText:
		return denyMask(e.Text)&^home(p.Sites[e.Site].Stmt, false) != 0
	case program.ReplaceLine:
		return denyMask(e.Text)&^home(e.Stmt, false) != 0
	case program.SwapText:
		a, b := &p.Sites[e.Site], &p.Sites[e.Site2]
		return denyMask(p.SiteText(e.Site2))&^home(a.Stmt, false) != 0 || denyMask(p.SiteText(e.Site))&^home(b.Stmt, false) != 0
	}
	return false
}

// definition reports whether s is a def or class statement.
func definition(s *program.Stmt) bool {
	switch s.Kind {
	case "function_definition", "class_definition", "decorated_definition":
		return true
	}
	return false
}
