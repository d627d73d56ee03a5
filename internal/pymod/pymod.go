// Package pymod names Python files as imports see them.
package pymod

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Module is the dotted name a file is imported by (its base name after
// the packages, directories with an __init__.py, that hold it; a package's
// __init__.py is the package itself) and its import root, the directory
// above its top package (absolute).
func Module(path string) (name, root string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	parts := []string{strings.TrimSuffix(filepath.Base(abs), ".py")}
	dir := filepath.Dir(abs)
	if IsInit(abs) && isFile(abs) {
		parts = nil // pkg/__init__.py is pkg
	}
	for isFile(filepath.Join(dir, "__init__.py")) {
		parts = append([]string{filepath.Base(dir)}, parts...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, p := range parts {
		if !Identifier(p) {
			return "", "", fmt.Errorf("%s: %q is not a Python module name", path, p)
		}
	}
	return strings.Join(parts, "."), dir, nil
}

// IsInit reports whether path is a package's __init__.py.
func IsInit(path string) bool { return filepath.Base(path) == "__init__.py" }

// InPackage reports whether the file at path sits in a package.
func InPackage(path string) bool {
	abs, err := filepath.Abs(path)
	return err == nil && isFile(filepath.Join(filepath.Dir(abs), "__init__.py"))
}

// Identifier reports whether s is a Python identifier (ASCII digits).
func Identifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
