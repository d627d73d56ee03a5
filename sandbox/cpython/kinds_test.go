package cpython

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// TestVerdicts runs every case kind to every verdict it can reach.
func TestVerdicts(t *testing.T) {
	python(t)
	tests := []struct {
		name string
		src  string
		c    fitness.Case
		want brief
	}{
		{"call passed", "def f(x):\n    return x + 1\n", call("f", "[1]", "2"), brief{fitness.Passed, ""}},
		{"call wrong answer", "def f(x):\n    return x + 1\n", call("f", "[1]", "3"), brief{fitness.WrongAnswer, "expected 3, got 2"}},
		{"call kwargs", "def f(x, y, z):\n    return x - y + z\n",
			with(call("f", "", "4"), func(c *fitness.Case) { c.Kwargs = []byte(`{"x": 2, "y": 1, "z": 3}`) }), brief{fitness.Passed, ""}},
		{"call no return value checked", "def f():\n    return 7\n", call("f", "", ""), brief{fitness.Passed, ""}},
		{"call expected null", "def f():\n    pass\n", call("f", "", "null"), brief{fitness.Passed, ""}},
		{"call null is not 0", "def f():\n    return 0\n", call("f", "", "null"), brief{fitness.WrongAnswer, "expected None, got 0"}},
		{"call True is not 1", "def f():\n    return True\n", call("f", "", "1"), brief{fitness.WrongAnswer, "expected 1, got True"}},
		{"call string repr", "def f():\n    return 'abd'\n", call("f", "", `"abc"`), brief{fitness.WrongAnswer, "expected 'abc', got 'abd'"}},
		{"call long repr shortened", "def f():\n    return list(range(1000))\n", call("f", "", "[1]"),
			brief{fitness.WrongAnswer, "expected [1], got [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26..."}},
		{"call expected_args", "def s(a):\n    a.sort()\n",
			with(call("s", "[[3, 1, 2]]", ""), func(c *fitness.Case) { c.ExpectedArgs = []byte("[[1, 2, 3]]") }), brief{fitness.Passed, ""}},
		{"call expected_args wrong", "def s(a):\n    a.reverse()\n",
			with(call("s", "[[3, 1, 2]]", ""), func(c *fitness.Case) { c.ExpectedArgs = []byte("[[1, 2, 3]]") }),
			brief{fitness.WrongAnswer, "expected arguments [[1, 2, 3]] after the call, got [[2, 1, 3]]"}},
		{"call expected and expected_args", "def s(a):\n    a.sort()\n    return len(a)\n",
			with(call("s", "[[3, 1, 2]]", "3"), func(c *fitness.Case) { c.ExpectedArgs = []byte("[[1, 2, 3]]") }), brief{fitness.Passed, ""}},
		{"call raises", "def f(x):\n    raise ValueError('bad input')\n",
			with(call("f", "[1]", ""), func(c *fitness.Case) { c.Raises = "ValueError" }), brief{fitness.Passed, ""}},
		{"call raises a base class", "def f(x):\n    return {}[x]\n",
			with(call("f", "[1]", ""), func(c *fitness.Case) { c.Raises = "LookupError" }), brief{fitness.Passed, ""}},
		{"call raises a dotted name", "import json\ndef f(x):\n    return json.loads(x)\n",
			with(call("f", `["{"]`, ""), func(c *fitness.Case) { c.Raises = "json.JSONDecodeError" }), brief{fitness.Passed, ""}},
		{"call raises but returned", "def f(x):\n    return x\n",
			with(call("f", "[2]", ""), func(c *fitness.Case) { c.Raises = "ValueError" }), brief{fitness.WrongAnswer, "expected ValueError to be raised, got 2"}},
		{"call raises another exception", "def f(x):\n    return x + 'a'\n",
			with(call("f", "[2]", ""), func(c *fitness.Case) { c.Raises = "ValueError" }),
			brief{fitness.RuntimeError, "TypeError: unsupported operand type(s) for +: 'int' and 'str' (line 2)"}},
		{"call exception", "def f(x):\n    if x:\n        raise ValueError('bad input')\n",
			call("f", "[1]", "1"), brief{fitness.RuntimeError, "ValueError: bad input (line 3)"}},
		{"call exception of the candidate's class", "class Oops(Exception):\n    pass\ndef f():\n    raise Oops('no')\n",
			call("f", "", "1"), brief{fitness.RuntimeError, "Oops: no (line 4)"}},
		{"call missing callee", "def g():\n    pass\n", call("f", "", "1"), brief{fitness.RuntimeError, "the candidate does not define f"}},
		{"call dotted callee", "class Stack:\n    @staticmethod\n    def push(x):\n        return [x]\n", call("Stack.push", "[1]", "[1]"), brief{fitness.Passed, ""}},
		{"call error at import", "x = 1 / 0\ndef f():\n    return 1\n", call("f", "", "1"), brief{fitness.RuntimeError, "ZeroDivisionError: division by zero (line 1)"}},
		{"call memory", "def f():\n    return [0] * 10**10\n", call("f", "", "1"), brief{fitness.MemoryLimitExceeded, "MemoryError"}},
		{"call memory expected", "def f():\n    return [0] * 10**10\n",
			with(call("f", "", ""), func(c *fitness.Case) { c.Raises = "MemoryError" }), brief{fitness.Passed, ""}},
		{"call recursion", "def f():\n    return f()\n", call("f", "", "1"), brief{fitness.RuntimeError, "RecursionError: maximum recursion depth exceeded (line 2)"}},
		{"call timeout", "def f():\n    while True:\n        pass\n",
			with(call("f", "", "1"), func(c *fitness.Case) { c.Timeout = 0.5 }), brief{fitness.TimeLimitExceeded, "timed out after 0.5s of CPU time (--case-timeout raises the limit)"}},
		{"call sys.exit", "import sys\ndef f():\n    sys.exit(3)\n", call("f", "", "1"), brief{fitness.RuntimeError, "SystemExit: 3 (line 3)"}},
		{"call printing", "def f():\n    for i in range(1000):\n        print(i)\n    return 1\n", call("f", "", "1"), brief{fitness.Passed, ""}},
		{"call reads empty stdin", "def f():\n    return input()\n", call("f", "", "1"), brief{fitness.RuntimeError, "EOFError: EOF when reading a line (line 2)"}},
		{"io passed", "print(sum(map(int, input().split())))\n", ioCase("1 2\n", "3\n"), brief{fitness.Passed, ""}},
		{"io wrong answer", "print(sum(map(int, input().split())) + 1)\n", ioCase("1 2\n", "3\n"), brief{fitness.WrongAnswer, "line 1: expected '3', got '4'"}},
		{"io line count", "print(1)\n", ioCase("", "1\n2\n"), brief{fitness.WrongAnswer, "expected 2 lines, got 1"}},
		{"io float tolerance", "print(0.1 + 0.2)\n", ioCase("", "0.3\n"), brief{fitness.Passed, ""}},
		{"io stdin buffer and stderr", "import sys\ndata = sys.stdin.buffer.read().split()\nprint('debug', file=sys.stderr)\nsys.stdout.buffer.write(b'%d\\n' % sum(map(int, data)))\n",
			ioCase("1 2 3", "6"), brief{fitness.Passed, ""}},
		{"io as __main__", "def main():\n    print('hi')\nif __name__ == '__main__':\n    main()\n", ioCase("", "hi\n"), brief{fitness.Passed, ""}},
		{"io exit 0", "import sys\nprint(1)\nsys.exit(0)\nprint(2)\n", ioCase("", "1\n"), brief{fitness.Passed, ""}},
		{"io exit 3", "import sys\nprint(1)\nsys.exit(3)\n", ioCase("", "1\n"), brief{fitness.RuntimeError, "SystemExit: 3 (line 3)"}},
		{"io exception", "x = int(input())\n", ioCase("abc\n", ""), brief{fitness.RuntimeError, "ValueError: invalid literal for int() with base 10: 'abc' (line 1)"}},
		{"io timeout", "while True:\n    pass\n", with(ioCase("", ""), func(c *fitness.Case) { c.Timeout = 0.3 }), brief{fitness.TimeLimitExceeded, "timed out after 0.3s of CPU time (--case-timeout raises the limit)"}},
		{"io memory", "x = ' ' * 10**10\n", ioCase("", ""), brief{fitness.MemoryLimitExceeded, "MemoryError"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := runOne(t, tt.src, []fitness.Case{tt.c}, sandbox.RunOptions{}, config{})
			if diff := cmp.Diff([]brief{tt.want}, briefs(out)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompileError(t *testing.T) {
	out := runOne(t, "def f(:\n    pass\n", []fitness.Case{call("f", "", "1"), call("f", "", "2")}, sandbox.RunOptions{}, config{})
	if !strings.HasPrefix(out.CompileError, "SyntaxError: ") || !strings.HasSuffix(out.CompileError, "(line 1)") {
		t.Errorf("CompileError = %q; want a SyntaxError on line 1", out.CompileError)
	}
	for i, r := range out.Results {
		if r.Verdict != fitness.CompilationError {
			t.Errorf("case %d: %v; want COMPILATION_ERROR", i, r.Verdict)
		}
	}
}

// TestTestFile runs test_* functions of a Python test file that imports the
// candidate by the target's module name, with the pytest stand-in.
func TestTestFile(t *testing.T) {
	python(t)
	testSrc := `import pytest
from middle import middle
import middle as mod
import helper

def test_ok():
    assert middle(1, 2, 3) == 2

def test_wrong():
    assert middle(2, 1, 3) == 2, "middle is wrong"

def test_error():
    return middle(1, 2)

@pytest.mark.parametrize("x, want", [(1, 1), (2, 2), pytest.param(3, 3)])
def test_param(x, want):
    assert middle(x, x, x) == want

@pytest.mark.parametrize("x", [1, 5])
def test_param_fails(x):
    assert middle(x, 2, 3) == 2

def test_raises():
    with pytest.raises(TypeError):
        middle(1)

def test_approx():
    assert mod.ratio() == pytest.approx(0.3333333)

def test_helper_gets_candidate():
    assert helper.via_target() == 2

@pytest.mark.skip(reason="not now")
def test_skipped():
    assert False

async def test_async():
    assert middle(3, 2, 1) == 2
`
	cand := `def middle(x, y, z):
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
`
	tgt := target(t, "middle.py", map[string]string{
		"helper.py":      "import middle\ndef via_target():\n    return middle.middle(1, 2, 3)\n",
		"test_middle.py": testSrc,
	})
	names := []string{"test_ok", "test_wrong", "test_error", "test_param", "test_param_fails", "test_raises", "test_approx", "test_helper_gets_candidate", "test_skipped", "test_async"}
	var cases []fitness.Case
	for _, n := range names {
		cases = append(cases, fitness.Case{Name: n, Kind: fitness.Test, Function: n, Weight: 1, Timeout: 5})
	}
	suite := &fitness.Suite{Path: strings.TrimSuffix(tgt, "middle.py") + "test_middle.py", MemoryMB: 256, Cases: cases,
		TestSource: []byte(testSrc), TestModule: "test_middle"}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt}, config{noPytest: true}) // the built-in runner; pytest_test.go has the real one
	out, err := e.Run(context.Background(), []byte(cand), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{fitness.Passed, ""},
		{fitness.WrongAnswer, "AssertionError: middle is wrong (test_middle.py line 10)"},
		{fitness.RuntimeError, "TypeError: middle() missing 1 required positional argument: 'z' (test_middle.py line 13)"},
		{fitness.Passed, ""},
		{fitness.WrongAnswer, "AssertionError (test_middle.py line 21)"},
		{fitness.Passed, ""},
		{fitness.Passed, ""},
		{fitness.Passed, ""},
		{fitness.Passed, ""},
		{fitness.Passed, ""},
	}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestCoverage checks the executed lines of each case (cases that take
// the path of the case before them included: a record says so rather
// than list them, REC_SAME_LINES).
func TestCoverage(t *testing.T) {
	src := `def f(x):
    if x > 0:
        return 1
    y = -1
    for i in range(2):
        y -= i
    return y

def unused():
    return 0
`
	cases := []fitness.Case{call("f", "[1]", "1"), call("f", "[-1]", "-2"), with(call("f", "[0]", "1"), func(c *fitness.Case) { c.Timeout = 5 }),
		call("f", "[2]", "1"), call("f", "[3]", "1")}
	out := runOne(t, src, cases, sandbox.RunOptions{Coverage: true}, config{})
	want := [][]int{{1, 2, 3, 9}, {1, 2, 4, 5, 6, 7, 9}, {1, 2, 4, 5, 6, 7, 9}, {1, 2, 3, 9}, {1, 2, 3, 9}}
	var got [][]int
	for _, r := range out.Results {
		got = append(got, r.Lines)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coverage mismatch (-want +got):\n%s", diff)
	}
	if out.Results[2].Verdict != fitness.WrongAnswer {
		t.Errorf("case 2: %v; want WRONG_ANSWER", out.Results[2].Verdict)
	}
}

// TestCoverageOfCrashedCase: the lines a case ran before its process died
// are kept.
func TestCoverageOfCrashedCase(t *testing.T) {
	src := "import os\ndef f():\n    x = 1\n    os._exit(0)\n    return x\n"
	out := runOne(t, src, []fitness.Case{call("f", "", "1")}, sandbox.RunOptions{Coverage: true}, config{})
	r := out.Results[0]
	if r.Verdict != fitness.RuntimeError || r.Detail != "exited with status 0" {
		t.Errorf("result %v %q; want RUNTIME_ERROR exited with status 0", r.Verdict, r.Detail)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4}, r.Lines); diff != "" {
		t.Errorf("coverage mismatch (-want +got):\n%s", diff)
	}
}

// TestFreshImportPerCase: module globals, mutable defaults, function
// attributes, mutated arguments and helper modules never carry state from
// one case to the next.
func TestFreshImportPerCase(t *testing.T) {
	python(t)
	src := `import helper
counter = 0
cache = []

def f(x, acc=[]):
    global counter
    counter += 1
    acc.append(x)
    cache.append(x)
    f.calls = getattr(f, 'calls', 0) + 1
    return [counter, len(acc), len(cache), f.calls, helper.bump()]

def g(a):
    a.append(1)
    return len(a)

if __name__ == '__main__':
    print(f(0))
`
	tgt := target(t, "cand.py", map[string]string{"helper.py": "count = 0\ndef bump():\n    global count\n    count += 1\n    return count\n"})
	var cases []fitness.Case
	for i := 0; i < 3; i++ {
		cases = append(cases, call("f", "[1]", "[1, 1, 1, 1, 1]"), call("g", "[[]]", "1"), ioCase("", "[1, 1, 1, 1, 1]\n"))
	}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt}, config{})
	for round := 0; round < 2; round++ {
		out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range out.Results {
			if r.Verdict != fitness.Passed {
				t.Errorf("round %d case %d: %v (%s); want PASSED", round, i, r.Verdict, r.Detail)
			}
		}
	}
}

// TestReusedChildLeaksNothing: candidates that run in the child of the
// previous pure candidate see nothing it changed; a candidate that changed
// shared state gets a fresh child for the next one.
func TestReusedChildLeaksNothing(t *testing.T) {
	python(t)
	tgt := target(t, "cand.py", map[string]string{"cand.py": "import math, collections\n"})
	cases := []fitness.Case{call("f", "", "1"), call("f", "", "1")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt}, config{})
	candidates := []string{
		// Pure, and clean: the child stays.
		"def f():\n    return 1\n",
		// Rebinds a module attribute, changes a class and a function of the
		// standard library, and keeps state in a module global.
		"import math, collections\nstate = []\ndef f():\n    state.append(1)\n    math.floor = lambda x: 42\n    collections.Counter.most_common = None\n    collections.namedtuple.seen = True\n    return len(state)\n",
		// Must see the standard library as it was.
		"import math, collections\ndef f():\n    ok = math.floor(1.5) == 1 and collections.Counter('aab').most_common(1) == [('a', 2)]\n    return 1 if ok and not hasattr(collections.namedtuple, 'seen') else 0\n",
		"import math\ndef f():\n    return math.floor(1.5)\n",
	}
	// Whether each candidate ran in the previous one's child.
	wantReused := [][]bool{{false, true, false, true}, {true, true, false, true}}
	for round := 0; round < 2; round++ {
		for i, src := range candidates {
			before := e.Stats()
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for j, r := range out.Results {
				if r.Verdict != fitness.Passed {
					t.Errorf("round %d, candidate %d, case %d: %v (%s); want PASSED", round, i, j, r.Verdict, r.Detail)
				}
			}
			if got := e.Stats().Reused > before.Reused; got != wantReused[round][i] {
				t.Errorf("round %d, candidate %d: reused %v; want %v", round, i, got, wantReused[round][i])
			}
		}
	}
}

// TestReuseStringConstants: a string constant that names a pure module's
// mutable attribute (re's flags "I" and "M") keeps a candidate out of a
// reused child only when the candidate imports a module it could reach it
// through: a table of Roman numerals costs no fresh fork.
func TestReuseStringConstants(t *testing.T) {
	python(t)
	tgt := target(t, "cand.py", map[string]string{"cand.py": "import re\n"})
	cases := []fitness.Case{call("f", "", "1"), call("f", "", "1")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt}, config{})
	tests := []struct {
		name, src string
		reused    bool // the second run of it reuses the first's child
	}{
		{"no import", "TABLE = {'I': 1, 'M': 1000}\ndef f():\n    return TABLE['I']\n", true},
		{"imports re", "import re\nTABLE = {'I': 1, 'M': 1000}\ndef f():\n    return TABLE['I']\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := 0; round < 2; round++ {
				before := e.Stats()
				out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range out.Results {
					if r.Verdict != fitness.Passed {
						t.Errorf("round %d, case %d: %v (%s); want PASSED", round, i, r.Verdict, r.Detail)
					}
				}
				if got := e.Stats().Reused > before.Reused; round == 1 && got != tt.reused {
					t.Errorf("reused %v, want %v", got, tt.reused)
				}
			}
		})
	}
}

// TestFreshImportPerCasePure: the same for pure candidates, whose module a
// child may keep from one case to the next while it provably holds what a
// fresh import would, in the search's runs and in the original's coverage
// run.
func TestFreshImportPerCasePure(t *testing.T) {
	python(t)
	tests := []struct{ name, src string }{
		{"immutable globals", "import math\nTABLE = (1, (2, 3), 'x', None, 1.5)\ndef g(a, b=(1, 2), *, c=3):\n    return a\ndef f():\n    return g(1) if TABLE[0] == 1 and math.floor(1.5) == 1 else 0\n"},
		{"global rebound", "counter = 0\ndef f():\n    global counter\n    counter += 1\n    return counter\n"},
		{"global rebound to an equal value", "X = 1\ndef f():\n    global X\n    r = X\n    X = 2\n    return r\n"},
		{"global deleted", "X = 1\ndef f():\n    global X\n    del X\n    return 1\n"},
		{"global rebound in a nested function", "counter = 0\ndef f():\n    def bump():\n        global counter\n        counter += 1\n        return counter\n    return bump()\n"},
		{"global rebound in a method", "class C:\n    def bump(self):\n        global counter\n        counter = counter + 1\n        return counter\ncounter = 0\ndef f():\n    return C().bump()\n"},
		{"function rebound", "def g():\n    return 1\ndef f():\n    global g\n    r = g()\n    g = lambda: 2\n    return r\n"},
		{"function attribute", "def f():\n    f.calls = f.calls + 1 if hasattr(f, 'calls') else 1\n    return f.calls\n"},
		{"mutable default", "def f(acc=[]):\n    acc.append(1)\n    return len(acc)\n"},
		{"mutable global", "STATE = []\ndef f():\n    STATE.append(1)\n    return len(STATE)\n"},
		{"mutable global in a tuple", "STATE = ([],)\ndef f():\n    STATE[0].append(1)\n    return len(STATE[0])\n"},
		{"closure", "def make():\n    n = [0]\n    def f():\n        n[0] += 1\n        return n[0]\n    return f\nf = make()\n"},
		{"mutated argument", "def f(a=None):\n    return 1\n"},
	}
	var cases []fitness.Case
	for i := 0; i < 4; i++ {
		cases = append(cases, call("f", "", "1"))
	}
	tgt := target(t, "cand.py", map[string]string{"cand.py": "import math\n"})
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt}, config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := 0; round < 3; round++ {
				out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{Coverage: round == 2})
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range out.Results {
					if r.Verdict != fitness.Passed {
						t.Errorf("round %d, case %d: %v (%s); want PASSED", round, i, r.Verdict, r.Detail)
					}
					if round == 2 && len(r.Lines) == 0 {
						t.Errorf("coverage run, case %d: no lines", i)
					}
				}
			}
		})
	}
	if s := e.Stats(); s.Reused == 0 {
		t.Errorf("no candidate ran in a reused child: %+v", s)
	}
}

// TestTimeoutCap: RunOptions.Timeout caps every case's timeout for one run
// only; cases quicker than the cap are unaffected.
func TestTimeoutCap(t *testing.T) {
	python(t)
	src := "def f(x):\n    while x:\n        pass\n    return 1\n"
	cases := []fitness.Case{call("f", "[1]", "1"), call("f", "[0]", "1")}
	for i := range cases {
		cases[i].Timeout = 30
	}
	out := runOne(t, src, cases, sandbox.RunOptions{Timeout: 200 * time.Millisecond}, config{})
	want := []brief{{fitness.TimeLimitExceeded, "timed out after 0.2s of CPU time (the search's cap)"}, {fitness.Passed, ""}}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestAbandonAfterTimeout: with the shortcut, the cases after a timed-out
// one are not run.
func TestAbandonAfterTimeout(t *testing.T) {
	python(t)
	src := "def f(x):\n    while x:\n        pass\n    return 1\n"
	cases := []fitness.Case{call("f", "[0]", "1"), call("f", "[1]", "1"), call("f", "[0]", "1")}
	opts := sandbox.RunOptions{Timeout: 100 * time.Millisecond, AbandonAfterTimeout: true}
	out := runOne(t, src, cases, opts, config{})
	want := []brief{{fitness.Passed, ""}, {fitness.TimeLimitExceeded, "timed out after 0.1s of CPU time (the search's cap)"}, {fitness.TimeLimitExceeded, "not run: an earlier case timed out"}}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// Without it, every case runs.
	out = runOne(t, src, cases, sandbox.RunOptions{Timeout: 100 * time.Millisecond}, config{})
	want[2] = brief{fitness.Passed, ""}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestBuiltinRunnerFixtures: without pytest, a test that needs a fixture
// fails with a line that says why, instead of a TypeError.
func TestBuiltinRunnerFixtures(t *testing.T) {
	python(t)
	testSrc := "import pytest\nfrom mid import f\n\ndef test_plain():\n    assert f() == 1\n\ndef test_fixture(tmp_path):\n    assert f() == 1\n\n@pytest.mark.parametrize('x', [1])\ndef test_param(x, capsys):\n    assert f() == x\n"
	tgt := target(t, "mid.py", map[string]string{"test_mid.py": testSrc})
	var cases []fitness.Case
	for _, n := range []string{"test_plain", "test_fixture", "test_param"} {
		cases = append(cases, fitness.Case{Name: n, Kind: fitness.Test, Function: n, Weight: 1, Timeout: 5})
	}
	suite := &fitness.Suite{Path: filepath.Join(filepath.Dir(tgt), "test_mid.py"), MemoryMB: 256, Cases: cases, TestSource: []byte(testSrc), TestModule: "test_mid"}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt}, config{noPytest: true})
	out, err := e.Run(context.Background(), []byte("def f():\n    return 1\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{fitness.Passed, ""},
		{fitness.RuntimeError, "fixture tmp_path: the built-in runner has no fixtures; install pytest (apt-get install python3-pytest)"},
		{fitness.RuntimeError, "fixture capsys: the built-in runner has no fixtures; install pytest (apt-get install python3-pytest)"},
	}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestFreshForkReasons: each fresh child is counted once, under why its
// candidate could not run in the child the previous one left waiting.
func TestFreshForkReasons(t *testing.T) {
	python(t)
	tgt := target(t, "cand.py", map[string]string{"cand.py": "import math, collections\n"})
	cases := []fitness.Case{call("f", "", "1"), call("f", "", "1")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt}, config{})
	const pure = "def f():\n    return 1\n"
	tests := []struct {
		name string
		src  string
		opts sandbox.RunOptions
		want ForkReasons
	}{
		{"first", pure, sandbox.RunOptions{}, ForkReasons{First: 1}},
		{"reused", pure, sandbox.RunOptions{}, ForkReasons{}},
		{"a denied name", "def f():\n    open\n    return 1\n", sandbox.RunOptions{}, ForkReasons{ImpureName: 1}},
		{"after it", pure, sandbox.RunOptions{}, ForkReasons{AfterImpure: 1}},
		{"an import", "import wave\ndef f():\n    return 1\n", sandbox.RunOptions{}, ForkReasons{ImpureImport: 1}},
		{"a dunder string", "def f():\n    return len('__xy__') - 5\n", sandbox.RunOptions{}, ForkReasons{ImpureDunder: 1}},
		{"coverage", pure, sandbox.RunOptions{Coverage: true}, ForkReasons{NoReuse: 1}},
		{"after coverage", pure, sandbox.RunOptions{}, ForkReasons{AfterImpure: 1}},
		// Pure by the static check, refused by the guard.
		{"changes the standard library", "import math\ndef f():\n    math.floor = lambda x: 42\n    return 1\n",
			sandbox.RunOptions{}, ForkReasons{}},
		{"after the guard", pure, sandbox.RunOptions{}, ForkReasons{Guard: 1}},
		// Killed at its first case's cap: its second case in a child of
		// its own.
		{"loops", "def f():\n    while True:\n        pass\n", sandbox.RunOptions{Timeout: 50 * time.Millisecond},
			ForkReasons{Again: 1}},
		{"after the loop", pure, sandbox.RunOptions{}, ForkReasons{Ended: 1}},
	}
	for _, tt := range tests {
		before := e.Stats()
		if _, err := e.Run(context.Background(), []byte(tt.src), tt.opts); err != nil {
			t.Fatal(err)
		}
		after := e.Stats()
		got, sum := forkDelta(before.FreshForks, after.FreshForks)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: fresh forks mismatch (-want +got):\n%s", tt.name, diff)
		}
		if forks := after.Forks - before.Forks; forks != sum {
			t.Errorf("%s: %d forks, %d reasons", tt.name, forks, sum)
		}
	}
}

// forkDelta is b - a, field by field, and the sum of its fields.
func forkDelta(a, b ForkReasons) (ForkReasons, int64) {
	var d ForkReasons
	va, vb, vd := reflect.ValueOf(a), reflect.ValueOf(b), reflect.ValueOf(&d).Elem()
	sum := int64(0)
	for i := range vd.NumField() {
		n := vb.Field(i).Int() - va.Field(i).Int()
		vd.Field(i).SetInt(n)
		sum += n
	}
	return d, sum
}

// TestPlainCalls: a plain call (scalar arguments, run inlined in the case
// loops) reports what the same call reports through the general path
// (an argument that is a list), in a kept child and in a fresh fork per
// candidate.
func TestPlainCalls(t *testing.T) {
	python(t)
	src := `def ret_int(_):
    return 7
def ret_min(_):
    return -(2 ** 63)
def ret_over(_):
    return 2 ** 63
def ret_bool(_):
    return True
def ret_none(_):
    return None
def ret_str(_):
    return "x"
def ret_list(_):
    return [1, [2]]
def ret_gen(_):
    return (i for i in range(3))
def gen_raises(_):
    yield 1
    raise KeyError("k")
def raises(_):
    raise ValueError("bad")
class Sub(int):
    pass
def ret_sub(_):
    return Sub(3)
`
	var cases []fitness.Case
	for _, fn := range []string{"ret_int", "ret_min", "ret_over", "ret_bool", "ret_none", "ret_str", "ret_list",
		"ret_gen", "gen_raises", "raises", "ret_sub", "missing"} {
		// The plain call, then the same through the general path.
		cases = append(cases, call(fn, "[0]", "7"), call(fn, "[[0]]", "7"))
	}
	for _, noReuse := range []bool{false, true} {
		out := runOne(t, src, cases, sandbox.RunOptions{}, config{noReuse: noReuse})
		got := briefs(out)
		for i := 0; i < len(got); i += 2 {
			if got[i] != got[i+1] {
				t.Errorf("noReuse %v, %s: plain %v, general %v", noReuse, cases[i].Function, got[i], got[i+1])
			}
		}
		if got[0].Verdict != fitness.Passed || got[2].Verdict != fitness.WrongAnswer {
			t.Errorf("noReuse %v: %v", noReuse, got[:4])
		}
	}
}

// TestCoverageSharedImport: a pure module's coverage run traces its import
// once and lists each case's lines from what the tracer set after it
// (child.py's run_cases); the lines are those of the same module run
// impure, where every case imports it afresh under the tracer (but for
// the line of the impure function's own definition), case by case, paths
// repeated next to each other or apart.
func TestCoverageSharedImport(t *testing.T) {
	src := `LIMIT = 3


def f(x):
    if x > LIMIT:
        return g(x)
    total = 0
    for i in range(x):
        if i % 2:
            total += i
        else:
            total -= 1
    return total


def g(x):
    while x > LIMIT:
        x -= LIMIT
    return x
`
	impure := src + "\n\ndef unused():\n    import os\n    return os.getpid()\n"
	defLine := strings.Count(src, "\n") + 3
	var cases []fitness.Case
	for _, x := range []int{0, 5, 5, 2, 9, 1, 0, 4, 2, 3, 11} {
		cases = append(cases, call("f", fmt.Sprintf("[%d]", x), ""))
	}
	lines := func(src string) [][]int {
		out := runOne(t, src, cases, sandbox.RunOptions{Coverage: true}, config{})
		var all [][]int
		for _, r := range out.Results {
			all = append(all, slices.DeleteFunc(slices.Clone(r.Lines), func(l int) bool { return l == defLine }))
		}
		return all
	}
	want, got := lines(impure), lines(src)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coverage mismatch (-imported afresh +shared import):\n%s", diff)
	}
	if len(got[1]) == 0 || slices.Equal(got[0], got[1]) {
		t.Errorf("the cases' lines do not tell their paths apart: %v", got)
	}
}
