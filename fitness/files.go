package fitness

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"unicode/utf8"

	"repair/internal/inputerr"
	"repair/internal/userfile"
)

// MaxTestFiles bounds the test files of a suite of several.
const MaxTestFiles = 500

// TestFiles resolves what --tests names when it is a directory or a
// comma-separated list: the Python test files pytest collects under a
// directory (test_*.py and *_test.py, hidden directories and virtual
// environments left out), or the files listed; nil, false for a single
// file. Every error is an [inputerr.Error].
func TestFiles(arg string) ([]string, bool, error) {
	files, several, _, err := TestFilesLeft(arg)
	return files, several, err
}

// TestFilesLeft is TestFiles, and the test files found under a directory
// that it leaves out: those whose name is no Python module name
// (test_max-min.py), which the sandbox cannot import as their module.
// pytest collects them; a file named in a list is refused instead.
func TestFilesLeft(arg string) ([]string, bool, []string, error) {
	var out, left []string
	items := strings.Split(arg, ",")
	if len(items) == 1 {
		fi, err := os.Stat(arg)
		if err != nil || !fi.IsDir() {
			return nil, false, nil, nil
		}
	}
	seen := map[string]bool{}
	add := func(p string) {
		abs, err := filepath.Abs(p)
		if err == nil && !seen[abs] {
			seen[abs] = true
			out = append(out, p)
		}
	}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		fi, err := os.Stat(it)
		if err != nil {
			return nil, true, nil, readError(it, err)
		}
		if !fi.IsDir() {
			if !strings.EqualFold(filepath.Ext(it), ".py") {
				return nil, true, nil, inputerr.New("%s: several test suites must be Python test files (test_*.py)", it)
			}
			add(it)
			continue
		}
		var found []string
		err = filepath.WalkDir(it, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != it && (strings.HasPrefix(name, ".") || name == "__pycache__" || name == "node_modules" || name == "venv" || name == "site-packages") {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test_") || strings.HasSuffix(name, "_test.py")) {
				if !isIdentifier(strings.TrimSuffix(name, ".py")) {
					left = append(left, p)
					return nil
				}
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, true, nil, inputerr.New("%s: %v", it, err)
		}
		if len(found) == 0 && len(left) > 0 {
			return nil, true, nil, inputerr.New("%s: no test file's name is a Python module name (%s): rename them (letters, digits and _)", it, strings.Join(left, ", "))
		}
		if len(found) == 0 {
			return nil, true, nil, inputerr.New("%s: is a directory without test files (test_*.py, *_test.py): name a suite file, or the project's tests directory", it)
		}
		slices.Sort(found)
		for _, p := range found {
			add(p)
		}
	}
	if len(out) == 0 {
		return nil, true, nil, inputerr.New("--tests %q: no test files", arg)
	}
	if len(out) > MaxTestFiles {
		return nil, true, nil, inputerr.New("%s: more than %d test files", arg, MaxTestFiles)
	}
	return out, true, left, nil
}

// LoadFiles loads several Python test files as one suite (Suite.Parts),
// named path in messages.
func LoadFiles(path string, files []string) (*Suite, error) {
	s := &Suite{Path: path, MemoryMB: DefaultMemoryMB}
	modules := map[string]string{}
	var src bytes.Buffer
	for _, f := range files {
		p, err := loadPart(f)
		if err != nil {
			return nil, err
		}
		if len(p.TestSource) == 0 || p.Doctest {
			return nil, inputerr.New("%s: several test suites must be Python test files (test_*.py)", f)
		}
		if prev, dup := modules[p.TestModule]; dup && len(files) > 1 {
			// The sandbox imports each file as its module name.
			return nil, inputerr.New("%s: a test file of the same module name as %s (rename one)", f, prev)
		}
		modules[p.TestModule] = f
		s.Parts = append(s.Parts, p)
		src.Write(p.TestSource)
		src.WriteByte('\n')
	}
	s.TestSource = src.Bytes()
	s.TestModule = s.Parts[0].TestModule
	s.JoinParts()
	return s, nil
}

// loadPart loads one file of a suite of several.
func loadPart(path string) (*Suite, error) {
	if !strings.EqualFold(filepath.Ext(path), ".py") {
		return Load(path)
	}
	data, err := userfile.Read(path, MaxFileSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		return nil, readError(path, err)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		line, col := position(data, invalidUTF8(data))
		return nil, inputerr.New("%s:%d:%d: not UTF-8 text", path, line, col)
	}
	s, err := parseTestFile(path, data, true)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	return s, nil
}

// DropPart leaves part i out of a suite of several files (pytest
// collects nothing from it), and joins the others' cases again.
func (s *Suite) DropPart(i int) {
	s.Parts = append(s.Parts[:i:i], s.Parts[i+1:]...)
	s.JoinParts()
}

// JoinParts makes the suite's cases those of its parts, in order, each
// named by its file when the part's engine did not (a node id names it
// already: "test_a.py::test_x").
func (s *Suite) JoinParts() {
	if s.Parts == nil {
		return
	}
	s.Cases = nil
	for _, p := range s.Parts {
		base := filepath.Base(p.Path)
		for _, c := range p.Cases {
			if !strings.Contains(c.Name, "::") {
				c.Name = base + "::" + c.Name
			}
			s.Cases = append(s.Cases, c)
		}
	}
}

// partOf is the part of a suite of several files that holds case i, and
// the case's index there; nil for a suite of one file.
func (s *Suite) partOf(i int) (*Suite, int) {
	for _, p := range s.Parts {
		if i < len(p.Cases) {
			return p, i
		}
		i -= len(p.Cases)
	}
	return nil, 0
}
