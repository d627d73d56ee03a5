// The submissions of a batch and the module they run as.

package batch

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"repair/donors"
	"repair/fitness"
	"repair/internal/inputerr"
)

// Submissions expands the arguments: files as given, a directory as its
// Python files (not tests, not conftest.py, not the suite), sorted.
func Submissions(args []string, suite string) ([]string, error) {
	skip := map[string]bool{}
	if abs, err := filepath.Abs(suite); err == nil {
		skip[abs] = true
	}
	out, err := donors.Collect(args, skip)
	if err != nil {
		return nil, inputerr.New("%v", err)
	}
	if len(out) == 0 {
		return nil, inputerr.New("no submission: %s holds no Python file", strings.Join(args, " "))
	}
	return out, nil
}

var importRE = regexp.MustCompile(`^\s*(?:from\s+([A-Za-z_][A-Za-z0-9_]*)[\w.]*\s+import\b|import\s+([A-Za-z_][A-Za-z0-9_]*))`)

// SuiteModule is the module submissions run as: the suite's target's
// name, or the one module its test file imports that is neither the
// standard library, pytest, nor a file next to the test file.
func SuiteModule(s *fitness.Suite, python string) (string, error) {
	if s.Target != "" {
		return strings.TrimSuffix(filepath.Base(s.Target), ".py"), nil
	}
	if len(s.TestSource) == 0 {
		return "solution", nil // call and I/O cases do not import it by name
	}
	std := stdlibNames(python)
	dir := filepath.Dir(s.Path)
	var cands []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(s.TestSource))
	for sc.Scan() {
		m := importRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name := m[1] + m[2]
		if seen[name] || std[name] || name == "pytest" || name == "_pytest" {
			continue
		}
		seen[name] = true
		if _, err := os.Stat(filepath.Join(dir, name+".py")); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			continue
		}
		cands = append(cands, name)
	}
	if len(cands) != 1 {
		return "", inputerr.New("--module: cannot tell which module %s tests (it imports %v); name it", s.Path, cands)
	}
	return cands[0], nil
}

// stdlibNames are the standard library's top-level modules, from the
// interpreter when there is one.
func stdlibNames(python string) map[string]bool {
	names := map[string]bool{}
	for _, n := range strings.Fields("os sys re math json random itertools functools collections typing unittest string time datetime copy io abc dataclasses enum heapq bisect statistics fractions decimal operator") {
		names[n] = true
	}
	if python == "" {
		python = "python3"
	}
	out, err := exec.Command(python, "-S", "-c", "import sys; print(' '.join(sys.stdlib_module_names))").Output()
	if err == nil {
		for _, n := range strings.Fields(string(out)) {
			names[n] = true
		}
	}
	return names
}

// IsModuleName reports whether s is a Python module name.
func IsModuleName(s string) bool {
	return importRE.MatchString("import "+s) && !strings.ContainsAny(s, ". ")
}
