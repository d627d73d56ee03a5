package cpython

import (
	"context"
	"os"
	"path/filepath"
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
	dir := t.TempDir()
	for name, text := range map[string]string{"cand.py": target, "test_cand.py": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite, err := fitness.Load(filepath.Join(dir, "test_cand.py"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "cand.py"), suite
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
// under test, which can reach pytest: each route below once made every
// test of a wrong add pass. Outcomes the code under test raises or marks
// (xfail, skip, exit) fail the test unless the test file declared them.
func TestHostileTestFiles(t *testing.T) {
	py := realPytest(t)
	const (
		P = fitness.Passed
		W = fitness.WrongAnswer
		R = fitness.RuntimeError
	)
	rows := []struct {
		name   string
		src    string
		want   []fitness.Verdict // test_one, test_two, test_marked, test_skipped
		detail string            // in test_two's detail
	}{
		{"a wrong add", "def add(a, b):\n    return a + b + 1\n", []fitness.Verdict{W, W, P, P}, "assert 5 == 4"},
		{"the right add", "def add(a, b):\n    return a + b\n", []fitness.Verdict{P, P, P, P}, ""},
		{"xfail call", "import pytest\n\ndef add(a, b):\n    pytest.xfail('no data')\n", []fitness.Verdict{W, W, W, P},
			"xfailed, but the test file does not mark it xfail"},
		{"xfail call at import", "import pytest\npytest.xfail('no data')\n\ndef add(a, b):\n    return a + b + 1\n", []fitness.Verdict{R, R, R, R},
			"no data"},
		{"xfail marker on the items", `import gc
import pytest

def add(a, b):
    for o in gc.get_objects():
        if type(o).__name__ == "Function" and hasattr(o, "add_marker"):
            o.add_marker(pytest.mark.xfail(reason="forged"))
    return a + b + 1
`, []fitness.Verdict{W, W, P, P}, "xfailed, but the test file does not mark it xfail"},
		{"skip marker on the items", `import gc
import pytest

def add(a, b):
    for o in gc.get_objects():
        if type(o).__name__ == "Function" and hasattr(o, "add_marker"):
            o.add_marker(pytest.mark.skip(reason="forged"))
    return a + b + 1
`, []fitness.Verdict{W, W, W, P}, "skipped: forged"},
		{"skip call", "import pytest\n\ndef add(a, b):\n    pytest.skip('not today')\n", []fitness.Verdict{W, W, W, P}, "skipped: not today"},
		{"exit call", "import pytest\n\ndef add(a, b):\n    pytest.exit('bye')\n", []fitness.Verdict{R, R, R, P}, "pytest.exit: "},
	}
	tgt, suite := testFileDir(t, "def add(a, b):\n    return a + b + 1\n", trustTests)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path}, config{})
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			out, err := e.Run(context.Background(), []byte(row.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out.Results {
				if r.Verdict != row.want[i] {
					t.Errorf("%s: %v (%s); want %v", suite.Cases[i].Name, r.Verdict, r.Detail, row.want[i])
				}
			}
			if d := out.Results[1].Detail; !strings.Contains(d, row.detail) {
				t.Errorf("test_two's detail %q does not contain %q", d, row.detail)
			}
		})
	}
}
