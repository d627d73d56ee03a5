// A plan's bugs: folder globs and {tests, target} pairs, each folder's
// suite and target found and loaded.

package experiment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/internal/userfile"
	"repair/program"
)

// bugs reads "bugs": folder globs and {tests, target, name} pairs.
func (ps *parser) bugs(n *yaml.Node, output string) ([]*Bug, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, ps.errorf(n, "bugs", "must be a list of folder globs or {tests, target} pairs")
	}
	if len(n.Content) == 0 {
		return nil, ps.errorf(n, "bugs", "the list is empty")
	}
	var out []*Bug
	where := map[string]string{}
	add := func(b *Bug, at *yaml.Node, key string) error {
		if prev, dup := where[b.Name]; dup {
			return ps.errorf(at, key, "bug %q is already listed by %s", b.Name, prev)
		}
		where[b.Name] = fmt.Sprintf("%s (line %d)", key, at.Line)
		out = append(out, b)
		return nil
	}
	outAbs, _ := filepath.Abs(output)
	for i, e := range n.Content {
		key := fmt.Sprintf("bugs[%d]", i)
		if e.Kind == yaml.MappingNode {
			f, err := ps.mapping(e, key, []string{"tests", "target", "name"})
			if err != nil {
				return nil, err
			}
			tn, ok := f["tests"]
			if !ok {
				return nil, ps.errorf(e, key, "missing \"tests\" (the suite file)")
			}
			tests, err := ps.scalar(tn, key+".tests")
			if err != nil {
				return nil, err
			}
			var target string
			if t, ok := f["target"]; ok {
				if target, err = ps.scalar(t, key+".target"); err != nil {
					return nil, err
				}
				target = ps.resolve(target)
			}
			b, err := ps.loadBug(ps.resolve(tests), target)
			if err != nil {
				return nil, ps.errorf(e, key, "%v", err)
			}
			b.Name = ps.name(filepath.Dir(b.Tests), filepath.IsAbs(tests))
			if nn, ok := f["name"]; ok {
				if b.Name, err = ps.scalar(nn, key+".name"); err != nil {
					return nil, err
				}
				if b.Name == "" {
					return nil, ps.errorf(nn, key+".name", "must not be empty")
				}
			}
			if err := add(b, e, key); err != nil {
				return nil, err
			}
			continue
		}
		pat, err := ps.scalar(e, key)
		if err != nil {
			return nil, ps.errorf(e, key, "must be a folder glob or a {tests, target} pair")
		}
		matches, err := filepath.Glob(ps.resolve(pat))
		if err != nil {
			return nil, ps.errorf(e, key, "bad glob %q: %v", pat, err)
		}
		sort.Strings(matches)
		wild := strings.ContainsAny(pat, "*?[")
		found := 0
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil || !fi.IsDir() {
				continue // bench/README.md next to the bug folders
			}
			if abs, _ := filepath.Abs(m); abs == outAbs {
				continue
			}
			if wild && !hasPython(m) {
				continue // results/, plots/, docs/ next to the bug folders
			}
			found++
			tests, err := findSuite(m)
			if err != nil {
				return nil, ps.errorf(e, key, "%s: %v", ps.rel(m), err)
			}
			b, err := ps.loadBug(tests, "")
			if err != nil {
				return nil, ps.errorf(e, key, "%v", err)
			}
			b.Name = ps.name(m, filepath.IsAbs(pat))
			if err := add(b, e, key); err != nil {
				return nil, err
			}
		}
		if found == 0 {
			return nil, ps.errorf(e, key, "%q matches no folder", pat)
		}
	}
	return out, nil
}

// hasPython reports whether dir holds a .py file.
func hasPython(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	return len(m) > 0
}

// findSuite finds the suite of a bug folder: tests.json, tests.jsonl or
// the one test_*.py.
func findSuite(dir string) (string, error) {
	for _, name := range []string{"tests.json", "tests.jsonl"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	py, _ := filepath.Glob(filepath.Join(dir, "test_*.py"))
	switch len(py) {
	case 1:
		return py[0], nil
	case 0:
		return "", fmt.Errorf("no suite in the folder (want tests.json, tests.jsonl or a test_*.py)")
	}
	return "", fmt.Errorf("%d test_*.py files: list the bug as {tests: FILE, target: FILE}", len(py))
}

// findTarget finds the target of a bug folder whose suite names none:
// FOLDER.py, else the one .py file that is not a test or a reference.
func findTarget(dir string) (string, error) {
	p := filepath.Join(dir, filepath.Base(dir)+".py")
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p, nil
	}
	all, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	var cands []string
	for _, f := range all {
		b := filepath.Base(f)
		if strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py") || b == "reference.py" || b == "conftest.py" {
			continue
		}
		cands = append(cands, f)
	}
	if len(cands) == 1 {
		return cands[0], nil
	}
	return "", fmt.Errorf("cannot tell the target among %d .py files: add \"target\" to the suite, or list the bug as {tests: FILE, target: FILE}", len(cands))
}

// loadBug loads a suite and its target (target "" means the suite's own, or
// the folder's) and checks they fit.
func (ps *parser) loadBug(tests, target string) (*Bug, error) {
	suite, err := fitness.Load(tests)
	if err != nil {
		return nil, err
	}
	if target == "" {
		target = suite.Target
	}
	if target == "" {
		if target, err = findTarget(filepath.Dir(tests)); err != nil {
			return nil, fmt.Errorf("%s: %v", ps.rel(filepath.Dir(tests)), err)
		}
	}
	src, err := userfile.Read(target, program.MaxSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("target %s: %v", ps.rel(target), err)
	}
	prog, err := program.Parse(target, src)
	if err != nil {
		return nil, err
	}
	if err := suite.CheckTarget(target, prog.Scopes[0].Names); err != nil {
		return nil, err
	}
	path := filepath.Base(target)
	if r, err := filepath.Rel(filepath.Dir(tests), target); err == nil && !strings.HasPrefix(r, "..") {
		path = filepath.ToSlash(r)
	}
	return &Bug{Target: target, Tests: tests, TargetRel: ps.rel(target), TestsRel: ps.rel(tests), Path: path, Src: src, Suite: suite}, nil
}
