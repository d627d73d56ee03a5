package fitness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// Keys of a suite object and of a case object, in the order the package
// documentation lists them.
var (
	suiteKeys = []string{"target", "function", "function_name", "timeout", "memory_mb", "tolerance", "tests"}
	caseKeys  = []string{"name", "function", "function_name", "args", "kwargs", "parameters",
		"expected", "expected_args", "raises", "stdin", "stdout", "weight", "timeout", "tolerance",
		"inplace", "parameter_types", "expected_type"}
)

// loc is where a JSON value sits in a suite file, as messages name it:
// "tests.json: tests[3].args" for a suite or an array, "tests.jsonl:7: args"
// for a case of a stream of objects (line > 0).
type loc struct {
	file string
	line int
	path string
}

func (l loc) key(k string) loc {
	if !plainKey(k) {
		return loc{l.file, l.line, fmt.Sprintf("%s[%q]", l.path, k)}
	}
	if l.path != "" {
		k = l.path + "." + k
	}
	return loc{l.file, l.line, k}
}

// plainKey reports whether a key can be shown bare in a JSON path.
func plainKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for _, c := range []byte(k) {
		if !(c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func (l loc) index(i int) loc {
	return loc{l.file, l.line, fmt.Sprintf("%s[%d]", l.path, i)}
}

func (l loc) String() string {
	head := l.file
	if l.line > 0 {
		head = fmt.Sprintf("%s:%d", l.file, l.line)
	}
	if l.path == "" {
		return head
	}
	return head + ": " + l.path
}

func (l loc) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s", l, fmt.Sprintf(format, args...))
}

// field is one key of a JSON object with its raw value.
type field struct {
	key string
	val json.RawMessage
}

// objectFields splits a syntactically valid JSON object into its fields in
// file order. A key given twice is an error.
func objectFields(l loc, raw json.RawMessage) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, l.errorf("%v", err)
	}
	var fs []field
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, l.errorf("%v", err)
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, l.key(k).errorf("%v", err)
		}
		if seen[k] {
			return nil, l.key(k).errorf("duplicate key")
		}
		seen[k] = true
		fs = append(fs, field{k, v})
	}
	return fs, nil
}

// jsonType names the JSON type of a valid raw value.
func jsonType(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func wantType(l loc, raw json.RawMessage, want string) error {
	if got := jsonType(raw); got != want {
		article := "a"
		if want == "array" || want == "object" {
			article = "an"
		}
		return l.errorf("must be %s %s, got %s", article, want, got)
	}
	return nil
}

func jsonString(l loc, raw json.RawMessage) (string, error) {
	if err := wantType(l, raw, "string"); err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", l.errorf("%v", err)
	}
	return s, nil
}

// jsonNumber decodes a finite number; positive asks for > 0, otherwise >= 0.
func jsonNumber(l loc, raw json.RawMessage, positive bool) (float64, error) {
	if err := wantType(l, raw, "number"); err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, l.errorf("number out of range: %s", raw)
	}
	if positive && f <= 0 {
		return 0, l.errorf("must be > 0, got %s", raw)
	}
	if f < 0 {
		return 0, l.errorf("must be >= 0, got %s", raw)
	}
	return f, nil
}

// jsonTimeout decodes a timeout: > 0 and at most MaxTimeout.
func jsonTimeout(l loc, raw json.RawMessage) (float64, error) {
	t, err := jsonNumber(l, raw, true)
	if err == nil && t > MaxTimeout {
		return 0, l.errorf("must be at most %d seconds (a day), got %s", MaxTimeout, raw)
	}
	return t, err
}

func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		panic("fitness: compacting valid JSON: " + err.Error())
	}
	return json.RawMessage(b.Bytes())
}

// unknownKey reports a key that is not in valid, with a close spelling or
// the level the key belongs to.
func unknownKey(l loc, k string, valid, other []string, otherWhere string) error {
	if s := suggest(k, valid); s != "" {
		return l.errorf("unknown key (did you mean %q?)", s)
	}
	for _, o := range other {
		if o == k {
			return l.errorf("unknown key (%q %s)", k, otherWhere)
		}
	}
	return l.errorf("unknown key (valid keys: %s)", strings.Join(valid, ", "))
}

// suiteDefaults are what a case inherits from its suite.
type suiteDefaults struct {
	function  string
	timeout   float64
	tolerance float64
	stream    bool // a case of a stream or a bare array: no suite keys exist
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && isJSONSpace(data[i]) {
		i++
	}
	return i
}

// checkSyntax reports the first JSON syntax error of one value at
// data[start:], with an absolute line and column.
func checkSyntax(path string, data []byte, start int) error {
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	var v json.RawMessage
	err := dec.Decode(&v)
	if err == nil { // cannot happen: the caller's decoding of the same bytes failed
		return fmt.Errorf("%s: invalid JSON", path)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		shifted := *se
		shifted.Offset += int64(start)
		return syntaxError(path, data, &shifted)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return syntaxError(path, data, errUnexpectedEOF)
	}
	return syntaxError(path, data, err)
}

// parseJSON reads a JSON suite object, a bare array of cases, or a stream
// of case objects.
func parseJSON(path string, data []byte) (*Suite, error) {
	start := skipJSONSpace(data, 0)
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, checkSyntax(path, data, start)
	}
	end := skipJSONSpace(data, int(dec.InputOffset()))
	typ := jsonType(v)
	if end < len(data) {
		// More after the first value: a stream of case objects, unless
		// the first value is a suite or an array.
		if typ != "object" || hasKey(v, "tests") {
			var all json.RawMessage
			return nil, syntaxError(path, data, json.Unmarshal(data, &all))
		}
		return parseStream(path, data)
	}
	switch typ {
	case "object":
		if !hasKey(v, "tests") && hasCaseOnlyKey(v) {
			return parseStream(path, data)
		}
		return parseSuite(path, v)
	case "array":
		return parseArray(path, v)
	}
	return nil, fmt.Errorf("%s: must be a suite object or an array of cases, got %s", path, typ)
}

func hasKey(obj json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// hasCaseOnlyKey reports whether a lone object looks like one case rather
// than a suite that forgot its "tests".
func hasCaseOnlyKey(obj json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil {
		return false
	}
	for k := range m {
		switch k {
		case "args", "kwargs", "parameters", "expected", "expected_args", "raises", "stdin", "stdout", "name", "weight":
			return true
		}
	}
	return false
}

func parseSuite(path string, raw json.RawMessage) (*Suite, error) {
	top := loc{file: path}
	fs, err := objectFields(top, raw)
	if err != nil {
		return nil, err
	}
	s := &Suite{Path: path, MemoryMB: DefaultMemoryMB}
	d := suiteDefaults{timeout: DefaultTimeout, tolerance: DefaultTolerance}
	var tests json.RawMessage
	var fnKey string
	for _, f := range fs {
		l := top.key(f.key)
		switch f.key {
		case "target":
			t, err := jsonString(l, f.val)
			if err != nil {
				return nil, err
			}
			if t == "" {
				return nil, l.errorf("must not be empty")
			}
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(path), t)
			}
			s.Target = t
		case "function", "function_name":
			if fnKey != "" {
				return nil, l.errorf("cannot be combined with %q (they are aliases)", fnKey)
			}
			fnKey = f.key
			fn, err := jsonString(l, f.val)
			if err != nil {
				return nil, err
			}
			if !isDottedName(fn) {
				return nil, l.errorf("%q is not a Python name", fn)
			}
			d.function = fn
		case "timeout":
			if d.timeout, err = jsonTimeout(l, f.val); err != nil {
				return nil, err
			}
		case "tolerance":
			if d.tolerance, err = jsonNumber(l, f.val, false); err != nil {
				return nil, err
			}
		case "memory_mb":
			if err := wantType(l, f.val, "number"); err != nil {
				return nil, err
			}
			n, err := strconv.ParseInt(string(f.val), 10, 32)
			if err != nil || n <= 0 {
				return nil, l.errorf("must be a whole number of megabytes > 0, got %s", f.val)
			}
			s.MemoryMB = int(n)
		case "tests":
			if err := wantType(l, f.val, "array"); err != nil {
				return nil, err
			}
			tests = f.val
		default:
			return nil, unknownKey(l, f.key, suiteKeys, caseKeys, `belongs in a case under "tests"`)
		}
	}
	if tests == nil {
		return nil, fmt.Errorf(`%s: no "tests": a suite object lists its cases under "tests"`, path)
	}
	s.Function = d.function
	cases, err := parseCases(top.key("tests"), tests, d)
	if err != nil {
		return nil, err
	}
	s.Cases = cases
	return s, nil
}

func parseArray(path string, raw json.RawMessage) (*Suite, error) {
	cases, err := parseCases(loc{file: path}, raw, suiteDefaults{timeout: DefaultTimeout, tolerance: DefaultTolerance, stream: true})
	if err != nil {
		return nil, err
	}
	return &Suite{Path: path, MemoryMB: DefaultMemoryMB, Cases: cases}, nil
}

// parseCases reads the array of cases at l.
func parseCases(l loc, raw json.RawMessage, d suiteDefaults) ([]Case, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, l.errorf("%v", err)
	}
	if len(elems) == 0 {
		return nil, l.errorf("empty suite: no cases")
	}
	cases := make([]Case, 0, len(elems))
	generated := make([]bool, len(elems))
	names := nameSet{}
	for i, e := range elems {
		cl := l.index(i)
		c, err := parseCase(cl, e, d)
		if err != nil {
			return nil, err
		}
		if c.Name == "" {
			c.Name = cl.path
			generated[i] = true
		} else if err := names.add(cl.key("name"), c.Name); err != nil {
			return nil, err
		}
		c.Path = cl.path
		cases = append(cases, c)
	}
	return cases, names.checkGenerated(cases, generated)
}

// parseStream reads a stream of case objects: JSON lines, or concatenated
// (possibly pretty-printed) objects. Each case is located by the line it
// starts on.
func parseStream(path string, data []byte) (*Suite, error) {
	d := suiteDefaults{timeout: DefaultTimeout, tolerance: DefaultTolerance, stream: true}
	var cases []Case
	var generated []bool
	names := nameSet{}
	line, counted := 1, 0 // the line of data[counted]
	for i := skipJSONSpace(data, 0); i < len(data); {
		line += bytes.Count(data[counted:i], []byte("\n"))
		counted = i
		l := loc{file: path, line: line}
		if len(cases) > 0 && cases[len(cases)-1].Line == line {
			return nil, l.errorf("a second case starts on this line: one case per line")
		}
		dec := json.NewDecoder(bytes.NewReader(data[i:]))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, checkSyntax(path, data, i)
		}
		c, err := parseCase(l, v, d)
		if err != nil {
			return nil, err
		}
		c.Line = line
		gen := c.Name == ""
		if gen {
			c.Name = fmt.Sprintf("line %d", line)
		} else if err := names.add(l.key("name"), c.Name); err != nil {
			return nil, err
		}
		cases = append(cases, c)
		generated = append(generated, gen)
		i = skipJSONSpace(data, i+int(dec.InputOffset()))
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: empty suite: no cases", path)
	}
	if err := names.checkGenerated(cases, generated); err != nil {
		return nil, err
	}
	return &Suite{Path: path, MemoryMB: DefaultMemoryMB, Cases: cases}, nil
}

// nameSet finds duplicate case names. Generated names ("tests[3]",
// "line 7") are unique among themselves; an explicit name may not repeat
// another explicit name nor take a generated one.
type nameSet map[string]loc

func (n nameSet) add(l loc, name string) error {
	if prev, ok := n[name]; ok {
		where := strings.TrimSuffix(prev.path, ".name")
		if prev.line > 0 {
			where = fmt.Sprintf("line %d", prev.line)
		}
		return l.errorf("duplicate name %q (also %s)", name, where)
	}
	n[name] = l
	return nil
}

func (n nameSet) checkGenerated(cases []Case, generated []bool) error {
	for i, c := range cases {
		if l, ok := n[c.Name]; ok && generated[i] {
			return l.errorf("duplicate name %q (the generated name of another case)", c.Name)
		}
	}
	return nil
}

// parseCase reads one case object at l and applies the defaults d.
func parseCase(l loc, raw json.RawMessage, d suiteDefaults) (Case, error) {
	c := Case{Weight: DefaultWeight, Timeout: d.timeout, Tolerance: d.tolerance}
	if err := wantType(l, raw, "object"); err != nil {
		if l.line > 0 {
			return c, l.errorf("must be a case object, got %s", jsonType(raw))
		}
		return c, err
	}
	fs, err := objectFields(l, raw)
	if err != nil {
		return c, err
	}
	if len(fs) == 0 {
		return c, l.errorf(`empty case: give "args" and "expected" (a call) or "stdin" and "stdout" (a program run)`)
	}
	has := make(map[string]loc, len(fs))
	var fnKey string
	var params []field // EiplGrader's "parameters", in order
	var paramTypes []field
	var expectedType json.RawMessage
	for _, f := range fs {
		fl := l.key(f.key)
		has[f.key] = fl
		switch f.key {
		case "name":
			if c.Name, err = jsonString(fl, f.val); err != nil {
				return c, err
			}
			if strings.TrimSpace(c.Name) == "" {
				return c, fl.errorf("must not be empty")
			}
		case "function", "function_name":
			if fnKey != "" {
				return c, fl.errorf("cannot be combined with %q (they are aliases)", fnKey)
			}
			fnKey = f.key
			if c.Function, err = jsonString(fl, f.val); err != nil {
				return c, err
			}
			if !isDottedName(c.Function) {
				return c, fl.errorf("%q is not a Python name", c.Function)
			}
		case "args":
			if err := wantType(fl, f.val, "array"); err != nil {
				return c, err
			}
			c.Args = compact(f.val)
		case "kwargs":
			if err := wantType(fl, f.val, "object"); err != nil {
				return c, err
			}
			if _, err := objectFields(fl, f.val); err != nil {
				return c, err
			}
			c.Kwargs = compact(f.val)
		case "parameters":
			// EiplGrader's form: the values are passed positionally, in
			// the order of the keys (its python_executor calls f(*values)).
			if err := wantType(fl, f.val, "object"); err != nil {
				return c, err
			}
			if params, err = objectFields(fl, f.val); err != nil {
				return c, err
			}
			vals := make([]json.RawMessage, len(params))
			for i, p := range params {
				vals[i] = p.val
			}
			data, _ := json.Marshal(vals)
			c.Args = compact(data)
		case "inplace":
			switch strings.TrimSpace(string(f.val)) {
			case `"0"`, "0":
				c.Inplace = 0
			case `"1"`, "1":
				c.Inplace = 1
			case `"2"`, "2":
				c.Inplace = 2
			default:
				return c, fl.errorf(`must be "0", "1" or "2" (EiplGrader's in-place modes), got %s`, shortJSON(f.val))
			}
		case "parameter_types":
			if err := wantType(fl, f.val, "object"); err != nil {
				return c, err
			}
			if paramTypes, err = objectFields(fl, f.val); err != nil {
				return c, err
			}
		case "expected_type":
			expectedType = f.val
		case "expected":
			c.Expected = compact(f.val)
		case "expected_args":
			if err := wantType(fl, f.val, "array"); err != nil {
				return c, err
			}
			c.ExpectedArgs = compact(f.val)
		case "raises":
			if c.Raises, err = jsonString(fl, f.val); err != nil {
				return c, err
			}
			if !isDottedName(c.Raises) {
				return c, fl.errorf("%q is not an exception class name", c.Raises)
			}
		case "stdin", "stdout":
			s, err := jsonString(fl, f.val)
			if err != nil {
				return c, err
			}
			if f.key == "stdin" {
				c.Stdin = &s
			} else {
				c.Stdout = &s
			}
		case "weight":
			if c.Weight, err = jsonNumber(fl, f.val, true); err != nil {
				return c, err
			}
		case "timeout":
			if c.Timeout, err = jsonTimeout(fl, f.val); err != nil {
				return c, err
			}
		case "tolerance":
			if c.Tolerance, err = jsonNumber(fl, f.val, false); err != nil {
				return c, err
			}
		default:
			if d.stream {
				return c, unknownKey(fl, f.key, caseKeys, suiteKeys, "needs a suite object with the cases under \"tests\"")
			}
			return c, unknownKey(fl, f.key, caseKeys, suiteKeys, "is a suite key, not a case key")
		}
	}
	if err := eiplTypes(l, &c, has, params, paramTypes, expectedType); err != nil {
		return c, err
	}
	if _, ok := has["parameters"]; ok {
		for _, k := range []string{"args", "kwargs"} {
			if kl, ok := has[k]; ok {
				return c, kl.errorf(`cannot be combined with "parameters" (EiplGrader's arguments, passed in their order)`)
			}
		}
		if c.Function == "" && d.function == "" {
			c.Function = "foo" // EiplGrader's default function_name
		}
	}
	var nargs []json.RawMessage
	_ = json.Unmarshal(c.Args, &nargs)
	if c.Inplace > 0 && len(nargs) == 0 {
		return c, has["inplace"].errorf(`in-place mode %d checks the first argument: give "parameters"`, c.Inplace)
	}
	return c, finishCase(l, &c, has, d)
}

// eiplTypes checks EiplGrader's parameter_types and expected_type: each a
// known type name, each parameter and the expected value of its type.
func eiplTypes(l loc, c *Case, has map[string]loc, params, paramTypes []field, expectedType json.RawMessage) error {
	names := make(map[string]json.RawMessage, len(params))
	for _, p := range params {
		names[p.key] = p.val
	}
	for _, pt := range paramTypes {
		fl := has["parameter_types"].key(pt.key)
		typ, err := jsonString(fl, pt.val)
		if err != nil {
			return err
		}
		v, ok := names[pt.key]
		if !ok {
			return fl.errorf(`names no parameter of "parameters"`)
		}
		if err := checkEiplType(fl, typ, v); err != nil {
			return err
		}
	}
	if expectedType != nil {
		fl := has["expected_type"]
		typ, err := jsonString(fl, expectedType)
		if err != nil {
			return err
		}
		if c.Expected == nil {
			return fl.errorf(`needs "expected"`)
		}
		if err := checkEiplType(fl, typ, c.Expected); err != nil {
			return err
		}
		c.ExpectedType = typ
	}
	return nil
}

// checkEiplType checks that the JSON value v has EiplGrader's type typ.
func checkEiplType(l loc, typ string, v json.RawMessage) error {
	kind, elem, ok := eiplType(typ)
	if !ok {
		return l.errorf("unknown type %q (want int, double, string, bool, or List[...] of them)", typ)
	}
	if !jsonHasType(kind, elem, v) {
		return l.errorf("%s is not of type %s", shortJSON(v), typ)
	}
	return nil
}

// eiplType parses an EiplGrader type name: a scalar kind, or "list" with
// its element kind ("" for any).
func eiplType(typ string) (kind, elem string, ok bool) {
	t := strings.TrimSpace(typ)
	scalar := map[string]string{
		"int": "int", "integer": "int", "double": "float", "float": "float",
		"string": "str", "str": "str", "bool": "bool", "boolean": "bool",
	}
	if k, ok := scalar[strings.ToLower(t)]; ok {
		return k, "", true
	}
	lower := strings.ToLower(t)
	if lower == "list" {
		return "list", "", true
	}
	if strings.HasPrefix(lower, "list[") && strings.HasSuffix(lower, "]") {
		if e, ok := scalar[strings.TrimSpace(lower[5:len(lower)-1])]; ok {
			return "list", e, true
		}
	}
	return "", "", false
}

// jsonHasType reports whether the JSON value raw is of the kind.
func jsonHasType(kind, elem string, raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return false
	}
	switch kind {
	case "bool":
		return s == "true" || s == "false"
	case "str":
		return s[0] == '"'
	case "int":
		return (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && !strings.ContainsAny(s, ".eE")
	case "float":
		return s[0] == '-' || s[0] >= '0' && s[0] <= '9'
	case "list":
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return false
		}
		for _, it := range items {
			if elem != "" && !jsonHasType(elem, "", it) {
				return false
			}
		}
		return true
	}
	return false
}

// finishCase checks that the keys of a case fit together and sets its kind
// and callee.
func finishCase(l loc, c *Case, has map[string]loc, d suiteDefaults) error {
	if c.Stdin != nil || c.Stdout != nil {
		c.Kind = IO
		io := "stdout"
		if _, ok := has["stdout"]; !ok {
			io = "stdin"
		}
		for _, k := range []string{"function", "function_name", "args", "kwargs", "parameters", "expected", "expected_args", "raises"} {
			if kl, ok := has[k]; ok {
				return kl.errorf("cannot be combined with %q: an I/O case runs the program as __main__", io)
			}
		}
		if c.Stdout == nil {
			return l.errorf(`nothing to check: an I/O case needs "stdout"`)
		}
		if c.Stdin == nil {
			empty := ""
			c.Stdin = &empty
		}
		return nil
	}
	c.Kind = Call
	if c.Expected == nil && c.ExpectedArgs == nil && c.Raises == "" {
		if c.Args == nil && c.Kwargs == nil && c.Function == "" {
			return l.errorf(`nothing to run and nothing to check: give "args" and "expected", or "stdin" and "stdout"`)
		}
		return l.errorf(`nothing to check: give "expected", "expected_args" or "raises"`)
	}
	if c.Raises != "" {
		for _, k := range []string{"expected", "expected_args"} {
			if _, ok := has[k]; ok {
				return has["raises"].errorf("cannot be combined with %q: a call that raises returns nothing", k)
			}
		}
	}
	if c.ExpectedArgs != nil {
		var want, got []json.RawMessage
		_ = json.Unmarshal(c.ExpectedArgs, &want)
		if c.Args != nil {
			_ = json.Unmarshal(c.Args, &got)
		}
		if len(want) != len(got) {
			return has["expected_args"].errorf(`has %s, "args" has %d`, plural(len(want), "value"), len(got))
		}
	}
	if c.Function == "" {
		c.Function = d.function
	}
	if c.Function == "" {
		if d.stream {
			return l.errorf(`no function: set "function" in the case`)
		}
		return l.errorf(`no function: set "function" in the suite or the case`)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// shortJSON is a JSON value for a message, shortened.
func shortJSON(raw json.RawMessage) string {
	return shorten(string(compact(raw)), ReprMax)
}
