// Statements: compound ones (if, loops, try, with, match, functions and
// classes) and simple ones (assignments, imports, the rest).

package pygen

import "strings"

func (g *gen) compound(sc *scope) []line {
	type choice struct {
		w  int
		ok bool
		f  func() []line
	}
	cs := []choice{
		{6, true, func() []line { return g.ifStmt(sc) }},
		{3, true, func() []line { return g.forStmt(sc, false) }},
		{2, true, func() []line { return g.whileStmt(sc) }},
		{3, true, func() []line { return g.tryStmt(sc) }},
		{2, true, func() []line { return g.withStmt(sc, false) }},
		{4, true, func() []line { return g.funcDef(sc) }},
		{2, true, func() []line { return g.classDef(sc) }},
		{2, !g.cfg.NoMatch, func() []line { return g.matchStmt(sc) }},
		{1, sc.async, func() []line { return g.forStmt(sc, true) }},
		{1, sc.async, func() []line { return g.withStmt(sc, true) }},
	}
	var ws []int
	for _, c := range cs {
		if c.ok {
			ws = append(ws, c.w)
		} else {
			ws = append(ws, 0)
		}
	}
	return cs[g.weighted(ws...)].f()
}

func (g *gen) ifStmt(sc *scope) []line {
	e := ectx{await: sc.async, walrus: true, multi: true}
	ls := g.suite(sc, "if "+g.cond(e), nil, nil)
	for k := g.weighted(6, 3, 1); k > 0; k-- {
		ls = append(ls, g.suite(sc, "elif "+g.cond(e), nil, nil)...)
	}
	if g.maybe(40) {
		if g.maybe(10) {
			ls = append(ls, g.comment(sc))
		}
		ls = append(ls, g.suite(sc, "else", nil, nil)...)
	}
	return ls
}

// cond is a condition of if, elif, while: any expression, sometimes an
// unparenthesized walrus.
func (g *gen) cond(e ectx) string {
	if e.walrus && g.maybe(10) {
		return g.name() + " := " + g.expr(e, precOr)
	}
	if g.maybe(60) {
		return g.compare(e)
	}
	return g.expr(e, precLambda+1)
}

func (g *gen) loopScope(sc *scope) *scope {
	in := *sc
	in.loop = true
	return &in
}

func (g *gen) forStmt(sc *scope, async bool) []line {
	e := ectx{await: sc.async, multi: true}
	kw := "for "
	if async {
		kw = "async for "
	}
	target := g.target()
	iter := one(g, []string{"range(" + g.expr(e, precLambda+1) + ")", g.name(), g.expr(e, precOr)})
	if g.maybe(15) {
		iter = g.expr(e, precOr) + ", " + g.expr(e, precOr)
	}
	in := g.loopScope(sc)
	ls := g.suite(sc, kw+target+" in "+iter, nil, in)
	if g.maybe(15) {
		ls = append(ls, g.suite(sc, "else", nil, nil)...)
	}
	return ls
}

func (g *gen) whileStmt(sc *scope) []line {
	e := ectx{await: sc.async, walrus: true, multi: true}
	head := "while " + g.cond(e)
	if g.maybe(15) {
		head = "while True"
	}
	ls := g.suite(sc, head, nil, g.loopScope(sc))
	if g.maybe(15) {
		ls = append(ls, g.suite(sc, "else", nil, nil)...)
	}
	return ls
}

func (g *gen) tryStmt(sc *scope) []line {
	ls := g.suite(sc, "try", nil, nil)
	n := g.weighted(1, 6, 3, 1) // handlers; 0 needs finally
	for i := 0; i < n; i++ {
		h := "except"
		switch g.weighted(1, 4, 2, 2) {
		case 0:
			if i < n-1 {
				h = "except Exception"
			}
		case 1:
			h += " " + one(g, excs)
		case 2:
			h += " (" + one(g, excs) + ", " + one(g, excs) + ")"
		case 3:
			h += " " + one(g, excs) + " as " + g.name()
		}
		ls = append(ls, g.suite(sc, h, nil, nil)...)
	}
	if n > 0 && g.maybe(25) {
		ls = append(ls, g.suite(sc, "else", nil, nil)...)
	}
	if n == 0 || g.maybe(25) {
		ls = append(ls, g.suite(sc, "finally", nil, nil)...)
	}
	return ls
}

func (g *gen) withStmt(sc *scope, async bool) []line {
	e := ectx{await: sc.async}
	var items []string
	for k := 1 + g.weighted(6, 2, 1); k > 0; k-- {
		it := g.expr(e, precTernary)
		if g.maybe(60) {
			it += " as " + one(g, []string{g.name(), "(" + g.name() + ", " + g.name() + ")", g.name() + "." + one(g, attrs)})
		}
		items = append(items, it)
	}
	kw := "with "
	if async {
		kw = "async with "
	}
	return g.suite(sc, kw+strings.Join(items, ", "), nil, nil)
}

// params returns a parameter list with unique names and the names it binds.
func (g *gen) params(sc *scope, self bool) (string, []string) {
	e := ectx{await: sc.async}
	used := map[string]bool{}
	pick := func() string {
		for try := 0; try < 4; try++ {
			if n := one(g, vars); !used[n] {
				used[n] = true
				return n
			}
		}
		n := g.freshName("arg")
		used[n] = true
		return n
	}
	var ps, names []string
	if self {
		ps, names = append(ps, "self"), append(names, "self")
		used["self"] = true
	}
	ann := func(p string) string {
		if g.maybe(15) {
			return p + ": " + one(g, anns)
		}
		return p
	}
	def := func(p string) string {
		sep := "="
		if strings.Contains(p, ":") {
			sep = " = "
		}
		return p + sep + g.expr(e, precLambda+1)
	}
	defaults := false
	for k := g.weighted(2, 4, 3, 2); k > 0; k-- {
		p := pick()
		names = append(names, p)
		if defaults || g.maybe(25) {
			defaults = true
			ps = append(ps, def(ann(p)))
		} else {
			ps = append(ps, ann(p))
		}
	}
	if len(ps) > 0 && g.maybe(10) {
		ps = append(ps, "/")
	}
	switch g.weighted(6, 1, 1) {
	case 1:
		p := pick()
		names = append(names, p)
		ps = append(ps, "*"+p)
	case 2:
		ps = append(ps, "*")
		p := pick()
		names = append(names, p)
		if g.maybe(50) {
			ps = append(ps, def(ann(p)))
		} else {
			ps = append(ps, ann(p))
		}
	}
	if g.maybe(10) {
		p := pick()
		names = append(names, p)
		ps = append(ps, "**"+p)
	}
	sep := ", "
	if g.maybe(10) {
		sep = ","
	}
	return strings.Join(ps, sep), names
}

func (g *gen) decorators(sc *scope) []line {
	var ls []line
	for k := g.weighted(8, 2, 1); k > 0; k-- {
		d := one(g, []string{"staticmethod", "property", "functools.cache", g.name(), g.name() + "(" + g.expr(ectx{}, precLambda+1) + ")", "functools.wraps(" + g.name() + ")"})
		if sc.class && g.maybe(20) {
			d = "classmethod"
		}
		ls = append(ls, line{text: "@" + d})
	}
	return ls
}

func (g *gen) funcDef(sc *scope) []line {
	async := g.maybe(10)
	name := g.freshName("f")
	g.funcs = append(g.funcs, name)
	ps, names := g.params(sc, sc.class)
	binds := append([]string(nil), names...)
	in := &scope{fn: true, async: async, gen: !async, method: sc.class, depth: sc.depth, indent: sc.indent, binds: &binds}
	var pre []string
	if len(sc.outer) > 0 && g.maybe(50) {
		v := one(g, sc.outer)
		pre = append(pre, "nonlocal "+v)
		in.nonlocals = []string{v}
	}
	if g.maybe(10) {
		v := g.freshName("G")
		pre = append(pre, "global "+v)
		in.globals = []string{v}
	}
	if g.maybe(25) {
		// A name a nested function may declare nonlocal.
		v := g.freshName("nl")
		pre = append(pre, v+" = "+g.expr(ectx{}, precLambda+1))
		in.outer = []string{v}
	}
	head := "def " + name + "(" + ps + ")"
	if g.maybe(15) {
		head += " -> " + one(g, anns)
	}
	if async {
		head = "async " + head
	}
	var ls []line
	if !sc.class || g.maybe(70) {
		ls = append(ls, g.decorators(sc)...)
	}
	if len(pre) == 0 && g.maybe(50) {
		return append(ls, g.suite(sc, head, nil, in)...)
	}
	body := func(in *scope) []line {
		ind := one(g, chunks)
		in.depth++
		in.indent += ind
		var b []line
		if g.maybe(25) {
			b = append(b, split(g.docstring())...)
		}
		for _, p := range pre {
			b = append(b, line{text: p})
		}
		b = append(b, g.stmts(in, max(g.left, 1))...)
		return indented(b, ind)
	}
	return append(ls, g.suite(sc, head, body, in)...)
}

func (g *gen) classDef(sc *scope) []line {
	name := g.freshName("C")
	head := "class " + name
	switch g.weighted(4, 3, 1, 1) {
	case 1:
		base := "object"
		if len(g.cls) > 0 {
			base = one(g, g.cls)
		}
		head += "(" + one(g, []string{base, "Exception", "dict"}) + ")"
	case 2:
		head += "()"
	case 3:
		head += "(" + one(g, []string{"object", "Exception"}) + ", metaclass=type)"
	}
	g.cls = append(g.cls, name)
	binds := []string{}
	in := &scope{class: true, depth: sc.depth, indent: sc.indent, binds: &binds}
	var ls []line
	if g.maybe(15) {
		ls = append(ls, line{text: "@" + g.name()})
	}
	body := func(in *scope) []line {
		ind := one(g, chunks)
		in.depth++
		in.indent += ind
		var b []line
		if g.maybe(30) {
			b = append(b, split(g.docstring())...)
		}
		b = append(b, g.stmts(in, max(g.left, 1))...)
		return indented(b, ind)
	}
	if g.maybe(20) {
		body = nil
	}
	return append(ls, g.suite(sc, head, body, in)...)
}

func (g *gen) matchStmt(sc *scope) []line {
	e := ectx{await: sc.async}
	subject := g.expr(e, precOr)
	if g.maybe(15) {
		subject = g.expr(e, precOr) + ", " + g.expr(e, precOr)
	}
	ls := []line{{text: "match " + subject + ":"}}
	ind := one(g, chunks)
	n := 1 + g.weighted(2, 4, 3, 1)
	for i := 0; i < n; i++ {
		last := i == n-1
		pat := g.pattern(2, map[string]bool{}, last)
		if g.maybe(20) {
			pat += " if " + g.expr(e, precLambda+1)
		}
		for _, l := range g.suite(sc, "case "+pat, nil, nil) {
			if !l.raw {
				l.text = ind + l.text
			}
			ls = append(ls, l)
		}
	}
	return ls
}

// pattern returns a match pattern binding fresh names (tracked in bound).
// Only the last case may be irrefutable.
func (g *gen) pattern(depth int, bound map[string]bool, last bool) string {
	capture := func() string {
		n := g.freshName("m")
		bound[n] = true
		return n
	}
	literal := func() string {
		return one(g, []string{"0", "1", "-1", "2.5", "'a'", `"go"`, "None", "True", "False", "b'x'", "1 + 2j", "-3j", "0x10"})
	}
	if depth <= 0 {
		return literal()
	}
	switch g.weighted(4, 2, 2, 2, 2, 2, 1, 1, 1) {
	case 1:
		if last {
			return one(g, []string{"_", capture()})
		}
		return literal()
	case 2:
		var ps []string
		star := false
		for k := g.n(4); k > 0; k-- {
			if !star && g.maybe(20) {
				star = true
				ps = append(ps, "*"+one(g, []string{"_", capture()}))
				continue
			}
			ps = append(ps, g.pattern(depth-1, bound, false))
		}
		if g.maybe(50) {
			return "[" + strings.Join(ps, ", ") + "]"
		}
		if len(ps) == 1 {
			return "(" + ps[0] + ",)"
		}
		return "(" + strings.Join(ps, ", ") + ")"
	case 3:
		var ps []string
		keys := []string{"'k'", `"x"`, "1", "None", "'y'"}
		for i, k := range g.rng.Perm(len(keys))[:g.n(3)] {
			_ = i
			ps = append(ps, keys[k]+": "+g.pattern(depth-1, bound, false))
		}
		if g.maybe(30) {
			ps = append(ps, "**"+capture())
		}
		return "{" + strings.Join(ps, ", ") + "}"
	case 4:
		cls := one(g, []string{"int", "str", "Point", "C0", "list", "dict"})
		var ps []string
		for k := g.n(3); k > 0; k-- {
			ps = append(ps, g.pattern(depth-1, bound, false))
		}
		for i, k := range g.rng.Perm(len(attrs))[:g.n(3)] {
			_ = i
			ps = append(ps, attrs[k]+"="+g.pattern(depth-1, bound, false))
		}
		return cls + "(" + strings.Join(ps, ", ") + ")"
	case 5:
		var ps []string
		for k := 2 + g.n(3); k > 0; k-- {
			ps = append(ps, literal())
		}
		return strings.Join(ps, " | ")
	case 6:
		return "(" + g.pattern(depth-1, bound, false) + ") as " + capture()
	case 7:
		return one(g, []string{"Color.RED", "math.pi", "C0.x", "sys.maxsize"})
	case 8:
		// A capture inside a structure is fine anywhere.
		return "[" + capture() + "]"
	}
	return literal()
}

func (g *gen) docstring() string {
	w := one(g, []string{"Return x.", "Edge case: x < y", "é ü ß", "TODO"})
	switch g.n(4) {
	case 0:
		return `"""` + w + `"""`
	case 1:
		return `"""First line.` + "\n\nMore text at column 0.\n    indented text\n" + `"""`
	case 2:
		return `'''` + "\n" + w + "\n" + `'''`
	}
	return `"` + w + `"`
}

func (g *gen) importStmt(sc *scope) string {
	switch g.weighted(3, 2, 2, 1, 1) {
	case 1:
		return "import " + one(g, modules) + " as " + g.name()
	case 2:
		return "from " + one(g, []string{"math", "os", "collections", "typing", "."}) + " import " + g.name() + ", " + g.name() + " as " + g.name()
	case 3:
		if sc.module {
			return "from " + one(g, []string{"math", "os.path"}) + " import *"
		}
	case 4:
		return "from " + one(g, []string{"math", "itertools"}) + " import (\n" + indentMark + "    " + g.name() + ",\n" + indentMark + "    " + g.name() + ",\n" + indentMark + ")"
	}
	mods := one(g, modules)
	if g.maybe(20) {
		mods += ", " + one(g, modules)
	}
	return "import " + mods
}

// simple returns a simple statement for scope sc (possibly spanning lines).
func (g *gen) simple(sc *scope) string {
	e := ectx{await: sc.async, walrus: true, multi: true}
	type choice struct {
		w  int
		ok bool
		f  func() string
	}
	cs := []choice{
		{10, true, func() string { return g.assign(sc, e) }},
		{4, true, func() string { return g.augTarget() + " " + one(g, augops) + " " + g.expr(e, precLambda+1) }},
		{5, true, func() string { return g.call(e) }},
		{2, true, func() string { return "pass" }},
		{1, true, func() string {
			return "del " + one(g, []string{g.name(), g.name() + "[" + g.expr(e, precLambda+1) + "]", g.name() + ", " + g.name(), g.name() + "." + one(g, attrs)})
		}},
		{2, true, func() string {
			s := "assert " + g.expr(e, precLambda+1)
			if g.maybe(30) {
				s += ", " + g.str(e)
			}
			return s
		}},
		{2, true, func() string {
			switch g.n(3) {
			case 0:
				return "raise"
			case 1:
				return "raise " + one(g, excs) + "(" + g.str(e) + ")"
			}
			return "raise " + one(g, excs) + " from " + g.name()
		}},
		{6, sc.fn, func() string {
			switch g.weighted(1, 4, 1, 1) {
			case 0:
				return "return"
			case 2:
				return "return " + g.expr(e, precTernary) + ", " + g.expr(e, precTernary)
			case 3:
				return "return \\\n" + indentMark + "    " + g.expr(e, precLambda)
			}
			return "return " + g.expr(e, precLambda)
		}},
		{3, sc.loop, func() string { return one(g, []string{"break", "continue"}) }},
		{3, sc.fn && sc.gen, func() string {
			switch g.n(4) {
			case 0:
				return "yield"
			case 1:
				return "yield " + g.expr(e, precLambda)
			case 2:
				return g.name() + " = yield " + g.expr(e, precLambda)
			}
			return "yield from " + g.expr(e, precOr)
		}},
		{1, true, func() string { return g.importStmt(sc) }},
		{3, len(sc.globals) > 0, func() string {
			return one(g, sc.globals) + " " + one(g, []string{"=", "+="}) + " " + g.expr(e, precLambda+1)
		}},
		{3, len(sc.nonlocals) > 0, func() string {
			return one(g, sc.nonlocals) + " " + one(g, []string{"=", "+="}) + " " + g.expr(e, precLambda+1)
		}},
		{2, sc.async, func() string { return "await " + g.primary(e) }},
		{1, sc.method, func() string { return "self." + one(g, attrs) + " = " + g.expr(e, precLambda) }},
		{1, true, func() string { return one(g, []string{"...", g.str(e)}) }},
	}
	ws := make([]int, len(cs))
	for i, c := range cs {
		if c.ok {
			ws[i] = c.w
		}
	}
	return cs[g.weighted(ws...)].f()
}

func (g *gen) assign(sc *scope, e ectx) string {
	switch g.weighted(10, 2, 2, 1, 2, 1, 1) {
	case 1:
		a, b := g.name(), g.name()
		return a + ", " + b + " = " + b + ", " + a
	case 2:
		return g.name() + "[" + g.expr(e, precLambda+1) + "] = " + g.expr(e, precLambda)
	case 3:
		return g.name() + " = " + g.name() + " = " + g.expr(e, precLambda)
	case 4:
		s := g.name() + ": " + one(g, anns)
		if sc.class || g.maybe(70) {
			s += " = " + g.expr(e, precLambda)
		}
		return s
	case 5:
		return g.name() + ", *" + g.name() + " = " + g.expr(e, precLambda)
	case 6:
		return g.name() + " = \\\n" + indentMark + "    " + g.expr(e, precLambda)
	}
	rhs := g.expr(e, precLambda)
	if g.maybe(10) {
		rhs = g.expr(e, precTernary) + ", " + g.expr(e, precTernary)
	}
	if g.maybe(5) {
		rhs = "(" + g.name() + " := " + g.expr(e, precLambda+1) + ")"
	}
	eq := " = "
	if g.maybe(10) {
		eq = one(g, []string{"=", "  =  ", "\t= "})
	}
	return g.name() + eq + rhs
}

// target is an assignment or loop target.
func (g *gen) target() string {
	switch g.weighted(8, 2, 1, 1) {
	case 1:
		return g.name() + ", " + g.name()
	case 2:
		return "(" + g.name() + ", " + g.name() + ")"
	case 3:
		return g.name() + "[" + one(g, []string{"0", "-1", g.name()}) + "]"
	}
	return g.name()
}

// augTarget is the target of an augmented assignment: no tuples.
func (g *gen) augTarget() string {
	switch g.weighted(8, 1, 1) {
	case 1:
		return g.name() + "[" + one(g, []string{"0", "-1", g.name()}) + "]"
	case 2:
		return g.name() + "." + one(g, attrs)
	}
	return g.name()
}
