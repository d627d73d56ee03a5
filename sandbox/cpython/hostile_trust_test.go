package cpython

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// testFileDir writes a target and its test file into a fresh directory
// and returns the target's path and the loaded suite.
func testFileDir(t *testing.T, target, test string) (string, *fitness.Suite) {
	t.Helper()
	return moduleTestDir(t, "cand", target, test)
}

// moduleTestDir writes module.py (target) and test_module.py (test) into
// a fresh directory and returns the target's path and the loaded suite.
func moduleTestDir(t *testing.T, module, target, test string) (string, *fitness.Suite) {
	t.Helper()
	return moduleTestDirB(t, module, target, test)
}

// moduleTestDirB is moduleTestDir for tests and benchmarks.
func moduleTestDirB(t testing.TB, module, target, test string) (string, *fitness.Suite) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{module + ".py": target, "test_" + module + ".py": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite, err := fitness.Load(filepath.Join(dir, "test_"+module+".py"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, module+".py"), suite
}

// TestHostileCollection: a target that ends the process while pytest
// collects the tests is bad input naming the target (exit code 2), as
// sys.exit and pytest.exit on import are, never a failure of the sandbox.
func TestHostileCollection(t *testing.T) {
	py := realPytest(t)
	test := "from cand import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
	for _, tt := range []struct {
		name, src, want string
	}{
		{"os._exit on import", "import os\nos._exit(0)\n", "importing cand.py or test_cand.py ended the process (exit status 0"},
		{"SIGKILL on import", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "importing cand.py or test_cand.py ended the process (it was killed by signal 9)"},
		{"sys.exit on import", "import sys\nsys.exit(0)\n", "SystemExit: 0 (line 2)"},
		{"pytest.exit on import", "import pytest\npytest.exit('bye')\n", "bye"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tgt, suite := testFileDir(t, tt.src, test)
			_, err := newEngine(context.Background(), sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path}, config{})
			if err == nil || !inputerr.Is(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want bad input with %q", err, tt.want)
			}
		})
	}
}

// trustTests is the test file the attacks of TestHostileTestFiles try to
// pass with a wrong add (a + b + 1): two plain tests, one the test file
// marks xfail (it fails with any add: pytest passes it), one it skips.
const trustTests = `import pytest

from cand import add


def test_one():
    assert add(1, 2) == 3


def test_two():
    assert add(2, 2) == 4


@pytest.mark.xfail(reason="known")
def test_marked():
    assert add(0, 0) == 5


@pytest.mark.skip(reason="later")
def test_skipped():
    assert False
`

// TestHostileTestFiles: the verdicts of a test file run next to the code
// under test, which can reach pytest and the harness: each route below
// once made every test of a wrong add pass. Outcomes the code under test
// raises or marks (xfail, skip, exit) fail the test, in every run, unless
// the test file declared them. The routes that reach into the process
// (a patched pytest or harness, frames, gc, a test's __code__, an object
// equal to everything) still forge verdicts in the search's runs; the
// check of a delivered fix (sandbox.Options.Verify) fails them. (Plain
// test functions are called directly, but not once pytest's runner or the
// harness's pytest_verdict was replaced: their verdicts are those of the
// runner in every run, as under plain pytest.)
func TestHostileTestFiles(t *testing.T) {
	py := realPytest(t)
	const (
		P = fitness.Passed
		W = fitness.WrongAnswer
		R = fitness.RuntimeError
	)
	all := func(v fitness.Verdict) []fitness.Verdict { return []fitness.Verdict{v, v, v, v} }
	rows := []struct {
		name   string
		src    string
		search []fitness.Verdict // test_one, test_two, test_marked, test_skipped
		check  []fitness.Verdict // the same under the check of a delivered fix
		detail string            // in test_two's detail under the check
	}{
		{"a wrong add", "def add(a, b):\n    return a + b + 1\n", []fitness.Verdict{W, W, P, P}, []fitness.Verdict{W, W, P, P}, "assert 5 == 4"},
		{"the right add", "def add(a, b):\n    return a + b\n", all(P), all(P), ""},
		{"xfail call", "import pytest\n\ndef add(a, b):\n    pytest.xfail('no data')\n", []fitness.Verdict{W, W, W, P}, []fitness.Verdict{W, W, W, P},
			"xfailed, but the test file does not mark it xfail"},
		{"xfail call at import", "import pytest\npytest.xfail('no data')\n\ndef add(a, b):\n    return a + b + 1\n", all(R), all(R),
			"no data"},
		{"xfail marker on the items", `import gc
import pytest

def add(a, b):
    for o in gc.get_objects():
        if type(o).__name__ == "Function" and hasattr(o, "add_marker"):
            o.add_marker(pytest.mark.xfail(reason="forged"))
    return a + b + 1
`, []fitness.Verdict{W, W, P, P}, []fitness.Verdict{R, R, R, P}, "gc.get_objects"},
		{"skip marker on the items", `import gc
import pytest

def add(a, b):
    for o in gc.get_objects():
        if type(o).__name__ == "Function" and hasattr(o, "add_marker"):
            o.add_marker(pytest.mark.skip(reason="forged"))
    return a + b + 1
`, []fitness.Verdict{W, W, W, P}, []fitness.Verdict{R, R, R, P}, "gc.get_objects"},
		{"skip call", "import pytest\n\ndef add(a, b):\n    pytest.skip('not today')\n", []fitness.Verdict{W, W, W, P}, []fitness.Verdict{W, W, W, P}, "skipped: not today"},
		{"exit call", "import pytest\n\ndef add(a, b):\n    pytest.exit('bye')\n", []fitness.Verdict{R, R, R, P}, []fitness.Verdict{R, R, R, P}, "pytest.exit: "},
		{"runtest patch", `import _pytest.python

_pytest.python.Function.runtest = lambda self: None

def add(a, b):
    return a + b + 1
`, all(P), all(R), "the test machinery changed while the test ran (runtest of Function)"},
		{"verdict patch", `import sys

sys.modules["__main__"].real_pytest.pytest_verdict = lambda c, reports, excinfo: (0, b"", None)

def add(a, b):
    return a + b + 1
`, all(P), all(R), "the test machinery changed while the test ran (pytest_verdict of __main__)"},
		{"shm records", `import os
import sys

def add(a, b):
    h = sys.modules["__main__"]
    f = sys._getframe(1)
    while f is not None and "shm" not in f.f_locals:
        f = f.f_back
    shm, n = f.f_locals["shm"], f.f_locals["n"]
    off = h.JOB.unpack_from(shm, 32)[3]
    for i in range(n):
        h.REC.pack_into(shm, off, i, 0, 0, 0.0)
        off += h.REC.size
    h.HDR.pack_into(shm, 0, -1, 0.0, off, n)
    os._exit(0)
`, all(P), []fitness.Verdict{R, R, R, P}, "sys._getframe"},
		{"__code__ swap", `import gc

def _passes():
    pass

def add(a, b):
    for o in gc.get_objects():
        if type(o).__name__ == "function" and o.__name__.startswith("test_"):
            o.__code__ = _passes.__code__
    return a + b + 1
`, []fitness.Verdict{W, P, P, P}, []fitness.Verdict{R, R, R, P}, "gc.get_objects"},
		{"builtins patch", `import builtins

builtins.abs = lambda x: 0

def add(a, b):
    return a + b + 1
`, []fitness.Verdict{W, W, P, P}, all(R), "the test machinery changed while the test ran (abs of builtins)"},
		// The check compares the test machinery after every test in C loops
		// while nothing changed since the last test it found clean
		// (verify.quick): attacks made at the second call, after a clean
		// first test, are still named.
		{"runtest patch at the second call", secondCall("import _pytest.python", "_pytest.python.Function.runtest = lambda self: None"),
			[]fitness.Verdict{W, W, P, P}, []fitness.Verdict{W, R, P, P}, "the test machinery changed while the test ran (runtest of Function)"},
		{"builtins patch at the second call", secondCall("import builtins", "builtins.abs = lambda x: 0"),
			[]fitness.Verdict{W, W, P, P}, []fitness.Verdict{W, R, P, P}, "the test machinery changed while the test ran (abs of builtins)"},
		{"data made code at the second call", secondCall("import _pytest.runner", "_pytest.runner.__doc__ = lambda: None"),
			[]fitness.Verdict{W, W, P, P}, []fitness.Verdict{W, R, P, P}, "the test machinery changed while the test ran (__doc__ of _pytest.runner)"},
		{"key swapped at the second call", secondCall("import _pytest.runner", "f = _pytest.runner.call_and_report\n        del _pytest.runner.call_and_report\n        _pytest.runner.call_and_report = f"),
			[]fitness.Verdict{W, W, P, P}, []fitness.Verdict{W, W, P, P}, ""},
		{"__code__ swap from no frame of the target", `ns = {"__name__": "elsewhere"}
exec(compile("""
class Eq:
    def __eq__(self, other):
        import _pytest.python
        _pytest.python.Function.runtest.__code__ = (lambda self: None).__code__
        return True
""", "elsewhere.py", "exec"), ns)
calls = []

def add(a, b):
    calls.append(1)
    if len(calls) == 2:
        return ns["Eq"]()
    return a + b + 1
`, []fitness.Verdict{W, P, P, P}, []fitness.Verdict{W, R, P, P}, "the test machinery changed while the test ran (the code of Function.runtest)"},
		{"always-equal object", `class Any:
    def __eq__(self, other):
        return True

def add(a, b):
    return Any()
`, all(P), []fitness.Verdict{R, R, R, P}, "an object that compares by Any.__eq__, which the original does not define"},
	}
	tgt, suite := testFileDir(t, "def add(a, b):\n    return a + b + 1\n", trustTests)
	search := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path}, config{})
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{noSplit: true})
	// The check's engine as repair opens it: on the cases the search's
	// engine collected (Options.Collected), without a collection of its own.
	collected := *suite
	collected.Cases = slices.Clone(suite.Cases)
	checkCollected := newTestEngine(t, sandbox.Options{Suite: &collected, Target: tgt, Workers: 1, Python: py.Path, Verify: true, Collected: true}, config{noSplit: true})
	// A conftest file that defines a hook: each child configures pytest
	// itself, and what pytest's configuration changes of its own classes
	// (a plugin's patches) is not the candidate's doing.
	hooksTgt, hooksSuite := testFileDir(t, "def add(a, b):\n    return a + b + 1\n", trustTests)
	if err := os.WriteFile(filepath.Join(filepath.Dir(hooksTgt), "conftest.py"), []byte("def pytest_configure(config):\n    config.addinivalue_line('markers', 'slow: a slow test')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkHooks := newTestEngine(t, sandbox.Options{Suite: hooksSuite, Target: hooksTgt, Workers: 1, Python: py.Path, Verify: true}, config{noSplit: true})
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			for _, run := range []struct {
				e    *Engine
				want []fitness.Verdict
				what string
			}{{search, row.search, "search"}, {check, row.check, "check"}, {checkCollected, row.check, "check, collected by the search"},
				{checkHooks, row.check, "check, a conftest file with hooks"}} {
				out, err := run.e.Run(context.Background(), []byte(row.src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range out.Results {
					if r.Verdict != run.want[i] {
						t.Errorf("%s: %s: %v (%s); want %v", run.what, suite.Cases[i].Name, r.Verdict, r.Detail, run.want[i])
					}
				}
				if d := out.Results[1].Detail; run.e != search && !strings.Contains(d, row.detail) {
					t.Errorf("check: test_two's detail %q does not contain %q", d, row.detail)
				}
			}
		})
	}
}

// secondCall is a wrong add that runs attack, after imports, at its
// second call (test_two's).
func secondCall(imports, attack string) string {
	return imports + "\n\ncalls = []\n\n\ndef add(a, b):\n    calls.append(1)\n    if len(calls) == 2:\n        " + attack + "\n    return a + b + 1\n"
}

// TestHostileDoctest: a doctest suite's verdicts come from the standard
// doctest module, run next to the code under test: a candidate that
// patches its output checker passes in the search's runs, and fails under
// the check of a delivered fix.
func TestHostileDoctest(t *testing.T) {
	python(t)
	orig := "def add(a, b):\n    \"\"\"\n    >>> add(1, 2)\n    3\n    >>> add(2, 2)\n    4\n    \"\"\"\n    return a + b + 1\n"
	dir := t.TempDir()
	tgt := filepath.Join(dir, "cand.py")
	if err := os.WriteFile(tgt, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	suite, err := fitness.Load(fitness.DoctestPrefix + tgt)
	if err != nil {
		t.Fatal(err)
	}
	patched := "import doctest\n\ndoctest.OutputChecker.check_output = lambda *a: True\n\n" + orig
	for _, tt := range []struct {
		name          string
		src           string
		search, check fitness.Verdict
		detail        string
	}{
		{"the wrong add", orig, fitness.WrongAnswer, fitness.WrongAnswer, "expected 3, got 4"},
		{"the right add", strings.Replace(orig, "a + b + 1", "a + b", 1), fitness.Passed, fitness.Passed, ""},
		{"doctest checker patch", patched, fitness.Passed, fitness.RuntimeError, "the test machinery changed while the test ran (check_output of OutputChecker)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, run := range []struct {
				verify bool
				want   fitness.Verdict
			}{{false, tt.search}, {true, tt.check}} {
				e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Verify: run.verify}, config{})
				out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				r := out.Results[0]
				if r.Verdict != run.want || run.verify && !strings.Contains(r.Detail, tt.detail) {
					t.Errorf("verify %v: %v (%s); want %v with %q", run.verify, r.Verdict, r.Detail, run.want, tt.detail)
				}
			}
		})
	}
}

// TestCheckRefusedStaysInChild: a target that reads frames itself (as a
// library's deprecation warnings do) fails, under the check of a
// delivered fix, every test that reaches that read; what the hook refused
// was not reached, so the next test runs in the same child rather than a
// fresh one for each.
func TestCheckRefusedStaysInChild(t *testing.T) {
	py := realPytest(t)
	const target = "import sys\n\n\ndef where():\n    return sys._getframe(0).f_code.co_name\n\n\ndef double(x):\n    return 2 * x\n"
	const tests = "import os\nimport lib\n\nSEEN = []\n\n\ndef test_frames():\n    SEEN.append(os.getpid())\n    assert lib.where() == 'where'\n\n\ndef test_same_child():\n    assert lib.double(2) == 4\n    assert SEEN == [os.getpid()]\n"
	tgt, suite := moduleTestDir(t, "lib", target, tests)
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{noSplit: true})
	out, err := check.Run(context.Background(), []byte(target), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []fitness.Verdict{fitness.RuntimeError, fitness.Passed}
	for i, r := range out.Results {
		if r.Verdict != want[i] {
			t.Errorf("%s: %v (%s); want %v", suite.Cases[i].Name, r.Verdict, r.Detail, want[i])
		}
	}
	if d := out.Results[0].Detail; !strings.Contains(d, "reached the test machinery (sys._getframe)") {
		t.Errorf("test_frames: detail %q does not name the refused route", d)
	}
}

// TestCheckUnittestFile: under the check of a delivered fix, a test file
// of unittest classes that imports TestCase by that name (pytest then
// collects TestCase itself and gives it its setup fixtures, in the
// child, after the server's snapshot) passes in one child, as under
// pytest; a test that calls a method of the target twenty thousand times
// passes too (the check stops looking at what the class returns after
// ten thousand of the test's calls: it timed out).
func TestCheckUnittestFile(t *testing.T) {
	py := realPytest(t)
	const target = "class Counter:\n    def __init__(self):\n        self.n = 0\n\n    def __iter__(self):\n        return self\n\n    def __next__(self):\n        self.n += 1\n        return self.n\n"
	const tests = `import os
from unittest import TestCase

import lib

SEEN = []


class CounterTests(TestCase):
    def test_first(self):
        SEEN.append(os.getpid())
        self.assertEqual(next(lib.Counter()), 1)

    def test_many(self):
        c = lib.Counter()
        for _ in range(20000):
            next(c)
        self.assertEqual(next(c), 20001)
        self.assertEqual(SEEN, [os.getpid()])
`
	tgt, suite := moduleTestDir(t, "lib", target, tests)
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{noSplit: true})
	out, err := check.Run(context.Background(), []byte(target), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed {
			t.Errorf("%s: %v (%s)", suite.Cases[i].Name, r.Verdict, r.Detail)
		}
	}
}
