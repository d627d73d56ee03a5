// JSON suites: a suite object, a bare array of cases or a stream of case
// objects, and the names of their cases.

package fitness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	if fs, ok := scanFields(obj); ok {
		for _, f := range fs {
			if f.key == key {
				return true
			}
		}
		return false
	}
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
	elems, ok := scanElems(raw)
	if !ok {
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, l.errorf("%v", err)
		}
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
