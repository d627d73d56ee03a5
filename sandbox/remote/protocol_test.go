package remote

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
)

func str(s string) *string { return &s }

func validSuite() *Suite {
	return &Suite{
		Module:   "middle",
		MemoryMB: 512,
		Cases: []fitness.Case{
			{Name: "a", Kind: fitness.Call, Function: "middle", Args: json.RawMessage(`[1,2,3]`), Expected: json.RawMessage(`2`), Weight: 1, Timeout: 2},
			{Name: "b", Kind: fitness.IO, Stdin: str("1\n"), Stdout: str("1\n"), Weight: 1, Timeout: 2},
		},
	}
}

func TestCheck(t *testing.T) {
	lim := Limits{MaxCases: 3, MaxTimeout: 5, MaxMemoryMB: 1024, MaxFiles: 2}
	tests := []struct {
		name   string
		change func(s *Suite)
		want   string // error substring; empty: valid
	}{
		{"valid", func(s *Suite) {}, ""},
		{"module", func(s *Suite) { s.Module = "../x" }, `module: "../x" is not a Python module name`},
		{"no cases", func(s *Suite) { s.Cases = nil }, "cases: no test cases"},
		{"too many cases", func(s *Suite) { s.Cases = append(s.Cases, s.Cases[0], s.Cases[0]) }, "more than the server's maximum of 3"},
		{"memory", func(s *Suite) { s.MemoryMB = 0 }, "memory_mb: must be > 0"},
		{"file name", func(s *Suite) { s.Files = map[string]string{"../evil.py": ""} }, `files["../evil.py"]: "../evil.py" is not the file name`},
		{"file not py", func(s *Suite) { s.Files = map[string]string{"x.so": ""} }, `is not the file name of a Python module`},
		{"file is target", func(s *Suite) { s.Files = map[string]string{"middle.py": ""} }, "the target itself"},
		{"too many files", func(s *Suite) { s.Files = map[string]string{"a.py": "", "b.py": "", "c.py": ""} }, "3 files"},
		{"duplicate name", func(s *Suite) { s.Cases[1].Name = "a" }, `cases[1].name: duplicate name "a"`},
		{"call without function", func(s *Suite) { s.Cases[0].Function = "" }, "cases[0].function: a call case needs a function"},
		{"call with stdin", func(s *Suite) { s.Cases[0].Stdin = str("") }, "cases[0]: a call case has no stdin"},
		{"io with args", func(s *Suite) { s.Cases[1].Args = json.RawMessage(`[]`) }, "cases[1]: an I/O case has no call keys"},
		{"test without source", func(s *Suite) {
			s.Cases[1] = fitness.Case{Name: "t", Kind: fitness.Test, Function: "test_x", Weight: 1, Timeout: 1}
		}, "needs the suite's test_source"},
		{"args not array", func(s *Suite) { s.Cases[0].Args = json.RawMessage(`{}`) }, "cases[0].args: wrong JSON type"},
		{"weight", func(s *Suite) { s.Cases[0].Weight = 0 }, "cases[0].weight: must be > 0"},
		{"timeout", func(s *Suite) { s.Cases[0].Timeout = -1 }, "cases[0].timeout: must be > 0"},
		{"tolerance", func(s *Suite) { s.Cases[0].Tolerance = -1 }, "cases[0].tolerance: must be >= 0"},
		{"test file", func(s *Suite) {
			s.TestSource, s.TestModule, s.TestFile = "import middle\n", "test_middle", "x/test_middle.py"
		}, `test_file: "x/test_middle.py" is not the file name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := validSuite()
			tt.change(s)
			err := s.Check(lim)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("Check() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckCaps(t *testing.T) {
	s := validSuite()
	s.MemoryMB = 100000
	s.Cases[0].Timeout = 100
	if err := s.Check(Limits{MaxTimeout: 5, MaxMemoryMB: 1024}); err != nil {
		t.Fatal(err)
	}
	got := []float64{float64(s.MemoryMB), s.Cases[0].Timeout, s.Cases[1].Timeout}
	if diff := cmp.Diff([]float64{1024, 5, 2}, got); diff != "" {
		t.Errorf("caps mismatch (-want +got):\n%s", diff)
	}
}

// TestNewSuiteWrite: the files a client reads are the files a server
// writes, and the suite survives the JSON trip unchanged.
func TestNewSuiteWrite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("stack.py", "from node import Node\n")
	write("node.py", "class Node: pass\n")
	write("test_stack.py", "import stack\ndef test_a():\n    assert True\n")
	write("not-a-module.py", "x = 1\n")
	suite := &fitness.Suite{
		Path: filepath.Join(dir, "test_stack.py"), MemoryMB: 256, TestSource: []byte("import stack\ndef test_a():\n    assert True\n"),
		TestModule: "test_stack",
		Cases:      []fitness.Case{{Name: "test_a", Kind: fitness.Test, Function: "test_a", Weight: 1, Timeout: 2, Tolerance: 1e-9}},
	}
	spec, err := NewSuite(filepath.Join(dir, "stack.py"), suite)
	if err != nil {
		t.Fatal(err)
	}
	want := &Suite{
		Module: "stack", Original: "from node import Node\n", Files: map[string]string{"node.py": "class Node: pass\n"},
		MemoryMB: 256, Cases: suite.Cases, TestSource: string(suite.TestSource), TestModule: "test_stack", TestFile: "test_stack.py",
	}
	if diff := cmp.Diff(want, spec); diff != "" {
		t.Fatalf("NewSuite mismatch (-want +got):\n%s", diff)
	}
	raw, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	var back Suite
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Check(Limits{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(spec, &back); diff != "" {
		t.Fatalf("JSON round trip mismatch (-want +got):\n%s", diff)
	}
	again, _ := json.Marshal(&back)
	if SuiteID(again) != SuiteID(raw) {
		t.Errorf("the suite's ID changed over a JSON round trip")
	}

	out := t.TempDir()
	target, got, err := back.Write(out)
	if err != nil {
		t.Fatal(err)
	}
	if target != filepath.Join(out, "stack.py") || got.Path != filepath.Join(out, "test_stack.py") {
		t.Errorf("Write paths = %s, %s", target, got.Path)
	}
	for name, text := range map[string]string{"stack.py": want.Original, "node.py": want.Files["node.py"], "test_stack.py": want.TestSource} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || string(data) != text {
			t.Errorf("%s = %q, %v; want %q", name, data, err, text)
		}
	}
	if diff := cmp.Diff(suite.Cases, got.Cases); diff != "" {
		t.Errorf("written cases mismatch (-want +got):\n%s", diff)
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"http://h:5000", "http://h:5000", ""},
		{"http://h:5000/", "http://h:5000", ""},
		{"h:5000", "http://h:5000", ""},
		{"https://h/prefix/", "https://h/prefix", ""},
		{"ftp://h", "", "want http://HOST:PORT"},
		{"http://", "", "want http://HOST:PORT"},
		{"http://h:1/?q=1", "", "want http://HOST:PORT"},
	}
	for _, tt := range tests {
		got, err := baseURL(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("baseURL(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}
