package pygen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Config bounds the programs [Generate] makes. The zero value is usable.
type Config struct {
	// Stmts bounds the number of statements (a compound statement counts
	// once, and its body's statements count too); 0 means 40. Every block
	// still gets at least one statement.
	Stmts int
	// Depth bounds the nesting of blocks; 0 means 4.
	Depth int
	// ExprDepth bounds the nesting of expressions; 0 means 3.
	ExprDepth int
	// NoMatch leaves out match statements, for Pythons before 3.10.
	NoMatch bool
}

func (c Config) withDefaults() Config {
	if c.Stmts <= 0 {
		c.Stmts = 40
	}
	if c.Depth <= 0 {
		c.Depth = 4
	}
	if c.ExprDepth <= 0 {
		c.ExprDepth = 3
	}
	return c
}

// Generate returns a random Python program that CPython 3.10 and 3.11
// compile (3.8 and later with [Config.NoMatch]), drawing every choice
// from rng.
func Generate(rng *rand.Rand, cfg Config) []byte {
	g := &gen{rng: rng, cfg: cfg.withDefaults()}
	g.left = g.cfg.Stmts
	return g.module()
}

// Bytes returns a source that replays data, one byte a draw, then zero
// bytes: for fuzz targets, so that mutating the input mutates the
// program's choices. A byte b is drawn as b<<56 | 0x00ffffffffffff00 | b,
// so that rand.IntN(n) for n up to 256 is about b*n/256 — masked by n-1
// for a power of two — and 0 for b == 0, without ever hitting rand's
// rejection loop on an input that ends in zeros.
func Bytes(data []byte) rand.Source { return &byteSource{data} }

type byteSource struct{ data []byte }

func (s *byteSource) Uint64() uint64 {
	var b uint64
	if len(s.data) > 0 {
		b = uint64(s.data[0])
		s.data = s.data[1:]
	}
	return b<<56 | 0x00ffffffffffff00 | b
}

// Precedence levels, lowest first (Python Language Reference 6.17).
const (
	precLambda  = 0
	precTernary = 1
	precOr      = 2
	precAnd     = 3
	precNot     = 4
	precCompare = 5
	precBitOr   = 6
	precBitXor  = 7
	precBitAnd  = 8
	precShift   = 9
	precAdd     = 10
	precMul     = 11
	precUnary   = 12
	precPower   = 13
	precAwait   = 14
	precAtom    = 15
)

// indentMark starts a continuation line (inside brackets or after a
// backslash) that gets its block's indentation; other continuation lines
// (inside multi-line strings) are kept as they are.
const indentMark = "\x01"

var (
	vars     = []string{"a", "b", "c", "x", "y", "z", "i", "j", "n", "k", "s", "t", "total", "items", "acc", "val", "res", "lo", "hi", "mid", "key", "data", "count", "p", "q"}
	builtins = []string{"len", "range", "print", "min", "max", "abs", "sorted", "sum", "str", "int", "list", "dict", "isinstance", "enumerate", "zip", "any", "all", "repr", "round", "tuple", "set"}
	methods  = []string{"append", "pop", "get", "items", "keys", "split", "join", "strip", "copy", "update", "add", "sort", "index", "count"}
	attrs    = []string{"x", "y", "value", "size", "name", "left", "right", "real", "data"}
	excs     = []string{"ValueError", "KeyError", "TypeError", "IndexError", "ZeroDivisionError", "RuntimeError", "StopIteration", "Exception", "OSError", "AttributeError"}
	modules  = []string{"os", "sys", "math", "re", "json", "itertools", "functools", "collections", "os.path", "typing"}
	anns     = []string{"int", "str", "float", "bool", "list", "dict", "None", "'Node'", "list[int]", "dict[str, int]", "tuple[int, ...]", "int | None", "typing.Any"}
	chunks   = []string{"    ", "  ", "\t", " ", "        ", "   ", "\t  ", "      "}
	binops   = [][]string{
		precBitOr: {"|"}, precBitXor: {"^"}, precBitAnd: {"&"}, precShift: {"<<", ">>"},
		precAdd: {"+", "-"}, precMul: {"*", "/", "//", "%", "@"},
	}
	cmpops = []string{"<", "==", ">", "<=", ">=", "!=", "in", "not in", "is", "is not"}
	augops = []string{"+=", "-=", "*=", "/=", "//=", "%=", "**=", "|=", "&=", "^=", "<<=", ">>=", "@="}
)

// gen holds the state of one program's generation.
type gen struct {
	rng   *rand.Rand
	cfg   Config
	left  int // statements left
	fresh int // counter for fresh names
	funcs []string
	cls   []string
}

// scope is the context of a statement.
type scope struct {
	fn, async, gen bool // in a function; an async one; yield allowed
	loop           bool // break and continue allowed
	class          bool // directly in a class body
	method         bool // in a method (self is there)
	module         bool // directly at module level
	depth          int  // block nesting
	indent         string
	globals        []string // names declared global in this function
	nonlocals      []string // names declared nonlocal in this function
	binds          *[]string
	// outer are names the enclosing function binds that a function
	// defined here may declare nonlocal.
	outer []string
}

// ectx is the context of an expression.
type ectx struct {
	depth  int
	await  bool // await allowed
	walrus bool // (x := e) allowed
	quote  byte // the quote of the enclosing f-string, or 0
	multi  bool // line breaks allowed (in brackets)
}

func (g *gen) n(k int) int { return g.rng.IntN(k) }

// maybe is true with probability pct/100; false on the zero input.
func (g *gen) maybe(pct int) bool { return g.rng.IntN(100) >= 100-pct }

func one[T any](g *gen, xs []T) T { return xs[g.n(len(xs))] }

// weighted returns an index drawn with the given weights (never one of
// weight 0); the first of positive weight on the zero input.
func (g *gen) weighted(ws ...int) int {
	total := 0
	for _, w := range ws {
		total += w
	}
	x := g.n(total)
	for i, w := range ws {
		if x < w {
			return i
		}
		x -= w
	}
	return len(ws) - 1
}

func (g *gen) freshName(prefix string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", prefix, g.fresh-1)
}

// line is one line of a block's text, without the block's indentation.
type line struct {
	text string
	raw  bool // not indented: inside a multi-line string, an odd comment, a blank line
}

// split turns statement text into lines (see indentMark).
func split(s string) []line {
	parts := strings.Split(s, "\n")
	out := []line{{text: parts[0]}}
	for _, p := range parts[1:] {
		if rest, ok := strings.CutPrefix(p, indentMark); ok {
			out = append(out, line{text: rest})
		} else {
			out = append(out, line{text: p, raw: true})
		}
	}
	return out
}

func indented(ls []line, ind string) []line {
	out := make([]line, len(ls))
	for i, l := range ls {
		if !l.raw {
			l.text = ind + l.text
		}
		out[i] = l
	}
	return out
}

func (g *gen) module() []byte {
	var ls []line
	if g.maybe(5) {
		ls = append(ls, line{text: "#!/usr/bin/env python3", raw: true})
	}
	if g.maybe(5) {
		ls = append(ls, line{text: "# -*- coding: utf-8 -*-", raw: true})
	}
	if g.maybe(20) {
		ls = append(ls, split(g.docstring())...)
	}
	if g.maybe(10) {
		ls = append(ls, line{text: "from __future__ import annotations"})
	}
	binds := []string{}
	sc := &scope{module: true, binds: &binds}
	if g.maybe(50) {
		for k := 1 + g.n(3); k > 0; k-- {
			ls = append(ls, split(g.importStmt(sc))...)
		}
	}
	for first := true; first || g.left > 0 && g.maybe(85); first = false {
		ls = append(ls, g.stmts(sc, g.left)...)
	}
	if g.left > 0 && g.maybe(20) {
		body := g.block(&scope{module: false, depth: 1, binds: &binds})
		ls = append(ls, line{text: `if __name__ == "__main__":`})
		ls = append(ls, body...)
	}
	nl := "\n"
	if g.maybe(10) {
		nl = "\r\n"
	}
	var sb strings.Builder
	if g.maybe(5) {
		sb.WriteString("\ufeff")
	}
	noFinal := g.maybe(10)
	for i, l := range ls {
		sb.WriteString(l.text)
		if i < len(ls)-1 || !noFinal {
			sb.WriteString(nl)
		}
	}
	out := sb.String()
	if nl == "\r\n" {
		// Multi-line strings were joined with \n inside one line's text.
		out = strings.ReplaceAll(strings.ReplaceAll(out, "\r\n", "\n"), "\n", "\r\n")
	}
	return []byte(out)
}

// stmts generates up to limit statements (at least one) of a block in
// scope sc, with comments and blank lines between them and some simple
// statements joined by ';'.
func (g *gen) stmts(sc *scope, limit int) []line {
	var ls []line
	k := 1 + g.n(min(limit, 6)+1)
	for i := 0; i < k && (i == 0 || g.left > 0); i++ {
		switch g.weighted(20, 2, 2, 1) {
		case 1:
			ls = append(ls, g.comment(sc))
		case 2:
			if g.maybe(50) {
				ls = append(ls, line{text: "", raw: true})
			} else {
				ls = append(ls, line{text: strings.Repeat(" ", g.n(9)), raw: true})
			}
		case 3:
			ls = append(ls, line{text: "", raw: true}, line{text: "", raw: true})
		}
		g.left--
		if sc.depth < g.cfg.Depth && g.maybe(35) {
			ls = append(ls, g.compound(sc)...)
			continue
		}
		s := g.simple(sc)
		if g.maybe(15) {
			// A ';' line: more simple statements on the same line.
			for j := g.n(3); j >= 0; j-- {
				g.left--
				s += one(g, []string{"; ", ";", " ; "}) + g.simple(sc)
			}
			if g.maybe(20) {
				s += ";"
			}
		}
		if g.maybe(10) {
			s += "  # " + g.words()
		}
		ls = append(ls, split(s)...)
	}
	return ls
}

func (g *gen) comment(sc *scope) line {
	text := "# " + g.words()
	if g.maybe(30) {
		return line{text: strings.Repeat(one(g, []string{" ", "\t"}), g.n(12)) + text, raw: true}
	}
	return line{text: text}
}

func (g *gen) words() string {
	ws := []string{"note", "TODO: fix", "edge case", "see above", "x < y", "''", "\"\"\"", "if x:", "é ü ß", "return", "#", "    indented"}
	return one(g, ws)
}

// block generates the indented body of a compound statement whose header
// ends with ':' (the caller writes the header). It may put a one-line
// body on the header line instead: then the first line of the result has
// raw == true and text starting with " " (see header).
func (g *gen) block(sc *scope) []line {
	sc.depth++
	defer func() { sc.depth-- }()
	ind := one(g, chunks)
	sc.indent += ind
	defer func() { sc.indent = sc.indent[:len(sc.indent)-len(ind)] }()
	body := g.stmts(sc, max(g.left, 1))
	return indented(body, ind)
}

// suite returns a compound statement's header and body: a one-line body
// (if x: y; z), or an indented block, with an optional comment after the
// colon.
func (g *gen) suite(sc *scope, header string, body func(*scope) []line, inner *scope) []line {
	if inner == nil {
		inner = sc
	}
	if body == nil && g.maybe(15) {
		// One-line block: simple statements only.
		g.left--
		s := g.simple(inner)
		for j := g.n(3) - 1; j >= 0; j-- {
			g.left--
			s += "; " + g.simple(inner)
		}
		if g.maybe(10) {
			s += ";"
		}
		return split(header + ":" + one(g, []string{" ", "  ", "\t"}) + s)
	}
	h := header + ":"
	if g.maybe(10) {
		h += "  # " + g.words()
	}
	ls := split(h)
	if body != nil {
		return append(ls, body(inner)...)
	}
	return append(ls, g.block(inner)...)
}

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

func (g *gen) name() string { return one(g, vars) }

// expr returns an expression that may stand where precedence min is
// required, parenthesized if needed.
func (g *gen) expr(e ectx, min int) string {
	s, p := g.expr1(e)
	if p < min {
		return "(" + s + ")"
	}
	return s
}

func (g *gen) expr1(e ectx) (string, int) {
	if e.depth >= g.cfg.ExprDepth {
		return g.leaf(e), precAtom
	}
	e.depth++
	switch g.weighted(12, 5, 3, 6, 3, 2, 2, 1, 2, 1, 1, 2, 1) {
	case 1: // binary
		lvl := one(g, []int{precAdd, precAdd, precMul, precBitOr, precBitXor, precBitAnd, precShift, precPower})
		if lvl == precPower {
			return g.expr(e, precAwait) + " ** " + g.expr(e, precUnary), precPower
		}
		op := one(g, binops[lvl])
		return g.expr(e, lvl) + g.spaced(op) + g.expr(e, lvl+1), lvl
	case 2: // unary
		return one(g, []string{"-", "+", "~"}) + g.expr(e, precUnary), precUnary
	case 3:
		return g.compare(e), precCompare
	case 4: // boolean
		if g.maybe(50) {
			return g.expr(e, precAnd) + " or " + g.expr(e, precAnd+1), precOr
		}
		return g.expr(e, precNot) + " and " + g.expr(e, precNot), precAnd
	case 5:
		return "not " + g.expr(e, precNot), precNot
	case 6:
		return g.expr(e, precOr) + " if " + g.expr(e, precOr) + " else " + g.expr(e, precTernary), precTernary
	case 7:
		if e.quote != 0 {
			break
		}
		le := e
		le.await = false
		ps := ""
		switch g.n(4) {
		case 1:
			ps = g.name()
		case 2:
			ps = "a, b=1"
		case 3:
			ps = "*args, **kw"
		}
		if ps != "" {
			ps = " " + ps
		}
		return "lambda" + ps + ": " + g.expr(le, precTernary), precLambda
	case 8:
		if e.await {
			return "await " + g.primary(e), precAwait
		}
	case 9:
		return g.primary(e), precAtom
	case 10:
		if e.walrus && e.quote == 0 {
			return "(" + g.name() + " := " + g.expr(e, precLambda+1) + ")", precAtom
		}
	case 11:
		return g.comprehension(e), precAtom
	case 12:
		return g.display(e), precAtom
	}
	return g.leaf(e), precAtom
}

func (g *gen) spaced(op string) string {
	if g.maybe(15) {
		return op
	}
	return " " + op + " "
}

func (g *gen) compare(e ectx) string {
	s := g.expr(e, precBitOr)
	for k := 1 + g.weighted(8, 2); k > 0; k-- {
		if op := one(g, cmpops); op[0] >= 'a' && op[0] <= 'z' {
			s += " " + op + " "
		} else {
			s += g.spaced(op)
		}
		s += g.expr(e, precBitOr)
	}
	return s
}

// primary is a name, attribute reference, subscript or call.
func (g *gen) primary(e ectx) string {
	switch g.weighted(4, 3, 2, 2) {
	case 1:
		return g.call(e)
	case 2:
		return g.name() + "." + one(g, attrs)
	case 3:
		return g.subscript(e)
	}
	return g.name()
}

func (g *gen) subscript(e ectx) string {
	base := one(g, []string{g.name(), g.name() + "." + one(g, attrs), g.call(e)})
	e.depth++
	var idx string
	switch g.weighted(5, 2, 1, 1, 1) {
	case 1:
		idx = g.slice(e)
	case 2:
		idx = g.slice(e) + ", " + g.expr(e, precLambda+1)
	case 3:
		idx = g.expr(e, precTernary) + ", " + g.expr(e, precTernary)
	case 4:
		idx = "::" + g.expr(e, precLambda+1)
	default:
		idx = g.expr(e, precLambda+1)
	}
	return base + "[" + idx + "]"
}

func (g *gen) slice(e ectx) string {
	var a, b string
	if g.maybe(60) {
		a = g.expr(e, precLambda+1)
	}
	if g.maybe(60) {
		b = g.expr(e, precLambda+1)
	}
	s := a + ":" + b
	if g.maybe(15) {
		s += ":" + g.expr(e, precLambda+1)
	}
	return s
}

func (g *gen) call(e ectx) string {
	var callee string
	switch g.weighted(3, 3, 2, 1) {
	case 1:
		callee = one(g, builtins)
	case 2:
		callee = g.name() + "." + one(g, methods)
	case 3:
		if len(g.funcs) > 0 {
			callee = one(g, g.funcs)
		} else {
			callee = "print"
		}
	default:
		callee = g.name()
	}
	if e.depth >= g.cfg.ExprDepth {
		return callee + "()"
	}
	e.depth++
	var args []string
	if g.maybe(5) {
		// A generator expression as the only argument needs no parentheses.
		c := g.comprehension(e)
		if strings.HasPrefix(c, "(") {
			return callee + c
		}
		args = append(args, c)
	}
	for k := g.weighted(2, 4, 3, 1); k > 0; k-- {
		args = append(args, g.expr(e, precLambda))
	}
	if g.maybe(10) {
		args = append(args, "*"+g.expr(e, precBitOr))
	}
	used := map[string]bool{}
	for k := g.weighted(6, 2, 1); k > 0; k-- {
		kw := one(g, vars)
		if used[kw] {
			continue
		}
		used[kw] = true
		args = append(args, kw+"="+g.expr(e, precLambda))
	}
	if g.maybe(5) {
		args = append(args, "**"+g.expr(e, precBitOr))
	}
	return callee + "(" + g.join(e, args) + ")"
}

// join joins the items of a display or an argument list, sometimes over
// several lines, with comments and a trailing comma.
func (g *gen) join(e ectx, items []string) string {
	if len(items) == 0 {
		return ""
	}
	if !e.multi || e.quote != 0 || !g.maybe(15) {
		s := strings.Join(items, ", ")
		if g.maybe(5) {
			s += ","
		}
		return s
	}
	var sb strings.Builder
	for i, it := range items {
		if i > 0 {
			sb.WriteString(",")
			if g.maybe(20) {
				sb.WriteString("  # " + g.words())
			}
		}
		sb.WriteString("\n" + indentMark + strings.Repeat(" ", 1+g.n(8)) + it)
	}
	if g.maybe(50) {
		sb.WriteString(",")
	}
	sb.WriteString("\n" + indentMark)
	return sb.String()
}

func (g *gen) display(e ectx) string {
	var items []string
	n := g.weighted(2, 4, 3, 2)
	switch g.weighted(4, 2, 2, 1) {
	case 1: // tuple
		for k := n; k > 0; k-- {
			items = append(items, g.expr(e, precLambda+1))
		}
		if len(items) == 1 {
			return "(" + items[0] + ",)"
		}
		return "(" + g.join(e, items) + ")"
	case 2: // dict
		for k := n; k > 0; k-- {
			if g.maybe(10) {
				items = append(items, "**"+g.expr(e, precBitOr))
				continue
			}
			items = append(items, g.expr(e, precLambda+1)+": "+g.expr(e, precLambda+1))
		}
		return "{" + g.join(e, items) + "}"
	case 3: // set
		for k := max(n, 1); k > 0; k-- {
			items = append(items, g.expr(e, precLambda+1))
		}
		return "{" + g.join(e, items) + "}"
	}
	for k := n; k > 0; k-- {
		if g.maybe(10) {
			items = append(items, "*"+g.expr(e, precBitOr))
			continue
		}
		items = append(items, g.expr(e, precLambda+1))
	}
	return "[" + g.join(e, items) + "]"
}

func (g *gen) comprehension(e ectx) string {
	e.walrus = false
	elt := g.expr(e, precLambda+1)
	var clauses []string
	for k := 1 + g.weighted(8, 2); k > 0; k-- {
		kw := "for "
		if e.await && g.maybe(20) {
			kw = "async for "
		}
		clauses = append(clauses, kw+one(g, []string{g.name(), g.name() + ", " + g.name()})+" in "+g.expr(e, precOr))
		for j := g.weighted(6, 3, 1); j > 0; j-- {
			clauses = append(clauses, "if "+g.expr(e, precOr))
		}
	}
	body := strings.Join(clauses, " ")
	switch g.n(4) {
	case 1:
		return "{" + elt + " " + body + "}"
	case 2:
		return "{" + g.expr(e, precLambda+1) + ": " + elt + " " + body + "}"
	case 3:
		return "(" + elt + " " + body + ")"
	}
	return "[" + elt + " " + body + "]"
}

func (g *gen) leaf(e ectx) string {
	switch g.weighted(10, 5, 4, 2, 2, 1) {
	case 1:
		return g.number()
	case 2:
		return g.str(e)
	case 3:
		return one(g, []string{"True", "False", "None"})
	case 4:
		if len(g.funcs) > 0 && g.maybe(50) {
			return one(g, g.funcs)
		}
		return one(g, builtins)
	case 5:
		if e.quote == 0 && e.depth < g.cfg.ExprDepth+1 {
			return g.fstring(e)
		}
	}
	return g.name()
}

func (g *gen) number() string {
	return one(g, []string{"0", "1", "2", "10", "3", "100", "-1", "3.5", "0.0", "1e3", "2.5e-3", "0x1F", "0o17", "0b101", "1_000", "2j", ".5", "5.", "84600", "12", "255"})
}

// str returns a string literal that may stand inside the f-string whose
// quote is e.quote (if any): then without that quote or backslashes.
func (g *gen) str(e ectx) string {
	if e.quote != 0 {
		q := "'"
		if e.quote == '\'' {
			q = `"`
		}
		return q + one(g, []string{"", "a", "key", "x y", "{}"}) + q
	}
	switch g.weighted(6, 4, 1, 1, 1, 1, 1, 1, 1) {
	case 1:
		return "'" + one(g, []string{"", "abc", "its", "a b", "%d items"}) + "'"
	case 2:
		return `"a\nb\t\"c\""`
	case 3:
		return `r'\d+\s*'`
	case 4:
		return `b"bytes\x00"`
	case 5:
		return `"""tri ple"""`
	case 6:
		return `"con" 'cat'` // implicit concatenation
	case 7:
		return "'''line one\nline two at column 0\n  indented'''"
	case 8:
		return `"é ü 日本"`
	}
	return `"` + one(g, []string{"", "x", "hello", "a, b", "{}", "%s"}) + `"`
}

func (g *gen) fstring(e ectx) string {
	q := one(g, []string{`"`, "'"})
	in := e
	in.quote = q[0]
	in.walrus = false
	in.multi = false
	var sb strings.Builder
	sb.WriteString("f" + q)
	for k := 1 + g.n(3); k > 0; k-- {
		switch g.n(4) {
		case 0:
			sb.WriteString(one(g, []string{"text ", "{{braces}} ", ": ", "x="}))
			continue
		}
		field := g.expr(in, precLambda+1)
		if strings.HasPrefix(field, "{") {
			field = " " + field // {{ would be a literal brace
		}
		sb.WriteString("{" + field)
		switch g.weighted(6, 2, 2, 1, 1) {
		case 1:
			sb.WriteString(one(g, []string{"!r", "!s", "!a"}))
		case 2:
			sb.WriteString(":" + one(g, []string{">10", "03d", ",.2f", "^5", "x", "<{w}"}))
		case 3:
			sb.WriteString("!r:>{" + g.name() + "}")
		case 4:
			sb.WriteString("=")
		}
		sb.WriteString("}")
	}
	sb.WriteString(q)
	return sb.String()
}
