package gpython

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
)

// fstringFormat is what a rewritten f-string calls for a replacement field
// (fstring.go): N(value, spec) is format(value, spec), N(value, spec, c)
// applies the conversion c ('r', 's' or 'a') first. gpython has no format
// built-in, so this is CPython's format for str, int, bool and float
// (fill, align, sign, #, 0, width, grouping, precision, types), str() for
// an empty spec, and a class's own __format__. What it does not implement
// raises NotImplementedError, which the engine reports as a limitation of
// gpython.
var fstringFormat = py.MustNewMethod("format", func(self py.Object, args py.Tuple) (py.Object, error) {
	if len(args) < 2 || len(args) > 3 {
		return nil, py.ExceptionNewf(py.TypeError, "format expected 2 or 3 arguments, got %d", len(args))
	}
	v := args[0]
	if len(args) == 3 {
		c, _ := args[2].(py.String)
		var err error
		switch c {
		case "r":
			v, err = py.Repr(v)
		case "s":
			v, err = py.Str(v)
		case "a":
			v, err = py.Repr(v)
			if err == nil {
				v = py.String(asciiEscape(string(v.(py.String))))
			}
		}
		if err != nil {
			return nil, err
		}
	}
	spec, ok := args[1].(py.String)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "format() argument 2 must be str")
	}
	s, err := formatValue(v, string(spec))
	if err != nil {
		return nil, err
	}
	return py.String(s), nil
}, 0, "format(value, spec, conversion) as an f-string field")

func asciiEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// formatValue is CPython's format(v, spec).
func formatValue(v py.Object, spec string) (string, error) {
	switch x := v.(type) {
	case py.String:
		if spec == "" {
			return string(x), nil
		}
		return formatStr(string(x), spec)
	case py.Bool:
		if spec == "" {
			return py.StrAsString(x)
		}
		n := int64(0)
		if x {
			n = 1
		}
		return formatInt(big.NewInt(n), spec, "bool")
	case py.Int:
		return formatInt(big.NewInt(int64(x)), spec, "int")
	case *py.BigInt:
		return formatInt((*big.Int)(x), spec, "int")
	case py.Float:
		return formatFloat(float64(x), spec, "float")
	}
	if t := v.Type(); t != nil && t.Lookup("__format__") != nil {
		r, _, err := py.TypeCall1(v, "__format__", py.String(spec))
		if err != nil {
			return "", err
		}
		s, ok := r.(py.String)
		if !ok {
			return "", py.ExceptionNewf(py.TypeError, "__format__ must return a str, not %s", typeName(r))
		}
		return string(s), nil
	}
	if spec == "" {
		return py.StrAsString(v)
	}
	if _, ok := v.(py.Complex); ok {
		return "", notImplemented(spec, "complex")
	}
	return "", py.ExceptionNewf(py.TypeError, "unsupported format string passed to %s.__format__", typeName(v))
}

func typeName(v py.Object) string {
	n := v.Type().Name
	if c, ok := gpythonTypeNames[n]; ok {
		return c
	}
	if n == "NoneType" || v == py.None {
		return "NoneType"
	}
	return n
}

func notImplemented(spec, typ string) error {
	return py.ExceptionNewf(py.NotImplementedError, "f-string format spec %q for %s not implemented", spec, typ)
}

type fmtSpec struct {
	fill      rune
	align     byte
	sign      byte
	alt, zero bool
	width     int
	group     byte
	prec      int
	typ       byte
}

// parseSpec parses [[fill]align][sign][#][0][width][grouping][.precision][type].
func parseSpec(s, typ string) (fmtSpec, error) {
	f := fmtSpec{prec: -1}
	r := []rune(s)
	i := 0
	isAlign := func(c rune) bool { return c == '<' || c == '>' || c == '=' || c == '^' }
	if len(r) >= 2 && isAlign(r[1]) {
		f.fill, f.align, i = r[0], byte(r[1]), 2
	} else if len(r) >= 1 && isAlign(r[0]) {
		f.align, i = byte(r[0]), 1
	}
	if i < len(r) && (r[i] == '+' || r[i] == '-' || r[i] == ' ') {
		f.sign = byte(r[i])
		i++
	}
	if i < len(r) && r[i] == 'z' {
		return f, notImplemented(s, typ)
	}
	if i < len(r) && r[i] == '#' {
		f.alt = true
		i++
	}
	if i < len(r) && r[i] == '0' {
		f.zero = true
		i++
	}
	num := func() int {
		n := -1
		for i < len(r) && r[i] >= '0' && r[i] <= '9' {
			if n < 0 {
				n = 0
			}
			n = n*10 + int(r[i]-'0')
			i++
			if n > 1<<20 {
				n = 1 << 20 // CPython: "Too many decimal digits"; far beyond any test
			}
		}
		return n
	}
	if w := num(); w > 0 {
		f.width = w
	}
	if i < len(r) && (r[i] == ',' || r[i] == '_') {
		f.group = byte(r[i])
		i++
		if i < len(r) && (r[i] == ',' || r[i] == '_') {
			return f, py.ExceptionNewf(py.ValueError, "Cannot specify both ',' and '_'.")
		}
	}
	if i < len(r) && r[i] == '.' {
		i++
		if f.prec = num(); f.prec < 0 {
			return f, py.ExceptionNewf(py.ValueError, "Format specifier missing precision")
		}
	}
	if len(r)-i > 1 {
		return f, py.ExceptionNewf(py.ValueError, "Invalid format specifier")
	}
	if i < len(r) {
		if r[i] >= 0x80 {
			return f, py.ExceptionNewf(py.ValueError, "Unknown format code '\\x%x' for object of type '%s'", r[i], typ)
		}
		f.typ = byte(r[i])
	}
	if f.zero && f.fill == 0 {
		f.fill = '0'
		if f.align == 0 && typ != "str" {
			f.align = '='
		}
	}
	if f.fill == 0 {
		f.fill = ' '
	}
	return f, nil
}

func unknownCode(f fmtSpec, typ string) error {
	return py.ExceptionNewf(py.ValueError, "Unknown format code '%c' for object of type '%s'", f.typ, typ)
}

// pad pads sign+prefix+body to the width; '=' pads between the prefix and
// the body.
func pad(f fmtSpec, def byte, prefix, body string) string {
	n := f.width - utf8.RuneCountInString(prefix) - utf8.RuneCountInString(body)
	if n <= 0 {
		return prefix + body
	}
	align := f.align
	if align == 0 {
		align = def
	}
	fill := string(f.fill)
	switch align {
	case '<':
		return prefix + body + strings.Repeat(fill, n)
	case '^':
		return strings.Repeat(fill, n/2) + prefix + body + strings.Repeat(fill, n-n/2)
	case '=':
		return prefix + strings.Repeat(fill, n) + body
	}
	return strings.Repeat(fill, n) + prefix + body
}

func formatStr(s, spec string) (string, error) {
	f, err := parseSpec(spec, "str")
	if err != nil {
		return "", err
	}
	switch {
	case f.typ != 0 && f.typ != 's':
		return "", unknownCode(f, "str")
	case f.sign != 0:
		return "", py.ExceptionNewf(py.ValueError, "Sign not allowed in string format specifier")
	case f.alt:
		return "", py.ExceptionNewf(py.ValueError, "Alternate form (#) not allowed in string format specifier")
	case f.align == '=':
		return "", py.ExceptionNewf(py.ValueError, "'=' alignment not allowed in string format specifier")
	case f.group != 0:
		return "", py.ExceptionNewf(py.ValueError, "Cannot specify '%c' with 's'.", f.group)
	}
	if f.prec >= 0 && utf8.RuneCountInString(s) > f.prec {
		s = string([]rune(s)[:f.prec])
	}
	return pad(f, '<', "", s), nil
}

func signOf(f fmtSpec, neg bool) string {
	switch {
	case neg:
		return "-"
	case f.sign == '+':
		return "+"
	case f.sign == ' ':
		return " "
	}
	return ""
}

// groupDigits inserts sep every n digits from the right of digits.
func groupDigits(digits string, sep byte, n int) string {
	if sep == 0 || len(digits) <= n {
		return digits
	}
	var b strings.Builder
	first := len(digits) % n
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += n {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[i : i+n])
	}
	return b.String()
}

// padNumber pads sign+prefix+digits (an integer part of digits, grouped
// every n, then rest); zero padding with grouping groups the zeros too.
func padNumber(f fmtSpec, sign, prefix, digits string, n int, rest string) string {
	if f.align == '=' && f.fill == '0' && f.group != 0 {
		head := utf8.RuneCountInString(sign+prefix) + len(rest)
		for head+len(groupDigits(digits, f.group, n)) < f.width {
			digits = "0" + digits
		}
		return sign + prefix + groupDigits(digits, f.group, n) + rest
	}
	return pad(f, '>', sign+prefix, groupDigits(digits, f.group, n)+rest)
}

func formatInt(x *big.Int, spec, typ string) (string, error) {
	if spec == "" {
		return x.String(), nil
	}
	f, err := parseSpec(spec, typ)
	if err != nil {
		return "", err
	}
	switch f.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		fl, _ := new(big.Float).SetInt(x).Float64()
		if math.IsInf(fl, 0) {
			return "", py.ExceptionNewf(py.OverflowError, "int too large to convert to float")
		}
		return formatFloatSpec(fl, f, spec)
	case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
	default:
		return "", unknownCode(f, typ)
	}
	if f.prec >= 0 {
		return "", py.ExceptionNewf(py.ValueError, "Precision not allowed in integer format specifier")
	}
	if f.typ == 'n' && f.group != 0 {
		return "", py.ExceptionNewf(py.ValueError, "Cannot specify '%c' with 'n'.", f.group)
	}
	if f.typ == 'c' {
		if f.sign != 0 {
			return "", py.ExceptionNewf(py.ValueError, "Sign not allowed with integer format specifier 'c'")
		}
		if f.group != 0 {
			return "", py.ExceptionNewf(py.ValueError, "Cannot specify '%c' with 'c'.", f.group)
		}
		if !x.IsInt64() || x.Int64() < 0 || x.Int64() > 0x10ffff {
			return "", py.ExceptionNewf(py.OverflowError, "%%c arg not in range(0x110000)")
		}
		return pad(f, '<', "", string(rune(x.Int64()))), nil
	}
	base, prefix, n := 10, "", 3
	switch f.typ {
	case 'b':
		base, prefix, n = 2, "0b", 4
	case 'o':
		base, prefix, n = 8, "0o", 4
	case 'x', 'X':
		base, prefix, n = 16, "0x", 4
	}
	if f.group == ',' && base != 10 {
		return "", py.ExceptionNewf(py.ValueError, "Cannot specify ',' with '%c'.", f.typ)
	}
	if !f.alt {
		prefix = ""
	}
	digits := new(big.Int).Abs(x).Text(base)
	if f.typ == 'X' {
		digits, prefix = strings.ToUpper(digits), strings.ToUpper(prefix)
	}
	return padNumber(f, signOf(f, x.Sign() < 0), prefix, digits, n, ""), nil
}

func formatFloat(x float64, spec, typ string) (string, error) {
	if spec == "" {
		return floatRepr(x), nil
	}
	f, err := parseSpec(spec, typ)
	if err != nil {
		return "", err
	}
	return formatFloatSpec(x, f, spec)
}

func formatFloatSpec(x float64, f fmtSpec, spec string) (string, error) {
	switch f.typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', '%':
	case 'n':
		return "", notImplemented(spec, "float")
	default:
		return "", unknownCode(f, "float")
	}
	neg := math.Signbit(x)
	a := math.Abs(x)
	upper := f.typ == 'E' || f.typ == 'F' || f.typ == 'G'
	var body string
	switch {
	case math.IsNaN(x):
		neg, body = false, "nan"
	case math.IsInf(x, 0):
		body = "inf"
	default:
		body = floatBody(a, f)
	}
	if upper {
		body = strings.ToUpper(body)
	}
	if f.typ == '%' {
		body += "%"
	}
	// Split the integer digits (grouped, zero padded) from the rest.
	intEnd := 0
	for intEnd < len(body) && body[intEnd] >= '0' && body[intEnd] <= '9' {
		intEnd++
	}
	return padNumber(f, signOf(f, neg), "", body[:intEnd], 3, body[intEnd:]), nil
}

// floatBody formats a finite a >= 0.
func floatBody(a float64, f fmtSpec) string {
	p := f.prec
	switch f.typ {
	case 'f', 'F', '%':
		if p < 0 {
			p = 6
		}
		if f.typ == '%' {
			a *= 100
		}
		s := strconv.FormatFloat(a, 'f', p, 64)
		if f.alt && p == 0 {
			s += "."
		}
		return s
	case 'e', 'E':
		if p < 0 {
			p = 6
		}
		s := strconv.FormatFloat(a, 'e', p, 64)
		if f.alt && p == 0 {
			s = s[:1] + "." + s[1:]
		}
		return s
	case 0:
		if p < 0 {
			return floatRepr(a)
		}
	}
	// g, G, or no type with a precision (at least one digit after the
	// point, exponent from precision-1 on).
	if p < 0 {
		p = 6
	}
	if p == 0 {
		p = 1
	}
	e := strconv.FormatFloat(a, 'e', p-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	limit := p
	if f.typ == 0 {
		limit = p - 1
	}
	var s string
	if exp < -4 || exp >= limit {
		mant, ex, _ := strings.Cut(e, "e")
		if !f.alt {
			mant = trimZeros(mant)
		}
		s = mant + "e" + ex
	} else {
		s = strconv.FormatFloat(a, 'f', p-1-exp, 64)
		if !f.alt {
			s = trimZeros(s)
		}
		if f.typ == 0 && !strings.Contains(s, ".") {
			s += ".0"
		}
	}
	if f.alt && !strings.Contains(s, ".") {
		if i := strings.IndexByte(s, 'e'); i >= 0 {
			s = s[:i] + "." + s[i:]
		} else {
			s += "."
		}
	}
	return s
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
