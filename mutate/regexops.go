// The regex operator: edits of a regular expression's structure inside
// the pattern a call of the re module gets — a character class, a
// quantifier, an anchor, an escape, a branch of an alternation — where
// string-char changes characters one at a time, among thousands.

package mutate

import (
	"strings"

	"repair/program"
)

// reCalls are the functions of the re module whose first argument is a
// pattern.
var reCalls = []string{"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}

// rtok is a token of a regular expression inside a literal: its text in
// the literal (lit) and as the regular expression reads it (re).
type rtok struct{ lit, re string }

// ritem is an item of a regular expression: an atom (a character, an
// escape, ".", a class, the end of a group), an anchor, a quantifier, the
// start of a group, or "|".
type ritem struct {
	kind byte // 'a' atom, 'c' class, '^' anchor, 'q' quantifier, '(' group start, ')' group end, '|'
	toks []rtok
}

func (it ritem) lit() string {
	var sb strings.Builder
	for _, t := range it.toks {
		sb.WriteString(t.lit)
	}
	return sb.String()
}

func (it ritem) re() string {
	var sb strings.Builder
	for _, t := range it.toks {
		sb.WriteString(t.re)
	}
	return sb.String()
}

// regexToks splits a literal's body into the tokens of its regular
// expression: a backslash escape is one token (\d, or \\d in a literal
// that is not raw), every other unit one.
func regexToks(l strLit) []rtok {
	us := l.units()
	var out []rtok
	for i := 0; i < len(us); i++ {
		u := us[i]
		switch {
		case !l.raw && u == `\\` && i+1 < len(us) && len(us[i+1]) == 1:
			out = append(out, rtok{lit: u + us[i+1], re: `\` + us[i+1]})
			i++
		case !l.raw && len(u) == 2 && u[0] == '\\' && (u[1] == '\'' || u[1] == '"'):
			out = append(out, rtok{lit: u, re: u[1:]})
		default:
			out = append(out, rtok{lit: u, re: u})
		}
	}
	return out
}

// litOf writes regular expression text re as it stands in literal l.
func litOf(l strLit, re string) string {
	if l.raw {
		// A quote is escaped: the pattern \' matches a quote as ' does.
		return strings.ReplaceAll(re, l.quote[:1], `\`+l.quote[:1])
	}
	var sb strings.Builder
	for i := 0; i < len(re); i++ {
		switch ch := re[i]; {
		case ch == '\\':
			sb.WriteString(`\\`)
		default:
			sb.WriteString(l.token(ch))
		}
	}
	return sb.String()
}

// regexItems parses the tokens of a regular expression into items; false
// when it holds what the parse does not know (an unclosed class).
func regexItems(ts []rtok) ([]ritem, bool) {
	var out []ritem
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch t.re {
		case "[":
			j := i + 1
			if j < len(ts) && ts[j].re == "^" {
				j++
			}
			if j < len(ts) && ts[j].re == "]" {
				j++
			}
			for j < len(ts) && ts[j].re != "]" {
				j++
			}
			if j >= len(ts) {
				return nil, false
			}
			out = append(out, ritem{kind: 'c', toks: ts[i : j+1]})
			i = j
		case "(":
			j := i + 1
			if j < len(ts) && ts[j].re == "?" {
				// (?:, (?P<name>, (?=, (?!, (?<=, (?<!, (?i)
				j++
				for j < len(ts) && !strings.Contains(":=!>)", ts[j].re) {
					j++
				}
				if j < len(ts) && ts[j].re == ")" {
					out = append(out, ritem{kind: 'a', toks: ts[i : j+1]}) // flags
					i = j
					continue
				}
				j++
			}
			out = append(out, ritem{kind: '(', toks: ts[i:min(j, len(ts))]})
			i = min(j, len(ts)) - 1
		case ")":
			out = append(out, ritem{kind: ')', toks: ts[i : i+1]})
		case "|":
			out = append(out, ritem{kind: '|', toks: ts[i : i+1]})
		case "^", "$", `\b`, `\B`, `\A`, `\Z`:
			out = append(out, ritem{kind: '^', toks: ts[i : i+1]})
		case "*", "+", "?":
			j := i + 1
			if j < len(ts) && (ts[j].re == "?" || ts[j].re == "+") {
				j++ // lazy or possessive
			}
			out = append(out, ritem{kind: 'q', toks: ts[i:j]})
			i = j - 1
		case "{":
			j := i + 1
			for j < len(ts) && (ts[j].re >= "0" && ts[j].re <= "9" || ts[j].re == ",") {
				j++
			}
			if j < len(ts) && ts[j].re == "}" && j > i+1 {
				k := j + 1
				if k < len(ts) && ts[k].re == "?" {
					k++
				}
				out = append(out, ritem{kind: 'q', toks: ts[i:k]})
				i = k - 1
				continue
			}
			out = append(out, ritem{kind: 'a', toks: ts[i : i+1]})
		default:
			out = append(out, ritem{kind: 'a', toks: ts[i : i+1]})
		}
	}
	return out, true
}

// regexSite reports whether site id is a string literal that a call of
// the re module gets as its pattern, written in the call (the first
// argument of re.sub(r"...", ...)), or, in a module that imports re, a
// literal that reads as a pattern: raw and holding a class, an anchor or
// an escape, or holding a class or an escape.
func (c *Context) regexSite(id int) bool {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteLiteral || s.Node != "string" || s.InString {
		return false
	}
	l, ok := parseStrLit(p.SiteText(id))
	if !ok || l.bytes && !l.raw || len(l.units()) > 2*maxStringUnits {
		return false
	}
	src := p.Src
	i := s.Start
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	if i > 0 && src[i-1] == '(' {
		callee := string(src[max(0, i-1-16) : i-1])
		for _, f := range reCalls {
			if strings.HasSuffix(callee, "re."+f) {
				return true
			}
		}
	}
	// A pattern kept in a table or built up before it is compiled
	// (dt_format_to_regex = {"%f": "[0-9]{6}", ...}): in a module that
	// imports re, a literal that reads as one.
	return importsRe.get(c) && (l.raw && l.regexLike() || strings.ContainsAny(l.body, `[\`) && l.regexLike() || quantifiedField(l.body))
}

// quantifiedField reports whether a literal's body repeats a %-format
// field ('%s%s+' % (s, fill), '%(sep)s*'): a template of a pattern, in
// which nothing but a pattern repeats what the field puts in (not ? after
// it, which a question in prose has too).
func quantifiedField(body string) bool {
	for i := strings.Index(body, "s"); i >= 0 && i+1 < len(body); {
		if i > 0 && (body[i-1] == '%' || body[i-1] == ')') && strings.IndexByte("*+{", body[i+1]) >= 0 {
			return true
		}
		j := strings.Index(body[i+1:], "s")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// importsRe is whether the program imports the re module (import re,
// import re as _re, from re import ...).
var importsRe = newFact(func(c *Context) bool {
	p := c.Prog
	for i, st := range p.Stmts {
		switch st.Kind {
		case "import_statement":
			names := strings.TrimSpace(strings.TrimPrefix(p.StmtText(i), "import"))
			for _, n := range strings.Split(names, ",") {
				n, _, _ = strings.Cut(strings.TrimSpace(n), " ")
				if n == "re" {
					return true
				}
			}
		case "import_from_statement":
			if f := strings.Fields(p.StmtText(i)); len(f) > 1 && f[1] == "re" {
				return true
			}
		}
	}
	return false
})

// regexAdds are the characters a class may gain besides those of the
// pattern: the separators of URLs, paths and text.
const regexAdds = `/?#&;:,.-_"' `

// regexTargets are regex's.
var regexTargets = keptSites(func(c *Context, id int) bool { return c.regexSite(id) }, program.SiteLiteral)

var opRegex = Operator{
	Name: "regex",
	Doc: "edit the structure of a regular expression passed to the re module\n\n" +
		"In the pattern of re.compile, re.match, re.search, re.sub, re.findall...,\n" +
		"and in a module that imports re, in a literal that reads as a pattern\n" +
		"(a class or an escape, or raw with an anchor: {\"%f\": \"[0-9]{6}\"}):\n" +
		"a character class gains or loses a character ([^/?#]+ into [^?#]+), is\n" +
		"negated or not, or becomes the negation of the delimiter after it\n" +
		"([a-z]+\" into [^\"]+\"); a quantifier is added (? after an atom, + after a\n" +
		"class or escape), removed, made lazy or swapped (+ into *), a count\n" +
		"relaxed ({6} into {1,6} or {6,}); an anchor (^, $, \\b) is added at an\n" +
		"end, removed or swapped (^x into \\bx); a . is escaped or an escape\n" +
		"dropped, \\d, \\w and \\s swapped; a branch of an alternation dropped or\n" +
		"two branches swapped.",
	Targets: regexTargets.get,
	Applies: func(c *Context, id int) bool { return c.regexSite(id) },
	Weight:  0.3,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		if !c.regexSite(id) {
			return
		}
		l, _ := parseStrLit(c.Prog.SiteText(id))
		items, ok := regexItems(regexToks(l))
		if !ok {
			return
		}
		for _, body := range regexEdits(l, items) {
			emit(replaceText(id, l.with(body)))
		}
	},
}

// regexEdits returns the bodies of the literal that regex proposes, each
// once.
func regexEdits(l strLit, items []ritem) []string {
	var out []string
	seen := map[string]bool{}
	orig := join(items, 0, len(items))
	seen[orig] = true
	add := func(body string) {
		if !seen[body] {
			seen[body] = true
			out = append(out, body)
		}
	}
	// with returns the body with items i..j replaced by text (a literal's).
	with := func(i, j int, text string) string {
		return join(items, 0, i) + text + join(items, j, len(items))
	}
	w := func(re string) string { return litOf(l, re) }
	// The pattern's own characters outside classes and inside them: what
	// a class may gain.
	var pool []string
	inPool := map[string]bool{}
	addPool := func(re string) {
		if re != "" && !inPool[re] && re != "]" && re != "[" && re != "^" && re != `\` {
			inPool[re] = true
			pool = append(pool, re)
		}
	}
	for _, it := range items {
		if it.kind == 'c' {
			for _, t := range classMembers(it) {
				addPool(t.re)
			}
		}
	}
	for i := 0; i < len(regexAdds); i++ {
		addPool(string(regexAdds[i]))
	}
	for _, it := range items {
		if it.kind == 'a' && len(it.toks) == 1 && len(it.toks[0].re) == 1 && !wordByte(it.toks[0].re[0]) && it.toks[0].re != "." {
			addPool(it.toks[0].re)
		}
	}
	for i, it := range items {
		switch it.kind {
		case 'c':
			neg := len(it.toks) > 2 && it.toks[1].re == "^"
			head := 1
			if neg {
				head = 2
			}
			members := it.toks[head : len(it.toks)-1]
			open := joinToks(it.toks[:head])
			// A member removed (not a range's end).
			for k := range members {
				if len(members) < 2 || members[k].re == "-" || k > 0 && members[k-1].re == "-" || k+1 < len(members) && members[k+1].re == "-" {
					continue
				}
				add(with(i, i+1, open+joinToks(members[:k])+joinToks(members[k+1:])+"]"))
			}
			// A member added, first (a - last would make a range).
			for _, re := range pool {
				if classHas(members, re) {
					continue
				}
				t := re
				if re == "-" {
					add(with(i, i+1, open+joinToks(members)+w(t)+"]"))
					continue
				}
				if re == "]" || re == `\` {
					continue
				}
				add(with(i, i+1, open+w(t)+joinToks(members)+"]"))
			}
			// Negated, or not.
			if neg {
				add(with(i, i+1, "["+joinToks(members)+"]"))
			} else {
				add(with(i, i+1, "[^"+joinToks(members)+"]"))
			}
			// The negation of the delimiter after it ([a-z]+" into [^"]+").
			k := i + 1
			for k < len(items) && (items[k].kind == 'q' || items[k].kind == ')') {
				k++
			}
			if k < len(items) {
				if nx := items[k]; nx.kind == 'a' && len(nx.toks) == 1 && len(nx.toks[0].re) == 1 && !wordByte(nx.toks[0].re[0]) && nx.toks[0].re != "." {
					add(with(i, i+1, "[^"+nx.toks[0].lit+"]"))
				}
			}
		case 'q':
			q := it.re()
			base := strings.TrimRight(q, "?+")
			if strings.HasPrefix(q, "{") {
				base = q
			}
			add(with(i, i+1, "")) // removed
			switch {
			case q == "+":
				add(with(i, i+1, w("*")))
				add(with(i, i+1, w("+?")))
			case q == "*":
				add(with(i, i+1, w("+")))
				add(with(i, i+1, w("*?")))
			case q == "?":
				add(with(i, i+1, w("*")))
			case q == "+?" || q == "*?":
				add(with(i, i+1, w(base)))
			case strings.HasPrefix(q, "{") && strings.HasSuffix(q, "}"):
				// A count relaxed: {6} into {1,6} or {6,}; {1,3} into
				// {1,} or {3}.
				lo, hi, comma := strings.Cut(q[1:len(q)-1], ",")
				if !comma {
					add(with(i, i+1, w("{1,"+lo+"}")))
					add(with(i, i+1, w("{"+lo+",}")))
				} else if hi != "" {
					add(with(i, i+1, w("{"+lo+",}")))
					add(with(i, i+1, w("{"+hi+"}")))
				}
			}
		case '^':
			a := it.re()
			add(with(i, i+1, "")) // removed
			swaps := map[string][]string{"^": {`\b`, `\A`}, "$": {`\b`, `\Z`}, `\b`: {"^", "$", `\B`}, `\B`: {`\b`}, `\A`: {"^"}, `\Z`: {"$"}}
			for _, s := range swaps[a] {
				add(with(i, i+1, w(s)))
			}
		}
		// After an atom, a class or a group: a quantifier added.
		if it.kind == 'a' || it.kind == 'c' || it.kind == ')' {
			if i+1 < len(items) && items[i+1].kind == 'q' {
				// already quantified
			} else if it.kind != 'a' || !strings.HasPrefix(it.re(), "(?") {
				add(with(i+1, i+1, w("?")))
				if it.kind == 'c' || it.kind == 'a' && (strings.HasPrefix(it.re(), `\`) || it.re() == ".") {
					add(with(i+1, i+1, w("+")))
					add(with(i+1, i+1, w("*")))
				}
			}
		}
		// Escapes.
		if it.kind == 'a' {
			switch re := it.re(); {
			case re == ".":
				add(with(i, i+1, w(`\.`)))
			case len(re) == 2 && re[0] == '\\' && strings.ContainsRune(`.+*?()[]{}|$^/-#&`, rune(re[1])):
				add(with(i, i+1, w(re[1:])))
			case len(re) == 2 && re[0] == '\\' && strings.ContainsRune("dwsDWS", rune(re[1])):
				for _, o := range []string{`\d`, `\w`, `\s`, `\D`, `\W`, `\S`} {
					if o != re {
						add(with(i, i+1, w(o)))
					}
				}
			}
		}
	}
	// Anchors at the ends.
	if len(items) > 0 {
		if items[0].kind != '^' {
			add(w("^") + orig)
			add(w(`\b`) + orig)
		}
		if items[len(items)-1].kind != '^' {
			add(orig + w("$"))
			add(orig + w(`\b`))
		}
	}
	// Alternations: a branch dropped, two neighbours swapped.
	for _, br := range branches(items) {
		for k := range br {
			// Dropped: with the | before it (or after it, for the first).
			var lo, hi int
			if k > 0 {
				lo, hi = br[k-1][1], br[k][1]
			} else {
				lo, hi = br[k][0], br[k+1][0]
			}
			add(join(items, 0, lo) + join(items, hi, len(items)))
			if k+1 < len(br) {
				a, b := br[k], br[k+1]
				add(join(items, 0, a[0]) + join(items, b[0], b[1]) + join(items, a[1], b[0]) + join(items, a[0], a[1]) + join(items, b[1], len(items)))
			}
		}
	}
	return out
}

// branches returns, for each alternation of the pattern (top level or in
// a group), the [start, end) item ranges of its branches.
func branches(items []ritem) [][][2]int {
	var out [][][2]int
	type level struct {
		start int
		bars  []int
	}
	stack := []level{{start: 0}}
	closeLevel := func(end int) {
		lv := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(lv.bars) == 0 {
			return
		}
		var br [][2]int
		from := lv.start
		for _, b := range lv.bars {
			br = append(br, [2]int{from, b})
			from = b + 1
		}
		br = append(br, [2]int{from, end})
		out = append(out, br)
	}
	for i, it := range items {
		switch it.kind {
		case '(':
			stack = append(stack, level{start: i + 1})
		case ')':
			if len(stack) > 1 {
				closeLevel(i)
			}
		case '|':
			stack[len(stack)-1].bars = append(stack[len(stack)-1].bars, i)
		}
	}
	for len(stack) > 0 {
		closeLevel(len(items))
	}
	return out
}

// classMembers returns the tokens inside a class item.
func classMembers(it ritem) []rtok {
	head := 1
	if len(it.toks) > 2 && it.toks[1].re == "^" {
		head = 2
	}
	return it.toks[head : len(it.toks)-1]
}

func classHas(members []rtok, re string) bool {
	for _, m := range members {
		if m.re == re {
			return true
		}
	}
	return false
}

func join(items []ritem, i, j int) string {
	var sb strings.Builder
	for _, it := range items[i:j] {
		sb.WriteString(it.lit())
	}
	return sb.String()
}

func joinToks(ts []rtok) string {
	var sb strings.Builder
	for _, t := range ts {
		sb.WriteString(t.lit)
	}
	return sb.String()
}
