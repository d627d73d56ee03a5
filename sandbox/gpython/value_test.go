package gpython

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/go-python/gpython/py"

	"repair/fitness"
)

// vector is one of fitness/testdata's shared comparison vectors.
type vector struct {
	Expected  json.RawMessage `json:"expected"`
	Actual    json.RawMessage `json:"actual"`
	Tolerance float64         `json:"tolerance"`
	Equal     bool            `json:"equal"`
	Why       string          `json:"why"`
}

func loadVectors(t *testing.T, name string) []vector {
	t.Helper()
	data, err := os.ReadFile("../../fitness/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestEqualVectors: a value a gpython candidate returns compares as the
// shared vectors say (fitness.Equal, and the cpython engine): the worker
// encodes it (valueOf), the engine compares it (fitness.EqualValue).
func TestEqualVectors(t *testing.T) {
	for _, v := range loadVectors(t, "equal.json") {
		t.Run(v.Why, func(t *testing.T) {
			e, err := decodeJSON(v.Expected)
			if err != nil {
				t.Fatal(err)
			}
			a, err := decodeJSON(v.Actual)
			if err != nil {
				t.Fatal(err)
			}
			got, err := valueOf(toPy(a))
			if err != nil {
				t.Fatal(err)
			}
			if eq := fitness.EqualValue(e, got, v.Tolerance); eq != v.Equal {
				t.Errorf("EqualValue(%s, %s, %g) = %v, want %v", v.Expected, got.Repr(), v.Tolerance, eq, v.Equal)
			}
		})
	}
}

// TestEqualPython checks the rules for values JSON cannot hold: tuples,
// sets in any order, materialised iterators and ranges, objects (never
// equal), containers that hold themselves.
func TestEqualPython(t *testing.T) {
	list := func(items ...py.Object) py.Object { return py.NewListFromItems(items) }
	gen := py.NewIterator(py.Tuple{py.Int(1), py.Int(2)})
	self := py.NewListFromItems(nil)
	self.Items = append(self.Items, self)
	tests := []struct {
		name     string
		expected string
		actual   py.Object
		want     bool
		repr     string
	}{
		{"tuple is an array", "[1, 2]", py.Tuple{py.Int(1), py.Int(2)}, true, "(1, 2)"},
		{"nested tuple", "[[1, 2]]", list(py.Tuple{py.Int(1), py.Int(2)}), true, "[(1, 2)]"},
		{"set in any order", "[3, 1, 2]", py.NewSetFromItems([]py.Object{py.Int(1), py.Int(2), py.Int(3)}), true, ""},
		{"set of another size", "[1, 1]", py.NewSetFromItems([]py.Object{py.Int(1)}), false, "{1}"},
		{"iterator materialised", "[1, 2]", gen, true, "[1, 2]"},
		{"range materialised", "[0, 1, 2]", &py.Range{Start: 0, Stop: 3, Step: 1, Length: 3}, true, "[0, 1, 2]"},
		{"string is not an array", `["a"]`, py.String("a"), false, "'a'"},
		{"dict", `{"a": [1]}`, py.StringDict{"a": list(py.Int(1))}, true, "{'a': [1]}"},
		{"dict value differs", `{"a": 1}`, py.StringDict{"a": py.Int(2)}, false, "{'a': 2}"},
		{"bool is not int", "1", py.True, false, "True"},
		{"int is not bool", "true", py.Int(1), false, "1"},
		{"float within tolerance", "1.0", py.Float(1 + 1e-12), true, ""},
		{"nan never equal", "1.0", py.Float(math.NaN()), false, "nan"},
		{"function never equal", "1", py.MustNewMethod("f", func(py.Object) (py.Object, error) { return nil, nil }, 0, ""), false, ""},
		{"a list holding itself", "[[]]", self, false, "[[...]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := decodeJSON([]byte(tt.expected))
			if err != nil {
				t.Fatal(err)
			}
			v, err := valueOf(tt.actual)
			if err != nil {
				t.Fatal(err)
			}
			if got := fitness.EqualValue(e, v, 1e-9); got != tt.want {
				t.Errorf("EqualValue(%s, %s) = %v, want %v", tt.expected, v.Repr(), got, tt.want)
			}
			if tt.repr != "" && v.Repr() != tt.repr {
				t.Errorf("repr %s, want %s", v.Repr(), tt.repr)
			}
			// What the worker sends decodes to what it encoded.
			enc := fitness.AppendValue(nil, v)
			if d, rest, err := fitness.DecodeValue(enc); err != nil || len(rest) != 0 || d.Repr() != v.Repr() {
				t.Errorf("round trip: %v, %q, %s", err, rest, d.Repr())
			}
		})
	}
}

// TestRepr checks Python's repr of values in details.
func TestRepr(t *testing.T) {
	tests := []struct {
		v    py.Object
		want string
	}{
		{py.None, "None"},
		{py.True, "True"},
		{py.Int(-3), "-3"},
		{py.Float(1), "1.0"},
		{py.Float(0.1), "0.1"},
		{py.Float(1e16), "1e+16"},
		{py.Float(123456789012345678), "1.2345678901234568e+17"},
		{py.Float(1e15), "1000000000000000.0"},
		{py.Float(0.0001), "0.0001"},
		{py.Float(0.00001), "1e-05"},
		{py.Float(-2.5e-7), "-2.5e-07"},
		{py.Float(math.Inf(1)), "inf"},
		{py.Float(math.NaN()), "nan"},
		{py.String("a'b"), `"a'b"`},
		{py.String("a\"b'c\n"), `'a"b\'c\n'`},
		{py.String("é\x01"), `'é\x01'`},
		{py.Tuple{py.Int(1)}, "(1,)"},
		{py.NewListFromItems([]py.Object{py.String("x"), py.None}), "['x', None]"},
		{py.StringDict{"b": py.Int(2), "a": py.Int(1)}, "{'a': 1, 'b': 2}"},
		{py.NewSet(), "set()"},
	}
	for _, tt := range tests {
		if got := shortRepr(tt.v, reprMax); got != tt.want {
			t.Errorf("shortRepr(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
	// Containers that hold themselves (a mutant's result.append(result))
	// show [...] and {...} where they recur, as in CPython, instead of
	// overflowing the worker's stack; very deep nesting is cut.
	self := py.NewListFromItems(nil)
	self.Items = append(self.Items, self, py.Int(1))
	dict := py.StringDict{}
	dict["a"] = dict
	pair := py.NewListFromItems([]py.Object{dict, py.Tuple{self}})
	deep := py.Object(py.Int(1))
	for range 100000 {
		deep = py.NewListFromItems([]py.Object{deep})
	}
	for _, tt := range []struct {
		name string
		v    py.Object
		want string
	}{
		{"a list holding itself", self, "[[...], 1]"},
		{"a dict holding itself", dict, "{'a': {...}}"},
		{"both, in a list", pair, "[{'a': {...}}, ([[...], 1],)]"},
		{"100,000 nested lists", deep, strings.Repeat("[", reprMax-3) + "..."},
	} {
		if got := shortRepr(tt.v, reprMax); got != tt.want {
			t.Errorf("shortRepr(%s) = %s, want %s", tt.name, got, tt.want)
		}
	}
	if got := shortRepr(py.String(string(make([]byte, 300))), reprMax); len([]rune(got)) != reprMax {
		t.Errorf("a long string is not shortened to %d characters: %d", reprMax, len([]rune(got)))
	}
}

// BenchmarkRepr: the repr of a WRONG_ANSWER detail, made for every failing
// case of every candidate.
func BenchmarkRepr(b *testing.B) {
	l := py.NewListFromItems([]py.Object{py.NewListFromItems([]py.Object{py.Int(1), py.Int(3)}), py.NewListFromItems([]py.Object{py.Int(2), py.Int(4)})})
	b.ReportAllocs()
	for b.Loop() {
		shortRepr(l, reprMax)
	}
}
