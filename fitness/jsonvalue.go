// JSON values with where they sit in a suite file (loc), for messages
// that name the file, the line and the key.

package fitness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
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
	return loc{l.file, l.line, l.path + "[" + strconv.Itoa(i) + "]"}
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
	if fs, ok := scanFields(raw); ok {
		var seen map[string]bool // a case's few keys are compared in place
		if len(fs) > 16 {
			seen = make(map[string]bool, len(fs))
		}
		for i, f := range fs {
			dup := seen[f.key]
			for j := 0; seen == nil && j < i && !dup; j++ {
				dup = fs[j].key == f.key
			}
			if dup {
				return nil, l.key(f.key).errorf("duplicate key")
			}
			if seen != nil {
				seen[f.key] = true
			}
		}
		return fs, nil
	}
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
	if end, plain := scanString(raw, 0); plain && end == len(raw) {
		return string(raw[1 : end-1]), nil
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

// shortJSON is a JSON value for a message, shortened.
func shortJSON(raw json.RawMessage) string {
	return shorten(string(compact(raw)), ReprMax)
}
