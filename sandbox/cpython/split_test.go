package cpython

import (
	"context"
	"os"
	"path/filepath"
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
}

// TestSplitSelect: with a selection, the split run runs the selected tests
// alone (a broken letter fails the selected test_letter case and no other
// one; a test that ends the process, never selected, does not end it),
// and says of the others that they did not run.
func TestSplitSelect(t *testing.T) {
	py := realPytest(t)
	exits := splitTests + "\n\ndef test_exits():\n    import os\n    os._exit(3)\n"
	tgt, suite := moduleTestDir(t, "grade", splitTarget, exits)
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{})
	if !check.splits() {
		t.Fatal("the check does not split")
	}
	broken := strings.Replace(splitTarget, `return "A"`, `return "Z"`, 1)
	tests := []struct {
		name string
		only []string // node id suffixes selected
		fail []string // those that fail
	}{
		{"the failing case", []string{"test_letter[95-A]", "test_raises"}, []string{"test_letter[95-A]"}},
		{"not the failing case", []string{"test_letter[85-B]", "test_stack", "test_gen"}, nil},
		{"none", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sel := make([]bool, len(suite.Cases))
			for i, c := range suite.Cases {
				for _, o := range tc.only {
					sel[i] = sel[i] || strings.HasSuffix(c.Name, "::"+o)
				}
			}
			out, err := check.Run(context.Background(), []byte(broken), sandbox.RunOptions{Select: sel})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out.Results {
				name := suite.Cases[i].Name
				skipped := i < len(out.Skipped) && out.Skipped[i]
				switch {
				case !sel[i]:
					if !skipped || r.Via != sandbox.ViaUnselected {
						t.Errorf("%s, not selected: %v (%s) via %q, skipped %v", name, r.Verdict, r.Detail, r.Via, skipped)
					}
				case skipped || r.Via != sandbox.ViaSplit:
					t.Errorf("%s, selected: skipped %v, via %q", name, skipped, r.Via)
				default:
					want := fitness.Passed
					for _, f := range tc.fail {
						if strings.HasSuffix(name, "::"+f) {
							want = fitness.WrongAnswer
						}
					}
					if r.Verdict != want {
						t.Errorf("%s: %v (%s), want %v", name, r.Verdict, r.Detail, want)
					}
				}
			}
		})
	}
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

// TestSplitCrossing: what plain pytest passes passes apart too, for the
// kinds of value real code hands its tests; a test file whose own code
// subclasses the target's class is judged in-process, and says why.
func TestSplitCrossing(t *testing.T) {
	py := realPytest(t)
	for _, tc := range []struct {
		name, target, tests string
		via                 string // every result's Via
	}{
		{"a sentinel object", "MISSING = object()\n\n\ndef get(d, k):\n    return d.get(k, MISSING)\n",
			"import lib\n\n\ndef test_missing():\n    assert lib.get({}, 1) is lib.MISSING\n\n\ndef test_found():\n    assert lib.get({1: 2}, 1) == 2\n", sandbox.ViaSplit},
		{"a cached function", "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n",
			"from lib import fib\n\n\ndef test_fib():\n    assert fib(20) == 6765\n", sandbox.ViaSplit},
		{"a match object", "import re\n\n\ndef find(s):\n    return re.search(r'(\\d+)', s)\n",
			"from lib import find\n\n\ndef test_find():\n    m = find('ab12c')\n    assert m.group(1) == '12'\n    assert find('x') is None\n", sandbox.ViaSplit},
		{"values of the standard library", "import collections, datetime, decimal\n\n\ndef stats(xs):\n    return collections.Counter(xs), datetime.date(2020, 1, 2), decimal.Decimal('1.5'), {1, 2}, (1, b'x'), 1j\n",
			"from lib import stats\nimport collections, datetime, decimal\n\n\ndef test_stats():\n    c, d, x, s, t, z = stats('aab')\n    assert c == collections.Counter(a=2, b=1) and isinstance(c, collections.Counter)\n    assert d == datetime.date(2020, 1, 2) and x == decimal.Decimal('1.5') and s == {1, 2} and t == (1, b'x') and z == 1j\n", sandbox.ViaSplit},
		{"a named tuple", "import collections\n\nPoint = collections.namedtuple('Point', 'x y')\n\n\ndef origin():\n    return Point(0, 0)\n",
			"from lib import origin, Point\n\n\ndef test_origin():\n    p = origin()\n    assert p == (0, 0)\n    assert p.x == 0 and isinstance(p, Point)\n", sandbox.ViaSplit},
		{"an enum", "import enum\n\n\nclass Color(enum.Enum):\n    RED = 1\n    BLUE = 2\n\n\ndef warm(c):\n    return c is Color.RED\n\n\ndef first():\n    return Color.RED\n",
			"from lib import Color, warm, first\n\n\ndef test_enum():\n    assert warm(Color.RED) and not warm(Color.BLUE)\n    assert first() == Color.RED and first() is Color.RED\n    assert [c.name for c in Color] == ['RED', 'BLUE']\n", sandbox.ViaSplit},
		{"a module global set by the test", "LIMIT = 3\n\n\ndef capped(x):\n    return min(x, LIMIT)\n",
			"import lib\n\n\ndef test_capped(monkeypatch):\n    monkeypatch.setattr(lib, 'LIMIT', 10)\n    assert lib.capped(7) == 7\n\n\ndef test_default():\n    assert lib.capped(7) == 3\n", sandbox.ViaSplit},
		{"parametrized over the target's functions", "def lo(xs):\n    return min(xs)\n\n\ndef hi(xs):\n    return max(xs)\n",
			"import pytest\nfrom lib import lo, hi\n\n\n@pytest.mark.parametrize('fn', [lo, hi])\ndef test_empty(fn):\n    with pytest.raises(ValueError):\n        fn([])\n", sandbox.ViaSplit},
		{"a slice handed to the target", "class Seq:\n    def __init__(self, xs):\n        self.xs = list(xs)\n\n    def __getitem__(self, i):\n        return self.xs[i]\n",
			"from lib import Seq\n\n\ndef test_slice():\n    assert Seq('abcd')[1:3] == ['b', 'c'] and Seq('abcd')[::-2] == ['d', 'b']\n", sandbox.ViaSplit},
		{"names the target imports from the standard library", "from contextlib import suppress\nfrom os.path import join\nfrom math import sqrt\n\n\ndef quiet(f):\n    with suppress(ValueError):\n        return f()\n",
			"import contextlib, math, os.path\nfrom lib import suppress, join, sqrt, quiet\n\n\ndef test_reexported():\n    assert suppress is contextlib.suppress and join is os.path.join and sqrt is math.sqrt\n    with suppress(KeyError):\n        raise KeyError\n    assert join('a', 'b') == 'a/b' and quiet(int) == 0\n", sandbox.ViaSplit},
		{"a copy of the target's object", "class TokenType(tuple):\n    def __getattr__(self, name):\n        if name.startswith('__'):\n            raise AttributeError(name)\n        new = TokenType(self + (name,))\n        setattr(self, name, new)\n        return new\n\n\nToken = TokenType()\n",
			"import copy\nfrom lib import Token\n\n\ndef test_copy():\n    assert copy.copy(Token.Keyword) is Token.Keyword or copy.copy(Token.Keyword) == Token.Keyword\n    assert copy.deepcopy(Token.Keyword.DML) == Token.Keyword.DML\n", sandbox.ViaSplit},
		{"a pickled object of the target's", "class Point:\n    def __init__(self, x):\n        self.x = x\n\n    def __eq__(self, other):\n        return self.x == other.x\n",
			"import pickle\nfrom lib import Point\n\n\ndef test_pickle():\n    assert pickle.loads(pickle.dumps(Point(1))) == Point(1)\n", sandbox.ViaInProcess + "the test pickles an object of the target's class Point, which does not cross"},
		{"a class method of a test's subclass of the target's", "class Version:\n    def __init__(self, v):\n        self.v = v\n\n    @classmethod\n    def parse(cls, s):\n        return cls(s)\n",
			"from lib import Version\n\n\ndef test_sub():\n    class Sub(Version):\n        pass\n\n    assert type(Sub.parse('1')) is Sub\n", sandbox.ViaInProcess + "the test subclasses the target's class Version, which does not cross"},
		{"a test class that subclasses the target's", "class Base:\n    def name(self):\n        return 'base'\n",
			"import lib\n\n\nclass Child(lib.Base):\n    def name(self):\n        return 'child'\n\n\nCHILD = Child()\n\n\ndef test_child():\n    assert CHILD.name() == 'child'\n", sandbox.ViaInProcess + "the test file subclasses the target's class Base, which does not cross"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tgt, suite := moduleTestDir(t, "lib", tc.target, tc.tests)
			check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{})
			out, err := check.Run(context.Background(), []byte(tc.target), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out.Results {
				if r.Verdict != fitness.Passed || r.Via != tc.via {
					t.Errorf("%s: %v (%s) via %q; want PASSED via %q", suite.Cases[i].Name, r.Verdict, r.Detail, r.Via, tc.via)
				}
			}
		})
	}
}

// TestSplitArgumentsChange: a call that changes its arguments in place
// changes the test's own objects, as plain pytest sees them; a generator
// of the target's is a generator in the test.
func TestSplitArgumentsChange(t *testing.T) {
	py := realPytest(t)
	const target = "def median(xs):\n    xs.sort()\n    return xs[len(xs) // 2]\n\n\ndef tally(d, k):\n    d.setdefault(k, []).append(1)\n\n\ndef squares(n):\n    for i in range(n):\n        yield i * i\n"
	const tests = "import types\nfrom lib import median, tally, squares\n\n\ndef test_sorted_in_place():\n    xs = [3, 1, 2]\n    assert median(xs) == 2\n    assert xs == [1, 2, 3]\n\n\ndef test_nested():\n    inner = []\n    d = {'a': inner}\n    tally(d, 'a')\n    tally(d, 'b')\n    assert d == {'a': [1], 'b': [1]} and d['a'] is inner\n\n\ndef test_generator():\n    g = squares(3)\n    assert isinstance(g, types.GeneratorType)\n    assert list(g) == [0, 1, 4]\n"
	tgt, suite := moduleTestDir(t, "lib", target, tests)
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{})
	for _, src := range []string{target, strings.Replace(target, "xs.sort()", "xs = sorted(xs)", 1)} {
		out, err := check.Run(context.Background(), []byte(src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := []fitness.Verdict{fitness.Passed, fitness.Passed, fitness.Passed}
		if src != target {
			want[0] = fitness.WrongAnswer // plain pytest fails it too: xs stays unsorted
		}
		for i, r := range out.Results {
			if r.Verdict != want[i] || r.Via != sandbox.ViaSplit {
				t.Errorf("%s: %v (%s) via %q; want %v", suite.Cases[i].Name, r.Verdict, r.Detail, r.Via, want[i])
			}
		}
	}
}

// TestSplitPackage: a target inside a package whose __init__ imports it
// (as jmespath's imports jmespath.functions): the candidate's process
// imports the package, which gets the candidate's code for the target.
func TestSplitPackage(t *testing.T) {
	py := realPytest(t)
	root := t.TempDir()
	const target = "from pkg import helpers\n\n\ndef double(x):\n    return helpers.times(x, 2)\n"
	for name, text := range map[string]string{
		"pytest.ini":          "[pytest]\n",
		"pkg/__init__.py":     "from pkg import funcs\nfrom pkg.funcs import double\n",
		"pkg/helpers.py":      "def times(x, n):\n    return x * n\n",
		"pkg/funcs.py":        target,
		"tests/test_funcs.py": "import pkg\nfrom pkg.funcs import double\n\n\ndef test_double():\n    assert double(3) == 6\n    assert pkg.double(2) == 4\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite, err := fitness.Load(filepath.Join(root, "tests/test_funcs.py"))
	if err != nil {
		t.Fatal(err)
	}
	check := newTestEngine(t, sandbox.Options{Suite: suite, Target: filepath.Join(root, "pkg/funcs.py"), Workers: 1, Python: py.Path, Verify: true}, config{})
	for _, tc := range []struct {
		src  string
		want fitness.Verdict
	}{{target, fitness.Passed}, {strings.Replace(target, "2)", "3)", 1), fitness.WrongAnswer}} {
		out, err := check.Run(context.Background(), []byte(tc.src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Results[0]; r.Verdict != tc.want || r.Via != sandbox.ViaSplit {
			t.Errorf("%v (%s) via %q; want %v apart", r.Verdict, r.Detail, r.Via, tc.want)
		}
	}
}
