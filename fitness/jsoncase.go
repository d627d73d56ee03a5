// One case object of a JSON suite: its keys checked and read, EiplGrader's
// parameter types, and the checks of a case once it is read.

package fitness

import (
	"encoding/json"
	"fmt"
	"strings"
)

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
	if c.Inplace > 0 {
		var nargs []json.RawMessage
		if json.Unmarshal(c.Args, &nargs); len(nargs) == 0 {
			return c, has["inplace"].errorf(`in-place mode %d checks the first argument: give "parameters"`, c.Inplace)
		}
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
