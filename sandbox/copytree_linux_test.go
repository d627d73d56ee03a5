package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCopyTree: without namespaces the project's tree is a copy: data
// files, fixtures and settings are there, read-only; version control,
// caches, virtual environments and node_modules are not.
func TestCopyTree(t *testing.T) {
	src := t.TempDir()
	for _, f := range []string{
		"pyproject.toml", "pkg/__init__.py", "pkg/mod.py", "pkg/data/words.json",
		"tests/test_mod.py", "tests/fixtures/case.txt", "env/settings.py",
		".git/config", ".venv/lib/x.py", "venv2/pyvenv.cfg", "venv2/lib/y.py",
		"pkg/__pycache__/mod.cpython-311.pyc", "node_modules/a/index.js", ".tox/py/x",
	} {
		p := filepath.Join(src, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	note, err := copyTree(dst, src)
	if err != nil || note != "" {
		t.Fatalf("copyTree = %q, %v", note, err)
	}
	var got []string
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dst, p)
			got = append(got, rel)
			if fi, _ := d.Info(); fi.Mode().Perm() != 0o444 {
				t.Errorf("%s: mode %v; want read-only", rel, fi.Mode())
			}
		}
		return nil
	})
	sort.Strings(got)
	want := []string{"env/settings.py", "pkg/__init__.py", "pkg/data/words.json", "pkg/mod.py",
		"pyproject.toml", "tests/fixtures/case.txt", "tests/test_mod.py"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("copied (-want +got):\n%s", diff)
	}
}
