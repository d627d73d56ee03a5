package gpython

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/go-python/gpython/py"
)

// gpython implements a Python 3.4 subset. When the original program (the
// unmodified target, or its test file) needs more, verdicts under gpython
// would be bogus, so New refuses it with an UnsupportedError naming the
// construct. Two checks find such programs: the original and the test
// file must compile, and the original's run on the suite must not end any
// case with an error that only gpython raises (a method, built-in or
// module CPython has, a dict with keys that are not strings, ...).

// UnsupportedError says that gpython cannot run the original program or
// its test file. Its message is one line that names the construct and
// suggests the cpython engine.
type UnsupportedError struct {
	// File is the target or the test file, as given.
	File string
	// Line is the 1-based line of the construct, 0 when unknown.
	Line int
	// Construct names what gpython cannot run: "an assignment
	// expression := (Python 3.8)", "str.upper()", "the module
	// collections", ...
	Construct string
	// Case names the case that ran into it; empty for syntax.
	Case string
}

func (e *UnsupportedError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	s := fmt.Sprintf("%s: the embedded gpython engine (a Python 3.4 subset) cannot run %s", loc, e.Construct)
	if e.Case != "" {
		s += " (case " + e.Case + ")"
	}
	return s + "; use --engine cpython"
}

// syntaxConstruct names the newer-than-3.4 syntax of src that gpython
// does not compile, preferring one on line errLine; "" and 0 when it finds
// none.
func syntaxConstruct(src []byte, errLine int) (string, int) {
	lines, ok := logicalLines(src)
	if !ok {
		return "", 0
	}
	var first string
	firstLine := 0
	note := func(c string, l int) bool {
		if first == "" {
			first, firstLine = c, l
		}
		return l == errLine
	}
	for _, toks := range lines {
		text := func(t token) string { return string(src[t.start:t.end]) }
		if len(toks) > 2 && toks[0].kind == tName && toks[1].kind == tOp && text(toks[1]) == ":" && !isKeyword(text(toks[0])) {
			if note("a variable annotation (Python 3.6)", toks[0].line) {
				return first, firstLine
			}
		}
		if toks[0].kind == tName && (text(toks[0]) == "match" || text(toks[0]) == "case") && len(toks) > 2 &&
			text(toks[len(toks)-1]) == ":" && !(toks[1].kind == tOp && strings.Contains("=.([,;:+-*/%<>!&|^", text(toks[1])[:1])) {
			if note("a match statement (Python 3.10)", toks[0].line) {
				return first, firstLine
			}
		}
		for i, t := range toks {
			s := text(t)
			var c string
			switch {
			case t.kind == tString && strings.ContainsAny(s[:strings.IndexAny(s, `'"`)], "fF"):
				c = "an f-string (Python 3.6)" // one rewriteFStrings could not scan
			case t.kind == tOp && s == ":=":
				c = "an assignment expression := (Python 3.8)"
			case t.kind == tNumber && strings.Contains(s, "_"):
				c = "a number with underscores (Python 3.6)"
			case t.kind == tName && (s == "async" || s == "await"):
				c = "async and await (Python 3.5)"
			case t.kind == tOp && (s == "@" || s == "@=") && i > 0:
				c = "the matrix multiplication operator @ (Python 3.5)"
			case t.kind == tOp && s == "/" && t.depth == 1 && i > 0 && i+1 < len(toks) &&
				(text(toks[i-1]) == "," || text(toks[i-1]) == "(") && (text(toks[i+1]) == "," || text(toks[i+1]) == ")") &&
				toks[0].kind == tName && (text(toks[0]) == "def" || text(toks[0]) == "lambda"):
				c = "positional-only parameters (Python 3.8)"
			}
			if c != "" && note(c, t.line) {
				return first, firstLine
			}
		}
	}
	return first, firstLine
}

func isKeyword(s string) bool {
	switch s {
	case "if", "elif", "else", "while", "for", "try", "except", "finally", "with", "def", "class", "lambda":
		return true
	}
	return false
}

var (
	attrErrorRE = regexp.MustCompile(`^'([^']+)' (?:object )?has no attribute '([^']+)'$`)
	nameErrorRE = regexp.MustCompile(`^name '([^']+)' is not defined$`)
	importRE    = regexp.MustCompile(`^No module named '([^']+)'$`)
	createRE    = regexp.MustCompile(`^cannot create '([^']+)' instances$`)
	operandRE   = regexp.MustCompile(`^unsupported operand type\(s\) for ([^:]+): '([^']+)' and '([^']+)'$`)
	callableRE  = regexp.MustCompile(`^'([^']+)' object is not callable$`)
)

// gpythonTypeNames maps gpython's names of built-in types to CPython's.
var gpythonTypeNames = map[string]string{
	"str": "str", "list": "list", "dict": "dict", "int": "int", "bigint": "int", "float": "float",
	"tuple": "tuple", "set": "set", "frozenset": "frozenset", "bytes": "bytes", "bool": "bool",
	"complex64": "complex", "range": "range", "slice": "slice", "object": "object", "type": "type",
}

// limitation returns what a failed case shows gpython cannot do (that
// CPython can), or "".
func (w *worker) limitation(it *interp, o outcome) string {
	if o.panic != "" {
		return "this program: gpython failed internally (" + truncUTF8(o.panic, 200) + ")"
	}
	if o.err == nil {
		return ""
	}
	exc := excOf(o.err)
	if exc == nil {
		return "this program: gpython failed internally (" + truncUTF8(o.err.Error(), 200) + ")"
	}
	msg := excMessage(exc)
	switch {
	case isSubtype(exc.Base, py.AttributeError):
		m := attrErrorRE.FindStringSubmatch(msg)
		if m == nil {
			return ""
		}
		typ, attr := m[1], m[2]
		if typ == "module" {
			for name, attrs := range cpythonModuleAttrs {
				if mod, err := it.ctx.GetModule(name); err == nil && attrs.has(attr) {
					if _, ok := mod.Globals[attr]; !ok {
						return fmt.Sprintf("%s.%s (not available under gpython)", name, attr)
					}
				}
			}
			return ""
		}
		if t, ok := gpythonTypeNames[typ]; ok && cpythonTypeAttrs[t].has(attr) {
			if strings.HasPrefix(attr, "__") {
				return fmt.Sprintf("the attribute %s of %s objects", attr, t)
			}
			return fmt.Sprintf("%s.%s()", t, attr)
		}
		if strings.HasPrefix(attr, "__") && (cpythonTypeAttrs["type"].has(attr) || cpythonTypeAttrs["object"].has(attr)) {
			return fmt.Sprintf("the attribute %s", attr)
		}
	case isSubtype(exc.Base, py.NameError):
		if m := nameErrorRE.FindStringSubmatch(msg); m != nil && cpythonBuiltins.has(m[1]) {
			return fmt.Sprintf("the built-in %s", m[1])
		}
	case isSubtype(exc.Base, py.ImportError):
		if m := importRE.FindStringSubmatch(msg); m != nil {
			top, _, _ := strings.Cut(m[1], ".")
			if cpythonStdlib.has(top) {
				return fmt.Sprintf("the module %s", m[1])
			}
		}
	case isSubtype(exc.Base, py.KeyError):
		if strings.Contains(msg, "can only have string keys") {
			return "a dict with keys that are not strings"
		}
	case isSubtype(exc.Base, py.TypeError):
		if m := createRE.FindStringSubmatch(msg); m != nil {
			return fmt.Sprintf("%s() (creating %s objects)", m[1], m[1])
		}
		if m := operandRE.FindStringSubmatch(msg); m != nil {
			a, b := gpythonTypeNames[m[2]], gpythonTypeNames[m[3]]
			if a != "" && b != "" && cpythonOperator(m[1], a, b) {
				return fmt.Sprintf("the operator %s on %s and %s", m[1], a, b)
			}
			for _, d := range operatorDunders[m[1]] {
				if definesMethod(w.code, d) {
					return fmt.Sprintf("the operator %s on instances of a class with %s (gpython never calls it)", m[1], d)
				}
			}
		}
		if m := callableRE.FindStringSubmatch(msg); m != nil {
			switch name := m[1]; {
			case name == "staticmethod" || name == "classmethod" || name == "property":
				return fmt.Sprintf("a %s called through its class", name)
			case strings.HasSuffix(name, "Exception") || strings.HasSuffix(name, "Error"):
				// gpython makes "class E(ValueError)" an exception
				// instance, not a class.
				return "a subclass of a built-in exception"
			}
		}
		if strings.Contains(msg, "FIXME") || strings.Contains(msg, "not implemented") {
			return "this program: " + truncUTF8(msg, 200)
		}
	case isSubtype(exc.Base, py.SystemError), isSubtype(exc.Base, py.NotImplementedError):
		low := strings.ToLower(msg)
		if strings.HasPrefix(msg, "pytest.approx is not supported") {
			return "pytest.approx"
		}
		if isSubtype(exc.Base, py.SystemError) || strings.Contains(low, "not implemented") ||
			strings.Contains(low, "yet") || strings.Contains(msg, "FIXME") {
			return "this program: gpython does not implement it (" + truncUTF8(msg, 200) + ")"
		}
	}
	return ""
}

// cpythonOperator reports whether CPython defines binary operator op for
// operands of the built-in types a and b.
func cpythonOperator(op, a, b string) bool {
	num := func(t string) bool { return t == "int" || t == "float" || t == "bool" }
	integer := func(t string) bool { return t == "int" || t == "bool" }
	seq := func(t string) bool { return t == "tuple" || t == "list" || t == "str" || t == "bytes" }
	set := func(t string) bool { return t == "set" || t == "frozenset" }
	switch op {
	case "<", "<=", ">", ">=":
		return (num(a) && num(b)) || (a == b && seq(a)) || (set(a) && set(b))
	case "+":
		return (num(a) && num(b)) || (a == b && seq(a))
	case "*":
		return (num(a) && num(b)) || (seq(a) && integer(b)) || (integer(a) && seq(b))
	case "-":
		return (num(a) && num(b)) || (set(a) && set(b))
	case "/", "//", "**":
		return num(a) && num(b)
	case "%":
		return (num(a) && num(b)) || a == "str" || a == "bytes"
	case "|", "&", "^":
		return (integer(a) && integer(b)) || (set(a) && set(b))
	case "<<", ">>":
		return integer(a) && integer(b)
	}
	return false
}

// caseLine returns N of a detail ending in "(line N)", or 0.
func caseLine(detail string) int {
	i := strings.LastIndex(detail, "(line ")
	if i < 0 || !strings.HasSuffix(detail, ")") {
		return 0
	}
	n, err := strconv.Atoi(detail[i+6 : len(detail)-1])
	if err != nil {
		return 0
	}
	return n
}

// operatorDunders are the methods CPython calls for a binary operator.
var operatorDunders = map[string][]string{
	"<": {"__lt__", "__gt__"}, "<=": {"__le__", "__ge__"}, ">": {"__gt__", "__lt__"}, ">=": {"__ge__", "__le__"},
	"+": {"__add__", "__radd__"}, "-": {"__sub__", "__rsub__", "__neg__"}, "*": {"__mul__", "__rmul__"},
	"/": {"__truediv__", "__rtruediv__"}, "//": {"__floordiv__", "__rfloordiv__"}, "%": {"__mod__", "__rmod__"},
	"**": {"__pow__", "__rpow__"}, "&": {"__and__", "__rand__"}, "|": {"__or__", "__ror__"},
	"^": {"__xor__", "__rxor__"}, "<<": {"__lshift__", "__rlshift__"}, ">>": {"__rshift__", "__rrshift__"},
}

// definesMethod reports whether code (or code nested in it) defines a
// function named name.
func definesMethod(code *py.Code, name string) bool {
	if code == nil {
		return false
	}
	if code.Name == name {
		return true
	}
	for _, c := range code.Consts {
		if sub, ok := c.(*py.Code); ok && definesMethod(sub, name) {
			return true
		}
	}
	return false
}

// silentDunders are methods gpython never calls where CPython does, with
// no error: equality falls back to identity, truth to True.
var silentDunders = []string{"__eq__", "__ne__", "__bool__", "__len__", "__hash__"}

// silentDunder returns a method of silentDunders that code defines, or "".
func silentDunder(code *py.Code) string {
	for _, d := range silentDunders {
		if definesMethod(code, d) {
			return d
		}
	}
	return ""
}

// wordSet is a set of names, split from its list on first use: most
// processes of the tool never ask (a worker does when a case fails).
type wordSet struct {
	once sync.Once
	list string
	m    map[string]bool
}

func words(list string) *wordSet { return &wordSet{list: list} }

// has reports whether name is in the set; a nil set has nothing.
func (w *wordSet) has(name string) bool {
	if w == nil {
		return false
	}
	w.once.Do(func() {
		w.m = map[string]bool{}
		for _, n := range strings.Fields(w.list) {
			w.m[n] = true
		}
	})
	return w.m[name]
}
