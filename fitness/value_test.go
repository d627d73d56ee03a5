package fitness

import (
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func mustBig(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return b
}

func list(k ValueKind, items ...Value) Value { return Value{Kind: k, Items: items} }
func vint(i int64) Value                     { return Value{Kind: VInt, Int: i} }
func vstr(s string) Value                    { return Value{Kind: VStr, Str: s} }
func vfloat(f float64) Value                 { return Value{Kind: VFloat, Float: f} }
func dict(kv ...Value) Value {
	d := Value{Kind: VDict}
	for i := 0; i < len(kv); i += 2 {
		d.Items = append(d.Items, kv[i])
		d.Vals = append(d.Vals, kv[i+1])
	}
	return d
}

var (
	vnone = Value{Kind: VNone}
	vtrue = Value{Kind: VBool, Bool: true}
)

// Every value survives encoding and decoding, and renders as Python's
// repr would.
func TestValueRoundTrip(t *testing.T) {
	tests := []struct {
		v    Value
		repr string
	}{
		{vnone, "None"},
		{vtrue, "True"},
		{Value{Kind: VBool}, "False"},
		{vint(-7), "-7"},
		{vint(math.MinInt64), "-9223372036854775808"},
		{Value{Kind: VInt, Big: mustBig("123456789012345678901234567890")}, "123456789012345678901234567890"},
		{Value{Kind: VInt, Big: mustBig("-9223372036854775809")}, "-9223372036854775809"},
		{vfloat(1.5), "1.5"},
		{vfloat(math.Inf(-1)), "-inf"},
		{vstr("it's"), `"it's"`},
		{list(VList), "[]"},
		{list(VTuple, vint(1)), "(1,)"},
		{list(VTuple, vint(1), vstr("a")), "(1, 'a')"},
		{list(VSet), "set()"},
		{list(VSet, vint(3)), "{3}"},
		{list(VFrozenset, vint(3)), "frozenset({3})"},
		{dict(vstr("a"), list(VList, vnone)), "{'a': [None]}"},
		{dict(list(VTuple, vint(1), vint(2)), vtrue), "{(1, 2): True}"},
		{Value{Kind: VOpaque, Str: "<object at 0x1>"}, "<object at 0x1>"},
	}
	for _, tt := range tests {
		enc := AppendValue(nil, tt.v)
		got, rest, err := DecodeValue(append(enc, 'z'))
		if err != nil {
			t.Errorf("%s: %v", tt.repr, err)
			continue
		}
		if string(rest) != "z" {
			t.Errorf("%s: rest %q", tt.repr, rest)
		}
		if diff := cmp.Diff(tt.v, got, cmpopts.EquateEmpty(), cmp.Comparer(func(a, b *big.Int) bool {
			return (a == nil) == (b == nil) && (a == nil || a.Cmp(b) == 0)
		})); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.repr, diff)
		}
		if r := got.Repr(); r != tt.repr {
			t.Errorf("repr %q; want %q", r, tt.repr)
		}
	}
}

// Truncated and malformed encodings are errors, never panics.
func TestDecodeValueErrors(t *testing.T) {
	for _, p := range []string{"", "i123", "I\x05\x00\x00\x00ab", "l\x02\x00\x00\x00N", "d\x01\x00\x00\x00N", "?", "s\xff\xff\xff\xff", "l\xff\xff\xff\xffN"} {
		if _, _, err := DecodeValue([]byte(p)); err == nil {
			t.Errorf("%q decoded", p)
		}
	}
	deep := strings.Repeat("l\x01\x00\x00\x00", MaxDepth+5) + "N"
	if _, _, err := DecodeValue([]byte(deep)); err == nil {
		t.Errorf("a value nested %d deep decoded", MaxDepth+5)
	}
}

// A JSON value that reaches the candidate as json.loads makes it compares
// with EqualValue exactly as Equal compares the two JSON values: the
// shared vectors of the harness.
func TestEqualValueVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "equal.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Expected, Actual json.RawMessage
		Tolerance        float64
		Equal            bool
		Why              string
	}
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		e, err := decodeJSON(v.Expected)
		if err != nil {
			t.Fatal(err)
		}
		a, err := ParseJSONValue(v.Actual)
		if err != nil {
			t.Fatal(err)
		}
		if got := EqualValue(e, a, v.Tolerance); got != v.Equal {
			t.Errorf("%s: EqualValue(%s, %s) = %v", v.Why, v.Expected, v.Actual, got)
		}
	}
}

// The rules for what JSON cannot hold: tuples, sets, dicts with keys that
// are not strings, objects.
func TestEqualValuePython(t *testing.T) {
	tests := []struct {
		expected string
		actual   Value
		tol      float64
		want     bool
	}{
		{`[1, 2]`, list(VTuple, vint(1), vint(2)), 0, true},
		{`[1, 2]`, list(VSet, vint(2), vint(1)), 0, true},
		{`[1, 1]`, list(VSet, vint(1)), 0, false},
		{`[1, 2]`, list(VFrozenset, vint(1), vint(3)), 0, false},
		{`[1.0, 1.05]`, list(VSet, vfloat(1.06), vfloat(1.0)), 0.1, true},
		{`{"1": "a"}`, dict(vint(1), vstr("a")), 0, true},
		{`{"1": "a"}`, dict(vint(1), vstr("a"), vstr("1"), vstr("a")), 0, false},
		{`{"true": 1, "null": 2, "1.5": 3}`, dict(vtrue, vint(1), vnone, vint(2), vfloat(1.5), vint(3)), 0, true},
		{`{"NaN": 1}`, dict(vfloat(math.NaN()), vint(1)), 0, true},
		{`{"(1, 2)": 1}`, dict(list(VTuple, vint(1), vint(2)), vint(1)), 0, false},
		{`{"a": 1}`, dict(vstr("a"), vint(1), vstr("b"), vint(2)), 0, false},
		{`"x"`, Value{Kind: VOpaque, Str: "'x'"}, 0, false},
		{`[]`, list(VDict), 0, false},
		{`{}`, list(VList), 0, false},
		{`2`, vfloat(2.0), 0, true},
		{`2.0`, vint(2), 0, true},
		{`1e400`, vfloat(math.Inf(1)), 0, true},
		{`true`, vint(1), 0, false},
		{`1`, vtrue, 0, false},
		{`null`, list(VList), 0, false},
	}
	for _, tt := range tests {
		e, err := decodeJSON([]byte(tt.expected))
		if err != nil {
			t.Fatal(err)
		}
		if got := EqualValue(e, tt.actual, tt.tol); got != tt.want {
			t.Errorf("EqualValue(%s, %s) = %v; want %v", tt.expected, tt.actual.Repr(), got, tt.want)
		}
	}
}

// Floats and strings render exactly as CPython's repr (testdata/repr.json
// was written by CPython 3.11).
func TestReprMatchesCPython(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "repr.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Floats []struct {
			Bits uint64
			Repr string
		}
		Strings []struct {
			UTF8 []int
			Repr string
		}
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	for _, f := range ref.Floats {
		if got := pyFloatRepr(math.Float64frombits(f.Bits)); got != f.Repr {
			t.Errorf("float %x: %q; want %q", f.Bits, got, f.Repr)
		}
	}
	for _, s := range ref.Strings {
		b := make([]byte, len(s.UTF8))
		for i, c := range s.UTF8 {
			b[i] = byte(c)
		}
		if got := PyStrRepr(string(b)); got != s.Repr {
			t.Errorf("str %q: %s; want %s", b, got, s.Repr)
		}
	}
}

// Long values are shortened in details the way the harness shortened them.
func TestReprShortened(t *testing.T) {
	long := Value{Kind: VList}
	for i := range 100 {
		long.Items = append(long.Items, vint(int64(i)))
	}
	r := long.Repr()
	if len(r) != ReprMax || !strings.HasPrefix(r, "[0, 1, 2") || !strings.HasSuffix(r, "...") {
		t.Errorf("repr of 100 ints: %q", r)
	}
	if r := vstr(strings.Repeat("ab", 200)).Repr(); len(r) != ReprMax || !strings.HasPrefix(r, "'abab") {
		t.Errorf("repr of a long str: %q", r)
	}
	if r := (Value{Kind: VInt, Big: new(big.Int).Lsh(big.NewInt(1), 1000)}).Repr(); r != "<int of 1001 bits>" {
		t.Errorf("repr of 2**1000: %q", r)
	}
}

// Object keys keep their order in the reprs of expectations.
func TestParseJSONValueOrder(t *testing.T) {
	v, err := ParseJSONValue([]byte(`{"b": 1, "a": [true, null, 1.0, 2e100, "x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.Repr(), "{'b': 1, 'a': [True, None, 1.0, 2e+100, 'x']}"; got != want {
		t.Errorf("%q; want %q", got, want)
	}
}

func FuzzDecodeValue(f *testing.F) {
	for _, v := range []Value{vnone, vint(3), list(VList, vstr("a"), dict(vint(1), vfloat(2)))} {
		f.Add(AppendValue(nil, v))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		v, rest, err := DecodeValue(p)
		if err != nil {
			return
		}
		_ = v.Repr()
		enc := AppendValue(nil, v)
		w, rest2, err := DecodeValue(enc)
		if err != nil || len(rest2) != 0 {
			t.Fatalf("re-encoding of %q does not decode: %v", p[:len(p)-len(rest)], err)
		}
		if w.Repr() != v.Repr() {
			t.Fatalf("round trip changed %s into %s", v.Repr(), w.Repr())
		}
	})
}

// Judge decides every verdict of call and I/O cases from what the
// candidate's process observed; a verdict that process reports for such
// a case is taken only when it cannot favour the candidate.
func TestJudge(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []Case{
		{Name: "ret", Kind: Call, Expected: json.RawMessage(`{"b": [1, 2], "a": 1.5}`), Tolerance: 0.01},
		{Name: "args", Kind: Call, ExpectedArgs: json.RawMessage(`[[1, 2, 3]]`)},
		{Name: "raises", Kind: Call, Raises: "json.JSONDecodeError"},
		{Name: "io", Kind: IO, Stdout: str("1 2\n3.0\n")},
		{Name: "test", Kind: Test},
	}
	checks, err := NewChecks(cases, 64)
	if err != nil {
		t.Fatal(err)
	}
	ret := func(v Value) *Observation { return &Observation{Ending: Returned, Value: v} }
	raised := func(names ...string) *Observation {
		return &Observation{Ending: Raised, Exception: names, Detail: names[0] + ": boom (line 3)"}
	}
	tests := []struct {
		check  int
		o      *Observation
		want   Verdict
		detail string
	}{
		{0, ret(dict(vstr("a"), vfloat(1.505), vstr("b"), list(VTuple, vint(1), vint(2)))), Passed, ""},
		{0, ret(dict(vstr("a"), vint(1))), WrongAnswer, "expected {'b': [1, 2], 'a': 1.5}, got {'a': 1}"},
		{0, raised("ValueError", "Exception", "BaseException", "object"), RuntimeError, "ValueError: boom (line 3)"},
		{0, &Observation{Ending: Raised, Exception: []string{"MemoryError"}, Memory: true}, MemoryLimitExceeded, "MemoryError"},
		{0, &Observation{Ending: Finished}, RuntimeError, "does not fit"},
		{1, &Observation{Ending: Returned, Value: vnone, HasArgs: true, Args: list(VList, list(VList, vint(1), vint(2), vint(3)))}, Passed, ""},
		{1, &Observation{Ending: Returned, Value: vnone, HasArgs: true, Args: list(VList, list(VList, vint(3)))}, WrongAnswer, "expected arguments [[1, 2, 3]] after the call, got [[3]]"},
		{1, ret(vnone), WrongAnswer, "got nothing"},
		{2, raised("JSONDecodeError", "ValueError", "Exception", "BaseException", "object"), Passed, ""},
		{2, raised("ValueError", "Exception"), RuntimeError, "ValueError: boom"},
		{2, ret(vint(0)), WrongAnswer, "expected json.JSONDecodeError to be raised, got 0"},
		{3, &Observation{Ending: Finished, Stdout: "1  2   \n3\n\n"}, Passed, ""},
		{3, &Observation{Ending: Finished, Stdout: "1 2\n4\n"}, WrongAnswer, "line 2: expected '3.0', got '4'"},
		{3, &Observation{Ending: Finished, Stdout: "1 2\n"}, WrongAnswer, "expected 2 lines, got 1"},
		{3, &Observation{Ending: Finished, Stdout: "1 2\n3\n", Overflow: true}, WrongAnswer, "output longer than 64 bytes"},
		{3, raised("SystemExit", "BaseException"), RuntimeError, "SystemExit"},
		{3, ret(vint(1)), RuntimeError, "does not fit"},
	}
	for i, tt := range tests {
		v, d := checks[tt.check].Judge(tt.o)
		if v != tt.want || !strings.Contains(d, tt.detail) || (tt.detail == "" && d != "") {
			t.Errorf("%d (%s): %v %q; want %v %q", i, cases[tt.check].Name, v, d, tt.want, tt.detail)
		}
	}
	for _, v := range []Verdict{Passed, WrongAnswer} {
		if got, _ := checks[0].JudgeVerdict(v, ""); got != RuntimeError {
			t.Errorf("a call case took the verdict %v from the sandbox", v)
		}
		if got, _ := checks[4].JudgeVerdict(v, ""); got != v {
			t.Errorf("a test case's verdict %v became %v", v, got)
		}
	}
	if got, d := checks[3].JudgeVerdict(TimeLimitExceeded, "timed out after 2s"); got != TimeLimitExceeded || d != "timed out after 2s" {
		t.Errorf("a timeout became %v %q", got, d)
	}
}

// Observations survive their encoding.
func TestObservationRoundTrip(t *testing.T) {
	for _, o := range []Observation{
		{Ending: Returned, Value: list(VList, vint(1))},
		{Ending: Returned, Value: vnone, HasArgs: true, Args: list(VList, dict())},
		{Ending: Raised, Exception: []string{"KeyError", "LookupError"}, Memory: true},
		{Ending: Finished, Stdout: "a\nb\n", Overflow: true},
	} {
		status, b := AppendObservation(nil, &o)
		got, rest, err := ReadObservation(status, append(b, 9))
		if err != nil || len(rest) != 1 {
			t.Fatalf("%+v: %v, rest %q", o, err, rest)
		}
		if diff := cmp.Diff(o, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	}
}

// BenchmarkJudge: the tool judges every case of every candidate.
func BenchmarkJudge(b *testing.B) {
	checks, err := NewChecks([]Case{{Kind: Call, Expected: json.RawMessage("12345")}, {Kind: Call, Expected: json.RawMessage(`[1, 2.5, "x", {"a": [true]}]`)}}, 0)
	if err != nil {
		b.Fatal(err)
	}
	_, small := AppendObservation(nil, &Observation{Ending: Returned, Value: vint(12345)})
	_, big := AppendObservation(nil, &Observation{Ending: Returned, Value: list(VList, vint(1), vfloat(2.5), vstr("x"), dict(vstr("a"), list(VList, vtrue)))})
	for b.Loop() {
		for i, p := range [][]byte{small, big} {
			o, _, err := ReadObservation(StatusReturned, p)
			if err != nil {
				b.Fatal(err)
			}
			if v, _ := checks[i].Judge(&o); v != Passed {
				b.Fatal(v)
			}
		}
	}
}

// ObservationSize walks an encoding to its end as ReadObservation does,
// and refuses what ReadObservation refuses.
func TestObservationSize(t *testing.T) {
	for _, o := range []Observation{
		{Ending: Returned, Value: list(VList, vint(1), dict(vstr("a"), list(VSet, vfloat(2))))},
		{Ending: Returned, Value: vnone, HasArgs: true, Args: list(VList, vstr("xy"))},
		{Ending: Raised, Exception: []string{"KeyError", "LookupError"}},
		{Ending: Finished, Stdout: "a\nb\n"},
	} {
		status, b := AppendObservation(nil, &o)
		n, err := ObservationSize(status, append(b, 7, 7))
		if err != nil || n != len(b) {
			t.Errorf("%+v: %d, %v; want %d", o, n, err, len(b))
		}
		for cut := range b {
			if _, err := ObservationSize(status, b[:cut]); err == nil {
				if _, _, err2 := ReadObservation(status, b[:cut]); err2 != nil {
					t.Errorf("%+v cut at %d: size says fine, ReadObservation %v", o, cut, err2)
				}
			}
		}
	}
}

// A Memo gives the verdict of an observation it judged before without
// judging it again, and tells observations apart.
func TestMemo(t *testing.T) {
	checks, err := NewChecks([]Case{{Kind: Call, Expected: json.RawMessage("2")}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMemo(1)
	_, two := AppendObservation(nil, &Observation{Ending: Returned, Value: vint(2)})
	_, three := AppendObservation(nil, &Observation{Ending: Returned, Value: vint(3)})
	for i, tt := range []struct {
		p      []byte
		want   Verdict
		detail string
	}{{two, Passed, ""}, {three, WrongAnswer, "expected 2, got 3"}, {three, WrongAnswer, "expected 2, got 3"}, {two, Passed, ""}} {
		v, d, err := m.Judge(checks, 0, StatusReturned, tt.p, "")
		if err != nil || v != tt.want || d != tt.detail {
			t.Errorf("%d: %v %q %v; want %v %q", i, v, d, err, tt.want, tt.detail)
		}
	}
	if _, _, err := m.Judge(checks, 0, StatusReturned, two[:3], ""); err == nil {
		t.Errorf("a truncated observation was judged")
	}
}
