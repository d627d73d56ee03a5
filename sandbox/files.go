package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"repair/fitness"
	"repair/internal/pymod"
)

// HelperFiles lists the importable .py files next to the target (and next
// to a Python test file), except the target and the test file themselves:
// engines copy them into the private working directory so candidates and
// tests can import them, while the candidate and the test source are sent
// separately.
func HelperFiles(target string, suite *fitness.Suite) ([]string, error) {
	dirs := []string{filepath.Dir(target)}
	skip := map[string]bool{}
	for _, p := range []string{target, suite.Path} {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			skip[abs] = true
		}
	}
	if len(suite.TestSource) > 0 && suite.Path != "" && filepath.Dir(suite.Path) != dirs[0] {
		dirs = append(dirs, filepath.Dir(suite.Path))
	}
	seen := map[string]bool{}
	var files []string
	for _, d := range dirs {
		matches, err := filepath.Glob(filepath.Join(d, "*.py"))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			abs, err := filepath.Abs(m)
			if err != nil || skip[abs] || seen[filepath.Base(m)] {
				continue
			}
			if fi, err := os.Stat(abs); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if !importable(strings.TrimSuffix(filepath.Base(m), ".py")) {
				continue
			}
			seen[filepath.Base(m)] = true
			files = append(files, abs)
		}
	}
	return files, nil
}

// importable reports whether name is a Python identifier (a module name
// an import statement can use).
func importable(name string) bool { return pymod.Identifier(name) }

// TreeFile is a file the shim copies into the private directory's lib/ at
// the relative path Rel (slash-separated), creating its directories.
type TreeFile struct {
	Src string `json:"src"`
	Rel string `json:"rel"`
}

// Project is a target that lives inside a Python package: candidates run
// with the project's tree (its .py files) under lib/, the target imported
// by its dotted name, so that relative imports and the package's other
// modules work as under pytest.
type Project struct {
	// Root is the directory lib/ mirrors: the common ancestor of the
	// target's import root and the test file's directory.
	Root string
	// Module is the target's dotted module name ("pkg.sub.mod").
	Module string
	// ImportRoot is the sys.path entry of the target's top package,
	// relative to Root ("src", or "" for Root itself).
	ImportRoot string
	// TestFile is the suite's test file relative to Root, or "".
	TestFile string
	// File is the target relative to Root; Package says it is a
	// package's __init__.py (Module is then the package).
	File    string
	Package bool
	// Files are the project's .py files, except the target and, for a
	// data suite, the suite.
	Files []TreeFile
}

// Bounds of a project's tree copied into the sandbox.
const (
	maxProjectFiles = 2000
	maxProjectBytes = 32 << 20
)

// skipDir reports directories a project copy leaves out: hidden ones,
// caches, virtual environments and build output.
func skipDir(name string) bool {
	if strings.HasPrefix(name, ".") {
		return true
	}
	switch name {
	case "__pycache__", "node_modules", "venv", "env", "site-packages", "build", "dist":
		return true
	}
	return false
}

// FindProject reports the project of a target inside a package (its
// directory holds an __init__.py), or nil for a plain module.
func FindProject(target string, suite *fitness.Suite) (*Project, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return nil, err
	}
	if !pymod.InPackage(abs) {
		return nil, nil
	}
	module, importRoot, err := pymod.Module(abs)
	if err != nil {
		return nil, err
	}
	root := importRoot
	var testAbs string
	if suite != nil && suite.Path != "" {
		if testAbs, err = filepath.Abs(suite.Path); err != nil {
			return nil, err
		}
		if len(suite.TestSource) > 0 {
			root = commonDir(root, filepath.Dir(testAbs))
		}
	}
	p := &Project{Root: root, Module: module, Package: pymod.IsInit(abs)}
	if p.ImportRoot, err = filepath.Rel(root, importRoot); err != nil {
		return nil, err
	}
	if p.File, err = filepath.Rel(root, abs); err != nil {
		return nil, err
	}
	p.File = filepath.ToSlash(p.File)
	p.ImportRoot = filepath.ToSlash(p.ImportRoot)
	if p.ImportRoot == "." {
		p.ImportRoot = ""
	}
	if len(suite.TestSource) > 0 && testAbs != "" {
		rel, err := filepath.Rel(root, testAbs)
		if err != nil {
			return nil, err
		}
		p.TestFile = filepath.ToSlash(rel)
	}
	var total int64
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts of the tree are not copied
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".py") || path == abs || (path == testAbs && len(suite.TestSource) == 0) || !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		total += fi.Size()
		if len(p.Files) >= maxProjectFiles || total > maxProjectBytes {
			return fmt.Errorf("%s: the project under %s has more than %d Python files or %d MiB", target, root, maxProjectFiles, maxProjectBytes>>20)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		p.Files = append(p.Files, TreeFile{Src: path, Rel: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// commonDir is the deepest directory holding both a and b (absolute).
func commonDir(a, b string) string {
	for {
		if rel, err := filepath.Rel(a, b); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return a
		}
		parent := filepath.Dir(a)
		if parent == a {
			return a
		}
		a = parent
	}
}
