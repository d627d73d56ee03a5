package cpython

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// vector is one entry of fitness/testdata/equal.json or stdout.json: the
// comparison rules shared with the Go twin (fitness.Equal).
type vector struct {
	Expected  json.RawMessage `json:"expected"`
	Actual    json.RawMessage `json:"actual"`
	Tolerance float64         `json:"tolerance"`
	Equal     bool            `json:"equal"`
	Why       string          `json:"why"`
}

func readVectors(t *testing.T, name string) []vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "fitness", "testdata", name))
	if err != nil {
		t.Skipf("shared vectors: %v", err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// checkEqual runs one case per row and wants PASSED where equal, else
// WRONG_ANSWER.
func checkEqual(t *testing.T, src string, cases []fitness.Case, equal []bool, why []string) {
	t.Helper()
	out := runOne(t, src, cases, sandbox.RunOptions{}, config{})
	for i, r := range out.Results {
		want := fitness.WrongAnswer
		if equal[i] {
			want = fitness.Passed
		}
		if r.Verdict != want {
			t.Errorf("%s: %v (%s); want %v", why[i], r.Verdict, r.Detail, want)
		}
	}
}

// TestEqualVectors: a returned value compares like fitness.Equal.
func TestEqualVectors(t *testing.T) {
	python(t)
	vs := readVectors(t, "equal.json")
	var actuals []json.RawMessage
	var cases []fitness.Case
	var equal []bool
	var why []string
	for i, v := range vs {
		actuals = append(actuals, v.Actual)
		c := call("f", fmt.Sprintf("[%d]", i), string(v.Expected))
		c.Tolerance = v.Tolerance
		cases = append(cases, c)
		equal = append(equal, v.Equal)
		why = append(why, v.Why)
	}
	all, err := json.Marshal(actuals)
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("import json\nA = json.loads(%s)\ndef f(i):\n    return A[i]\n", strconv.Quote(string(all)))
	checkEqual(t, src, cases, equal, why)
}

// TestStdoutVectors: standard output compares like fitness.EqualStdout.
func TestStdoutVectors(t *testing.T) {
	python(t)
	vs := readVectors(t, "stdout.json")
	var outs []string
	var cases []fitness.Case
	var equal []bool
	var why []string
	for i, v := range vs {
		var e, a string
		if err := json.Unmarshal(v.Expected, &e); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(v.Actual, &a); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, a)
		c := ioCase(strconv.Itoa(i), e)
		c.Tolerance = v.Tolerance
		cases = append(cases, c)
		equal = append(equal, v.Equal)
		why = append(why, v.Why)
	}
	all, err := json.Marshal(outs)
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("import json, sys\nOUT = json.loads(%s)\nsys.stdout.write(OUT[int(input())])\n", strconv.Quote(string(all)))
	checkEqual(t, src, cases, equal, why)
}

// TestPythonValues: the rules for Python values that JSON does not have.
func TestPythonValues(t *testing.T) {
	python(t)
	long := make([]int, 10000)
	for i := range long {
		long[i] = i
	}
	longJSON, _ := json.Marshal(long)
	tests := []struct {
		expr     string
		expected string
		tol      float64
		equal    bool
	}{
		{"(1, 2)", "[1, 2]", 0, true},
		{"[1, (2, 3)]", "[1, [2, 3]]", 0, true},
		{"(1, 2)", "[1, 2, 3]", 0, false},
		{"Point(1, 2)", "[1, 2]", 0, true},
		{"{3, 1, 2}", "[1, 2, 3]", 0, true},
		{"{'b', 'a'}", `["a", "b"]`, 0, true},
		{"{3, 1, 2}", "[1, 2, 2, 3]", 0, false},
		{"{1, 2}", "[1, 3]", 0, false},
		{"frozenset({(1, 2), (3, 4)})", "[[3, 4], [1, 2]]", 0, true},
		{"{1.0000000001, 2}", "[2, 1]", 1e-9, true},
		{"{True}", "[1]", 0, false},
		{"(i * i for i in range(4))", "[0, 1, 4, 9]", 0, true},
		{"iter([1, 2])", "[1, 2]", 0, true},
		{"range(3)", "[0, 1, 2]", 0, true},
		{"range(10000)", string(longJSON), 0, true},
		{"iter(range(10001))", "[]", 0, false},
		{"map(str, [1, 2])", `["1", "2"]`, 0, true},
		{"filter(None, [0, 1, 2])", "[1, 2]", 0, true},
		{"zip([1, 2], 'ab')", `[[1, "a"], [2, "b"]]`, 0, true},
		{"enumerate('ab')", `[[0, "a"], [1, "b"]]`, 0, true},
		{"reversed([1, 2])", "[2, 1]", 0, true},
		{"{'a': 1}.keys()", `["a"]`, 0, true},
		{"{'a': 1}.values()", "[1]", 0, true},
		{"{'a': 1}.items()", `[["a", 1]]`, 0, true},
		{"{1: 'a'}", `{"1": "a"}`, 0, true},
		{"{True: 1, False: 0, None: 2}", `{"true": 1, "false": 0, "null": 2}`, 0, true},
		{"{1.5: 1}", `{"1.5": 1}`, 0, true},
		{"{1: 'a', '1': 'b'}", `{"1": "a"}`, 0, false},
		{"{(1, 2): 1}", `{}`, 0, false},
		{"OrderedDict(b=1, a=2)", `{"a": 2, "b": 1}`, 0, true},
		{"Counter('aab')", `{"a": 2, "b": 1}`, 0, true},
		{"[(1, {2: [3]})]", `[[1, {"2": [3]}]]`, 0, true},
		{"float('inf')", "1e400", 0, true},
		{"float('nan')", "0", 1, false},
		{"2 ** 70", "1180591620717411303424", 0, true},
		{"Color.RED", "1", 0, true},
		{"Decimal('1')", "1", 0, false},
		{"1 + 2j", "1", 0, false},
		{"b'ab'", `"ab"`, 0, false},
		{"object()", "{}", 0, false},
		{"None", "null", 0, true},
		{"Flag()", "[1, 2]", 0, false},
	}
	var src strings.Builder
	src.WriteString("from collections import namedtuple, OrderedDict, Counter\nfrom decimal import Decimal\nimport enum\n")
	src.WriteString("Point = namedtuple('Point', 'x y')\nclass Color(enum.IntEnum):\n    RED = 1\nclass Flag:\n    def __iter__(self):\n        return iter([1, 2])\n")
	var cases []fitness.Case
	var equal []bool
	var why []string
	for i, tt := range tests {
		fmt.Fprintf(&src, "def f%d():\n    return %s\n", i, tt.expr)
		c := call(fmt.Sprintf("f%d", i), "", tt.expected)
		c.Tolerance = tt.tol
		cases = append(cases, c)
		equal = append(equal, tt.equal)
		why = append(why, tt.expr+" vs "+shorten(tt.expected))
	}
	checkEqual(t, src.String(), cases, equal, why)
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
