package guard

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// jsonTrees holds JSON values parsed as encoding/json decodes them into
// an any with UseNumber (numbers as written, strings unquoted, an
// object's keys unique, the last one winning) together with their
// canonical text, what encode writes of the decoded value: no spaces,
// objects' keys sorted, strings escaped as encoding/json escapes them
// without HTML escapes. Every value's text is a range of enc, its
// elements' texts ranges within it, so a value with one element moved is
// its text with the element's replaced.
type jsonTrees struct {
	nodes []jnode
	pool  []int32 // the elements of every list and object (jnode.kids)
	stack []int32
	enc   []byte
	strs  []byte // numbers as written, strings and keys unquoted
}

type jkind uint8

const (
	jNull jkind = iota
	jFalse
	jTrue
	jNum
	jStr
	jArr
	jObj
)

// jnode is a parsed value; it holds no pointers (the garbage collector
// has nothing to scan).
type jnode struct {
	kind jkind
	// str is a number as written, or a string unquoted: strs[str.lo:str.hi].
	str span
	// key is the node's key when it is the value of an object's member,
	// in strs.
	key span
	// kids are a list's elements, or an object's values in the order of
	// their keys: pool[kids.lo:kids.hi].
	kids span
	// The node's canonical text is enc[s:e].
	s, e int32
}

// maxDepth is encoding/json's limit on nesting.
const maxDepth = 10000

// text is the canonical text of node v.
func (t *jsonTrees) text(v int32) []byte {
	n := &t.nodes[v]
	return t.enc[n.s:n.e:n.e]
}

func (t *jsonTrees) kidsOf(n *jnode) []int32 { return t.pool[n.kids.lo:n.kids.hi:n.kids.hi] }

// str is a number's text or a string's value.
func (t *jsonTrees) str(n *jnode) []byte { return t.strs[n.str.lo:n.str.hi:n.str.hi] }

func (t *jsonTrees) keyOf(v int32) []byte {
	n := &t.nodes[v]
	return t.strs[n.key.lo:n.key.hi:n.key.hi]
}

// parse parses raw, returning its root node: noJSON when raw is nil,
// badJSON when encoding/json does not decode it. What is not one strict
// JSON value (trailing text after it, say) is read by encoding/json and
// its canonical text parsed.
func (t *jsonTrees) parse(raw []byte) int32 {
	if raw == nil {
		return noJSON
	}
	if v, ok := t.parseStrict(raw); ok {
		return v
	}
	var v any
	if decode(raw, &v) != nil {
		return badJSON
	}
	if v, ok := t.parseStrict(encode(v)); ok {
		return v
	}
	return badJSON // not reached: what encoding/json writes parses
}

func (t *jsonTrees) parseStrict(raw []byte) (int32, bool) {
	nodes, pool, strs := len(t.nodes), len(t.pool), len(t.strs)
	p := parser{t: t, s: raw}
	p.space()
	v, ok := p.value(0)
	p.space()
	if !ok || p.i != len(p.s) {
		t.nodes, t.pool, t.stack, t.strs = t.nodes[:nodes], t.pool[:pool], t.stack[:0], t.strs[:strs]
		return 0, false
	}
	t.emit(v)
	return v, true
}

// emit writes the canonical text of node v to enc.
func (t *jsonTrees) emit(v int32) {
	n := &t.nodes[v]
	s := len(t.enc)
	switch n.kind {
	case jNull:
		t.enc = append(t.enc, "null"...)
	case jFalse:
		t.enc = append(t.enc, "false"...)
	case jTrue:
		t.enc = append(t.enc, "true"...)
	case jNum:
		t.enc = append(t.enc, t.str(n)...)
	case jStr:
		t.enc = appendString(t.enc, t.str(n))
	case jArr:
		t.enc = append(t.enc, '[')
		for i, k := range t.kidsOf(n) {
			if i > 0 {
				t.enc = append(t.enc, ',')
			}
			t.emit(k)
		}
		t.enc = append(t.enc, ']')
	case jObj:
		t.enc = append(t.enc, '{')
		for i, k := range t.kidsOf(n) {
			if i > 0 {
				t.enc = append(t.enc, ',')
			}
			t.enc = append(appendString(t.enc, t.keyOf(k)), ':')
			t.emit(k)
		}
		t.enc = append(t.enc, '}')
	}
	n.s, n.e = int32(s), int32(len(t.enc))
}

// parser reads one JSON value strictly (RFC 8259, as encoding/json's
// scanner does); it fails on anything else.
type parser struct {
	t *jsonTrees
	s []byte
	i int
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) node(k jkind, str span) int32 {
	p.t.nodes = append(p.t.nodes, jnode{kind: k, str: str})
	return int32(len(p.t.nodes) - 1)
}

func (p *parser) value(depth int) (int32, bool) {
	if p.i >= len(p.s) {
		return 0, false
	}
	switch c := p.s[p.i]; {
	case c == '[':
		return p.list(depth + 1)
	case c == '{':
		return p.object(depth + 1)
	case c == '"':
		s, ok := p.str()
		return p.node(jStr, s), ok
	case c == 't':
		return p.literal("true", jTrue)
	case c == 'f':
		return p.literal("false", jFalse)
	case c == 'n':
		return p.literal("null", jNull)
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return 0, false
}

func (p *parser) literal(word string, k jkind) (int32, bool) {
	if !bytes.HasPrefix(p.s[p.i:], []byte(word)) {
		return 0, false
	}
	p.i += len(word)
	return p.node(k, span{}), true
}

func (p *parser) number() (int32, bool) {
	start := p.i
	digits := func() bool {
		d := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		return p.i > d
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if !digits() {
		return 0, false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if !digits() {
			return 0, false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if !digits() {
			return 0, false
		}
	}
	return p.node(jNum, p.keep(p.s[start:p.i])), true
}

// keep adds b to strs.
func (p *parser) keep(b []byte) span {
	lo := len(p.t.strs)
	p.t.strs = append(p.t.strs, b...)
	return span{int32(lo), int32(len(p.t.strs))}
}

// str reads a string, unquoted as encoding/json unquotes it, to strs.
func (p *parser) str() (span, bool) {
	start := p.i
	i := start + 1
	plain, ascii := true, true
	for {
		if i >= len(p.s) {
			return span{}, false
		}
		c := p.s[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			i += 2
			continue
		}
		if c < 0x20 {
			return span{}, false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
		i++
	}
	p.i = i + 1
	if body := p.s[start+1 : i]; plain && (ascii || utf8.Valid(body)) {
		return p.keep(body), true
	}
	// Escapes, or bytes that are not UTF-8 (encoding/json replaces them).
	var s string
	if json.Unmarshal(p.s[start:p.i], &s) != nil {
		return span{}, false
	}
	lo := len(p.t.strs)
	p.t.strs = append(p.t.strs, s...)
	return span{int32(lo), int32(len(p.t.strs))}, true
}

func (p *parser) list(depth int) (int32, bool) {
	if depth > maxDepth {
		return 0, false
	}
	p.i++
	mark := len(p.t.stack)
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return p.container(jArr, mark), true
	}
	for {
		v, ok := p.value(depth)
		if !ok {
			return 0, false
		}
		p.t.stack = append(p.t.stack, v)
		p.space()
		if p.i >= len(p.s) {
			return 0, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
			continue
		case ']':
			p.i++
			return p.container(jArr, mark), true
		}
		return 0, false
	}
}

func (p *parser) object(depth int) (int32, bool) {
	if depth > maxDepth {
		return 0, false
	}
	p.i++
	mark := len(p.t.stack)
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return p.container(jObj, mark), true
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return 0, false
		}
		key, ok := p.str()
		if !ok {
			return 0, false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return 0, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth)
		if !ok {
			return 0, false
		}
		p.t.nodes[v].key = key
		p.t.stack = append(p.t.stack, v)
		p.space()
		if p.i >= len(p.s) {
			return 0, false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
			continue
		case '}':
			p.i++
			// Keys in order; of equal keys the last (decoding into a
			// map keeps the last).
			t := p.t
			kids := t.stack[mark:]
			slices.SortStableFunc(kids, func(a, b int32) int { return bytes.Compare(t.keyOf(a), t.keyOf(b)) })
			w := 0
			for i, k := range kids {
				if i+1 < len(kids) && bytes.Equal(t.keyOf(kids[i+1]), t.keyOf(k)) {
					continue
				}
				kids[w] = k
				w++
			}
			t.stack = t.stack[:mark+w]
			return p.container(jObj, mark), true
		}
		return 0, false
	}
}

// container makes a list or object node of the elements stacked from
// mark.
func (p *parser) container(k jkind, mark int) int32 {
	t := p.t
	lo := len(t.pool)
	t.pool = append(t.pool, t.stack[mark:]...)
	t.stack = t.stack[:mark]
	v := p.node(k, span{})
	t.nodes[v].kids.lo, t.nodes[v].kids.hi = int32(lo), int32(len(t.pool))
	return v
}
