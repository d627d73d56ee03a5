package gpython

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/go-python/gpython/py"
)

// Partial compilation: a candidate whose edits all lie inside top-level
// definitions (sandbox.RunOptions.Change) is compiled one changed
// definition at a time, over the original's module code, as the cpython
// harness does (partial.py). The worker compiles the original once, the
// way compile does without coverage (probe name, decorator and f-string
// rewrites, probes). For a candidate it checks that the text outside the
// changed definitions is the original's, byte for byte, and that the
// candidate's probe name is the original's; it then rewrites, instruments
// and compiles each changed definition alone, padded with line breaks so
// that it sits at its line, and checks that the module body does with it
// exactly what it does with the original's definition compiled the same
// way (the same bytecode, names and constants but code objects: the same
// decorators, defaults, annotations and bases). The new code objects take
// the place of the old among the module code's constants.
//
// That is what compiling the whole candidate gives, but for line numbers
// after a definition whose line count changed (a traceback through a later
// function names the original's line; the probes' line arguments, read
// only with coverage, are the original's). Whatever else (a dotted
// decorator in the original, a definition that does not compile, rewrite
// or instrument alone, an f-string a definition gains or loses when no
// other has one, a carriage return, any difference outside the spans)
// takes the whole path.

// partialSpan is a changed definition's bytes in the candidate and in the
// original.
type partialSpan struct{ cs, ce, bs, be int }

// spanSize is the encoding of a partialSpan in a run request: four u32.
const spanSize = 16

// appendSpans encodes the spans of a partial run request: u32 count, the
// spans, then the source follows.
func appendSpans(b []byte, spans []partialSpan) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(spans)))
	for _, s := range spans {
		for _, v := range [4]int{s.cs, s.ce, s.bs, s.be} {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
	}
	return b
}

// readSpans decodes what appendSpans wrote, and returns the rest (the
// source).
func readSpans(p []byte) ([]partialSpan, []byte, error) {
	if len(p) < 4 {
		return nil, nil, fmt.Errorf("short partial request")
	}
	n := int(binary.LittleEndian.Uint32(p))
	p = p[4:]
	if n < 0 || n > len(p)/spanSize {
		return nil, nil, fmt.Errorf("bad partial request: %d spans", n)
	}
	spans := make([]partialSpan, n)
	for i := range spans {
		q := p[i*spanSize:]
		spans[i] = partialSpan{int(binary.LittleEndian.Uint32(q)), int(binary.LittleEndian.Uint32(q[4:])),
			int(binary.LittleEndian.Uint32(q[8:])), int(binary.LittleEndian.Uint32(q[12:]))}
	}
	return spans, p[n*spanSize:], nil
}

// partialBase is the original as compile (without coverage) makes it.
type partialBase struct {
	src   []byte
	file  string   // the candidate's file name
	name  string   // its probe name
	fmt   string   // the name its f-strings call, "" if none
	code  *py.Code // nil: no partial compilation
	index map[defKey]int
	defs  map[[2]int]baseDef // by span in the original
}

// defKey identifies a code object among the module code's constants.
type defKey struct {
	name string
	line int32
}

// baseDef is an original definition compiled alone.
type baseDef struct {
	code  *py.Code // nil: it does not compile alone
	fstrs bool     // it holds f-strings
}

// newPartialBase compiles the original; a base with a nil code refuses
// every candidate.
func newPartialBase(src []byte, file string) (b *partialBase) {
	b = &partialBase{src: src, file: file, defs: map[[2]int]baseDef{}}
	defer func() {
		if recover() != nil {
			b.code = nil
		}
	}()
	if len(src) == 0 || bytes.IndexByte(src, '\r') >= 0 {
		return b // line counts by \n would be wrong
	}
	b.name = probeName(src)
	code, fstrs, ok := compileAlone(src, b.name, 0, file)
	if !ok {
		return b
	}
	if fstrs {
		b.fmt = b.name + "f"
	}
	b.index = map[defKey]int{}
	for i, k := range code.Consts {
		if c, ok := k.(*py.Code); ok {
			key := defKey{c.Name, c.Firstlineno}
			if _, dup := b.index[key]; dup {
				b.index[key] = -1 // ambiguous
			} else {
				b.index[key] = i
			}
		}
	}
	b.code = code
	return b
}

// compileAlone rewrites, instruments (without coverage) and compiles text
// at line line+1 as compile does a whole source with probe name name. It
// fails where compile would not use probes, would rewrite dotted
// decorators, or could not rewrite the f-strings; fstrs says whether it
// rewrote f-strings.
func compileAlone(text []byte, name string, line int, file string) (code *py.Code, fstrs, ok bool) {
	if line > 0 {
		// Padded first: the probes' arguments are line numbers.
		text = append(bytes.Repeat([]byte("\n"), line), text...)
	}
	if _, paths := rewriteDecorators(text, name+"d"); len(paths) > 0 {
		return nil, false, false
	}
	src := text
	if hasFString(text) {
		r := &fsRewriter{src: text, name: name + "f"}
		out, end, err := r.code(0, false)
		if err != nil || end != len(text) {
			return nil, false, false
		}
		if r.changed {
			src, fstrs = out, true
		}
	}
	ins, ok := instrument(src, name, false)
	if !ok {
		return nil, false, false
	}
	code, err := py.Compile(string(ins), file, py.ExecMode, 0, true)
	if err != nil {
		return nil, false, false
	}
	return code, fstrs, true
}

// def is the original's definition at bytes bs..be compiled alone (cached).
func (b *partialBase) def(bs, be int) baseDef {
	key := [2]int{bs, be}
	d, ok := b.defs[key]
	if !ok {
		line := bytes.Count(b.src[:bs], []byte("\n"))
		d.code, d.fstrs, _ = compileAlone(b.src[bs:be], b.name, line, b.file)
		if len(b.defs) > 4096 {
			clear(b.defs)
		}
		b.defs[key] = d
	}
	return d
}

// compilePartial returns the module code of candidate src from its
// changed definitions, or false when it must be compiled whole. It sets
// what compile sets.
func (w *worker) compilePartial(src []byte, spans []partialSpan) (code *py.Code, ok bool) {
	b := w.base
	if b == nil || b.code == nil || len(spans) == 0 {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			code, ok = nil, false
		}
	}()
	base := b.src
	pc, pb := 0, 0
	for _, s := range spans {
		if s.cs < pc || s.bs < pb || s.ce < s.cs || s.be < s.bs || s.be > len(base) || s.ce > len(src) {
			return nil, false
		}
		if s.bs-pb != s.cs-pc || !bytes.Equal(src[pc:s.cs], base[pb:s.bs]) {
			return nil, false
		}
		if bytes.IndexByte(src[s.cs:s.ce], '\r') >= 0 {
			return nil, false
		}
		pc, pb = s.ce, s.be
	}
	if len(src)-pc != len(base)-pb || !bytes.Equal(src[pc:], base[pb:]) {
		return nil, false
	}
	if probeName(src) != b.name {
		return nil, false // the whole candidate's probes, decorators and f-strings would have other names
	}
	consts := make(py.Tuple, len(b.code.Consts))
	copy(consts, b.code.Consts)
	line, at := 0, 0
	for _, s := range spans {
		old := b.def(s.bs, s.be)
		if old.code == nil {
			return nil, false
		}
		line += bytes.Count(src[at:s.cs], []byte("\n"))
		at = s.cs
		cand, fstrs, ok := compileAlone(src[s.cs:s.ce], b.name, line, b.file)
		if !ok || fstrs != old.fstrs || !sameBody(old.code, cand) {
			return nil, false
		}
		var olds, news []*py.Code
		for _, k := range old.code.Consts {
			if c, ok := k.(*py.Code); ok {
				olds = append(olds, c)
			}
		}
		for _, k := range cand.Consts {
			if c, ok := k.(*py.Code); ok {
				news = append(news, c)
			}
		}
		if len(olds) != len(news) {
			return nil, false
		}
		for i, o := range olds {
			j, ok := b.index[defKey{o.Name, o.Firstlineno}]
			if !ok || j < 0 {
				return nil, false
			}
			consts[j] = news[i]
		}
	}
	mod := *b.code
	mod.Consts = consts
	w.decor, w.paths, w.fmt = b.name+"d", nil, b.fmt
	return &mod, true
}

// sameBody reports whether module codes a and b run the same code at
// module level, their code objects aside.
func sameBody(a, b *py.Code) bool {
	if a.Code != b.Code || a.Flags != b.Flags || a.Argcount != b.Argcount || a.Kwonlyargcount != b.Kwonlyargcount ||
		a.Nlocals != b.Nlocals || a.Stacksize != b.Stacksize ||
		!equalStrings(a.Names, b.Names) || !equalStrings(a.Varnames, b.Varnames) ||
		!equalStrings(a.Freevars, b.Freevars) || !equalStrings(a.Cellvars, b.Cellvars) {
		return false
	}
	ak, bk := plainConsts(a), plainConsts(b)
	if len(ak) != len(bk) {
		return false
	}
	for i := range ak {
		if ak[i].Type() != bk[i].Type() {
			return false
		}
		if eq, err := py.Eq(ak[i], bk[i]); err != nil || eq != py.True {
			return false
		}
	}
	return true
}

// plainConsts are the constants of c but its code objects.
func plainConsts(c *py.Code) []py.Object {
	var out []py.Object
	for _, k := range c.Consts {
		if _, ok := k.(*py.Code); !ok {
			out = append(out, k)
		}
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
