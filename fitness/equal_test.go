package fitness

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"os/exec"
	"testing"
)

// vector is one shared comparison test vector of testdata/equal.json or
// testdata/stdout.json (also checked against the Python reference).
type vector struct {
	Expected  json.RawMessage
	Actual    json.RawMessage
	Tolerance float64
	Equal     bool
	Why       string
}

func readVectors(t *testing.T, path string) []vector {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

func TestEqualVectors(t *testing.T) {
	for _, v := range readVectors(t, "testdata/equal.json") {
		got, err := EqualJSON(v.Expected, v.Actual, v.Tolerance)
		if err != nil {
			t.Errorf("%s: %v", v.Why, err)
			continue
		}
		if got != v.Equal {
			t.Errorf("%s: Equal(%s, %s, %g) = %v, want %v", v.Why, v.Expected, v.Actual, v.Tolerance, got, v.Equal)
		}
	}
}

func TestEqualStdoutVectors(t *testing.T) {
	for _, v := range readVectors(t, "testdata/stdout.json") {
		var e, a string
		if err := json.Unmarshal(v.Expected, &e); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(v.Actual, &a); err != nil {
			t.Fatal(err)
		}
		if got := EqualStdout(e, a, v.Tolerance); got != v.Equal {
			t.Errorf("%s: EqualStdout(%q, %q, %g) = %v, want %v", v.Why, e, a, v.Tolerance, got, v.Equal)
		}
	}
}

// TestComparePythonReference checks the shared vectors against the Python
// reference implementation the sandbox harness follows.
func TestComparePythonReference(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	cmd := exec.Command(py, "compare_ref.py", "equal.json", "stdout.json")
	cmd.Dir = "testdata"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("compare_ref.py: %v\n%s", err, out)
	}
}

// TestEqualGo covers what JSON cannot express: NaN, Go number types,
// unsupported types, odd tolerances.
func TestEqualGo(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	tests := []struct {
		name string
		e, a any
		tol  float64
		want bool
	}{
		{"nan is not nan", nan, nan, 1e-9, false},
		{"nan is not a number", nan, 1.0, 1e9, false},
		{"nan is not inf", nan, inf, 1e-9, false},
		{"nan in an array", []any{nan}, []any{nan}, 1e-9, false},
		{"inf equals inf", inf, inf, 0, true},
		{"inf is not -inf", inf, -inf, 1e-9, false},
		{"inf is not huge within a huge tolerance", inf, math.MaxFloat64, 1e300, false},
		{"float64 and json.Number", 0.5, json.Number("0.5"), 0, true},
		{"int and json.Number", 2, json.Number("2"), 0, true},
		{"int64 and float64", int64(3), 3.0, 0, true},
		{"big.Int and json.Number", huge, json.Number("123456789012345678901234567890"), 0, true},
		{"big.Int small", big.NewInt(7), 7, 0, true},
		{"big.Int differs", huge, json.Number("123456789012345678901234567891"), 0.5, false},
		{"float32", float32(0.5), 0.5, 0, true},
		{"negative tolerance is exact", 1.0, 1.0 + 1e-15, -1, false},
		{"negative tolerance, same value", 1.0, 1.0, -1, true},
		{"nan tolerance is exact", 1.0, 1.0 + 1e-15, nan, false},
		{"unsupported type", struct{}{}, struct{}{}, 1e-9, false},
		{"unsupported int type", uint8(1), uint8(1), 1e-9, false},
		{"nil big.Int", (*big.Int)(nil), 0, 0, false},
		{"bad json.Number", json.Number("x"), json.Number("x"), 0, false},
		{"tuple from a typed slice is unsupported", []int{1}, []any{1}, 0, false},
		{"map with the same keys", map[string]any{"a": 1}, map[string]any{"a": json.Number("1.0")}, 0, true},
	}
	for _, tt := range tests {
		if got := Equal(tt.e, tt.a, tt.tol); got != tt.want {
			t.Errorf("%s: Equal(%v, %v, %g) = %v, want %v", tt.name, tt.e, tt.a, tt.tol, got, tt.want)
		}
		if got := Equal(tt.a, tt.e, tt.tol); got != tt.want {
			t.Errorf("%s (swapped): Equal(%v, %v, %g) = %v, want %v", tt.name, tt.a, tt.e, tt.tol, got, tt.want)
		}
	}
}

func TestFloatsEqual(t *testing.T) {
	tests := []struct {
		a, b, tol float64
		want      bool
	}{
		{1, 1, 0, true},
		{0, math.Copysign(0, -1), 0, true},
		{1, 1 + 1e-10, 1e-9, true},
		{1e-12, -1e-12, 1e-9, true},       // absolute
		{1e12, 1e12 + 100, 1e-9, true},    // relative: 100 <= 1e-9*1e12 = 1000
		{1e12, 1e12 + 10000, 1e-9, false}, // 10000 > 1000
		{math.Inf(-1), math.Inf(-1), 0, true},
		{math.NaN(), math.NaN(), math.Inf(1), false},
	}
	for _, tt := range tests {
		if got := FloatsEqual(tt.a, tt.b, tt.tol); got != tt.want {
			t.Errorf("FloatsEqual(%g, %g, %g) = %v, want %v", tt.a, tt.b, tt.tol, got, tt.want)
		}
	}
}

func TestEqualJSONErrors(t *testing.T) {
	for _, tt := range []struct{ e, a string }{
		{"", "1"},
		{"1", "[1,"},
		{"1 2", "1"},
		{"1", "NaN"},
	} {
		if _, err := EqualJSON([]byte(tt.e), []byte(tt.a), 0); err == nil {
			t.Errorf("EqualJSON(%q, %q) succeeded, want an error", tt.e, tt.a)
		}
	}
}

func BenchmarkEqualStdout(b *testing.B) {
	var e, a bytes.Buffer
	for i := range 100 {
		e.WriteString("value 0.3 12 word\n")
		a.WriteString("value 0.30000000000000004 12 word  \n")
		_ = i
	}
	es, as := e.String(), a.String()
	for b.Loop() {
		if !EqualStdout(es, as, 1e-9) {
			b.Fatal("not equal")
		}
	}
}
