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
