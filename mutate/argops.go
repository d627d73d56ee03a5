// The default-arg operator (a lookup call that raises when the key is
// missing given the default value the developer meant) and item-call (an
// assignment to an item that meant to add one).

package mutate

import (
	"bytes"
	"regexp"
	"strings"

	"repair/program"
)

// lookupDefaults are the callees whose last argument may be followed by a
// default value, with the number of positional arguments they take
// without it and the defaults a fix gives them.
var lookupDefaults = []struct {
	callee   string // a method (".pop") or a builtin ("getattr")
	args     int
	defaults []string
}{
	{".pop", 1, []string{"None"}},
	{".get", 1, []string{"0", `""`, "[]"}},
	{"getattr", 2, []string{"None"}},
	{"next", 1, []string{"None"}},
}

// defaults returns the default values site id, the last positional
// argument of a lookup call (lookupDefaults) with no default yet, may be
// followed by; nil for any other site.
func (c *Context) defaults(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteExpr || s.Role != program.RoleArg || s.InString || s.Node == "generator_expression" {
		return nil
	}
	src := p.Src
	end := s.End
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if end >= len(src) || src[end] != ')' {
		return nil
	}
	// The opening parenthesis: right before the site for a call of one
	// argument, before the argument list's first part for more.
	open, n := s.Start, 1
	if ai, ok := argsLast.get(c)[program.Span{Start: s.Start, End: s.End}]; ok {
		a := &p.Sites[ai]
		open, n = a.Start+1, len(a.Parts)
		if a.End != end+1 {
			return nil // a keyword argument follows
		}
	}
	for open > 0 && (src[open-1] == ' ' || src[open-1] == '\t') {
		open--
	}
	if open == 0 || src[open-1] != '(' {
		return nil
	}
	callee := src[:open-1] // (not copied: the file up to here)
	for _, d := range lookupDefaults {
		if d.args != n || !bytes.HasSuffix(callee, []byte(d.callee)) {
			continue
		}
		if d.callee[0] != '.' {
			// A builtin's name stands alone: not x.getattr, not my_next.
			if k := len(callee) - len(d.callee); k > 0 && (isIdentByte(callee[k-1]) || callee[k-1] == '.') {
				continue
			}
		}
		return d.defaults
	}
	return nil
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// lookupTargets are default-arg's: the last arguments of lookup calls
// without a default.
var lookupTargets = keptSites(hasDefaults, program.SiteExpr, program.SiteCond)

func hasDefaults(c *Context, id int) bool { return len(c.defaults(id)) > 0 }

// argsLast are the argument lists (program.SiteArgs) by their last
// positional argument.
var argsLast = newFact(func(c *Context) map[program.Span]int {
	p := c.Prog
	out := map[program.Span]int{}
	for i := range p.Sites {
		if a := &p.Sites[i]; a.Kind == program.SiteArgs && len(a.Parts) > 0 {
			out[a.Parts[len(a.Parts)-1]] = i
		}
	}
	return out
})

var opDefaultArg = Operator{
	Name: "default-arg",
	Doc: "give a lookup call the default value it lacks\n\n" +
		"cache.pop(key) into cache.pop(key, None); getattr(obj, name) into\n" +
		"getattr(obj, name, None); next(it) into next(it, None); d.get(k) into\n" +
		"d.get(k, 0), d.get(k, \"\") or d.get(k, []).",
	Targets: lookupTargets.get,
	Weight:  0.1,
	Applies: hasDefaults,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		text := c.Prog.SiteText(id)
		for _, d := range c.defaults(id) {
			emit(replaceText(id, text+", "+d))
		}
	},
}

// itemAssign matches a one-line assignment to one item of a sequence:
// the sequence, the index and the value.
var itemAssign = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.]*)\[([^\[\]=]+)\]\s*=\s*([^=]+)$`)

// itemCalls returns the calls statement i, an assignment to an item
// (xs[i] = v), may have meant: xs.append(v), xs.insert(i, v).
func (c *Context) itemCalls(i int) []string {
	st := &c.Prog.Stmts[i]
	if st.Kind != "expression_statement" || st.Compound {
		return nil
	}
	text := strings.TrimSpace(c.Prog.StmtText(i))
	m := itemAssign.FindStringSubmatch(text)
	if m == nil || strings.ContainsAny(text, "\r\n;") {
		return nil
	}
	seq, idx, val := m[1], strings.TrimSpace(m[2]), strings.TrimSpace(m[3])
	if strings.Contains(idx, ":") || topLevelComma(val) {
		return nil
	}
	return []string{seq + ".append(" + val + ")", seq + ".insert(" + idx + ", " + val + ")"}
}

// topLevelComma reports whether text holds a comma outside brackets (a
// tuple without parentheses). A string or a comment may hide brackets:
// then the edit is skipped, not broken.
func topLevelComma(text string) bool {
	return strings.ContainsAny(text, "'\"#") || len(topLevel(text)) > 1
}

// itemTargets are item-call's: movable statements assigning an item that
// it turns into a call.
var itemTargets = keptStmts(func(c *Context, s int) bool { return len(c.itemCalls(s)) > 0 })

var opItemCall = Operator{
	Name: "item-call",
	Doc: "turn an assignment to an item into an append or insert\n\n" +
		"self.lists[0] = tmp into self.lists.append(tmp) or self.lists.insert(0, tmp).",
	Targets: itemTargets.get,
	Weight:  0.1,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		for _, t := range c.itemCalls(s) {
			emit(program.Edit{Op: program.ReplaceLine, Stmt: s, Text: t})
		}
	},
}
