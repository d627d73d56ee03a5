// The generator: its configuration and state, the module and the layout
// of blocks; stmt.go makes statements, expr.go expressions.

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
	// tree-sitter-python does not parse a one-line def whose header has a
	// return annotation and whose body starts with a subscript store
	// (def f(c) -> str: j[1] = 1), which Python accepts: no one-line body
	// after an annotation.
	if body == nil && !strings.Contains(header, " -> ") && g.maybe(15) {
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
