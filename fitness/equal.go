package fitness

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Equal reports whether actual matches expected, both JSON-decoded values
// (decoded with [json.Decoder.UseNumber]: nil, bool, string, [json.Number],
// []any, map[string]any; float64, int, int64 and *big.Int are accepted
// too). The rules, which the Python harness of package sandbox implements
// identically:
//
//   - null equals only null; booleans equal only booleans (true != 1);
//     strings equal when identical;
//   - a JSON number without '.', 'e' or 'E' is an int, of any size; two ints
//     are equal exactly;
//   - when either side is a float, both are compared as float64 with
//     [FloatsEqual] (an int beyond float64's range becomes ±Inf);
//   - arrays are equal elementwise (same length); objects have the same key
//     set and equal values;
//   - anything else (an unsupported Go type) is never equal.
func Equal(expected, actual any, tol float64) bool {
	ek, ak := classify(expected), classify(actual)
	if ek.kind == kNumber && ak.kind == kNumber {
		if ek.isInt && ak.isInt {
			return ek.intEqual(ak)
		}
		return FloatsEqual(ek.float(), ak.float(), tol)
	}
	if ek.kind != ak.kind {
		return false
	}
	switch ek.kind {
	case kNull:
		return true
	case kBool:
		return expected.(bool) == actual.(bool)
	case kString:
		return expected.(string) == actual.(string)
	case kArray:
		e, a := expected.([]any), actual.([]any)
		if len(e) != len(a) {
			return false
		}
		for i := range e {
			if !Equal(e[i], a[i], tol) {
				return false
			}
		}
		return true
	case kObject:
		e, a := expected.(map[string]any), actual.(map[string]any)
		if len(e) != len(a) {
			return false
		}
		for k, ev := range e {
			av, ok := a[k]
			if !ok || !Equal(ev, av, tol) {
				return false
			}
		}
		return true
	}
	return false
}

// EqualJSON decodes two JSON texts and compares them with [Equal]. The
// error reports text that is not one JSON value.
func EqualJSON(expected, actual []byte, tol float64) (bool, error) {
	e, err := decodeJSON(expected)
	if err != nil {
		return false, err
	}
	a, err := decodeJSON(actual)
	if err != nil {
		return false, err
	}
	return Equal(e, a, tol), nil
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("fitness: more than one JSON value")
	}
	return v, nil
}

// FloatsEqual is Python's math.isclose(a, b, rel_tol=tol, abs_tol=tol):
// NaN equals nothing, an infinity equals only the same infinity, otherwise
// |a-b| <= tol or |a-b| <= tol·max(|a|,|b|). A negative tolerance counts
// as 0 (exact comparison; -0 == 0).
func FloatsEqual(a, b, tol float64) bool {
	if a == b {
		return true
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return false
	}
	if !(tol > 0) {
		return false
	}
	d := math.Abs(a - b)
	return d <= tol || d <= tol*math.Max(math.Abs(a), math.Abs(b))
}

type valueKind uint8

const (
	kInvalid valueKind = iota
	kNull
	kBool
	kString
	kNumber
	kArray
	kObject
)

// value is a classified JSON value; numbers are held as int64, *big.Int or
// float64.
type value struct {
	kind  valueKind
	isInt bool
	i     int64
	big   *big.Int // non-nil for ints beyond int64
	f     float64
}

func classify(v any) value {
	switch x := v.(type) {
	case nil:
		return value{kind: kNull}
	case bool:
		return value{kind: kBool}
	case string:
		return value{kind: kString}
	case []any:
		return value{kind: kArray}
	case map[string]any:
		return value{kind: kObject}
	case json.Number:
		return numberValue(string(x))
	case float64:
		return value{kind: kNumber, f: x}
	case float32:
		return value{kind: kNumber, f: float64(x)}
	case int:
		return value{kind: kNumber, isInt: true, i: int64(x)}
	case int64:
		return value{kind: kNumber, isInt: true, i: x}
	case *big.Int:
		if x == nil {
			return value{}
		}
		if x.IsInt64() {
			return value{kind: kNumber, isInt: true, i: x.Int64()}
		}
		return value{kind: kNumber, isInt: true, big: x}
	}
	return value{}
}

// numberValue classifies the text of a JSON number (or of a numeric
// stdout token): an int when it has no '.', 'e' or 'E'.
func numberValue(s string) value {
	if !strings.ContainsAny(s, ".eEnN") { // nN: nan, inf, infinity
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return value{kind: kNumber, isInt: true, i: i}
		}
		if b, ok := new(big.Int).SetString(strings.TrimPrefix(s, "+"), 10); ok {
			return value{kind: kNumber, isInt: true, big: b}
		}
		return value{}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return value{}
		}
		// Out of range: ParseFloat returns ±Inf or 0, as Python does.
	}
	return value{kind: kNumber, f: f}
}

func (v value) intEqual(w value) bool {
	if v.big == nil && w.big == nil {
		return v.i == w.i
	}
	return v.bigInt().Cmp(w.bigInt()) == 0
}

func (v value) bigInt() *big.Int {
	if v.big != nil {
		return v.big
	}
	return big.NewInt(v.i)
}

func (v value) float() float64 {
	if !v.isInt {
		return v.f
	}
	if v.big == nil {
		return float64(v.i)
	}
	f, _ := new(big.Float).SetInt(v.big).Float64()
	return f
}

// EqualStdout compares an I/O case's expected and actual standard output:
//
//   - both are split at "\n"; each line loses its trailing whitespace
//     (Python's str.rstrip()); trailing empty lines are ignored;
//   - the number of lines must be equal;
//   - each line is split into whitespace-separated tokens (Python's
//     str.split()), and the lines must have as many tokens;
//   - two tokens that are both numeric (see below) are compared as numbers:
//     two integers exactly, otherwise as floats with [FloatsEqual] (so "nan"
//     never equals anything, "1.0" equals "1"); any other pair of tokens is
//     compared as strings.
//
// A numeric token is, ASCII only and case-insensitively, an optional sign
// then digits with an optional fraction and exponent, or "inf", "infinity"
// or "nan": in Python,
//
//	re.fullmatch(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)", tok, re.I | re.A)
//
// and an integer token is one that matches r"[+-]?\d+". Whitespace is what
// Python's str.isspace() accepts.
func EqualStdout(expected, actual string, tol float64) bool {
	e, a := stdoutLines(expected), stdoutLines(actual)
	if len(e) != len(a) {
		return false
	}
	for i := range e {
		if e[i] == a[i] && !containsNaNWord(e[i]) {
			continue
		}
		et, at := strings.FieldsFunc(e[i], isPySpace), strings.FieldsFunc(a[i], isPySpace)
		if len(et) != len(at) {
			return false
		}
		for j := range et {
			if !tokensEqual(et[j], at[j], tol) {
				return false
			}
		}
	}
	return true
}

// containsNaNWord reports whether a line may hold a "nan" token, which
// never equals itself, so that the fast path of identical lines is not
// taken for it.
func containsNaNWord(s string) bool {
	for i := 0; i+3 <= len(s); i++ {
		if (s[i]|0x20) == 'n' && (s[i+1]|0x20) == 'a' && (s[i+2]|0x20) == 'n' {
			return true
		}
	}
	return false
}

func stdoutLines(s string) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, isPySpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// isPySpace is Python's str.isspace() for one character: Unicode White_Space
// plus the separators U+001C..U+001F.
func isPySpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func tokensEqual(e, a string, tol float64) bool {
	ev, en := numericToken(e)
	av, an := numericToken(a)
	if !en || !an {
		return e == a
	}
	if ev.isInt && av.isInt {
		return ev.intEqual(av)
	}
	return FloatsEqual(ev.float(), av.float(), tol)
}

// numericToken parses a stdout token that is numeric (see [EqualStdout]).
func numericToken(s string) (value, bool) {
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		return value{kind: kNumber, f: math.Inf(1 - 2*boolInt(s[0] == '-'))}, true
	case "nan":
		return value{kind: kNumber, f: math.NaN()}, true
	}
	i, digits := 0, 0
	for i < len(body) && isDigit(body[i]) {
		i++
		digits++
	}
	isInt := i == len(body) && digits > 0
	if i < len(body) && body[i] == '.' {
		i++
		for i < len(body) && isDigit(body[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return value{}, false
	}
	if i < len(body) && (body[i] == 'e' || body[i] == 'E') {
		i++
		if i < len(body) && (body[i] == '+' || body[i] == '-') {
			i++
		}
		exp := 0
		for i < len(body) && isDigit(body[i]) {
			i++
			exp++
		}
		if exp == 0 {
			return value{}, false
		}
	}
	if i != len(body) {
		return value{}, false
	}
	if isInt {
		v := numberValue(s)
		return v, v.kind == kNumber
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return value{}, false
		}
	}
	return value{kind: kNumber, f: f}, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
