package fitness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"repair/internal/inputerr"
)

func TestTestFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test := "from m import f\n\ndef test_a():\n    assert f()\n"
	write("tests/test_b.py", test)
	write("tests/test_a.py", test)
	write("tests/unit/x_test.py", test)
	write("tests/helpers.py", "X = 1\n")
	write("tests/.hidden/test_h.py", test)
	write("tests/__pycache__/test_c.py", test)
	write("dup/test_a.py", test)
	write("suite.json", `[{"function": "f", "expected": 1}]`)
	write("none/README", "")
	write("tests/test_max-min.py", test)
	write("dashed/test_max-min.py", test)
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	in := func(s string) string {
		var out []string
		for _, p := range strings.Split(s, ",") {
			out = append(out, filepath.Join(dir, p))
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		name, arg string
		several   bool
		files     []string
		left      []string
		err       string
	}{
		{name: "one file", arg: "tests/test_a.py"},
		{name: "a directory", arg: "tests", several: true, files: []string{"tests/test_a.py", "tests/test_b.py", "tests/unit/x_test.py"}, left: []string{"tests/test_max-min.py"}},
		{name: "no file a module name", arg: "dashed", several: true, err: "no test file's name is a Python module name (" + filepath.Join(dir, "dashed/test_max-min.py") + "): rename them (letters, digits and _)"},
		{name: "files by name, repeats once", arg: "tests/test_b.py,tests/test_a.py,tests/test_b.py", several: true, files: []string{"tests/test_b.py", "tests/test_a.py"}},
		{name: "a directory without tests", arg: "none", several: true, err: "none: is a directory without test files (test_*.py, *_test.py): name a suite file, or the project's tests directory"},
		{name: "a data suite among them", arg: "tests/test_a.py,suite.json", several: true, err: "suite.json: several test suites must be Python test files (test_*.py)"},
		{name: "a missing file", arg: "tests/test_a.py,tests/test_z.py", several: true, err: "test_z.py: no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files, several, left, err := TestFilesLeft(in(c.arg))
			if several != c.several {
				t.Errorf("several = %v, want %v", several, c.several)
			}
			if c.err != "" {
				if err == nil || !inputerr.Is(err) || !strings.HasSuffix(err.Error(), c.err) {
					t.Fatalf("err = %v, want an input error ending %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := rel(files); !slices.Equal(got, c.files) {
				t.Errorf("files = %q, want %q", got, c.files)
			}
			if got := rel(left); !slices.Equal(got, c.left) {
				t.Errorf("left out = %q, want %q", got, c.left)
			}
		})
	}

	// Loaded as one suite: the parts' cases in order, named by file.
	files, _, err := TestFiles(in("tests"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadFiles("tests", files)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.Name)
	}
	if want := []string{"test_a.py::test_a", "test_b.py::test_a", "x_test.py::test_a"}; !slices.Equal(names, want) {
		t.Errorf("cases %q, want %q", names, want)
	}
	if len(s.Parts) != 3 || s.Where(1) != filepath.Join(dir, "tests/test_b.py")+":3" {
		t.Errorf("%d parts; case 1 at %s", len(s.Parts), s.Where(1))
	}
	// Two files of one module name cannot be imported side by side.
	if _, err := LoadFiles("x", []string{filepath.Join(dir, "tests/test_a.py"), filepath.Join(dir, "dup/test_a.py")}); err == nil || !strings.Contains(err.Error(), "same module name") {
		t.Errorf("err = %v, want one about the same module name", err)
	}
}
