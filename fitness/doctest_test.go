package fitness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadDoctest: one case per docstring with examples, named by its
// qualified name, at the line of its def; a file in a package is
// imported by its dotted name.
func TestLoadDoctest(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	os.Mkdir(pkg, 0o755)
	os.WriteFile(filepath.Join(pkg, "__init__.py"), nil, 0o644)
	src := "\"\"\"\n>>> 1\n1\n\"\"\"\n\n\ndef f():\n    \"\"\">>> f()\n    2\n    \"\"\"\n    return 2\n\n\ndef g():\n    \"\"\"No examples.\"\"\"\n\n\nclass C:\n    def m(self):\n        '''\n        >>> C().m()\n        '''\n"
	path := filepath.Join(pkg, "mod.py")
	os.WriteFile(path, []byte(src), 0o644)
	s, err := Load(DoctestPrefix + path)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Name, Function string
		Line           int
	}
	var got []row
	for _, c := range s.Cases {
		got = append(got, row{c.Name, c.Function, c.Line})
	}
	want := []row{{"doctest:pkg.mod", "test_doctest_1", 1}, {"doctest:f", "test_doctest_2", 7}, {"doctest:C.m", "test_doctest_3", 19}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	if !s.Doctest || s.Target != path || !strings.HasPrefix(string(s.TestSource), "import pkg.mod as _target\n") {
		t.Errorf("suite: doctest %v, target %q, source starts %.40q", s.Doctest, s.Target, s.TestSource)
	}
}
