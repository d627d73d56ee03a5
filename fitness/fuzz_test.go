package fitness

import (
	"encoding/json"
	"strings"
	"testing"

	"repair/internal/inputerr"
)

// fuzzNames are the file names FuzzParse feeds: the name picks the format.
var fuzzNames = []string{"tests.json", "tests.jsonl", "test_fuzz.py"}

// FuzzParse: parsing arbitrary bytes never panics; every error is a
// one-line inputerr naming the file; every suite is complete.
// The seed corpus is testdata/fuzz/FuzzParse (go test -fuzz=FuzzParse).
func FuzzParse(f *testing.F) {
	f.Add(uint8(0), []byte(`{"function": "f", "tests": [{"args": [1], "expected": 1}]}`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := fuzzNames[int(which)%len(fuzzNames)]
		s, err := Parse(name, data)
		if err != nil {
			if !inputerr.Is(err) {
				t.Fatalf("error is not an inputerr: %v", err)
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, name) {
				t.Fatalf("error is not one line naming %s: %q", name, msg)
			}
			return
		}
		if len(s.Cases) == 0 && len(s.TestSource) == 0 {
			t.Fatal("a suite without cases")
		}
		names := make(map[string]bool)
		for i, c := range s.Cases {
			where := s.Where(i)
			if c.Name == "" || names[c.Name] {
				t.Fatalf("%s: empty or duplicate name %q", where, c.Name)
			}
			names[c.Name] = true
			if !(c.Weight > 0) || !(c.Timeout > 0) || !(c.Tolerance >= 0) {
				t.Fatalf("%s: weight %v, timeout %v, tolerance %v", where, c.Weight, c.Timeout, c.Tolerance)
			}
			switch c.Kind {
			case Call, Test:
				if !isDottedName(c.Function) {
					t.Fatalf("%s: function %q", where, c.Function)
				}
			case IO:
				if c.Stdin == nil || c.Stdout == nil || c.Function != "" || c.Args != nil {
					t.Fatalf("%s: incomplete I/O case %+v", where, c)
				}
			default:
				t.Fatalf("%s: kind %v", where, c.Kind)
			}
			for _, raw := range []json.RawMessage{c.Args, c.Kwargs, c.Expected, c.ExpectedArgs} {
				if raw != nil && !json.Valid(raw) {
					t.Fatalf("%s: invalid JSON value %q", where, raw)
				}
			}
			if _, err := json.Marshal(c); err != nil {
				t.Fatalf("%s: case does not marshal: %v", where, err)
			}
		}
	})
}

// FuzzScan: on valid JSON, scanFields and scanElems split an object or an
// array exactly as encoding/json does (keys unescaped, values byte for
// byte), and refuse every other value.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a": 1, "b": [1, {"c": "]}"}], "d\"e": "\\"}`, ` [ 1 , "x" , [ ] , { } , null ] `,
		`{}`, `[]`, `{"k": -1.5e3, "t": true, "n": null}`, `"s"`, `12`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		fs, okF := scanFields(data)
		var obj []field
		if dec := json.NewDecoder(strings.NewReader(string(data))); jsonType(data) == "object" {
			dec.Token()
			for dec.More() {
				k, _ := dec.Token()
				var v json.RawMessage
				dec.Decode(&v)
				obj = append(obj, field{k.(string), v})
			}
			if !okF || len(fs) != len(obj) {
				t.Fatalf("scanFields(%q) = %q, %v; want %q", data, fs, okF, obj)
			}
			for i := range obj {
				if fs[i].key != obj[i].key || string(fs[i].val) != string(obj[i].val) {
					t.Fatalf("scanFields(%q)[%d] = %q; want %q", data, i, fs[i], obj[i])
				}
			}
		} else if okF {
			t.Fatalf("scanFields(%q) accepted a %s", data, jsonType(data))
		}
		elems, okE := scanElems(data)
		var arr []json.RawMessage
		if jsonType(data) == "array" {
			json.Unmarshal(data, &arr)
			if !okE || len(elems) != len(arr) {
				t.Fatalf("scanElems(%q) = %q, %v; want %q", data, elems, okE, arr)
			}
			for i := range arr {
				if string(elems[i]) != string(arr[i]) {
					t.Fatalf("scanElems(%q)[%d] = %q; want %q", data, i, elems[i], arr[i])
				}
			}
		} else if okE {
			t.Fatalf("scanElems(%q) accepted a %s", data, jsonType(data))
		}
	})
}
