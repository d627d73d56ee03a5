package fitness

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Python value as a candidate's process reports it: the engines run the
// candidate, encode what it returned (and its arguments after the call)
// in the encoding below, and decide the verdict in the tool's own process
// with [Check.Judge]. The expected values never enter the candidate's
// process, so a candidate cannot read them, and an object cannot answer
// for itself: __eq__, __len__ and __iter__ of the candidate's classes play
// no part, only what a value holds.
//
// # Encoding
//
// A value is a tag byte and its payload, little-endian:
//
//	'N'                   None
//	'T' 'F'               True, False
//	'i' i64               an int that fits 64 bits
//	'I' u32 n, n bytes    any other int: two's complement, little-endian
//	'f' f64               a float (IEEE 754 bits: NaN, infinities, -0.0 kept)
//	's' u32 n, n bytes    a str: UTF-8 (lone surrogates as CPython's surrogatepass writes them)
//	'l' u32 n, n values   a list, or an iterator, generator, range or dict view materialised
//	't' u32 n, n values   a tuple
//	'S' u32 n, n values   a set
//	'z' u32 n, n values   a frozenset
//	'd' u32 n, n × (key, value)  a dict, its keys as they are (any value)
//	'x' u32 n, n bytes    anything else: its repr (UTF-8, shortened); equal to nothing
//
// Subclasses of int, float, str, list, tuple, set, frozenset and dict are
// encoded by what the base type holds (a list subclass whose __len__
// lies is the list it is). An iterator longer than [MaxMaterialise] items,
// a container holding itself, or a value nested deeper than [MaxDepth]
// becomes 'x'.

// ValueKind is the kind of a decoded [Value].
type ValueKind uint8

const (
	VNone ValueKind = iota
	VBool
	VInt
	VFloat
	VStr
	VList
	VTuple
	VSet
	VFrozenset
	VDict
	VOpaque
)

// MaxMaterialise bounds the items taken from a returned iterator, and
// MaxDepth the nesting of an encoded value.
const (
	MaxMaterialise = 10000
	MaxDepth       = 100
)

// Value is a decoded Python value.
type Value struct {
	Kind ValueKind
	// Bool for VBool; Int (or Big, when it does not fit) for VInt; Float for
	// VFloat; Str for VStr and, for VOpaque, the repr.
	Bool  bool
	Int   int64
	Big   *big.Int
	Float float64
	Str   string
	// Items of a list, tuple, set or frozenset; for a dict its keys, with
	// Vals the values.
	Items []Value
	Vals  []Value
}

var errTruncated = errors.New("truncated value")

// DecodeValue decodes one encoded value from the start of p and returns the
// rest of p.
func DecodeValue(p []byte) (Value, []byte, error) {
	return decodeValue(p, 0)
}

func decodeValue(p []byte, depth int) (Value, []byte, error) {
	if len(p) == 0 {
		return Value{}, nil, errTruncated
	}
	if depth > MaxDepth+1 {
		return Value{}, nil, errors.New("value nested too deeply")
	}
	tag, p := p[0], p[1:]
	le := binary.LittleEndian
	switch tag {
	case 'N':
		return Value{Kind: VNone}, p, nil
	case 'T', 'F':
		return Value{Kind: VBool, Bool: tag == 'T'}, p, nil
	case 'i':
		if len(p) < 8 {
			return Value{}, nil, errTruncated
		}
		return Value{Kind: VInt, Int: int64(le.Uint64(p))}, p[8:], nil
	case 'f':
		if len(p) < 8 {
			return Value{}, nil, errTruncated
		}
		return Value{Kind: VFloat, Float: math.Float64frombits(le.Uint64(p))}, p[8:], nil
	case 'I', 's', 'x':
		b, rest, err := lengthPrefixed(p)
		if err != nil {
			return Value{}, nil, err
		}
		switch tag {
		case 'I':
			return bigValue(b), rest, nil
		case 's':
			return Value{Kind: VStr, Str: string(b)}, rest, nil
		}
		return Value{Kind: VOpaque, Str: strings.ToValidUTF8(string(b), "\uFFFD")}, rest, nil
	case 'l', 't', 'S', 'z', 'd':
		if len(p) < 4 {
			return Value{}, nil, errTruncated
		}
		n := le.Uint32(p)
		p = p[4:]
		per := uint64(1)
		if tag == 'd' {
			per = 2
		}
		if uint64(n)*per > uint64(len(p)) { // every value is at least one byte
			return Value{}, nil, errTruncated
		}
		v := Value{Kind: containerKind(tag)}
		v.Items = make([]Value, n)
		if tag == 'd' {
			v.Vals = make([]Value, n)
		}
		var err error
		for i := range v.Items {
			if v.Items[i], p, err = decodeValue(p, depth+1); err != nil {
				return Value{}, nil, err
			}
			if tag == 'd' {
				if v.Vals[i], p, err = decodeValue(p, depth+1); err != nil {
					return Value{}, nil, err
				}
			}
		}
		return v, p, nil
	}
	return Value{}, nil, fmt.Errorf("unknown value tag %q", tag)
}

// containerTag and containerKind map container kinds to their tags.
func containerTag(k ValueKind) byte {
	switch k {
	case VTuple:
		return 't'
	case VSet:
		return 'S'
	case VFrozenset:
		return 'z'
	case VDict:
		return 'd'
	}
	return 'l'
}

func containerKind(tag byte) ValueKind {
	switch tag {
	case 't':
		return VTuple
	case 'S':
		return VSet
	case 'z':
		return VFrozenset
	case 'd':
		return VDict
	}
	return VList
}

func lengthPrefixed(p []byte) ([]byte, []byte, error) {
	if len(p) < 4 {
		return nil, nil, errTruncated
	}
	n := binary.LittleEndian.Uint32(p)
	if uint64(n) > uint64(len(p)-4) {
		return nil, nil, errTruncated
	}
	return p[4 : 4+n], p[4+n:], nil
}

// bigValue decodes a two's complement little-endian int.
func bigValue(b []byte) Value {
	if len(b) == 0 {
		return Value{Kind: VInt}
	}
	be := make([]byte, len(b))
	for i, c := range b {
		be[len(b)-1-i] = c
	}
	x := new(big.Int).SetBytes(be)
	if b[len(b)-1]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if x.IsInt64() {
		return Value{Kind: VInt, Int: x.Int64()}
	}
	return Value{Kind: VInt, Big: x}
}

// AppendValue appends the encoding of v to b: the inverse of
// [DecodeValue], for engines written in Go and for tests.
func AppendValue(b []byte, v Value) []byte {
	le := binary.LittleEndian
	switch v.Kind {
	case VNone:
		return append(b, 'N')
	case VBool:
		if v.Bool {
			return append(b, 'T')
		}
		return append(b, 'F')
	case VInt:
		if v.Big == nil || v.Big.IsInt64() {
			i := v.Int
			if v.Big != nil {
				i = v.Big.Int64()
			}
			return le.AppendUint64(append(b, 'i'), uint64(i))
		}
		return appendBytes(append(b, 'I'), twosComplement(v.Big))
	case VFloat:
		return le.AppendUint64(append(b, 'f'), math.Float64bits(v.Float))
	case VStr:
		return appendBytes(append(b, 's'), []byte(v.Str))
	case VOpaque:
		return appendBytes(append(b, 'x'), []byte(v.Str))
	case VList, VTuple, VSet, VFrozenset, VDict:
		tag := containerTag(v.Kind)
		b = le.AppendUint32(append(b, tag), uint32(len(v.Items)))
		for i, x := range v.Items {
			b = AppendValue(b, x)
			if v.Kind == VDict {
				b = AppendValue(b, v.Vals[i])
			}
		}
		return b
	}
	return appendBytes(append(b, 'x'), []byte("<?>"))
}

func appendBytes(b, s []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...)
}

// twosComplement is x in the fewest little-endian two's complement bytes.
func twosComplement(x *big.Int) []byte {
	n := x.BitLen()/8 + 1
	v := new(big.Int).Set(x)
	if x.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	be := v.FillBytes(make([]byte, n))
	out := make([]byte, n)
	for i, c := range be {
		out[n-1-i] = c
	}
	return out
}

// FromJSON is the Value a Python program gets from json.loads of a value
// decoded with [json.Decoder.UseNumber] (arrays become lists, objects
// dicts). Tests use it to build values.
func FromJSON(v any) Value {
	switch x := v.(type) {
	case nil:
		return Value{Kind: VNone}
	case bool:
		return Value{Kind: VBool, Bool: x}
	case string:
		return Value{Kind: VStr, Str: x}
	case json.Number:
		n := numberValue(string(x))
		if n.kind != kNumber {
			return Value{Kind: VOpaque, Str: string(x)}
		}
		if n.isInt {
			return Value{Kind: VInt, Int: n.i, Big: n.big}
		}
		return Value{Kind: VFloat, Float: n.f}
	case float64:
		return Value{Kind: VFloat, Float: x}
	case []any:
		out := Value{Kind: VList, Items: make([]Value, len(x))}
		for i, e := range x {
			out.Items[i] = FromJSON(e)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := Value{Kind: VDict}
		for _, k := range keys {
			out.Items = append(out.Items, Value{Kind: VStr, Str: k})
			out.Vals = append(out.Vals, FromJSON(x[k]))
		}
		return out
	}
	return Value{Kind: VOpaque, Str: fmt.Sprint(v)}
}

// EqualValue reports whether actual, a value a candidate produced, matches
// expected, a JSON-decoded value (as for [Equal]), under the rules of
// [Equal] extended to Python values: a tuple or a materialised iterator
// compares as an array; a set or frozenset equals an array holding the
// same items in any order (each array item matched to a distinct set
// item); a dict equals an object when its keys, converted as json.dumps
// converts them (str as is; int, float, True, False and None to their
// JSON text), are the object's keys, without two keys converting to the
// same string, and the values are equal; anything else (VOpaque) equals
// nothing.
func EqualValue(expected any, actual Value, tol float64) bool {
	ek := classify(expected)
	switch actual.Kind {
	case VNone:
		return ek.kind == kNull
	case VBool:
		return ek.kind == kBool && expected.(bool) == actual.Bool
	case VInt, VFloat:
		if ek.kind != kNumber {
			return false
		}
		av := actual.number()
		if ek.isInt && av.isInt {
			return ek.intEqual(av)
		}
		return FloatsEqual(ek.float(), av.float(), tol)
	case VStr:
		return ek.kind == kString && expected.(string) == actual.Str
	case VList, VTuple:
		if ek.kind != kArray {
			return false
		}
		e := expected.([]any)
		if len(e) != len(actual.Items) {
			return false
		}
		for i := range e {
			if !EqualValue(e[i], actual.Items[i], tol) {
				return false
			}
		}
		return true
	case VSet, VFrozenset:
		if ek.kind != kArray {
			return false
		}
		return setEqual(expected.([]any), actual.Items, tol)
	case VDict:
		if ek.kind != kObject {
			return false
		}
		e := expected.(map[string]any)
		if len(e) != len(actual.Items) {
			return false
		}
		seen := make(map[string]bool, len(actual.Items))
		for i, k := range actual.Items {
			key, ok := jsonKey(k)
			if !ok || seen[key] {
				return false
			}
			seen[key] = true
			ev, ok := e[key]
			if !ok || !EqualValue(ev, actual.Vals[i], tol) {
				return false
			}
		}
		return true
	}
	return false
}

func (v Value) number() value {
	switch {
	case v.Kind == VFloat:
		return value{kind: kNumber, f: v.Float}
	case v.Big != nil:
		return value{kind: kNumber, isInt: true, big: v.Big}
	}
	return value{kind: kNumber, isInt: true, i: v.Int}
}

// setEqual matches every expected item to a distinct actual item (greedy
// in order, as the harness always did: with a tolerance, equality is not
// transitive, so this is the rule, not an approximation of one).
func setEqual(e []any, a []Value, tol float64) bool {
	if len(e) != len(a) {
		return false
	}
	used := make([]bool, len(a))
	for _, x := range e {
		found := false
		for j := range a {
			if !used[j] && EqualValue(x, a[j], tol) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// jsonKey is the object key json.dumps makes of a dict key.
func jsonKey(k Value) (string, bool) {
	switch k.Kind {
	case VStr:
		return k.Str, true
	case VBool:
		if k.Bool {
			return "true", true
		}
		return "false", true
	case VNone:
		return "null", true
	case VInt:
		if k.Big != nil {
			return k.Big.String(), true
		}
		return strconv.FormatInt(k.Int, 10), true
	case VFloat:
		switch {
		case math.IsNaN(k.Float):
			return "NaN", true
		case math.IsInf(k.Float, 1):
			return "Infinity", true
		case math.IsInf(k.Float, -1):
			return "-Infinity", true
		}
		return pyFloatRepr(k.Float), true
	}
	return "", false
}

// ReprMax is the length a repr in a detail is shortened to.
const ReprMax = 100

// Repr is v as Python's repr writes it, shortened to about ReprMax
// characters.
func (v Value) Repr() string { return shorten(v.repr(ReprMax), ReprMax) }

func shorten(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-3]) + "..."
}

func (v Value) repr(limit int) string {
	switch v.Kind {
	case VNone:
		return "None"
	case VBool:
		if v.Bool {
			return "True"
		}
		return "False"
	case VInt:
		if v.Big != nil {
			if v.Big.BitLen() > 3*limit {
				return fmt.Sprintf("<int of %d bits>", v.Big.BitLen())
			}
			return v.Big.String()
		}
		return strconv.FormatInt(v.Int, 10)
	case VFloat:
		return pyFloatRepr(v.Float)
	case VStr:
		s := v.Str
		if len(s) > 4*limit+8 {
			s = s[:4*limit+8]
		}
		return PyStrRepr(s)
	case VOpaque:
		return v.Str
	}
	open, close := "[", "]"
	switch v.Kind {
	case VTuple:
		open, close = "(", ")"
	case VSet, VDict:
		open, close = "{", "}"
	case VFrozenset:
		open, close = "frozenset({", "})"
	}
	if len(v.Items) == 0 {
		switch v.Kind {
		case VSet:
			return "set()"
		case VFrozenset:
			return "frozenset()"
		}
		return open + close
	}
	var b strings.Builder
	b.WriteString(open)
	n := len(open)
	for i, x := range v.Items {
		s := x.repr(limit)
		if v.Kind == VDict {
			s += ": " + v.Vals[i].repr(limit)
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
		n += len(s) + 2
		if n > limit {
			b.WriteString(", ...")
			break
		}
	}
	if v.Kind == VTuple && len(v.Items) == 1 {
		b.WriteString(",")
	}
	b.WriteString(close)
	return b.String()
}

// ReprJSON is a JSON-decoded value (see [Equal]) as Python's repr writes
// what json.loads makes of it, shortened to about ReprMax characters:
// "[1, 'a', None]".
func ReprJSON(v any) string { return FromJSON(v).Repr() }

// pyFloatRepr is Python's repr of a float: the shortest digits that round
// trip, in positional notation when the decimal exponent is in [-4, 16),
// else in scientific notation with at least two exponent digits (CPython's
// float_repr, style 'r').
func pyFloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := e + 1
	if -4 < decpt && decpt <= 16 {
		switch {
		case decpt <= 0:
			return sign + "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		}
		return sign + digits[:decpt] + "." + digits[decpt:]
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	x := decpt - 1
	esign := "+"
	if x < 0 {
		esign, x = "-", -x
	}
	return fmt.Sprintf("%se%s%02d", out, esign, x)
}

// PyStrRepr is Python's repr of a str whose UTF-8 (with lone surrogates
// as surrogatepass encodes them) is s.
func PyStrRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// A surrogate (ED A0..BF 80..BF) or a stray byte.
			if i+2 < len(s) && s[i] == 0xED && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
				cp := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				fmt.Fprintf(&b, `\u%04x`, cp)
				i += 3
				continue
			}
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += size
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f:
			b.WriteRune(r)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}
