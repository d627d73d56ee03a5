package gpython

import (
	"errors"
	"strings"
)

// f-strings (Python 3.6) do not compile under gpython. Before any source is
// compiled (candidates, the test file, checkSyntax), rewriteFStrings turns
// every f-string into an expression gpython compiles, keeping every line
// of the source on its line:
//
//	f"a{x}b{y!r}c{z:>{w}}"
//
// becomes
//
//	('a' + N((x), '') + 'b' + N((y), '', 'r') + 'c' + N((z), '>' + N((w), '')))
//
// where N is a name the source does not contain (probeName + "f"), bound
// in the module's globals to fstringFormat: format(value, spec) after the
// conversion, as CPython's f-strings do. The literal parts keep the
// f-string's own quotes and raw prefix, so escapes and line breaks mean
// what they meant. A group of adjacent literals containing an f-string
// ("a" f"{b}") becomes one parenthesized sum. A source without f-strings
// is returned as is after a byte scan.

// hasFString reports whether src may contain an f-string: a quote right
// after f or F, or after f/F and r/R.
func hasFString(src []byte) bool {
	for i := 1; i < len(src); i++ {
		if c := src[i]; c != '"' && c != '\'' {
			continue
		}
		switch p := src[i-1] | 0x20; {
		case p == 'f':
			return true
		case p == 'r' && i >= 2 && src[i-2]|0x20 == 'f':
			return true
		}
	}
	return false
}

// rewriteFStrings returns src with its f-strings rewritten to calls of
// name (see above), and whether it changed anything. On a source it cannot
// scan (an unterminated string, a malformed f-string) it returns src
// unchanged, so that the compiler reports the error.
func rewriteFStrings(src []byte, name string) ([]byte, bool) {
	if !hasFString(src) {
		return src, false
	}
	r := &fsRewriter{src: src, name: name}
	out, end, err := r.code(0, false)
	if err != nil || end != len(src) || !r.changed {
		return src, false
	}
	return out, true
}

var errFString = errors.New("malformed string")

type fsRewriter struct {
	src     []byte
	name    string
	changed bool
}

// code copies Python code from i, rewriting string groups that contain
// f-strings. In a replacement field (field), it stops before what ends the
// expression at bracket depth 0: '}', a conversion '!', a format spec ':'
// or a debug '='; otherwise it runs to the end of src.
func (r *fsRewriter) code(i int, field bool) ([]byte, int, error) {
	src := r.src
	var out []byte
	last := i
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case c == '\\' && i+1 < len(src):
			i += 2
		case isIdentStart(c) || isDigit(c):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && j-i <= 2 && isStringPrefix(src[i:j]) {
				text, end, err := r.group(i, field || depth > 0)
				if err != nil {
					return nil, 0, err
				}
				if text != nil {
					out = append(append(out, src[last:i]...), text...)
					last = end
				}
				i = end
				continue
			}
			i = j
		case c == '\'' || c == '"':
			text, end, err := r.group(i, field || depth > 0)
			if err != nil {
				return nil, 0, err
			}
			if text != nil {
				out = append(append(out, src[last:i]...), text...)
				last = end
			}
			i = end
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				if field && c == '}' {
					return append(out, src[last:i]...), i, nil
				}
				return nil, 0, errFString
			}
			depth--
			i++
		case field && depth == 0 && c == '!' && !(i+1 < len(src) && src[i+1] == '='):
			return append(out, src[last:i]...), i, nil
		case field && depth == 0 && c == ':':
			return append(out, src[last:i]...), i, nil
		case field && depth == 0 && c == '=' && !(i+1 < len(src) && src[i+1] == '=') &&
			!(i > 0 && strings.IndexByte("=!<>", src[i-1]) >= 0):
			return append(out, src[last:i]...), i, nil
		case field && depth == 0 && c == '=' && i+1 < len(src) && src[i+1] == '=':
			i += 2
		default:
			i++
		}
	}
	if field || depth != 0 {
		return nil, 0, errFString
	}
	return append(out, src[last:]...), len(src), nil
}

// literal is one string literal of a group.
type literal struct {
	start, end int
	text       []byte // rewritten, for an f-string
}

// group scans the adjacent string literals starting at i (across line
// breaks and comments when nl, inside brackets). It returns nil when none
// is an f-string, else the group rewritten as one parenthesized sum.
func (r *fsRewriter) group(i int, nl bool) ([]byte, int, error) {
	src := r.src
	var lits []literal
	anyF := false
	for {
		j := i
		for j < len(src) && isIdentChar(src[j]) {
			j++
		}
		prefix := strings.ToLower(string(src[i:j]))
		lit := literal{start: i}
		if strings.Contains(prefix, "f") {
			text, end, err := r.fstring(j, strings.Contains(prefix, "r"))
			if err != nil {
				return nil, 0, err
			}
			lit.end, lit.text = end, text
			anyF = true
		} else {
			end, _, ok := scanString(src, j)
			if !ok {
				return nil, 0, errFString
			}
			lit.end = end
		}
		lits = append(lits, lit)
		// The next literal of the group, if any.
		k := lit.end
		for k < len(src) {
			c := src[k]
			if c == ' ' || c == '\t' || c == '\f' {
				k++
			} else if c == '\\' && k+1 < len(src) && (src[k+1] == '\n' || src[k+1] == '\r') {
				k += 2
			} else if nl && (c == '\n' || c == '\r') {
				k++
			} else if nl && c == '#' {
				for k < len(src) && src[k] != '\n' && src[k] != '\r' {
					k++
				}
			} else {
				break
			}
		}
		p := k
		for p < len(src) && isIdentChar(src[p]) && p-k < 3 {
			p++
		}
		if p < len(src) && (src[p] == '\'' || src[p] == '"') && isStringPrefix(src[k:p]) {
			i = k
			continue
		}
		break
	}
	end := lits[len(lits)-1].end
	if !anyF {
		return nil, end, nil
	}
	r.changed = true
	out := []byte{'('}
	for n, l := range lits {
		if n > 0 {
			out = append(append(out, src[lits[n-1].end:l.start]...), "+ "...)
		}
		if l.text != nil {
			out = append(out, l.text...)
		} else {
			out = append(out, src[l.start:l.end]...)
		}
	}
	return append(out, ')'), end, nil
}

// fstring rewrites the f-string whose opening quote is at q: the sum of
// its parts, unparenthesized.
func (r *fsRewriter) fstring(q int, raw bool) ([]byte, int, error) {
	src := r.src
	quote := src[q]
	delim := src[q : q+1]
	if q+2 < len(src) && src[q+1] == quote && src[q+2] == quote {
		delim = src[q : q+3]
	}
	prefix := ""
	if raw {
		prefix = "r"
	}
	f := &fstr{r: r, quote: quote, delim: string(delim), prefix: prefix, raw: raw}
	parts, end, err := f.body(q+len(delim), false)
	if err != nil {
		return nil, 0, err
	}
	if len(parts) == 0 {
		return []byte(prefix + f.delim + f.delim), end + len(delim), nil
	}
	return []byte(strings.Join(parts, " + ")), end + len(delim), nil
}

type fstr struct {
	r      *fsRewriter
	quote  byte
	delim  string
	prefix string
	raw    bool
}

// body scans literal text and replacement fields from i up to the closing
// delimiter (or, in a format spec, up to its closing '}'), and returns the
// expressions of its parts and where it stopped.
func (f *fstr) body(i int, spec bool) ([]string, int, error) {
	src := f.r.src
	var parts []string
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			parts = append(parts, f.literal(lit))
			lit = nil
		}
	}
	for {
		if i >= len(src) {
			return nil, 0, errFString
		}
		c := src[i]
		switch {
		case strings.HasPrefix(string(src[i:min(i+len(f.delim), len(src))]), f.delim):
			if spec {
				return nil, 0, errFString
			}
			flush()
			return parts, i, nil
		case c == '\\':
			n := 1
			if i+1 < len(src) {
				switch d := src[i+1]; {
				case d == 'N' && !f.raw && i+2 < len(src) && src[i+2] == '{':
					e := i + 3
					for e < len(src) && src[e] != '}' && src[e] != f.quote && src[e] != '\n' {
						e++
					}
					if e >= len(src) || src[e] != '}' {
						return nil, 0, errFString
					}
					n = e + 1 - i
				case d == '\r' && i+2 < len(src) && src[i+2] == '\n':
					n = 3
				case d == f.quote || d == '\\' || d == '\n' || d == '\r':
					n = 2
				}
			}
			lit = append(lit, src[i:i+n]...)
			i += n
		case (c == '\n' || c == '\r') && len(f.delim) == 1:
			return nil, 0, errFString
		case c == '{' && !spec && i+1 < len(src) && src[i+1] == '{':
			lit = append(lit, '{')
			i += 2
		case c == '}' && spec:
			flush()
			return parts, i, nil
		case c == '}':
			if i+1 >= len(src) || src[i+1] != '}' {
				return nil, 0, errFString
			}
			lit = append(lit, '}')
			i += 2
		case c == '{':
			flush()
			field, debug, end, err := f.field(i + 1)
			if err != nil {
				return nil, 0, err
			}
			if debug != "" {
				parts = append(parts, debug)
			}
			parts = append(parts, field)
			i = end
		default:
			lit = append(lit, c)
			i++
		}
	}
}

// field rewrites the replacement field after the '{' at i: the call, a
// literal of the text a debug '=' shows ("" without one), and the offset
// after its '}'.
func (f *fstr) field(i int) (call, debug string, end int, err error) {
	src := f.r.src
	expr, j, err := f.r.code(i, true)
	if err != nil {
		return "", "", 0, err
	}
	if strings.TrimSpace(string(src[i:j])) == "" {
		return "", "", 0, errFString
	}
	conv, explicit := "", false
	if src[j] == '=' {
		j++
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
			j++
		}
		// The text shown, as a literal: the expression keeps its own
		// line breaks, the literal the others (after the '='), so that
		// every line stays on its line.
		shown := string(src[i:j])
		need := strings.Count(shown, "\n") - strings.Count(string(expr), "\n")
		debug = pyQuoteFlat(shown) + strings.Repeat("\n", max(need, 0))
		conv = "r"
	}
	if j < len(src) && src[j] == '!' {
		if j+2 >= len(src) || strings.IndexByte("rsa", src[j+1]) < 0 {
			return "", "", 0, errFString
		}
		conv, explicit = string(src[j+1]), true
		j += 2
	}
	spec := "''"
	if j < len(src) && src[j] == ':' {
		parts, e, err := f.body(j+1, true)
		if err != nil {
			return "", "", 0, err
		}
		if len(parts) > 0 {
			spec = strings.Join(parts, " + ")
		}
		if debug != "" && !explicit {
			conv = "" // {x=:spec} formats x, not its repr
		}
		j = e
	}
	if j >= len(src) || src[j] != '}' {
		return "", "", 0, errFString
	}
	call = f.r.name + "((" + string(expr) + "), " + spec
	if conv != "" {
		call += ", '" + conv + "'"
	}
	return call + ")", debug, j + 1, nil
}

// literal is a string literal of text (source text of the f-string, with
// {{ and }} undoubled) in the f-string's own quotes and raw prefix. A
// trailing backslash or quote, which would end the literal early, goes
// into a plain literal of its own.
func (f *fstr) literal(text []byte) string {
	tail := ""
	for len(text) > 0 {
		last := text[len(text)-1]
		bs := 0
		for k := len(text) - 2; k >= 0 && text[k] == '\\'; k-- {
			bs++
		}
		switch {
		case last == '\\' && bs%2 == 0:
			// A backslash before a replacement field: a literal backslash.
		case last == f.quote && len(f.delim) == 3 && bs%2 == 0:
		default:
			goto done
		}
		tail = string(last) + tail
		text = text[:len(text)-1]
	}
done:
	s := ""
	if len(text) > 0 {
		s = f.prefix + f.delim + string(text) + f.delim
	}
	if tail != "" {
		if s != "" {
			s += " + "
		}
		s += pyQuote(tail)
	}
	return s
}

// pyQuoteFlat is a plain string literal of s on one line.
func pyQuoteFlat(s string) string {
	q := pyQuote(s)
	q = strings.ReplaceAll(q, "\\\r\n", "")
	q = strings.ReplaceAll(q, "\\\n", "")
	return strings.ReplaceAll(q, "\\\r", "")
}

// pyQuote is a plain string literal of s that keeps its line breaks on
// their lines (an escaped \n followed by a line continuation).
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString("\\n\\\n")
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				b.WriteString("\\r\\n\\\r\n")
				i++
			} else {
				b.WriteString("\\r\\\r")
			}
		case '\t':
			b.WriteString("\\t")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
