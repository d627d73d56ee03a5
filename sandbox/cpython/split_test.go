package cpython

import (
	"context"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// splitTests is a test file whose target is a module "grade", with the
// uses split.py must carry across: a call, a class and its methods, an
// exception class the target defines, pytest.raises, a generator, a
// fixture and parametrize, a module-level table, float results.
const splitTests = `import pytest

import grade
from grade import letter, Stack, Empty, evens

HIGH = [(95, "A"), (85, "B")]
LOW = [(55, "F")]


@pytest.mark.parametrize("score,want", HIGH + LOW)
def test_letter(score, want):
    assert letter(score) == want


def test_raises():
    with pytest.raises(ValueError, match="negative"):
        letter(-1)


@pytest.fixture
def stack():
    s = Stack()
    s.push(1)
    s.push(2)
    return s


def test_stack(stack):
    assert len(stack) == 2
    assert stack.pop() == 2
    assert isinstance(stack, Stack)
    assert stack.items == [1]


def test_empty():
    with pytest.raises(Empty):
        Stack().pop()
    with pytest.raises(LookupError):
        Stack().pop()


def test_gen():
    assert list(evens(5)) == [0, 2, 4]
    assert grade.average([1, 2]) == pytest.approx(1.5)
`

const splitTarget = `class Empty(LookupError):
    pass


class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        if not self.items:
            raise Empty("empty")
        return self.items.pop()

    def __len__(self):
        return len(self.items)


def letter(score):
    if score < 0:
        raise ValueError("negative score")
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    return "F"


def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


def average(xs):
    return sum(xs) / len(xs)
`

func TestSplitVerdicts(t *testing.T) {
	py := realPytest(t)
	tgt, suite := moduleTestDir(t, "grade", splitTarget, splitTests)
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{})
	if !check.splits() {
		t.Fatalf("the check does not split: verify %v pytest %v modules %v project %v path %q", check.opts.Verify, check.pytest != nil, check.modules, check.project != nil, check.opts.Suite.Path)
	}
	out, err := check.Run(context.Background(), []byte(splitTarget), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed || r.Via != sandbox.ViaSplit {
			t.Errorf("%s: %v (%s) via %q", suite.Cases[i].Name, r.Verdict, r.Detail, r.Via)
		}
	}
	_ = strings.Contains
}

// gradeTests is a test file whose asserts a submission must not reach.
const gradeTests = `import pytest

from grade import letter

HIGH = [(95, "A"), (85, "B")]


def test_high():
    for score, want in HIGH:
        assert letter(score) == want


def test_low():
    assert letter(55) == "F"


def test_key():
    assert sorted([3, 1], key=letter) == [3, 1] or True


def test_printed(capsys):
    letter(95)
    assert "grading 95" in capsys.readouterr().out
`

// TestSplitHostile: submissions that get full marks next to the tests
// without solving the exercise (the routes the deny list never named)
// fail when the test code runs in a process of its own; honest ones pass.
func TestSplitHostile(t *testing.T) {
	py := realPytest(t)
	const honest = "def letter(score):\n    print('grading', score)\n    return 'A' if score >= 90 else 'B' if score >= 80 else 'F'\n"
	P, W, R := fitness.Passed, fitness.WrongAnswer, fitness.RuntimeError
	rows := []struct {
		name string
		src  string
		want []fitness.Verdict // test_high, test_low, test_key, test_printed
	}{
		{"honest", honest, []fitness.Verdict{P, P, P, P}},
		{"frames through logging", `import logging

def letter(score):
    f = logging.currentframe()
    while f is not None:
        for k in ("WRONG", "RTE"):
            if k in f.f_globals:
                f.f_globals[k] = f.f_globals.get("PASSED", 0)
        if "HIGH" in f.f_globals:
            f.f_globals["HIGH"][:] = []
        f = f.f_back
    return "?"
`, []fitness.Verdict{W, W, P, W}},
		{"frames through traceback", `import traceback

def letter(score):
    for f, _ in traceback.walk_stack(None):
        f.f_globals.pop("HIGH", None)
    return "?"
`, []fitness.Verdict{W, W, P, W}},
		{"the test module's data", `def letter(score):
    t = __import__("test_grade")
    del t.HIGH[1:]
    return "A"
`, []fitness.Verdict{R, R, R, R}},
		{"mock.ANY", `def letter(score):
    return __import__("unittest.mock").mock.ANY
`, []fitness.Verdict{W, W, W, W}},
		{"always equal", `class S(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__

def letter(score):
    return S("?")
`, []fitness.Verdict{W, W, P, W}},
		{"reads the test file", `import ast, glob, os

def letter(score):
    for p in glob.glob("**/test_*.py", recursive=True) + glob.glob("/tmp/**/test_grade.py", recursive=True):
        src = open(p).read()
        return "A" if score > 90 else "B" if score > 80 else "F"
    return "?"
`, []fitness.Verdict{W, W, P, W}},
		{"exits at import", "import os\nos._exit(0)\n", []fitness.Verdict{R, R, R, R}},
		{"exits in a call", "import os\n\ndef letter(score):\n    os._exit(0)\n", []fitness.Verdict{R, R, R, R}},
		{"raises pytest's skip", `def letter(score):
    import _pytest.outcomes
    raise _pytest.outcomes.Skipped("no")
`, []fitness.Verdict{W, W, W, W}},
	}
	tgt, suite := moduleTestDir(t, "grade", honest, gradeTests)
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{})
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			out, err := check.Run(context.Background(), []byte(row.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out.Results {
				if r.Verdict != row.want[i] && !(row.want[i] != P && r.Verdict != P) {
					t.Errorf("%s: %v (%s) via %q; want %v", suite.Cases[i].Name, r.Verdict, r.Detail, r.Via, row.want[i])
				}
			}
		})
	}
}

func BenchmarkSplitCheck(b *testing.B) {
	py := realPytest(b)
	const honest = "def letter(score):\n    print('grading', score)\n    return 'A' if score >= 90 else 'B' if score >= 80 else 'F'\n"
	dir := b.TempDir()
	_ = dir
	for _, split := range []bool{false, true} {
		name := "in-process"
		if split {
			name = "split"
		}
		b.Run(name, func(b *testing.B) {
			tgt, suite := moduleTestDirB(b, "grade", honest, gradeTests)
			e, err := newEngine(context.Background(), sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{noSplit: !split})
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			for i := 0; i < b.N; i++ {
				if _, err := e.Run(context.Background(), []byte(honest), sandbox.RunOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSplitUncrossable: a test that hands the code under test a function
// of its own is judged in-process, and says so; the others still cross.
func TestSplitUncrossable(t *testing.T) {
	py := realPytest(t)
	const target = "def apply(f, x):\n    return f(x)\n\n\ndef double(x):\n    return 2 * x\n"
	const tests = "from mapper import apply, double\n\n\ndef test_lambda():\n    assert apply(lambda x: x + 1, 1) == 2\n\n\ndef test_builtin():\n    assert apply(abs, -3) == 3\n\n\ndef test_double():\n    assert double(4) == 8\n"
	tgt, suite := moduleTestDir(t, "mapper", target, tests)
	var stderr strings.Builder
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true, Stderr: &stderr}, config{})
	out, err := check.Run(context.Background(), []byte(target), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{sandbox.ViaInProcess + "the test passes the code under test a builtins.function, which does not cross", sandbox.ViaSplit, sandbox.ViaSplit}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed || r.Via != want[i] {
			t.Errorf("%s: %v (%s) via %q; want PASSED via %q", suite.Cases[i].Name, r.Verdict, r.Detail, r.Via, want[i])
		}
	}
	if !strings.Contains(stderr.String(), "judges test_mapper.py::test_lambda beside the code under test (in-process)") {
		t.Errorf("stderr does not say which test ran in-process:\n%s", stderr.String())
	}
}
