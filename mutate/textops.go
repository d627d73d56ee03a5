// Operators on the text of literals (issue 28): one character of a string
// changed, and a literal into a constant of a module the file imports.

package mutate

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"repair/program"
)

// strLit is a string literal split into its parts.
type strLit struct {
	prefix, quote, body string
	raw, bytes          bool
}

// maxStringUnits bounds the literals string-char edits: a longer text is
// rarely wrong by one character, and its edits would be thousands.
const maxStringUnits = 80

// parseStrLit splits a one-line string literal (not an f-string, not an
// implicit concatenation).
func parseStrLit(text string) (strLit, bool) {
	i := 0
	for i < len(text) && strings.IndexByte("rRbBuU", text[i]) >= 0 {
		i++
	}
	prefix, rest := text[:i], text[i:]
	if i > 2 || strings.ContainsAny(rest, "\r\n") {
		return strLit{}, false
	}
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(rest) >= 2*len(q) && strings.HasPrefix(rest, q) && strings.HasSuffix(rest, q) {
			return strLit{
				prefix: prefix, quote: q, body: rest[len(q) : len(rest)-len(q)],
				raw: strings.ContainsAny(prefix, "rR"), bytes: strings.ContainsAny(prefix, "bB"),
			}, true
		}
	}
	return strLit{}, false
}

func (l strLit) with(body string) string { return l.prefix + l.quote + body + l.quote }

// units splits a literal's body into what one edit adds, removes or
// replaces: a character, or a whole escape sequence (\n, \x41, \\, \").
func (l strLit) units() []string {
	var out []string
	b := l.body
	for i := 0; i < len(b); {
		if b[i] == '\\' && i+1 < len(b) {
			j := i + 2
			if !l.raw {
				switch c := b[i+1]; {
				case c == 'x':
					j = i + 4
				case c == 'u' && !l.bytes:
					j = i + 6
				case c == 'U' && !l.bytes:
					j = i + 10
				case c == 'N' && !l.bytes:
					if k := strings.IndexByte(b[i:], '}'); k > 0 {
						j = i + k + 1
					}
				case c >= '0' && c <= '7':
					for j < len(b) && j < i+4 && b[j] >= '0' && b[j] <= '7' {
						j++
					}
				}
			}
			j = min(j, len(b))
			out = append(out, b[i:j])
			i = j
			continue
		}
		_, n := utf8.DecodeRuneInString(b[i:])
		out = append(out, b[i:i+n])
		i += n
	}
	return out
}

// regexLike reports whether a literal looks like a regular expression:
// raw, or holding a character class, an anchor or a backslash.
func (l strLit) regexLike() bool { return l.raw || strings.ContainsAny(l.body, `[]^$\`) }

// token writes character ch as it stands in the literal: the quote
// escaped.
func (l strLit) token(ch byte) string {
	if ch == l.quote[0] {
		return `\` + string(ch)
	}
	return string(ch)
}

// regexTokens are the anchors and classes a regular expression fix adds
// (written for a raw literal; doubled backslashes otherwise).
var regexTokens = []string{"^", "$", ".", "*", "+", "?", `\b`, `\s`, `\d`, `\w`, `\S`, `\W`}

// stringPunct are the separators a string fix adds besides the file's.
const stringPunct = ` &;:,.-_/'"`

// charPool returns the units string-char puts into literal l: its own
// characters, the characters of the file's short literals (separators),
// common punctuation, the letters and digits of the kinds it holds (for a
// text that is not a regular expression), regular expression anchors and
// classes (for one that is). Printable ASCII only, besides its own.
func (c *Context) charPool(l strLit, own []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	addChar := func(ch byte) {
		if ch >= ' ' && ch < 0x7f && ch != '\\' {
			add(l.token(ch))
		}
	}
	for _, u := range own {
		if !l.bytes || u[0] < 0x80 {
			add(u)
		}
	}
	for _, s := range c.lits["string"] {
		if sl, ok := parseStrLit(s); ok && len(sl.body) <= 3 {
			for i := 0; i < len(sl.body); i++ {
				addChar(sl.body[i])
			}
		}
	}
	for i := 0; i < len(stringPunct); i++ {
		addChar(stringPunct[i])
	}
	if l.regexLike() {
		for _, t := range regexTokens {
			if strings.HasPrefix(t, `\`) && !l.raw {
				t = `\` + t
			}
			add(t)
		}
		return out
	}
	ranges := []struct{ lo, hi byte }{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}}
	for _, r := range ranges {
		has := false
		for i := 0; i < len(l.body); i++ {
			has = has || l.body[i] >= r.lo && l.body[i] <= r.hi
		}
		if has {
			for ch := r.lo; ch <= r.hi; ch++ {
				addChar(ch)
			}
		}
	}
	return out
}

// stringTargets are string-char's: the string literals it edits.
var stringTargets = keptSites((*Context).stringSite, program.SiteLiteral)

// stringSite reports whether site id is a string literal string-char
// edits.
func (c *Context) stringSite(id int) bool {
	s := &c.Prog.Sites[id]
	if s.Kind != program.SiteLiteral || s.Node != "string" || s.InString {
		return false
	}
	l, ok := parseStrLit(c.Prog.SiteText(id))
	return ok && len(l.units()) <= maxStringUnits
}

var opStringChar = Operator{
	Name: "string-char",
	Doc: "change one character of a string literal\n\n" +
		"Delete, insert or replace one character or escape: \"aeio\" into \"aeiou\",\n" +
		"\"[^;]\" into \"[^&;]\", \"^mkdir\" into \"\\\\bmkdir\"; or a regular expression's\n" +
		"class into the negation of a delimiter of the text: r'href=\"([a-z]+)\"' into\n" +
		"r'href=\"([^\"]+)\"'. New characters are the literal's own, the file's separators,\n" +
		"punctuation, the letters and digits of the kinds it holds, or (in a regular\n" +
		"expression) anchors and classes.",
	Targets: stringTargets.get,
	Weight:  0.2,
	Applies: (*Context).stringSite,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		if !c.stringSite(id) {
			return
		}
		text := c.Prog.SiteText(id)
		l, _ := parseStrLit(text)
		us := l.units()
		seen := map[string]bool{l.body: true}
		out := func(parts ...string) {
			body := strings.Join(parts, "")
			if !seen[body] {
				seen[body] = true
				emit(replaceText(id, l.with(body)))
			}
		}
		join := func(xs []string) string { return strings.Join(xs, "") }
		for i := range us {
			if len(us) > 1 {
				out(join(us[:i]), join(us[i+1:]))
			}
		}
		pool := c.charPool(l, us)
		for i := 0; i <= len(us); i++ {
			for _, t := range pool {
				out(join(us[:i]), t, join(us[i:]))
			}
		}
		for i, u := range us {
			for _, t := range pool {
				if t != u {
					out(join(us[:i]), t, join(us[i+1:]))
				}
			}
		}
		if l.regexLike() {
			for _, cl := range charClasses(us) {
				for _, d := range delimiters(l, us, cl) {
					out(join(us[:cl[0]]), "[^", d, "]", join(us[cl[1]+1:]))
				}
			}
		}
	},
}

// charClasses returns the [start, end] unit indices of the regular
// expression character classes of a literal's units.
func charClasses(us []string) [][2]int {
	var out [][2]int
	for i := 0; i < len(us); i++ {
		if us[i] != "[" {
			continue
		}
		j := i + 1
		if j < len(us) && us[j] == "^" {
			j++
		}
		if j < len(us) && us[j] == "]" {
			j++ // a ] first is a member
		}
		for j < len(us) && us[j] != "]" {
			j++
		}
		if j < len(us) {
			out = append(out, [2]int{i, j})
			i = j
		}
	}
	return out
}

// delimiters are the characters a negated class may stop at: the
// punctuation of the literal outside the class (the quote of href="..."),
// and the quotes.
func delimiters(l strLit, us []string, cl [2]int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for i, u := range us {
		if i >= cl[0] && i <= cl[1] || len(u) != 1 || strings.Contains(`[]()^$.*+?|{}\-`, u) {
			continue
		}
		ch := u[0]
		if ch > ' ' && ch < 0x7f && !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_') {
			add(u)
		}
	}
	for _, q := range []byte{'"', '\''} {
		add(l.token(q))
	}
	return out
}

// Module constants ---------------------------------------------------------

// modConst is a constant of a standard module, with the values it has on
// some platform (a literal holding one of them may have meant it).
type modConst struct {
	mod, name string
	kind      byte // 's' string, 'f' float, 'i' int
	values    []string
	charset   bool // a set of characters (string.digits): near sets fit too
}

var moduleConsts = []modConst{
	{mod: "os", name: "sep", kind: 's', values: []string{"/", `\`}},
	{mod: "os", name: "pathsep", kind: 's', values: []string{":", ";"}},
	{mod: "os", name: "linesep", kind: 's', values: []string{"\n", "\r\n"}},
	{mod: "os", name: "curdir", kind: 's', values: []string{"."}},
	{mod: "os", name: "pardir", kind: 's', values: []string{".."}},
	{mod: "os", name: "extsep", kind: 's', values: []string{"."}},
	{mod: "os", name: "devnull", kind: 's', values: []string{"/dev/null", "nul"}},
	{mod: "os.path", name: "sep", kind: 's', values: []string{"/", `\`}},
	{mod: "os.path", name: "pathsep", kind: 's', values: []string{":", ";"}},
	{mod: "os.path", name: "curdir", kind: 's', values: []string{"."}},
	{mod: "os.path", name: "pardir", kind: 's', values: []string{".."}},
	{mod: "os.path", name: "extsep", kind: 's', values: []string{"."}},
	{mod: "string", name: "ascii_letters", kind: 's', charset: true, values: []string{"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"}},
	{mod: "string", name: "ascii_lowercase", kind: 's', charset: true, values: []string{"abcdefghijklmnopqrstuvwxyz"}},
	{mod: "string", name: "ascii_uppercase", kind: 's', charset: true, values: []string{"ABCDEFGHIJKLMNOPQRSTUVWXYZ"}},
	{mod: "string", name: "digits", kind: 's', charset: true, values: []string{"0123456789"}},
	{mod: "string", name: "hexdigits", kind: 's', charset: true, values: []string{"0123456789abcdefABCDEF"}},
	{mod: "string", name: "octdigits", kind: 's', charset: true, values: []string{"01234567"}},
	{mod: "string", name: "punctuation", kind: 's', charset: true, values: []string{"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}},
	{mod: "string", name: "whitespace", kind: 's', charset: true, values: []string{" \t\n\r\x0b\x0c"}},
	{mod: "math", name: "pi", kind: 'f', values: []string{"3.141592653589793"}},
	{mod: "math", name: "e", kind: 'f', values: []string{"2.718281828459045"}},
	{mod: "math", name: "tau", kind: 'f', values: []string{"6.283185307179586"}},
	{mod: "math", name: "inf", kind: 'f', values: []string{"inf"}},
	{mod: "sys", name: "maxsize", kind: 'i', values: []string{"9223372036854775807"}},
}

// fits reports whether a literal of the given kind and value plausibly
// meant constant k: the value k has on some platform; for a set of
// characters, one differing by a fifth of its characters at most; for a
// number, one within 1% of k (3.14 for pi), or, for math.inf and
// sys.maxsize, any huge number.
func (k *modConst) fits(kind byte, value string) bool {
	switch {
	case kind == 's' && k.kind == 's':
		for _, v := range k.values {
			if v == value {
				return true
			}
		}
		return k.charset && len(value) >= 3 && jaccard(value, k.values[0]) >= 0.8
	case kind == 'f' && k.kind == 'f' || kind == 'i' && k.kind == 'i':
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return false
		}
		if k.name == "inf" {
			return v >= 1e100
		}
		if k.name == "maxsize" {
			return v >= math.MaxInt32
		}
		c, _ := strconv.ParseFloat(k.values[0], 64)
		return v != c && math.Abs(v-c) <= 0.01*c
	}
	return false
}

// jaccard is the Jaccard similarity of the character sets of a and b.
func jaccard(a, b string) float64 {
	sa, sb := map[rune]bool{}, map[rune]bool{}
	for _, r := range a {
		sa[r] = true
	}
	for _, r := range b {
		sb[r] = true
	}
	inter := 0
	for r := range sa {
		if sb[r] {
			inter++
		}
	}
	union := len(sa) + len(sb) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// importBinding is a name an import binds: a module (import os, from os
// import path) or a module constant (from math import pi).
type importBinding struct {
	name  string
	mod   string // the module it names, or "" for a constant
	konst *modConst
}

// imports are the bindings of the file's import statements that bind a
// module of moduleConsts or one of its constants.
var imports = newFact(func(c *Context) []importBinding {
	p := c.Prog
	var out []importBinding
	known := map[string]bool{}
	for _, k := range moduleConsts {
		known[k.mod] = true
	}
	for i := range p.Stmts {
		kind := p.Stmts[i].Kind
		if kind != "import_statement" && kind != "import_from_statement" {
			continue
		}
		text := p.StmtText(i)
		text = strings.NewReplacer("\\\r\n", " ", "\\\n", " ", "(", " ", ")", " ", "\r", " ", "\n", " ").Replace(text)
		if j := strings.IndexByte(text, '#'); j >= 0 {
			text = text[:j]
		}
		fields := strings.Fields(text)
		if len(fields) < 2 {
			continue
		}
		var from string
		items := strings.Join(fields[1:], " ")
		if fields[0] == "from" {
			if len(fields) < 4 || fields[2] != "import" {
				continue
			}
			from = fields[1]
			items = strings.Join(fields[3:], " ")
		}
		for _, item := range strings.Split(items, ",") {
			f := strings.Fields(item)
			if len(f) == 0 {
				continue
			}
			name, bind := f[0], f[0]
			if len(f) == 3 && f[1] == "as" {
				bind = f[2]
			} else if len(f) != 1 {
				continue
			}
			switch {
			case from == "":
				mod := name
				if bind == name {
					// import os.path binds os.
					mod, _, _ = strings.Cut(name, ".")
					bind = mod
				}
				if known[mod] {
					out = append(out, importBinding{name: bind, mod: mod})
				}
			case known[from+"."+name]:
				out = append(out, importBinding{name: bind, mod: from + "." + name})
			default:
				for k := range moduleConsts {
					if moduleConsts[k].mod == from && moduleConsts[k].name == name {
						out = append(out, importBinding{name: bind, konst: &moduleConsts[k]})
					}
				}
			}
		}
	}
	return out
})

// literalValue returns the kind ('s', 'f', 'i') and the value of a
// literal site: a string's text without escapes it cannot read, a
// number's digits.
func literalValue(node, text string) (byte, string, bool) {
	switch node {
	case "integer":
		v, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 0, 64)
		if err != nil {
			return 'i', "", false
		}
		return 'i', strconv.FormatInt(v, 10), true
	case "float":
		v, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
		if err != nil {
			return 'f', "", false
		}
		return 'f', strconv.FormatFloat(v, 'g', -1, 64), true
	case "string":
		l, ok := parseStrLit(text)
		if !ok || l.bytes {
			return 's', "", false
		}
		if l.raw || !strings.Contains(l.body, `\`) {
			return 's', l.body, true
		}
		var sb strings.Builder
		for _, u := range l.units() {
			if len(u) == 2 && u[0] == '\\' {
				if r, ok := map[byte]string{'n': "\n", 't': "\t", 'r': "\r", '\\': `\`, '\'': "'", '"': `"`}[u[1]]; ok {
					sb.WriteString(r)
					continue
				}
			}
			if strings.HasPrefix(u, `\`) {
				return 's', "", false
			}
			sb.WriteString(u)
		}
		return 's', sb.String(), true
	}
	return 0, "", false
}

// constants returns the module constants that may replace literal site
// id: the imported constants visible there that fit its value.
// constTargets are module-const's: the literals an imported module
// constant may replace.
var constTargets = keptSites(hasConstants, program.SiteLiteral)

func hasConstants(c *Context, id int) bool { return len(c.constants(id)) > 0 }

func (c *Context) constants(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteLiteral || len(imports.get(c)) == 0 {
		return nil
	}
	kind, value, ok := literalValue(s.Node, p.SiteText(id))
	if !ok {
		return nil
	}
	vis := c.visible(s.Stmt)
	var out []string
	seen := map[string]bool{}
	for _, b := range imports.get(c) {
		if !contains(vis, b.name) {
			continue
		}
		for k := range moduleConsts {
			mc := &moduleConsts[k]
			text := ""
			switch {
			case b.konst == mc:
				text = b.name
			case b.konst == nil && b.mod == mc.mod:
				text = b.name + "." + mc.name
			default:
				continue
			}
			if !seen[text] && mc.fits(kind, value) {
				seen[text] = true
				out = append(out, text)
			}
		}
	}
	return out
}

var opModuleConst = Operator{
	Name: "module-const",
	Doc: "replace a literal by a constant of a module the file imports\n\n" +
		"':' into os.pathsep, '/' into os.sep, \"0123456789\" into string.digits, 3.14 into\n" +
		"math.pi, 2147483647 into sys.maxsize: a constant visible there whose value (on\n" +
		"some platform) is the literal's, or near it.",
	Targets: constTargets.get,
	Weight:  0.2,
	Applies: hasConstants,
	Edits: func(c *Context, id int, emit func(program.Edit)) {
		for _, t := range c.constants(id) {
			emit(replaceText(id, t))
		}
	},
}
