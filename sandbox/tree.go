package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"repair/internal/pymod"
)

// Tree is the user's project as candidates of a test-file suite see it
// (docs/design.md §13, "What a candidate sees"): the whole directory tree,
// read-only, at its own path where the sandbox has a private root (else a
// copy in the private directory's lib/, see [Config.Project]), with only
// the targets replaced by the candidate. Tests run from the working
// directory the user ran the tool in when it lies in the tree (else from
// the tree's root), so paths relative to it, the test file's own path and
// pytest's rootdir, ini file and conftest files are as under plain pytest.
type Tree struct {
	// Root is the tree's directory on the host (absolute, symbolic links
	// resolved): the common ancestor of the targets' import roots, the
	// test file's directory and the working directory (when that holds
	// them), widened to the nearest directory above holding a pytest or
	// packaging configuration (pytest.ini, pyproject.toml, tox.ini,
	// setup.cfg, setup.py), but never the file system root, a home
	// directory or the temporary directory itself.
	Root string
	// Cwd is the tests' working directory relative to Root ("" for Root).
	Cwd string
	// TestFile is the test file relative to Root.
	TestFile string
	// Targets are the files repaired, in order.
	Targets []TreeTarget
}

// TreeTarget is one target file of a [Tree].
type TreeTarget struct {
	// Module is its dotted module name ("pkg.sub.mod"; "pkg" for
	// pkg/__init__.py).
	Module string
	// File is the file relative to Root.
	File string
	// ImportRoot is the sys.path entry it is imported from (the directory
	// above its top package, or its own directory), relative to Root.
	ImportRoot string
	// Package: the target is a package's __init__.py.
	Package bool
}

// configMarkers are the files whose directory is a project's root for
// pytest and packaging tools.
var configMarkers = []string{"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "setup.py"}

// FindTree lays out the project of targets tested by the test file
// testFile, run from the working directory cwd (all paths as the user gave
// them). It returns nil when the files have no common ancestor that may
// be shown to candidates (the file system root, a home directory or the
// temporary directory itself): the caller then copies the helper modules
// only, as for data suites.
func FindTree(targets []string, testFile, cwd string) (*Tree, error) {
	real := func(p string) (string, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return r, nil
		}
		return abs, nil
	}
	test, err := real(testFile)
	if err != nil {
		return nil, err
	}
	t := &Tree{}
	dirs := []string{filepath.Dir(test)}
	for _, tg := range targets {
		abs, err := real(tg)
		if err != nil {
			return nil, err
		}
		tt := TreeTarget{Module: strings.TrimSuffix(filepath.Base(abs), ".py"), File: abs, ImportRoot: filepath.Dir(abs)}
		if pymod.InPackage(abs) {
			if tt.Module, tt.ImportRoot, err = pymod.Module(abs); err != nil {
				return nil, err
			}
			tt.Package = pymod.IsInit(abs)
		} else if !pymod.Identifier(tt.Module) {
			return nil, fmt.Errorf("%s: %q is not a Python module name", tg, tt.Module)
		}
		t.Targets = append(t.Targets, tt)
		dirs = append(dirs, tt.ImportRoot)
	}
	root := dirs[0]
	for _, d := range dirs[1:] {
		root = commonDir(root, d)
	}
	if forbiddenRoot(root) {
		return nil, nil
	}
	wd := ""
	if cwd != "" {
		if wd, err = real(cwd); err != nil {
			return nil, err
		}
		// A user who runs the tool (and pytest) from above the files, in
		// the project's root, reads paths relative to it.
		if within(root, wd) && !forbiddenRoot(wd) {
			root = wd
		}
	}
	for d := root; !forbiddenRoot(d); d = filepath.Dir(d) {
		if hasMarker(d) {
			root = d
			break
		}
	}
	t.Root = root
	rel := func(p string) string {
		r, _ := filepath.Rel(root, p)
		if r == "." {
			return ""
		}
		return filepath.ToSlash(r)
	}
	if wd != "" && within(wd, root) {
		t.Cwd = rel(wd)
	}
	t.TestFile = rel(test)
	for i := range t.Targets {
		t.Targets[i].File = rel(t.Targets[i].File)
		t.Targets[i].ImportRoot = rel(t.Targets[i].ImportRoot)
	}
	return t, nil
}

// within reports whether p is dir or lies below it (both absolute, clean).
func within(p, dir string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../") && !filepath.IsAbs(r)
}

// forbiddenRoot reports directories never shown whole to candidates: the
// file system root, a home directory (or a directory holding one) and the
// temporary directory itself (other programs' files are there).
func forbiddenRoot(d string) bool {
	d = filepath.Clean(d)
	if d == "/" || d == filepath.Dir(d) {
		return true
	}
	for _, tmp := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if d == filepath.Clean(tmp) {
			return true
		}
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if r, err := filepath.EvalSymlinks(home); err == nil {
			home = r
		}
		if within(home, d) {
			return true
		}
	}
	return d == "/home" || d == "/root" || d == "/Users"
}

func hasMarker(dir string) bool {
	for _, m := range configMarkers {
		if isFile(filepath.Join(dir, m)) {
			return true
		}
	}
	return false
}

// Bounds of the copy of a project's tree made without namespaces (with
// them, the tree is bound, whatever its size).
const (
	maxTreeFiles = 10000
	maxTreeBytes = 128 << 20
)

// skipTreeDir reports directories a copy of a project's tree leaves out:
// hidden ones (.git, .tox, .venv, ...), caches, virtual environments
// (a pyvenv.cfg), node_modules and build output.
func skipTreeDir(path, name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	switch name {
	case "__pycache__", "node_modules", "site-packages", "venv":
		return true
	}
	return isFile(filepath.Join(path, "pyvenv.cfg"))
}
