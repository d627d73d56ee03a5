// Operators of developers' edits on calls, names, strings and types: a
// new argument, every name of a statement renamed alike, a string the
// file's domain suggests, type(self) for the class's name, a tuple of
// types.

package mutate

import (
	"slices"
	"strings"

	"repair/program"
)

// call is a call's text split: the callee (a name or a dotted name) and
// its arguments, with the positional ones counted and the keywords.
type call struct {
	text     string
	callee   string
	args     []string // top-level argument texts
	pos      int      // positional arguments
	keywords []string
}

// keyword splits a keyword argument's text (k=v, not a == b) into its
// name and value.
func keyword(a string) (string, string, bool) {
	i := strings.IndexByte(a, '=')
	if i <= 0 || i+1 < len(a) && a[i+1] == '=' || strings.HasPrefix(a, "*") {
		return "", "", false
	}
	k := strings.TrimSpace(a[:i])
	if !isName(k) {
		return "", "", false
	}
	return k, strings.TrimSpace(a[i+1:]), true
}

// parseCall splits a one-line call text f(a, b, k=v) whose callee is a
// name or a dotted name; false for any other.
func parseCall(text string) (call, bool) {
	i := 0
	for i < len(text) && (isIdentByte(text[i]) || text[i] == '.') {
		i++
	}
	if i == 0 || i >= len(text) || text[i] != '(' || !strings.HasSuffix(text, ")") || strings.ContainsAny(text, "\r\n#") {
		return call{}, false
	}
	if closing([]byte(text), i) != len(text)-1 {
		return call{}, false
	}
	cl := call{text: text, callee: text[:i]}
	inner := strings.TrimSpace(text[i+1 : len(text)-1])
	if inner == "" {
		return cl, true
	}
	for _, a := range topLevel(inner) {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		cl.args = append(cl.args, a)
		if k, _, ok := keyword(a); ok {
			cl.keywords = append(cl.keywords, k)
		} else if !strings.HasPrefix(a, "*") {
			cl.pos++
		}
	}
	return cl, true
}

// with returns the call's text with argument a added: a keyword (k=v)
// last, a positional one after the positional ones; "" when that needs
// the arguments rewritten and a string among them might hold a comma.
// The text before the new argument stays as it was.
func (cl call) with(a string, keyword bool) string {
	if keyword || len(cl.keywords) == 0 && cl.pos == len(cl.args) {
		sep := ", "
		if len(cl.args) == 0 {
			sep = ""
		}
		inner := strings.TrimRight(cl.text[:len(cl.text)-1], " \t")
		inner = strings.TrimSuffix(inner, ",")
		return inner + sep + a + ")"
	}
	if strings.ContainsAny(cl.text, "'\"") {
		return ""
	}
	args := slices.Insert(slices.Clone(cl.args), min(cl.pos, len(cl.args)), a)
	return cl.callee + "(" + strings.Join(args, ", ") + ")"
}

func lastPart(callee string) string {
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		return callee[i+1:]
	}
	return callee
}

// callIndex is the file's calls by the callee's last name, and its defs'
// parameters by name (made once per context).
type callIndex struct {
	calls map[string][]call
	defs  map[string][]defParam
}

// defParam is a parameter of a def: its name and default's text.
type defParam struct{ name, def string }

func (c *Context) callIndex() *callIndex { return callIndexFact.get(c) }

var callIndexFact = newFact(func(c *Context) *callIndex {
	p := c.Prog
	ix := &callIndex{calls: map[string][]call{}, defs: map[string][]defParam{}}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr || s.Node != "call" {
			continue
		}
		if cl, ok := parseCall(p.SiteText(i)); ok {
			n := lastPart(cl.callee)
			ix.calls[n] = append(ix.calls[n], cl)
		}
	}
	for i := range p.Stmts {
		if p.Stmts[i].Kind != "function_definition" {
			continue
		}
		text := p.StmtText(i)
		j := strings.Index(text, "def ")
		open := strings.IndexByte(text, '(')
		if j < 0 || open < j {
			continue
		}
		name := strings.TrimSpace(text[j+4 : open])
		var ps []defParam
		for _, a := range topLevel(text[open+1 : closing([]byte(text), open)]) {
			a = strings.TrimSpace(a)
			if a == "" || strings.HasPrefix(a, "*") || a == "/" {
				continue
			}
			n, d, _ := strings.Cut(a, "=")
			n, _, _ = strings.Cut(n, ":")
			n = strings.TrimSpace(n)
			if n == "self" || n == "cls" || !isName(n) {
				continue
			}
			ps = append(ps, defParam{n, strings.TrimSpace(d)})
		}
		ix.defs[name] = ps
	}
	return ix
})

// knownArgs are arguments library calls often lack, by callee's last name.
var knownArgs = map[string][]string{
	"decode": {`"utf-8"`, `errors="replace"`},
	"encode": {`"utf-8"`, `errors="replace"`},
	"open":   {`encoding="utf-8"`},
	"sorted": {"reverse=True"},
	"sort":   {"reverse=True"},
	"split":  {"1"},
	"dumps":  {"sort_keys=True"},
}

// newArgs returns the calls with one more argument that call site id
// may have meant: a parameter of the callee's def (when the file defines
// it) the call does not pass, as name=name for a name bound there or with
// its default flipped (True, False); an argument the file's other calls
// of the same function pass and this one does not; one of knownArgs.
func (c *Context) newArgs(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteExpr || s.Node != "call" || s.InString {
		return nil
	}
	cl, ok := parseCall(p.SiteText(id))
	if !ok {
		return nil
	}
	ix := c.callIndex()
	n := lastPart(cl.callee)
	var out []string
	seen := map[string]bool{}
	add := func(a string, keyword bool) {
		t := cl.with(a, keyword)
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	passed := func(k string) bool { return slices.Contains(cl.keywords, k) }
	bound := c.bound(s.Stmt)
	if ps, ok := ix.defs[n]; ok {
		for k, prm := range ps {
			if k < cl.pos || passed(prm.name) {
				continue
			}
			if slices.Contains(bound, prm.name) {
				add(prm.name+"="+prm.name, true)
				if k == cl.pos {
					add(prm.name, false)
				}
			}
			switch prm.def {
			case "True":
				add(prm.name+"=False", true)
			case "False", "None":
				add(prm.name+"=True", true)
			}
		}
	}
	for _, o := range ix.calls[n] {
		for _, a := range o.args {
			if k, v, ok := keyword(a); ok && !passed(k) && c.valueFits(s.Stmt, v) {
				add(a, true)
			}
		}
		if o.pos > cl.pos && len(cl.keywords) == 0 && c.valueFits(s.Stmt, o.args[cl.pos]) {
			add(o.args[cl.pos], false)
		}
	}
	if strings.Contains(cl.callee, ".") == (n != "open" && n != "sorted") {
		for _, a := range knownArgs[n] {
			k, _, isKw := strings.Cut(a, "=")
			if isKw && passed(k) || !isKw && cl.pos > 0 && n != "split" || n == "split" && cl.pos != 1 {
				continue
			}
			add(a, isKw)
		}
	}
	return out
}

// valueFits reports whether an argument's text may stand at statement
// stmt: a literal, or a name or attribute of names visible there.
func (c *Context) valueFits(stmt int, v string) bool {
	if v == "" || strings.ContainsAny(v, "()[]{}\r\n") {
		return false
	}
	if v[0] == '"' || v[0] == '\'' || v[0] >= '0' && v[0] <= '9' || v[0] == '-' {
		return true
	}
	base, _, _ := strings.Cut(v, ".")
	return isName(base) && (contains(c.visible(stmt), base) || c.builtin(base) && (base == "True" || base == "False" || base == "None"))
}

var opAddArg = replacing(Operator{
	Name: "add-arg",
	Doc: "add an argument to a call\n\n" +
		"parse(text) into parse(text, strict=strict) or parse(text, strict=True): a\n" +
		"parameter of the function's def (when the file defines it) that the call\n" +
		"does not pass, as itself (a name bound there) or with its default flipped;\n" +
		"an argument other calls of the same function pass (fmt(x, width=w) for\n" +
		"fmt(x)); or a usual one: data.decode() into data.decode(\"utf-8\"),\n" +
		"open(path, encoding=\"utf-8\"), sorted(xs, reverse=True).",
	Weight: 0.2,
}, (*Context).newArgs, program.SiteExpr)

// stringFamilies are the values a string constant of one domain may have
// meant instead of another: encodings, JSON's literals, error handlers,
// file modes.
var stringFamilies = [][]string{
	{"utf-8", "latin1", "ascii", "utf8", "latin-1", "iso-8859-1", "cp1252", "utf-16", "utf-8-sig"},
	{"null", "true", "false", "None", "True", "False"},
	{"strict", "ignore", "replace", "backslashreplace", "surrogateescape", "xmlcharrefreplace"},
	{"r", "rb", "w", "wb", "a", "ab", "r+", "rt", "wt"},
	{"little", "big"},
}

// domainStrings returns the strings that may replace string literal site
// id: the other members of its value's family, in the literal's quotes.
func (c *Context) domainStrings(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteLiteral || s.Node != "string" || s.InString {
		return nil
	}
	l, ok := parseStrLit(p.SiteText(id))
	if !ok || l.bytes || l.quote != `"` && l.quote != `'` {
		return nil
	}
	var out []string
	for _, f := range stringFamilies {
		if !slices.Contains(f, l.body) {
			continue
		}
		for _, v := range f {
			if v != l.body && !strings.EqualFold(strings.ReplaceAll(v, "-", ""), strings.ReplaceAll(l.body, "-", "")) {
				out = append(out, l.with(v))
			}
		}
	}
	return out
}

var opDomainString = replacing(Operator{
	Name: "domain-string",
	Doc: "replace a string constant by another of its domain\n\n" +
		"\"utf-8\" into \"latin1\" or \"ascii\" (encodings), \"None\" into \"null\" (JSON's\n" +
		"literals), \"strict\" into \"replace\" (error handlers), \"r\" into \"rb\" (file\n" +
		"modes), \"little\" into \"big\".",
	Weight: 0.15,
}, (*Context).domainStrings, program.SiteLiteral)

// ownClass returns, for a name read at site id inside a method, the
// texts that stand for the class of the method's first parameter when
// the name is the method's class: type(self) and self.__class__, or cls.
func (c *Context) ownClass(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if !readSite(p, id) || s.InString {
		return nil
	}
	sc := p.Stmts[s.Stmt].Scope
	if sc <= 0 || p.Scopes[sc].Kind != "function" || p.Scopes[sc].Stmt < 0 {
		return nil
	}
	par := p.Scopes[sc].Parent
	if par > 0 && p.Scopes[par].Kind == "class" {
		name := p.Scopes[par].Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if p.SiteText(id) != name {
			return nil
		}
	} else if !c.classNames()[p.SiteText(id)] {
		// A function made into a method elsewhere (a decorator's wrapper
		// whose first parameter is self): any class of the file.
		return nil
	}
	ps := allParams(p.StmtText(p.Scopes[sc].Stmt))
	if len(ps) == 0 {
		return nil
	}
	switch ps[0] {
	case "self":
		return []string{"type(self)", "self.__class__"}
	case "cls":
		return []string{"cls"}
	}
	return nil
}

// classNames are the names of the file's classes.
func (c *Context) classNames() map[string]bool {
	c.classOnce.Do(func() {
		p := c.Prog
		c.classes = map[string]bool{}
		for i := range p.Scopes {
			if sc := &p.Scopes[i]; sc.Kind == "class" {
				c.classes[sc.Name[strings.LastIndexByte(sc.Name, '.')+1:]] = true
			}
		}
	})
	return c.classes
}

var opTypeSelf = replacing(Operator{
	Name: "type-self",
	Doc: "put type(self) for the class's own name in a method\n\n" +
		"return Version(major, minor) into return type(self)(major, minor), so that a\n" +
		"subclass builds its own kind; or self.__class__, or cls in a classmethod. In a\n" +
		"function whose first parameter is self (a decorator's wrapper), any class of\n" +
		"the file.",
	Weight: 0.15,
}, (*Context).ownClass, program.SiteIdent)

// relatedTypes are the builtin types a check for one often meant along
// with it.
var relatedTypes = map[string][]string{
	"int": {"float"}, "float": {"int"}, "str": {"bytes"}, "bytes": {"str", "bytearray"},
	"list": {"tuple"}, "tuple": {"list"}, "set": {"frozenset"}, "frozenset": {"set"}, "dict": {"list"},
}

// typeChecks returns, for the argument list site id of isinstance(x, T)
// or issubclass(x, T), the lists with a type more in T: the types the
// file's other checks name, the classes it defines, the builtins related
// to T's (int with float); and with one type fewer when T is a tuple.
func (c *Context) typeChecks(id int) []string {
	p := c.Prog
	s := &p.Sites[id]
	if s.Kind != program.SiteArgs || len(s.Parts) != 2 || s.InString {
		return nil
	}
	src := p.Src
	if s.Start < 10 || src[s.Start] != '(' || !strings.HasSuffix(string(src[max(0, s.Start-10):s.Start]), "isinstance") &&
		!strings.HasSuffix(string(src[max(0, s.Start-10):s.Start]), "issubclass") {
		return nil
	}
	subj := p.Text(s.Parts[0].Start, s.Parts[0].End)
	t := p.Text(s.Parts[1].Start, s.Parts[1].End)
	if strings.ContainsAny(subj+t, "\r\n") {
		return nil
	}
	members := typeMembers(t)
	if members == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	emit := func(ms []string) {
		text := ms[0]
		if len(ms) > 1 {
			text = "(" + strings.Join(ms, ", ") + ")"
		}
		if text != t && !seen[text] {
			seen[text] = true
			out = append(out, "("+subj+", "+text+")")
		}
	}
	for _, u := range c.fileTypes() {
		if !slices.Contains(members, u) {
			emit(append(slices.Clone(members), u))
		}
	}
	for _, m := range members {
		for _, u := range relatedTypes[m] {
			if !slices.Contains(members, u) && c.builtin(u) {
				emit(append(slices.Clone(members), u))
			}
		}
	}
	if len(members) > 1 {
		for k := range members {
			emit(slices.Delete(slices.Clone(members), k, k+1))
		}
	}
	return out
}

// typeMembers splits a type check's second argument: a name (or dotted
// name) or a tuple of them; nil for any other.
func typeMembers(t string) []string {
	t = strings.TrimSpace(t)
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = t[1 : len(t)-1]
	}
	var out []string
	for _, m := range strings.Split(t, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		for _, part := range strings.Split(m, ".") {
			if !isName(part) {
				return nil
			}
		}
		out = append(out, m)
	}
	return out
}

// fileTypes returns the types the file's isinstance and issubclass
// checks name and the classes it defines (made once per context).
func (c *Context) fileTypes() []string { return fileTypesFact.get(c) }

var fileTypesFact = newFact(func(c *Context) []string {
	p := c.Prog
	var out []string
	add := func(n string) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteArgs || len(s.Parts) != 2 || s.Start < 10 {
			continue
		}
		if pre := string(p.Src[s.Start-10 : s.Start]); pre == "isinstance" || strings.HasSuffix(pre, "issubclass") {
			for _, m := range typeMembers(p.Text(s.Parts[1].Start, s.Parts[1].End)) {
				add(m)
			}
		}
	}
	for _, sc := range p.Scopes {
		if sc.Kind == "class" && !strings.Contains(sc.Name, ".") {
			add(sc.Name)
		}
	}
	return out
})

var opTypeTuple = replacing(Operator{
	Name: "type-tuple",
	Doc: "check for a tuple of types in isinstance\n\n" +
		"isinstance(x, int) into isinstance(x, (int, float)), isinstance(v, str) into\n" +
		"isinstance(v, (str, Version)): a type the file's other checks name, a class\n" +
		"it defines or a builtin type related to the one checked; or a type dropped\n" +
		"from a tuple.",
	Weight: 0.15,
}, (*Context).typeChecks, program.SiteArgs)

// alikeRenames returns the statements statement s becomes when every
// name it reads that has a counterpart by one affix (x and x_user, x and
// user_x, or back) is renamed to it: at least two names, all changed
// the same way.
func (c *Context) alikeRenames(s int) []string {
	p := c.Prog
	st := &p.Stmts[s]
	if st.Compound || strings.ContainsAny(p.StmtText(s), "\r\n") || !movable(st) || st.Kind == "delete_statement" {
		return nil
	}
	type read struct {
		id   int
		name string
	}
	var reads []read
	var names []string
	for _, id := range c.idents[s] {
		if readSite(p, id) && !p.Sites[id].InString {
			n := p.SiteText(id)
			reads = append(reads, read{id, n})
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) < 2 {
		return nil
	}
	type affix struct {
		pre, suf string
		back     bool
	}
	var affixes []affix
	for _, n := range names {
		for _, m := range c.similarNames(s, n) {
			var a affix
			switch {
			case strings.HasPrefix(m, n):
				a = affix{suf: m[len(n):]}
			case strings.HasSuffix(m, n):
				a = affix{pre: m[:len(m)-len(n)]}
			case strings.HasPrefix(n, m):
				a = affix{suf: n[len(m):], back: true}
			case strings.HasSuffix(n, m):
				a = affix{pre: n[:len(n)-len(m)], back: true}
			default:
				continue
			}
			if !slices.Contains(affixes, a) {
				affixes = append(affixes, a)
			}
		}
	}
	var out []string
	text := p.StmtText(s)
	for _, a := range affixes {
		to := map[string]string{}
		for _, n := range names {
			var m string
			switch {
			case !a.back:
				m = a.pre + n + a.suf
			case strings.HasPrefix(n, a.pre) && strings.HasSuffix(n, a.suf) && len(n) > len(a.pre)+len(a.suf):
				m = n[len(a.pre) : len(n)-len(a.suf)]
			default:
				continue
			}
			if slices.Contains(c.similarNames(s, n), m) {
				to[n] = m
			}
		}
		if len(to) < 2 {
			continue
		}
		var sb strings.Builder
		at := st.Start
		for _, r := range reads {
			m, ok := to[r.name]
			if !ok {
				continue
			}
			site := &p.Sites[r.id]
			sb.WriteString(string(p.Src[at:site.Start]))
			sb.WriteString(m)
			at = site.End
		}
		sb.WriteString(string(p.Src[at:st.End]))
		if t := sb.String(); t != text {
			out = append(out, t)
		}
	}
	return out
}

// renameAlikeTargets are rename-alike's.
var renameAlikeTargets = keptStmts(func(c *Context, s int) bool { return len(c.alikeRenames(s)) > 0 })

var opRenameAlike = Operator{
	Name: "rename-alike",
	Doc: "rename every name of a statement alike\n\n" +
		"l_bar, r_bar = l_bar.format(d), r_bar.format(d) into l_bar, r_bar =\n" +
		"l_bar_user.format(d), r_bar_user.format(d): the names a statement reads\n" +
		"that have a counterpart by the same affix in scope (x and x_user, or back),\n" +
		"two or more, all renamed to it.",
	Targets: renameAlikeTargets.get,
	Weight:  0.15,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		for _, t := range c.alikeRenames(s) {
			emit(program.Edit{Op: program.ReplaceLine, Stmt: s, Text: strings.TrimSpace(t)})
		}
	},
}
