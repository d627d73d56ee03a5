package fitness

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/internal/inputerr"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenInputs lists the inputs of a golden directory: every entry that is
// not a golden file or the README, plus the inputs that must not exist
// (their golden file names them).
func goldenInputs(t *testing.T, dir string, missing ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	have := make(map[string]bool)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".golden") || e.Name() == "README.md" {
			continue
		}
		inputs = append(inputs, e.Name())
		have[e.Name()] = true
	}
	inputs = append(inputs, missing...)
	for _, m := range missing {
		have[m] = true
	}
	// No orphaned goldens: each one belongs to an input.
	for _, e := range entries {
		if in, ok := strings.CutSuffix(e.Name(), ".golden"); ok && !have[in] {
			t.Errorf("%s/%s: orphaned golden file (no input %s)", dir, e.Name(), in)
		}
	}
	slices.Sort(inputs)
	return inputs
}

func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", golden, diff)
	}
}

// TestLoadErrors loads every file of testdata/bad and compares the error
// message with the file's .golden twin. Paths are relative to that
// directory, so messages read as a user sees them.
func TestLoadErrors(t *testing.T) {
	inputs := goldenInputs(t, "testdata/bad", "missing.json")
	t.Chdir("testdata/bad")
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			_, err := Load(in)
			if err == nil {
				t.Fatalf("Load(%s) succeeded, want an error", in)
			}
			if !inputerr.Is(err) {
				t.Errorf("Load(%s) error is not an inputerr: %v", in, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("message is not one line: %q", msg)
			}
			if !strings.HasPrefix(msg, in) {
				t.Errorf("message does not start with the file name: %q", msg)
			}
			checkGolden(t, in+".golden", []byte(msg+"\n"))
		})
	}
}

func TestLoadMissingIsNotExist(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, fs.ErrNotExist) || !inputerr.Is(err) {
		t.Errorf("Load(missing) = %v, want an inputerr wrapping fs.ErrNotExist", err)
	}
}

// TestLoadGood loads every file of testdata/good and compares the suite
// with the file's .golden twin: the suite's fields, then one line per case
// (its location and its JSON form).
func TestLoadGood(t *testing.T) {
	inputs := goldenInputs(t, "testdata/good")
	t.Chdir("testdata/good")
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			s, err := Load(in)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "path: %s\ntarget: %s\nfunction: %s\nmemory_mb: %d\n", s.Path, s.Target, s.Function, s.MemoryMB)
			if s.TestModule != "" {
				fmt.Fprintf(&b, "test_module: %s (%d bytes)\n", s.TestModule, len(s.TestSource))
			}
			for i, c := range s.Cases {
				j, err := json.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%s\t%s\n", s.Where(i), j)
			}
			checkGolden(t, in+".golden", []byte(b.String()))
		})
	}
}

// TestLoadRealSuites loads the benchmark's and the examples' suites.
func TestLoadRealSuites(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/bench/*/tests.json")
	files = append(files, "../examples/middle/tests.json")
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Logf("skipping %s: %v", f, err)
			continue
		}
		t.Run(f, func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Cases) < 12 {
				t.Errorf("%d cases, want >= 12", len(s.Cases))
			}
			for i, c := range s.Cases {
				if c.Kind != Call || c.Function == "" || c.Weight != 1 || c.Timeout <= 0 || c.Name == "" {
					t.Errorf("%s: incomplete case %+v", s.Where(i), c)
				}
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		path string
		in   string
		want *Suite
	}{
		{
			name: "suite defaults reach the cases",
			path: "dir/tests.json",
			in:   `{"target": "m.py", "function": "f", "timeout": 3, "tolerance": 0.5, "tests": [{"args": [1], "expected": 1}, {"args": [2], "expected": 2, "timeout": 1, "tolerance": 0, "weight": 2}]}`,
			want: &Suite{Path: "dir/tests.json", Target: "dir/m.py", Function: "f", MemoryMB: 512, Cases: []Case{
				{Name: "tests[0]", Kind: Call, Function: "f", Args: json.RawMessage(`[1]`), Expected: json.RawMessage(`1`), Weight: 1, Timeout: 3, Tolerance: 0.5, Path: "tests[0]"},
				{Name: "tests[1]", Kind: Call, Function: "f", Args: json.RawMessage(`[2]`), Expected: json.RawMessage(`2`), Weight: 2, Timeout: 1, Tolerance: 0, Path: "tests[1]"},
			}},
		},
		{
			name: "absolute target stays",
			path: "dir/tests.json",
			in:   `{"target": "/abs/m.py", "function": "f", "tests": [{"expected": null}]}`,
			want: &Suite{Path: "dir/tests.json", Target: "/abs/m.py", Function: "f", MemoryMB: 512, Cases: []Case{
				{Name: "tests[0]", Kind: Call, Function: "f", Expected: json.RawMessage(`null`), Weight: 1, Timeout: 2, Tolerance: 1e-9, Path: "tests[0]"},
			}},
		},
		{
			name: "parameters become positional args in key order (EiplGrader), values compacted",
			path: "t.json",
			in:   "[{\"function_name\": \"f\", \"parameters\": { \"a\" : [ 1 ,\n 2 ] }, \"expected\": { \"x\" : 1.50 }}]",
			want: &Suite{Path: "t.json", MemoryMB: 512, Cases: []Case{
				{Name: "[0]", Kind: Call, Function: "f", Args: json.RawMessage(`[[1,2]]`), Expected: json.RawMessage(`{"x":1.50}`), Weight: 1, Timeout: 2, Tolerance: 1e-9, Path: "[0]"},
			}},
		},
		{
			name: "io case gets empty stdin",
			path: "t.jsonl",
			in:   "\n\n{\"stdout\": \"x\\n\"}\n",
			want: &Suite{Path: "t.jsonl", MemoryMB: 512, Cases: []Case{
				{Name: "line 3", Kind: IO, Stdin: str(""), Stdout: str("x\n"), Weight: 1, Timeout: 2, Tolerance: 1e-9, Line: 3},
			}},
		},
		{
			name: "raises with a dotted class",
			path: "t.jsonl",
			in:   `{"function": "load", "args": ["{"], "raises": "json.JSONDecodeError"}`,
			want: &Suite{Path: "t.jsonl", MemoryMB: 512, Cases: []Case{
				{Name: "line 1", Kind: Call, Function: "load", Args: json.RawMessage(`["{"]`), Raises: "json.JSONDecodeError", Weight: 1, Timeout: 2, Tolerance: 1e-9, Line: 1},
			}},
		},
		{
			name: "python test file",
			path: "test_m.py",
			in:   "import m\ndef test_a():\n    pass\n",
			want: &Suite{Path: "test_m.py", MemoryMB: 512, TestModule: "test_m", TestSource: []byte("import m\ndef test_a():\n    pass\n"), Cases: []Case{
				{Name: "test_a", Kind: Test, Function: "test_a", Weight: 1, Timeout: 10, Tolerance: 1e-9, Line: 2},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.path, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSyntaxPositions(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"{", "t.json:1:2: unexpected end of JSON input"},
		{"[1,\n 2,\n x]", "t.json:3:2: invalid character 'x' looking for beginning of value"},
		{"[\"é\", x]", "t.json:1:7: invalid character 'x' looking for beginning of value"},
		{"[1] [2]", "t.json:1:5: invalid character '[' after top-level value"},
		{"[Infinity]", "t.json:1:2: Infinity is not JSON: values must be plain JSON (no NaN or Infinity)"},
		{"{\"a\": -Infinity}", "t.json:1:7: -Infinity is not JSON: values must be plain JSON (no NaN or Infinity)"},
		{"hello", "t.json:1:1: invalid character 'h' looking for beginning of value"},
		{"\xff", "t.json:1:1: not UTF-8 text"},
		{"[\"ok\",\n \"\xc3\"]", "t.json:2:3: not UTF-8 text"},
	}
	for _, tt := range tests {
		_, err := Parse("t.json", []byte(tt.in))
		if err == nil || err.Error() != tt.want || !inputerr.Is(err) {
			t.Errorf("Parse(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestPythonScanner(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"plain", "import m\ndef test_a():\n    pass\ndef test_b ():\n    pass\n", []string{"test_a", "test_b"}},
		{"async and tabs", "import m\nasync\tdef\ttest_a():\n    pass\n", []string{"test_a"}},
		{"indented and nested ignored", "import m\nclass T:\n    def test_a(self): pass\ndef test_b():\n    def test_c(): pass\n", []string{"test_b"}},
		{"triple strings skipped", "import m\nx = '''\ndef test_a():\n'''\ny = \"\"\"one line\"\"\"\ndef test_b(): pass\n", []string{"test_b"}},
		{"escaped quote inside triple", "import m\nx = \"\"\"a \\\"\"\" still\ndef test_a():\n\"\"\"\ndef test_b(): pass\n", []string{"test_b"}},
		{"quote in comment is no string", "import m  # don't\ndef test_a(): pass\n", []string{"test_a"}},
		{"triple quote in a plain string", "import m\ns = \"'''\"\ndef test_a(): pass\n", []string{"test_a"}},
		{"not test functions", "import m\ndef testa(): pass\ndef mytest_a(): pass\ndef test_x\n", nil},
		{"crlf", "import m\r\ndef test_a():\r\n    pass\r\n", []string{"test_a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("test_m.py", []byte(tt.src))
			var got []string
			if err == nil {
				for _, c := range s.Cases {
					got = append(got, c.Name)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("test functions mismatch (-want +got):\n%s (err %v)", diff, err)
			}
		})
	}
}

func TestCheckTarget(t *testing.T) {
	suite := func(path, src string) *Suite {
		t.Helper()
		s, err := Parse(path, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name    string
		s       *Suite
		defined []string
		want    string
	}{
		{
			name:    "all defined",
			s:       suite("tests.json", `{"function": "middle", "tests": [{"args": [1], "expected": 1}, {"function": "Stack.push", "args": [1], "expected": 1}]}`),
			defined: []string{"middle", "Stack"},
		},
		{
			name:    "case callee misspelt",
			s:       suite("tests.json", `{"function": "middle", "tests": [{"args": [1], "expected": 1}, {"args": [1], "expected": 1}, {"args": [1], "expected": 1}, {"args": [1], "expected": 1}, {"function": "midle", "args": [1], "expected": 1}]}`),
			defined: []string{"middle", "main"},
			want:    `tests.json: tests[4].function: "midle" is not defined in middle.py (did you mean "middle"?)`,
		},
		{
			name:    "suite callee missing",
			s:       suite("tests.json", `{"function": "mid", "tests": [{"args": [1], "expected": 1}]}`),
			defined: []string{"middle"},
			want:    `tests.json: function: "mid" is not defined in middle.py`,
		},
		{
			name:    "json lines",
			s:       suite("t.jsonl", "{\"function\": \"middle\", \"args\": [1], \"expected\": 1}\n{\"function\": \"Midle.x\", \"args\": [1], \"expected\": 1}\n"),
			defined: []string{"middle", "Middle"},
			want:    `t.jsonl:2: function: "Midle" is not defined in middle.py (did you mean "Middle"?)`,
		},
		{
			name:    "io and test cases need nothing",
			s:       suite("t.jsonl", `{"stdin": "", "stdout": "x"}`),
			defined: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.CheckTarget("src/middle.py", tt.defined)
			got := ""
			if err != nil {
				got = err.Error()
				if !inputerr.Is(err) {
					t.Errorf("not an inputerr: %v", err)
				}
			}
			if got != tt.want {
				t.Errorf("CheckTarget = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckRepairable(t *testing.T) {
	s, err := Parse("tests.json", []byte(`{"function": "f", "tests": [{"expected": 1}, {"expected": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	pass := &Outcome{Results: []Result{{Verdict: Passed}, {Verdict: Passed}}}
	if err := s.CheckRepairable(pass); err == nil || !inputerr.Is(err) || err.Error() != "tests.json: nothing to repair: all 2 cases pass" {
		t.Errorf("CheckRepairable(all pass) = %v", err)
	}
	fail := &Outcome{Results: []Result{{Verdict: Passed}, {Verdict: WrongAnswer}}}
	if err := s.CheckRepairable(fail); err != nil {
		t.Errorf("CheckRepairable(one fails) = %v", err)
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		word string
		want string
	}{
		{"expectd", "expected"},
		{"Expected", "expected"},
		{"arg", "args"},
		{"excepted", "expected"},
		{"memory", "memory_mb"},
		{"tolerence", "tolerance"},
		{"xyz", ""},
		{"f", ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.word, caseKeys); got != tt.want && suggest(tt.word, suiteKeys) != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// BenchmarkLoad: reading examples/middle's suite (200 cases), which every
// repair of it does before its engine starts.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load("../examples/middle/tests.json"); err != nil {
			b.Fatal(err)
		}
	}
}
