package cpython

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// pytestProject is a small project as people write its tests: a conftest
// fixture, parametrize with ids and marks, classes, unittest, tmp_path,
// capsys, monkeypatch, raises, warns, approx, xfail and skip marks, a test
// named without an underscore, and a helper module that imports the
// target.
var pytestProject = map[string]string{
	"conftest.py": `import pytest

@pytest.fixture
def triple():
    return (3, 1, 2)
`,
	"helper.py": `import mid

def via_target():
    return mid.middle(1, 2, 3)
`,
	"test_mid.py": `import unittest
import warnings

import pytest

import helper
from mid import middle, ratio, shout


@pytest.mark.parametrize("x,y,z,want", [
    (3, 1, 2, 2),
    (1, 2, 3, 2),
    pytest.param(2, 1, 3, 2, id="named"),
    pytest.param(5, 5, 1, 1, marks=pytest.mark.xfail(reason="known")),
])
def test_middle(x, y, z, want):
    assert middle(x, y, z) == want


def test_fixture(triple):
    assert middle(*triple) == 2


def test_tmp_path_and_capsys(tmp_path, capsys):
    p = tmp_path / "out.txt"
    p.write_text(shout("hi"))
    print(p.read_text())
    assert capsys.readouterr().out == "HI\n"


def test_monkeypatch(monkeypatch):
    monkeypatch.setattr(helper, "via_target", lambda: 7)
    assert helper.via_target() == 7


def test_helper():
    assert helper.via_target() == 2


def test_raises_and_warns():
    with pytest.raises(TypeError):
        middle(1)
    with pytest.warns(UserWarning):
        warnings.warn("careful", UserWarning)


def testapprox():
    assert ratio() == pytest.approx(0.3333333)


@pytest.mark.skip(reason="not now")
def test_skipped():
    assert False


@pytest.mark.xfail(strict=True)
def test_strict_xfail():
    assert middle(1, 1, 1) == 1


def test_error():
    raise KeyError("boom")


class TestClass:
    def test_in_class(self):
        assert middle(3, 2, 1) == 2


class TestUnit(unittest.TestCase):
    def test_unittest(self):
        self.assertEqual(middle(2, 3, 1), 2)
`,
}

// pytestCandidate has the classic middle bug (line 6 returns y for x).
const pytestCandidate = `def middle(x, y, z):
    if y < z:
        if x < y:
            return y
        elif x < z:
            return y
    else:
        if x > y:
            return y
        elif x > z:
            return x
    return z


def ratio():
    return 1 / 3


def shout(s):
    return s.upper()
`

// pytestProjectDir writes the project with src as mid.py.
func pytestProjectDir(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"mid.py": src}
	for k, v := range pytestProject {
		files[k] = v
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// realPytest is an interpreter with pytest, or the test is skipped.
func realPytest(t testing.TB) *Interpreter {
	t.Helper()
	python(t)
	for _, name := range append([]string{"python3"}, systemPythons...) {
		py, err := FindPython(context.Background(), name)
		if err == nil && FindPytest(context.Background(), py) != nil {
			return py
		}
	}
	t.Skip("no interpreter here has pytest (apt-get install python3-pytest)")
	return nil
}

// pytestVerdicts runs `python -m pytest -rA` in dir and maps each node id
// to what repair must make of it: passed (passed, xfailed, xpassed,
// skipped by a mark) or failed (failed, error).
func pytestVerdicts(t *testing.T, py *Interpreter, dir string) map[string]string {
	t.Helper()
	cmd := exec.Command(py.Path, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-q", "test_mid.py")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1")
	out, _ := cmd.CombinedOutput()
	got := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		word, rest, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		id, _, _ := strings.Cut(rest, " - ")
		switch word {
		case "PASSED", "XFAIL", "XPASS":
			got[id] = "passed"
		case "SKIPPED":
			// "SKIPPED [1] test_mid.py:NN: reason" names no node id: the
			// only skip of the project is test_skipped.
			got["test_mid.py::test_skipped"] = "passed"
		case "FAILED", "ERROR":
			got[id] = "failed"
		}
	}
	if len(got) == 0 {
		t.Fatalf("python -m pytest reported nothing:\n%s", out)
	}
	return got
}

// TestPytestAgreesWithPytest: the engine collects the node ids pytest
// collects and gives each the verdict `python -m pytest` gives it.
func TestPytestAgreesWithPytest(t *testing.T) {
	py := realPytest(t)
	dir := pytestProjectDir(t, pytestCandidate)
	want := pytestVerdicts(t, py, dir)

	suite, err := fitness.Load(filepath.Join(dir, "test_mid.py"))
	if err != nil {
		t.Fatal(err)
	}
	var notice bytes.Buffer
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: filepath.Join(dir, "mid.py"), Python: py.Path, Stderr: &notice}, config{})
	if !strings.Contains(notice.String(), "pytest ") {
		t.Errorf("no notice of which pytest runs the tests: %q", notice.String())
	}
	out, err := e.Run(context.Background(), []byte(pytestCandidate), sandbox.RunOptions{Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	// Coverage: the module's own lines (run at import) and the lines the
	// test ran, for localization.
	if i := caseIndex(suite, "test_mid.py::test_middle[named]"); i >= 0 {
		if diff := cmp.Diff([]int{1, 2, 3, 5, 6, 15, 19}, out.Results[i].Lines); diff != "" {
			t.Errorf("lines of test_middle[named] (-want +got):\n%s", diff)
		}
	}
	got := map[string]string{}
	for i, c := range suite.Cases {
		v := "failed"
		if out.Results[i].Verdict == fitness.Passed {
			v = "passed"
		}
		got[c.Name] = v
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts differ from python -m pytest (-pytest +engine):\n%s", diff)
	}
	// The failures say why, in one line.
	for i, c := range suite.Cases {
		r := out.Results[i]
		if r.Verdict != fitness.Passed && (r.Detail == "" || strings.Contains(r.Detail, "\n")) {
			t.Errorf("%s: %v with detail %q", c.Name, r.Verdict, r.Detail)
		}
	}
	if i := caseIndex(suite, "test_mid.py::test_middle[named]"); i < 0 || out.Results[i].Verdict != fitness.WrongAnswer {
		t.Errorf("test_middle[named] is not WRONG_ANSWER: %+v", out.Results)
	}
	if i := caseIndex(suite, "test_mid.py::test_error"); i < 0 || out.Results[i].Verdict != fitness.RuntimeError ||
		!strings.HasPrefix(out.Results[i].Detail, "KeyError") {
		t.Errorf("test_error is not a KeyError RUNTIME_ERROR: %+v", out.Results)
	}
}

func caseIndex(s *fitness.Suite, name string) int {
	for i, c := range s.Cases {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// TestPytestCandidates: what a candidate does to the tests decides their
// verdicts, run after run in the same engine.
func TestPytestCandidates(t *testing.T) {
	py := realPytest(t)
	dir := pytestProjectDir(t, pytestCandidate)
	suite, err := fitness.Load(filepath.Join(dir, "test_mid.py"))
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: filepath.Join(dir, "mid.py"), Python: py.Path}, config{})
	fixed := strings.Replace(pytestCandidate, "        elif x < z:\n            return y", "        elif x < z:\n            return x", 1)
	skips := strings.Replace(pytestCandidate, "def shout(s):\n", "def shout(s):\n    import pytest\n    pytest.skip('no')\n", 1)
	loops := strings.Replace(pytestCandidate, "def ratio():\n", "def ratio():\n    while True:\n        pass\n", 1)
	for _, tc := range []struct {
		name, src string
		verdicts  map[string]fitness.Verdict // the others pass as with the fix
	}{
		{"fixed", fixed, nil},
		{"does not compile", "def middle(:\n", nil},
		{"skips", strings.Replace(skips, "            return y\n    else", "            return x\n    else", 1), map[string]fitness.Verdict{
			"test_mid.py::test_tmp_path_and_capsys": fitness.WrongAnswer,
		}},
		{"loops", strings.Replace(loops, "            return y\n    else", "            return x\n    else", 1), map[string]fitness.Verdict{
			"test_mid.py::testapprox": fitness.TimeLimitExceeded,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := e.Run(context.Background(), []byte(tc.src), sandbox.RunOptions{Timeout: 1e9})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range suite.Cases {
				want := fitness.Passed
				if tc.name == "does not compile" {
					want = fitness.CompilationError
				} else if v, ok := tc.verdicts[c.Name]; ok {
					want = v
				} else if c.Name == "test_mid.py::test_error" {
					want = fitness.RuntimeError
				} else if c.Name == "test_mid.py::test_strict_xfail" {
					want = fitness.WrongAnswer // passes: a strict xfail fails
				}
				if got := out.Results[i].Verdict; got != want {
					t.Errorf("%s: %v (%s), want %v", c.Name, got, out.Results[i].Detail, want)
				}
			}
		})
	}
}

// BenchmarkPytest evaluates candidates of the pytest project: pytest
// configured once per server (the default) against once per child.
func BenchmarkPytest(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  config
	}{{"configured-once", config{}}, {"per-child", config{pytestPerChild: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			py := realPytest(b)
			dir := b.TempDir()
			for name, text := range pytestProject {
				os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
			}
			os.WriteFile(filepath.Join(dir, "mid.py"), []byte(pytestCandidate), 0o644)
			suite, err := fitness.Load(filepath.Join(dir, "test_mid.py"))
			if err != nil {
				b.Fatal(err)
			}
			e := newTestEngine(b, sandbox.Options{Suite: suite, Target: filepath.Join(dir, "mid.py"), Python: py.Path, Workers: 2}, bc.cfg)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					src := pytestCandidate + fmt.Sprintf("\n# %d\n", i)
					if _, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
		})
	}
}

// TestPytestCoverageCoveredFunction: a function whose lines a test has
// all run is traced no further in that test (a loop of calls costs no
// tracing), and each test's coverage is still its own: a later test that
// calls the function again lists its lines, and one that does not, not.
func TestPytestCoverageCoveredFunction(t *testing.T) {
	py := realPytest(t)
	const target = `def step(x):
    return x + 1


def run(n):
    t = 0
    for _ in range(n):
        t = step(t)
    return t


def other(x):
    if x:
        return 1
    return 2
`
	const tests = `from cand import other, run, step


def test_run():
    assert run(50) == 50


def test_step_again():
    assert step(1) == 2


def test_other():
    assert other(0) == 2
`
	tgt, suite := testFileDir(t, target, tests)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path}, config{})
	out, err := e.Run(context.Background(), []byte(target), sandbox.RunOptions{Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{
		"test_run":        {1, 2, 5, 6, 7, 8, 9, 12},
		"test_step_again": {1, 2, 5, 12},
		"test_other":      {1, 5, 12, 13, 15},
	}
	for i, c := range suite.Cases {
		name := c.Name[strings.LastIndex(c.Name, "::")+2:]
		if r := out.Results[i]; r.Verdict != fitness.Passed {
			t.Errorf("%s: %v %s", name, r.Verdict, r.Detail)
		}
		if diff := cmp.Diff(want[name], out.Results[i].Lines); diff != "" {
			t.Errorf("lines of %s (-want +got):\n%s", name, diff)
		}
	}
}
