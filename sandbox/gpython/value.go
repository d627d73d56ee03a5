package gpython

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
)

// Values cross into the interpreter as decoded JSON (json.Decoder with
// UseNumber: nil, bool, string, json.Number, []any, map[string]any) and
// come back as gpython objects. The comparison rules are those of
// fitness.Equal and of the CPython harness (sandbox/doc.go, "Comparison").

// maxMaterialise bounds the items taken from a returned iterator.
const maxMaterialise = 10000

// decodeJSON decodes one JSON value with numbers kept as json.Number.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// toPy makes a fresh gpython object of a decoded JSON value: arrays become
// lists, objects dicts, numbers without '.', 'e' or 'E' ints.
func toPy(v any) py.Object {
	switch x := v.(type) {
	case nil:
		return py.None
	case bool:
		return py.NewBool(x)
	case string:
		return py.String(x)
	case json.Number:
		return numberToPy(string(x))
	case float64:
		return py.Float(x)
	case []any:
		items := make([]py.Object, len(x))
		for i, e := range x {
			items[i] = toPy(e)
		}
		return py.NewListFromItems(items)
	case map[string]any:
		d := py.NewStringDictSized(len(x))
		for k, e := range x {
			d[k] = toPy(e)
		}
		return d
	}
	return py.None
}

func numberToPy(s string) py.Object {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return py.Int(i)
		}
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return (*py.BigInt)(b)
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return py.None
		}
	}
	return py.Float(f)
}

// isInt reports whether o is an int (not a bool).
func isInt(o py.Object) bool {
	switch o.(type) {
	case py.Int, *py.BigInt:
		return true
	}
	return false
}

func isNumber(o py.Object) bool {
	switch o.(type) {
	case py.Int, *py.BigInt, py.Float:
		return true
	}
	return false
}

func bigOf(o py.Object) *big.Int {
	switch x := o.(type) {
	case py.Int:
		return big.NewInt(int64(x))
	case *py.BigInt:
		return (*big.Int)(x)
	}
	return nil
}

func floatOf(o py.Object) float64 {
	switch x := o.(type) {
	case py.Int:
		return float64(x)
	case *py.BigInt:
		f, _ := new(big.Float).SetInt((*big.Int)(x)).Float64()
		return f
	case py.Float:
		return float64(x)
	}
	return math.NaN()
}

// ---- repr ---------------------------------------------------------------

// reprMax is the length of a value in a detail, in characters.
const reprMax = 100

// shortRepr is Python's repr of o, shortened to about limit characters
// without building a huge string for a huge container, int or str.
func shortRepr(o py.Object, limit int) string {
	r := pyRepr(o, limit)
	return shorten(r, limit)
}

func shorten(r string, limit int) string {
	if utf8.RuneCountInString(r) > limit {
		rs := []rune(r)
		r = string(rs[:limit-3]) + "..."
	}
	return r
}

// pyRepr is o's repr, cut after about limit characters. A container that
// holds itself shows as [...] or {...} where it recurs, as in CPython; an
// object nested deeper than limit shows as ...: what is past limit is cut
// anyway, and a candidate's self-referential result must not recurse
// without end here.
func pyRepr(o py.Object, limit int) string {
	r := reprer{limit: limit}
	return r.repr(o)
}

// reprer is one repr: the chain of containers being written, from the
// outermost in (a short stack kept in place, so that a repr allocates
// nothing for it), and the depth.
type reprer struct {
	limit  int
	depth  int
	n      int // containers in active
	active [16]uintptr
	more   []uintptr // beyond 16
}

// enter marks the container at ptr as being written, or reports that it
// already is. leave unmarks the last one entered.
func (r *reprer) enter(ptr uintptr) bool {
	for i := 0; i < r.n && i < len(r.active); i++ {
		if r.active[i] == ptr {
			return false
		}
	}
	for _, p := range r.more {
		if p == ptr {
			return false
		}
	}
	if r.n < len(r.active) {
		r.active[r.n] = ptr
	} else {
		r.more = append(r.more, ptr)
	}
	r.n++
	return true
}

func (r *reprer) leave() {
	r.n--
	if r.n >= len(r.active) {
		r.more = r.more[:len(r.more)-1]
	}
}

func (r *reprer) short(o py.Object) string {
	if r.depth > r.limit {
		return "..."
	}
	r.depth++
	s := shorten(r.repr(o), r.limit) // repr recovers its own panics
	r.depth--
	return s
}

func (r *reprer) repr(o py.Object) (s string) {
	limit := r.limit
	defer func() {
		if e := recover(); e != nil {
			s = "<" + o.Type().Name + " object; repr failed>"
		}
	}()
	switch x := o.(type) {
	case nil:
		return "None"
	case py.NoneType:
		return "None"
	case py.Bool:
		if x {
			return "True"
		}
		return "False"
	case py.Int:
		return strconv.FormatInt(int64(x), 10)
	case *py.BigInt:
		b := (*big.Int)(x)
		if b.BitLen() > 3*limit {
			return "<int of " + strconv.Itoa(b.BitLen()) + " bits>"
		}
		return b.String()
	case py.Float:
		return floatRepr(float64(x))
	case py.String:
		s := string(x)
		if utf8.RuneCountInString(s) > limit+2 {
			s = string([]rune(s)[:limit+2])
		}
		return strRepr(s)
	case *py.List:
		p := reflect.ValueOf(x).Pointer()
		if !r.enter(p) {
			return "[...]"
		}
		defer r.leave()
		return r.seq("[", "]", x.Items, false)
	case py.Tuple:
		return r.seq("(", ")", x, len(x) == 1)
	case *py.Set:
		items := setItems(x)
		if len(items) == 0 {
			return "set()"
		}
		return r.seq("{", "}", items, false)
	case *py.FrozenSet:
		items := setItems(&x.Set)
		if len(items) == 0 {
			return "frozenset()"
		}
		return r.seq("frozenset({", "})", items, false)
	case py.StringDict:
		if len(x) == 0 {
			return "{}"
		}
		p := reflect.ValueOf(x).Pointer()
		if !r.enter(p) {
			return "{...}"
		}
		defer r.leave()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // gpython dicts have no order; sorted is reproducible
		var b strings.Builder
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			if b.Len() > limit {
				b.WriteString("...")
				break
			}
			b.WriteString(strRepr(k))
			b.WriteString(": ")
			b.WriteString(r.short(x[k]))
		}
		b.WriteString("}")
		return b.String()
	}
	s, err := py.ReprAsString(o)
	if err != nil {
		return "<" + o.Type().Name + " object; repr failed: " + excName(err) + ">"
	}
	return s
}

func (r *reprer) seq(open, close string, items []py.Object, oneTuple bool) string {
	var b strings.Builder
	b.WriteString(open)
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len() > r.limit {
			b.WriteString("...")
			break
		}
		b.WriteString(r.short(it))
	}
	if oneTuple {
		b.WriteString(",")
	}
	b.WriteString(close)
	return b.String()
}

// floatRepr is Python's repr of a float: the shortest digits that round
// trip, positional for exponents from -4 to 15, else scientific with at
// least two exponent digits.
func floatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	sign := ""
	if neg {
		sign = "-"
	}
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es = "-"
			exp = -exp
		}
		ex := strconv.Itoa(exp)
		if len(ex) < 2 {
			ex = "0" + ex
		}
		return sign + m + "e" + es + ex
	}
	var s string
	if exp >= 0 {
		if len(digits) <= exp+1 {
			s = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		} else {
			s = digits[:exp+1] + "." + digits[exp+1:]
		}
	} else {
		s = "0." + strings.Repeat("0", -exp-1) + digits
	}
	return sign + s
}

// strRepr is Python's repr of a str.
func strRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(int(r)))
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			b.WriteString(`\x`)
			b.WriteString(hex2(int(r)))
		case r < 0x10000:
			b.WriteString(`\u`)
			b.WriteString(hexN(int(r), 4))
		default:
			b.WriteString(`\U`)
			b.WriteString(hexN(int(r), 8))
		}
	}
	b.WriteByte(quote)
	return b.String()
}

func hex2(n int) string { return hexN(n, 2) }

func hexN(n, width int) string {
	s := strconv.FormatInt(int64(n), 16)
	return strings.Repeat("0", width-len(s)) + s
}

func setItems(s *py.Set) []py.Object {
	var items []py.Object
	py.Iterate(s, func(o py.Object) bool {
		items = append(items, o)
		return false
	})
	return items
}
