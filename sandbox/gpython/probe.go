package gpython

import (
	"bytes"
	"strconv"
)

// Probes: gpython has no line tracing and cannot interrupt running code, so
// the engine inserts calls of a probe function into the candidate's source.
// Each probe call records the line it stands for (coverage), counts a step
// and, every so often, checks the case's deadline, the Go stack depth
// (recursion) and the heap (memory). See instrument.
//
// The source is rewritten without adding or removing a line break, so line
// numbers of the instrumented program (tracebacks, coverage) are those of
// the candidate:
//
//	x = f(y)                  P(1);x = f(y)
//	if a < b:                 if P(2) or (a < b):
//	    return a                  P(3);return a
//	elif a > b: return b      elif P(4) or (a > b): P(4);return b
//	while n:                  while P(5) or (n):
//	for x in xs:              for x in P(6) or (xs):
//	with open(p) as f:        with P(7) or open(p) as f:
//	def g(a, b):              def g(a, b) -> P(8):
//	class C:                  class C:
//	    """doc"""                 """doc"""
//	    k = 1                     P(10, 9);k = 1
//	try:                      try:
//	    k = 2                     P(12, 11);k = 2
//
// The probe returns None, so "P(n) or (x)" is x. A def records its line
// through its return annotation (evaluated when the def runs, as the line
// event of CPython); a class and a try record theirs with the first probe
// of their body. Docstrings and other string-only statements, global,
// nonlocal and future imports get no probe (CPython has no line event for
// them, and a probe would turn a docstring into a plain statement).
//
// instrument works on tokens, not on a full parse: a source it cannot
// tokenize (an unterminated string, unbalanced brackets) is left alone, and
// a rewritten source that does not compile falls back to the original
// (without probes) in the worker.

// probeName returns an identifier that does not occur in src, for the probe
// function. It has no leading double underscore, so that no class body
// mangles it.
func probeName(src []byte) string {
	name := "_p_"
	for i := 0; bytes.Contains(src, []byte(name)); i++ {
		name = "_p" + strconv.Itoa(i) + "_"
	}
	return name
}

type tokKind uint8

const (
	tName tokKind = iota
	tNumber
	tString
	tOp
)

type token struct {
	kind  tokKind
	start int // byte offset
	end   int
	line  int // 1-based line of the first byte
	depth int // bracket depth before the token
}

// insertion is text inserted before byte offset at.
type insertion struct {
	at   int
	text string
}

// instrument returns src with probe calls of function name inserted, and
// false when src cannot be tokenized (then it returns src unchanged). With
// coverage every statement gets a probe; without, only the first
// statement of each function and loop body does (as it is the only
// probe a call or an iteration must pass): enough for the step budget and
// the recursion check, and much cheaper.
func instrument(src []byte, name string, coverage bool) ([]byte, bool) {
	lines, ok := logicalLines(src)
	if !ok {
		return src, false
	}
	in := instrumenter{src: src, name: name, all: coverage, doc: true}
	for _, l := range lines {
		if !in.line(l) {
			return src, false
		}
	}
	if len(in.ins) == 0 {
		return src, true
	}
	n := len(src)
	for _, x := range in.ins {
		n += len(x.text)
	}
	out := make([]byte, 0, n)
	prev := 0
	for _, x := range in.ins { // in increasing order of at: see line
		out = append(out, src[prev:x.at]...)
		out = append(out, x.text...)
		prev = x.at
	}
	return append(out, src[prev:]...), true
}

type instrumenter struct {
	src     []byte
	name    string
	all     bool // a probe for every statement (coverage)
	ins     []insertion
	pending []int // lines a class or try header records with the next probe
	decor   int   // line of the first decorator of the coming def or class
	entry   bool  // without all: the next statement opens a function or loop body
	doc     bool  // the next statement opens a module or class body: a docstring there runs (CPython traces it)
}

func (in *instrumenter) text(t token) string { return string(in.src[t.start:t.end]) }

func (in *instrumenter) isOp(t token, op string) bool {
	return t.kind == tOp && in.text(t) == op
}

func (in *instrumenter) isName(t token, name string) bool {
	return t.kind == tName && in.text(t) == name
}

// call is the text of a probe call for line l and the pending lines.
func (in *instrumenter) call(l int) string {
	b := make([]byte, 0, 16)
	b = append(b, in.name...)
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(l), 10)
	for _, p := range in.pending {
		b = append(b, ',', ' ')
		b = strconv.AppendInt(b, int64(p), 10)
	}
	in.pending = in.pending[:0]
	return string(append(b, ')'))
}

func (in *instrumenter) add(at int, text string) {
	in.ins = append(in.ins, insertion{at, text})
}

// line instruments one logical line. Insertions are made in increasing
// order of offset.
func (in *instrumenter) line(toks []token) bool {
	first := toks[0]
	if first.kind == tOp && in.text(first) == "@" {
		if in.decor == 0 {
			in.decor = first.line
		}
		return true
	}
	// probe reports whether this header gets a probe, and consumes the
	// pending body entry.
	probe := func() bool {
		p := in.all || in.entry
		in.entry = false
		return p
	}
	body := 0 // index of the first token of the simple statements
	doc := in.doc
	in.doc = false
	if first.kind == tName {
		switch kw := in.text(first); kw {
		case "if", "elif", "while":
			colon := in.headerColon(toks, 1)
			if colon < 2 {
				return false
			}
			if probe() {
				in.add(toks[1].start, in.call(first.line)+" or (")
				in.add(toks[colon].start, ")")
			}
			body = colon + 1
			in.entry = kw == "while"
		case "for":
			colon := in.headerColon(toks, 1)
			at := -1
			for i := 1; i < colon; i++ {
				if toks[i].depth == 0 && in.isName(toks[i], "in") {
					at = i + 1
					break
				}
			}
			if colon < 0 || at < 0 || at >= colon {
				return false
			}
			if probe() {
				in.add(toks[at].start, in.call(first.line)+" or (")
				in.add(toks[colon].start, ")")
			}
			body = colon + 1
			in.entry = true
		case "with":
			colon := in.headerColon(toks, 1)
			if colon < 2 {
				return false
			}
			if probe() {
				in.add(toks[1].start, in.call(first.line)+" or ")
			}
			body = colon + 1
		case "def":
			colon := in.headerColon(toks, 1)
			if colon < 0 {
				return false
			}
			arrow := -1
			for i := 1; i < colon; i++ {
				if toks[i].depth == 0 && in.isOp(toks[i], "->") {
					arrow = i
				}
			}
			if probe() {
				l := first.line
				if in.decor != 0 {
					in.pending = append(in.pending, first.line)
					l = in.decor
				}
				if arrow < 0 {
					in.add(toks[colon].start, " -> "+in.call(l))
				} else {
					if arrow+1 >= colon {
						return false
					}
					in.add(toks[arrow+1].start, in.call(l)+" or (")
					in.add(toks[colon].start, ")")
				}
			}
			in.decor = 0
			body = colon + 1
			in.entry = true
		case "class", "try":
			colon := in.headerColon(toks, 1)
			if colon < 0 {
				return false
			}
			if in.all {
				if in.decor != 0 {
					in.pending = append(in.pending, in.decor)
				}
				in.pending = append(in.pending, first.line)
			}
			in.decor = 0
			body = colon + 1 // a pending body entry moves into the body
			in.doc = kw == "class"
		case "else", "finally", "except":
			colon := in.headerColon(toks, 1)
			if colon < 0 {
				return false
			}
			body = colon + 1
			in.entry = false
		case "async":
			return true // not Python 3.4: gpython does not compile it anyway
		}
	}
	// Simple statements, separated by ';' at depth 0.
	start := body
	for i := body; i <= len(toks); i++ {
		if i < len(toks) && !(toks[i].depth == 0 && in.isOp(toks[i], ";")) {
			continue
		}
		switch {
		case start >= i:
		case in.probed(toks[start:i]):
			if probe() {
				in.add(toks[start].start, in.call(toks[start].line)+";")
			}
		case doc && start == body && in.all && in.isDocstring(toks[start:i]):
			// A module or class docstring: the probe goes after it, so
			// that it stays the docstring.
			in.add(toks[i-1].end, ";"+in.call(toks[start].line))
		}
		if in.doc && start < i {
			in.doc = false
		}
		start = i + 1
	}
	return true
}

// probed reports whether a simple statement gets a probe.
func (in *instrumenter) probed(st []token) bool {
	first := st[0]
	if first.kind == tName {
		switch in.text(first) {
		case "global", "nonlocal":
			return false
		case "from":
			if len(st) > 1 && in.isName(st[1], "__future__") {
				return false
			}
		}
	}
	for _, t := range st {
		if t.kind != tString {
			return true
		}
	}
	return false // a docstring, or another string-only statement
}

// isDocstring reports whether a statement is one string (maybe
// concatenated literals), not a global or future import.
func (in *instrumenter) isDocstring(st []token) bool {
	for _, t := range st {
		if t.kind != tString {
			return false
		}
	}
	return true
}

// headerColon returns the index of the ':' that ends a compound
// statement's header, or -1. Colons at depth 0 that belong to a lambda are
// skipped.
func (in *instrumenter) headerColon(toks []token, from int) int {
	lambdas := 0
	for i := from; i < len(toks); i++ {
		t := toks[i]
		if t.depth != 0 {
			continue
		}
		switch {
		case in.isName(t, "lambda"):
			lambdas++
		case in.isOp(t, ":"):
			if lambdas == 0 {
				return i
			}
			lambdas--
		}
	}
	return -1
}

// logicalLines splits src into logical lines of tokens (comments, blank
// lines and line continuations removed). It fails on an unterminated string
// or unbalanced brackets.
func logicalLines(src []byte) ([][]token, bool) {
	var (
		lines [][]token
		cur   []token
		depth int
		line  = 1
	)
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
			if src[i-1] == '\r' && i < len(src) && src[i] == '\n' {
				i++
			}
			line++
		case c == '#':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case c == '\n' || c == '\r':
			i++
			if c == '\r' && i < len(src) && src[i] == '\n' {
				i++
			}
			line++
			if depth == 0 && len(cur) > 0 {
				lines = append(lines, cur)
				cur = nil
			}
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && j-i <= 2 && isStringPrefix(src[i:j]) {
				end, nl, ok := scanString(src, j)
				if !ok {
					return nil, false
				}
				cur = append(cur, token{tString, i, end, line, depth})
				line += nl
				i = end
				continue
			}
			cur = append(cur, token{tName, i, j, line, depth})
			i = j
		case c == '\'' || c == '"':
			end, nl, ok := scanString(src, i)
			if !ok {
				return nil, false
			}
			cur = append(cur, token{tString, i, end, line, depth})
			line += nl
			i = end
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := i + 1
			for j < len(src) {
				d := src[j]
				if isIdentChar(d) || d == '.' {
					j++
				} else if (d == '+' || d == '-') && (src[j-1] == 'e' || src[j-1] == 'E') {
					j++
				} else {
					break
				}
			}
			cur = append(cur, token{tNumber, i, j, line, depth})
			i = j
		default:
			n := 1
			if i+1 < len(src) {
				switch string(src[i : i+2]) {
				case ":=", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
					"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=":
					n = 2
				}
			}
			t := token{tOp, i, i + n, line, depth}
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth == 0 {
					return nil, false
				}
				depth--
				t.depth = depth
			}
			cur = append(cur, t)
			i += n
		}
	}
	if depth != 0 {
		return nil, false
	}
	if len(cur) > 0 {
		lines = append(lines, cur)
	}
	return lines, true
}

// scanString scans the string literal whose opening quote is at src[q]. It
// returns the offset after the closing quote and the number of line breaks
// inside.
func scanString(src []byte, q int) (end, newlines int, ok bool) {
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			if i+1 < len(src) {
				if src[i+1] == '\n' || (src[i+1] == '\r' && (i+2 >= len(src) || src[i+2] != '\n')) {
					newlines++
				} else if src[i+1] == '\r' {
					newlines++
					i++
				}
			}
			i += 2
			continue
		case c == '\n' || c == '\r':
			if !triple {
				return 0, 0, false
			}
			if c == '\r' && i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			newlines++
		case c == quote:
			if !triple {
				return i + 1, newlines, true
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				return i + 3, newlines, true
			}
		}
		i++
	}
	return 0, 0, false
}

func isStringPrefix(p []byte) bool {
	for _, c := range p {
		switch c {
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
		default:
			return false
		}
	}
	return true
}

func isIdentStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// rewriteDecorators works around gpython compiling a decorator with a
// dotted name (@pytest.mark.parametrize(...)) as one name it cannot find:
// it replaces each dotted decorator name by name+index (same line), and
// returns the dotted paths in index order. The worker binds each such name
// to a function that resolves its path when the decorator is evaluated
// (see dottedDecorator). Sources without dotted decorators come back
// unchanged with no paths.
func rewriteDecorators(src []byte, name string) ([]byte, []string) {
	if !bytes.Contains(src, []byte("@")) {
		return src, nil
	}
	lines, ok := logicalLines(src)
	if !ok {
		return src, nil
	}
	var paths []string
	var ins []insertion
	var cuts [][2]int
	for _, toks := range lines {
		if len(toks) < 4 || toks[0].kind != tOp || string(src[toks[0].start:toks[0].end]) != "@" {
			continue
		}
		end := 1
		for end+1 < len(toks) && toks[end].kind == tName && string(src[toks[end+1].start:toks[end+1].end]) == "." &&
			end+2 < len(toks) && toks[end+2].kind == tName {
			end += 2
		}
		if end == 1 || toks[1].kind != tName {
			continue
		}
		var path []byte
		for _, t := range toks[1 : end+1] {
			path = append(path, src[t.start:t.end]...)
		}
		cuts = append(cuts, [2]int{toks[1].start, toks[end].end})
		ins = append(ins, insertion{toks[1].start, name + strconv.Itoa(len(paths))})
		paths = append(paths, string(path))
	}
	if len(paths) == 0 {
		return src, nil
	}
	out := make([]byte, 0, len(src))
	prev := 0
	for i, c := range cuts {
		out = append(out, src[prev:c[0]]...)
		out = append(out, ins[i].text...)
		prev = c[1]
	}
	return append(out, src[prev:]...), paths
}
