// same-call and add-entry: what the file does elsewhere, done here too —
// a call it applies to values of the same kind, an entry of the kind a
// collection display holds.

package mutate

import (
	"slices"
	"sort"
	"strings"

	"repair/program"
)

// maxApplied bounds the calls same-call proposes at one site, and
// maxEntries the entries add-entry proposes for one display: the nearest
// in the file first.
const (
	maxApplied = 6
	maxEntries = 10
)

// applied is the file's calls that same-call copies: its method calls
// without arguments by the receiver's text and by the receiver's last
// name (tmp_token.value.upper(): "tmp_token.value" and "value"), and its
// one-argument calls of methods the file defines on self or cls
// (self._build_name(x): callee and where).
type applied struct {
	byRecv, byLast map[string][]string
	funcs          []appliedFunc
}

type appliedFunc struct {
	callee string
	at     int // the byte offset of one of its calls
}

var appliedFact = newFact(func(c *Context) *applied {
	p := c.Prog
	ix := c.callIndex()
	a := &applied{byRecv: map[string][]string{}, byLast: map[string][]string{}}
	seenFunc := map[string]bool{}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr || s.Node != "call" {
			continue
		}
		cl, ok := parseCall(p.SiteText(i))
		if !ok || len(cl.keywords) > 0 {
			continue
		}
		dot := strings.LastIndexByte(cl.callee, '.')
		switch {
		case len(cl.args) == 0 && dot > 0:
			recv, m := cl.callee[:dot], cl.callee[dot+1:]
			if !isName(m) || strings.ContainsAny(recv, "()[]\"' ") {
				continue
			}
			addOnce(a.byRecv, recv, m)
			if j := strings.LastIndexByte(recv, '.'); j > 0 {
				addOnce(a.byLast, recv[j+1:], m)
			}
		case len(cl.args) == 1 && cl.pos == 1:
			// A method of the file called on self or cls (a function
			// of the module would fit every name of it).
			n, own := lastPart(cl.callee), cl.callee
			if dot > 0 {
				own = cl.callee[:dot]
			}
			if _, defined := ix.defs[n]; !defined || seenFunc[cl.callee] || !isName(n) || own != "self" && own != "cls" {
				continue
			}
			seenFunc[cl.callee] = true
			a.funcs = append(a.funcs, appliedFunc{cl.callee, s.Start})
		}
	}
	return a
})

func addOnce(m map[string][]string, k, v string) {
	if !slices.Contains(m[k], v) {
		m[k] = append(m[k], v)
	}
}

// appliedCalls returns the texts that may replace expression site id, a
// name, attribute or subscript read: the site with a method the file
// calls without arguments on the same expression, or on one of the same
// last name (tmp_token.value into tmp_token.value.upper() beside
// `if tmp_token.value.upper() == 'TABLE'`), and the site passed to a
// method of the file that the file calls on self or cls with one
// argument (key into self._build_name(key)), the nearest such calls
// first.
func (c *Context) appliedCalls(id int) []string {
	return appliedIn.get(c).get(id, func() []string {
		p := c.Prog
		s := &p.Sites[id]
		if s.Kind != program.SiteExpr || s.Store || s.Role == program.RoleNone {
			return nil
		}
		switch s.Node {
		case "identifier", "attribute", "subscript":
		default:
			return nil
		}
		cur := p.SiteText(id)
		if strings.ContainsAny(cur, "\r\n\"'") {
			return nil
		}
		a := appliedFact.get(c)
		var out []string
		seen := map[string]bool{}
		add := func(t string) {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
		// A method call on the site itself is no new call: the site is
		// then the callee's receiver (x in x.upper()).
		callee := s.End < len(p.Src) && p.Src[s.End] == '.'
		if !callee {
			for _, m := range a.byRecv[cur] {
				add(cur + "." + m + "()")
			}
			if j := strings.LastIndexByte(cur, '.'); j > 0 {
				for _, m := range a.byLast[cur[j+1:]] {
					add(cur + "." + m + "()")
				}
			}
		}
		if callee {
			return out
		}
		visible := c.visible(s.Stmt)
		funcs := slices.Clone(a.funcs)
		sort.SliceStable(funcs, func(i, j int) bool { return dist(funcs[i].at, s.Start) < dist(funcs[j].at, s.Start) })
		n := 0
		for _, f := range funcs {
			if n == maxApplied {
				break
			}
			base, _, _ := strings.Cut(f.callee, ".")
			if !contains(visible, base) {
				continue
			}
			// Not the argument of the same call already.
			if pre := f.callee + "("; s.Start >= len(pre) && string(p.Src[s.Start-len(pre):s.Start]) == pre {
				continue
			}
			add(f.callee + "(" + cur + ")")
			n++
		}
		return out
	})
}

var appliedIn = newCache[int, []string]()

func dist(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}

var opSameCall = replacing(Operator{
	Name: "same-call",
	Doc: "apply to a value a call the file applies to its like\n\n" +
		"tmp_token.value == 'AS' into tmp_token.value.upper() == 'AS' beside\n" +
		"tmp_token.value.upper() == 'TABLE': a method the file calls without arguments\n" +
		"on the same expression or one of the same last name; key into\n" +
		"self._build_name(key): a method of the file it calls on self with one argument.",
	Weight: 0.2,
}, (*Context).appliedCalls, program.SiteExpr)

// displayEntries returns the texts that may replace site id, a tuple,
// list or set display of string or number literals: the display with
// one more entry, a literal of the file of the same kind and form as its
// entries (an upper-case word beside upper-case words, one character
// beside single characters) that it does not hold, the nearest first:
// ('IF', 'FOR', 'WHILE') into ('IF', 'FOR', 'WHILE', 'CASE').
func (c *Context) displayEntries(id int) []string {
	return entriesIn.get(c).get(id, func() []string {
		p := c.Prog
		s := &p.Sites[id]
		if s.Kind != program.SiteExpr || s.InString {
			return nil
		}
		var open, close byte
		switch s.Node {
		case "tuple":
			open, close = '(', ')'
		case "list":
			open, close = '[', ']'
		case "set":
			open, close = '{', '}'
		default:
			return nil
		}
		text := p.SiteText(id)
		if len(text) < 3 || text[0] != open || text[len(text)-1] != close || strings.ContainsAny(text, "\r\n") {
			return nil
		}
		inner := strings.TrimSpace(text[1 : len(text)-1])
		var have []string
		for _, e := range topLevel(inner) {
			if e = strings.TrimSpace(e); e != "" {
				have = append(have, e)
			}
		}
		if len(have) == 0 || len(have) > 40 {
			return nil
		}
		class := entryClass(have[0])
		if class == "" {
			return nil
		}
		for _, e := range have[1:] {
			if entryClass(e) != class {
				return nil
			}
		}
		form := entryForm(have)
		type cand struct {
			text string
			d    int
		}
		var cands []cand
		seen := map[string]bool{}
		for _, e := range have {
			seen[entryValue(e)] = true
		}
		for i := range p.Sites {
			l := &p.Sites[i]
			if l.Kind != program.SiteLiteral || literalClass(l.Node) != class {
				continue
			}
			t := p.SiteText(i)
			if entryClass(t) != class {
				continue
			}
			v := entryValue(t)
			if seen[v] || strings.ContainsAny(t, "\r\n") || entryForm([]string{t}) != form {
				continue
			}
			seen[v] = true
			cands = append(cands, cand{t, dist(l.Start, s.Start)})
		}
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
		if len(cands) > maxEntries {
			cands = cands[:maxEntries]
		}
		sep := ", "
		if strings.HasSuffix(inner, ",") {
			sep = " "
		}
		head := text[:strings.LastIndex(text, inner)+len(inner)]
		var out []string
		for _, x := range cands {
			out = append(out, head+sep+x.text+text[len(head):])
		}
		return out
	})
}

var entriesIn = newCache[int, []string]()

// entryClass is the literal class of a display's entry ("string",
// "number"), or "" for another expression.
func entryClass(e string) string {
	if l, ok := parseStrLit(e); ok && !strings.HasPrefix(strings.ToLower(l.prefix), "f") {
		return "string"
	}
	if e != "" && (e[0] >= '0' && e[0] <= '9' || e[0] == '-' && len(e) > 1 && e[1] >= '0' && e[1] <= '9') && !strings.ContainsAny(e, " ()") {
		return "number"
	}
	return ""
}

// entryValue is an entry's value as a key (a string's body and bytes-ness,
// so that 'a' and "a" are the same entry).
func entryValue(e string) string {
	if l, ok := parseStrLit(e); ok {
		if l.bytes {
			return "b:" + l.body
		}
		return "s:" + l.body
	}
	return "n:" + e
}

// entryForm is what the entries have in common: "char" (one character
// or escape each), "upper" (upper-case words), "lower" (lower-case
// words) or "" (anything of their class).
func entryForm(es []string) string {
	all := func(is func(string) bool) bool {
		for _, e := range es {
			l, ok := parseStrLit(e)
			if !ok || !is(l.body) {
				return false
			}
		}
		return true
	}
	switch {
	case all(func(b string) bool { return len([]rune(b)) == 1 || len(b) == 2 && b[0] == '\\' }):
		return "char"
	case all(func(b string) bool { return b != "" && isWord(b) && strings.ToUpper(b) == b }):
		return "upper"
	case all(func(b string) bool { return b != "" && isWord(b) && strings.ToLower(b) == b }):
		return "lower"
	}
	return ""
}

// isWord reports whether b is letters, digits and underscores with at
// least one letter.
func isWord(b string) bool {
	letter := false
	for _, r := range b {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9' || r == '_':
		default:
			return false
		}
	}
	return letter
}

var opAddEntry = replacing(Operator{
	Name: "add-entry",
	Doc: "add an entry to a display of constants\n\n" +
		"('IF', 'FOR', 'WHILE') into ('IF', 'FOR', 'WHILE', 'CASE'), {'\"'} into {'\"', \"\\\\\"}:\n" +
		"a string or number of the file of the same form as the entries (upper-case\n" +
		"words, lower-case words, single characters) that the display lacks, the\n" +
		"nearest first.",
	Weight: 0.15,
}, (*Context).displayEntries, program.SiteExpr)
