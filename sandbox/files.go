package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"repair/fitness"
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
func importable(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
