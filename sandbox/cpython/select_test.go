package cpython

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// edit describes one edit of a test's original by text: the statement
// whose first line is stmt, and for a replace or insert the statement
// whose first line is donor, or for a text edit the site text and its
// replacement.
type edit struct {
	op          program.Op
	stmt, donor string
	site, text  string
}

func patchOf(t *testing.T, p *program.Program, edits []edit) program.Patch {
	t.Helper()
	stmt := func(first string) int {
		for i := range p.Stmts {
			if p.FirstLine(i) == first {
				return i
			}
		}
		t.Fatalf("no statement %q", first)
		return -1
	}
	var pt program.Patch
	for _, e := range edits {
		ed := program.Edit{Op: e.op, Stmt: stmt(e.stmt)}
		switch e.op {
		case program.InsertBefore, program.InsertAfter, program.Replace, program.Swap:
			ed.Donor = stmt(e.donor)
		case program.ReplaceText:
			ed.Site = -1
			for i, s := range p.Sites {
				if s.Stmt == ed.Stmt && p.SiteText(i) == e.site {
					ed.Site = i
					break
				}
			}
			if ed.Site < 0 {
				t.Fatalf("no site %q in %q", e.site, e.stmt)
			}
			ed.Text = e.text
		}
		pt = append(pt, ed)
	}
	return pt
}

// TestSelection: a candidate whose edits lie inside definitions runs only
// its selected cases when its code is pure and its edits keep every
// name's scope, or, where they change a scope in the functions they
// change, the cases that reach those functions (SelectWide); its
// verdicts are those of a full run, and the cases it skips give the
// original's verdicts in a full run. Otherwise it runs every case.
func TestSelection(t *testing.T) {
	const middle = `def middle(x, y, z):
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
`
	middleCases := []fitness.Case{
		call("middle", "[1, 2, 3]", "2"), call("middle", "[2, 1, 3]", "2"), call("middle", "[3, 2, 1]", "2"),
		call("middle", "[5, 5, 5]", "5"), call("middle", "[1, 3, 2]", "2"),
	}
	const shadow = `K = 1


def f(x):
    if x > 0:
        return x + K
    return K
`
	shadowCases := []fitness.Case{call("f", "[1]", "2"), call("f", "[-1]", "1")}
	const shadowed = shadow + `

def g(x):
    return x * K
`
	shadowedCases := append(slices.Clone(shadowCases), call("g", "[2]", "2"))
	const method = `K = 1


class C:
    def m(self, x):
        if x > 0:
            return x + K
        return K


def h(x):
    return C().m(x)


def g(x):
    return x * K
`
	methodCases := []fitness.Case{call("h", "[1]", "2"), call("h", "[-1]", "1"), call("g", "[2]", "2")}
	tests := []struct {
		name   string
		src    string
		cases  []fitness.Case
		edits  []edit
		sel    []bool
		wide   []bool // SelectWide
		chosen bool   // only the selected cases run (or, with wide, those)
	}{
		{"the branch of the fix", middle, middleCases,
			[]edit{{op: program.ReplaceText, stmt: "return y", site: "y", text: "x"}},
			[]bool{true, false, false, false, false}, nil, true},
		{"a statement two cases reach", middle, middleCases,
			[]edit{{op: program.Delete, stmt: "return z"}},
			[]bool{false, false, false, true, true}, nil, true},
		{"a new local that was a global", shadow, shadowCases,
			[]edit{{op: program.InsertBefore, stmt: "return x + K", donor: "K = 1"}},
			[]bool{true, false}, nil, false},
		{"a new local that was a global, the function's cases", shadowed, shadowedCases,
			[]edit{{op: program.InsertBefore, stmt: "return x + K", donor: "K = 1"}},
			[]bool{true, false, false}, []bool{true, true, false}, true},
		{"a method's new local that was a global", method, methodCases,
			[]edit{{op: program.InsertBefore, stmt: "return x + K", donor: "K = 1"}},
			[]bool{true, false, false}, []bool{true, true, false}, false},
		{"a module-level edit", shadow, shadowCases,
			[]edit{{op: program.ReplaceText, stmt: "K = 1", site: "1", text: "2"}},
			[]bool{true, false}, nil, false},
		{"impure code", "import os\n" + shadow, shadowCases,
			[]edit{{op: program.ReplaceText, stmt: "return x + K", site: "+", text: "-"}},
			[]bool{true, false}, nil, false},
		{"a method", "class C:\n    def m(self, x):\n        if x:\n            return 1\n        return 2\n\n\ndef f(x):\n    return C().m(x)\n",
			[]fitness.Case{call("f", "[1]", "1"), call("f", "[0]", "2")},
			[]edit{{op: program.ReplaceText, stmt: "return 1", site: "1", text: "3"}},
			[]bool{true, false}, nil, true},
		{"a function made a generator", "def g():\n    yield 1\n\n\ndef f(x):\n    if x:\n        return 1\n    return 2\n",
			[]fitness.Case{call("f", "[1]", "1"), call("f", "[0]", "2")},
			[]edit{{op: program.InsertBefore, stmt: "return 1", donor: "yield 1"}},
			[]bool{true, false}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("cand.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			src, ch := p.RenderChange(patchOf(t, p, tt.edits))
			e := newTestEngine(t, sandbox.Options{
				Suite:  &fitness.Suite{MemoryMB: 256, Cases: tt.cases},
				Target: target(t, "cand.py", map[string]string{"cand.py": tt.src}),
			}, config{})
			ctx := context.Background()
			orig, err := e.Run(ctx, []byte(tt.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			full, err := e.Run(ctx, src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Run(ctx, src, sandbox.RunOptions{Change: &ch, Select: tt.sel, SelectWide: tt.wide})
			if err != nil {
				t.Fatal(err)
			}
			if (got.Skipped != nil) != tt.chosen {
				t.Fatalf("skipped %v, want a selection: %v", got.Skipped, tt.chosen)
			}
			for i, r := range got.Results {
				switch {
				case got.Skipped != nil && got.Skipped[i]:
					if tt.sel[i] || tt.wide != nil && tt.wide[i] {
						t.Errorf("case %d: selected but skipped", i)
					}
					if full.Results[i].Verdict != orig.Results[i].Verdict {
						t.Errorf("case %d: skipped, but a full run gives %v where the original gave %v", i, full.Results[i].Verdict, orig.Results[i].Verdict)
					}
				case r.Verdict != full.Results[i].Verdict || r.Detail != full.Results[i].Detail:
					t.Errorf("case %d: %v %q, a full run %v %q", i, r.Verdict, r.Detail, full.Results[i].Verdict, full.Results[i].Detail)
				}
			}
		})
	}
}

// TestPartialReexecution: a candidate whose edits lie inside definitions
// is compiled one definition at a time over the original's code, and
// gives what compiling it whole gives: results, compile errors and the
// lines of its tracebacks inside the changed definition; a change that
// does not match the candidate's text is compiled whole.
func TestPartialReexecution(t *testing.T) {
	const orig = `import math


def area(r):
    return math.pi * r * r


def ratio(a, b):
    if b == 0:
        raise ValueError("b is 0")
    return a / b
`
	cases := []fitness.Case{call("area", "[1]", "3.141592653589793"), call("ratio", "[1, 0]", ""), call("ratio", "[1, 2]", "0.5")}
	p, err := program.Parse("cand.py", []byte(orig))
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, sandbox.Options{
		Suite:  &fitness.Suite{MemoryMB: 256, Cases: cases},
		Target: target(t, "cand.py", map[string]string{"cand.py": orig}),
	}, config{})
	tests := []struct {
		name  string
		edits []edit
		lie   bool // send spans that do not match: compiled whole
	}{
		{"an operator", []edit{{op: program.ReplaceText, stmt: "return a / b", site: "/", text: "*"}}, false},
		{"a line more", []edit{{op: program.InsertBefore, stmt: "return a / b", donor: "raise ValueError(\"b is 0\")"}}, false},
		{"a line less", []edit{{op: program.Delete, stmt: "if b == 0:"}}, false},
		{"a syntax error", []edit{{op: program.ReplaceText, stmt: "return math.pi * r * r", site: "r", text: "r +"}}, false},
		{"two definitions", []edit{{op: program.Swap, stmt: "return math.pi * r * r", donor: "return a / b"}}, false},
		{"spans that lie", []edit{{op: program.ReplaceText, stmt: "return a / b", site: "/", text: "*"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, ch := p.RenderChange(patchOf(t, p, tt.edits))
			if tt.lie {
				ch.Cand[0].End--
			}
			full, err := e.Run(context.Background(), src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			before := e.Stats().Partial
			got, err := e.Run(context.Background(), src, sandbox.RunOptions{Change: &ch})
			if err != nil {
				t.Fatal(err)
			}
			if partial := e.Stats().Partial > before; partial == (tt.lie || full.CompileError != "") {
				t.Errorf("compiled partially: %v", partial)
			}
			if got.CompileError != full.CompileError || !slices.Equal(briefs(got), briefs(full)) {
				t.Errorf("partial: %q %v\nwhole: %q %v", got.CompileError, briefs(got), full.CompileError, briefs(full))
			}
			if tt.name == "a syntax error" && !strings.Contains(got.CompileError, "SyntaxError") {
				t.Errorf("compile error %q", got.CompileError)
			}
		})
	}
	// Pure candidates compiled partially still reuse the previous one's
	// child: nothing of the harness changes in the child.
	if st := e.Stats(); st.Reused == 0 {
		t.Errorf("no child reused: %+v", st)
	}
}

// TestWallCaps: a case that sleeps past its wall cap times out, whatever
// CPU time it used; without wall caps only its timeout and the CPU cap
// stop it; the cap of another case does not apply to it.
func TestWallCaps(t *testing.T) {
	const src = "import time\n\n\ndef f(s):\n    time.sleep(s)\n    return s\n"
	cases := []fitness.Case{call("f", "[0.4]", "0.4"), call("f", "[0]", "0")}
	e := newTestEngine(t, sandbox.Options{
		Suite:  &fitness.Suite{MemoryMB: 256, Cases: cases},
		Target: target(t, "cand.py", map[string]string{"cand.py": src}),
	}, config{})
	tests := []struct {
		name string
		caps []float64
		want []fitness.Verdict
	}{
		{"none", nil, []fitness.Verdict{fitness.Passed, fitness.Passed}},
		{"the sleeper's", []float64{0.05, 0}, []fitness.Verdict{fitness.TimeLimitExceeded, fitness.Passed}},
		{"the other's", []float64{0, 0.05}, []fitness.Verdict{fitness.Passed, fitness.Passed}},
		{"above the sleep", []float64{3, 3}, []fitness.Verdict{fitness.Passed, fitness.Passed}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Timeout: 10 * time.Millisecond, WallCaps: tt.caps})
			if err != nil {
				t.Fatal(err)
			}
			var got []fitness.Verdict
			for _, r := range out.Results {
				got = append(got, r.Verdict)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("verdicts %v, want %v (%v)", got, tt.want, briefs(out))
			}
			if tt.want[0] == fitness.TimeLimitExceeded && !strings.Contains(out.Results[0].Detail, "wall-clock") {
				t.Errorf("detail %q", out.Results[0].Detail)
			}
		})
	}
}

// TestPytestPartial: under the real pytest, a candidate whose edits lie
// inside definitions runs on the items the server collected once with
// the original, its code put into the original's functions; what it
// gives is what importing and collecting it gives. A change to a class
// body, or to a function that runs at import, takes the full path.
func TestPytestPartial(t *testing.T) {
	py := realPytest(t)
	const orig = `import math


class Stack:
    """A last-in, first-out stack."""

    limit = 10

    def __init__(self):
        self.items = []

    def push(self, item):
        if len(self.items) >= self.limit:
            raise OverflowError("full")
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("pop from an empty stack")
        return self.items.pop(0)

    @property
    def top(self):
        return self.items[-1] if self.items else None


def scale(x):
    return math.floor(x * 2)


SCALED = scale(3)
`
	const tests = `import pytest

from stack import SCALED, Stack, scale


@pytest.fixture
def full():
    s = Stack()
    for i in range(3):
        s.push(i)
    return s


def test_lifo(full):
    assert full.pop() == 2


def test_top(full):
    assert full.top == 2


def test_empty():
    with pytest.raises(IndexError):
        Stack().pop()


@pytest.mark.parametrize("x,want", [(1, 2), (2, 4)])
def test_scale(x, want):
    assert scale(x) == want


def test_scaled():
    assert SCALED == 6
`
	target, suite := moduleTestDir(t, "stack", orig, tests)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path}, config{})
	p, err := program.Parse("stack.py", []byte(orig))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		edits []edit
	}{
		{"the fix", []edit{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}}},
		{"a property", []edit{{op: program.ReplaceText, stmt: "return self.items[-1] if self.items else None", site: "-1", text: "0"}}},
		{"a statement more", []edit{{op: program.InsertBefore, stmt: "self.items.append(item)", donor: "self.items.append(item)"}}},
		{"a function that ran at import", []edit{{op: program.ReplaceText, stmt: "return math.floor(x * 2)", site: "2", text: "3"}}},
		{"a class attribute", []edit{{op: program.ReplaceText, stmt: "limit = 10", site: "10", text: "1"}}},
		{"two methods", []edit{{op: program.Swap, stmt: "self.items = []", donor: "self.items.append(item)"}}},
		{"the fix again", []edit{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src, ch := p.RenderChange(patchOf(t, p, tt.edits))
			got, full := partialAndWhole(t, e, src, ch)
			if !slices.Equal(briefs(got), briefs(full)) {
				t.Errorf("with the change: %v\nwhole: %v", briefs(got), briefs(full))
			}
		})
	}
}

// TestPytestPlain: a plain test function (no fixture, no mark but
// parametrize) is called directly instead of through pytest's runner;
// its verdict and detail are the runner's (which a run with coverage
// takes).
func TestPytestPlain(t *testing.T) {
	py := realPytest(t)
	const target = "def f(x):\n    return x * 2\n"
	const tests = `import sys

import pytest

from mod import f


def test_passes():
    assert f(2) == 4


def test_fails():
    assert f(2) == 5


def test_raises():
    f(None) + 1


def test_fail():
    pytest.fail("no")


def test_skip_inside():
    pytest.skip("not today")


def test_xfail_inside():
    pytest.xfail("known")


def test_exits():
    sys.exit(3)


@pytest.mark.parametrize("x,want", [(1, 2), (2, 5)])
def test_param(x, want):
    assert f(x) == want


@pytest.mark.skip(reason="marked")
def test_marked():
    assert False


def test_fixture(tmp_path):
    assert tmp_path.exists()
`
	path, suite := moduleTestDir(t, "mod", target, tests)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: path, Python: py.Path}, config{})
	plain, err := e.Run(context.Background(), []byte(target), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runner, err := e.Run(context.Background(), []byte(target), sandbox.RunOptions{Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range suite.Cases {
		p, r := plain.Results[i], runner.Results[i]
		if p.Verdict != r.Verdict || p.Detail != r.Detail || p.Progress != r.Progress {
			t.Errorf("%s: called directly %v %q, by pytest's runner %v %q", c.Name, p.Verdict, p.Detail, r.Verdict, r.Detail)
		}
	}
}

// TestGrow: Grow adds servers, at most MaxGrowth per worker, that join
// the pool as they start and run candidates; Close stops them all, even
// while they start, and leaves nothing behind.
func TestGrow(t *testing.T) {
	const src = "import time\n\n\ndef f():\n    time.sleep(0.2)\n    return 1\n"
	cases := []fitness.Case{call("f", "", "1")}
	for _, closeEarly := range []bool{false, true} {
		e, err := newEngine(context.Background(), sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases},
			Target: target(t, "cand.py", map[string]string{"cand.py": src}), Workers: 1}, config{})
		if err != nil {
			t.Fatal(err)
		}
		n, err := e.Grow(context.Background(), 100)
		if err != nil || n != MaxGrowth {
			t.Fatalf("Grow = %d, %v; want %d", n, err, MaxGrowth)
		}
		if closeEarly {
			e.Close() // while the servers start
		} else {
			var wg sync.WaitGroup
			var mu sync.Mutex
			pids := map[int]bool{}
			for range 2 * MaxGrowth {
				wg.Add(1)
				go func() {
					defer wg.Done()
					out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
					if err != nil || out.Results[0].Verdict != fitness.Passed {
						t.Errorf("Run = %v, %v", out, err)
					}
					mu.Lock()
					for _, p := range serverPIDs(e) {
						pids[p] = true
					}
					mu.Unlock()
				}()
			}
			wg.Wait()
			if len(pids) != MaxGrowth {
				t.Errorf("%d servers ran, want %d", len(pids), MaxGrowth)
			}
			e.Close()
		}
		if left := descendants(os.Getpid()); len(left) > 0 {
			t.Errorf("close early %v: processes left after Close: %v", closeEarly, left)
		}
	}
}

// TestPytestSelection: under pytest, a candidate compiled over the
// original's code runs only the tests that reached what it changes: in a
// reused or fresh child when no test can leave anything for another
// (pure code, immutable module state, attributes stored only on a
// method's self), in a fresh child otherwise (a module-level list, a
// class attribute stored). Here no test reads what another leaves, so
// either way its verdicts are a full run's.
func TestPytestSelection(t *testing.T) {
	py := realPytest(t)
	const stack = `class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("empty")
        return self.items.pop(0)

    def peek(self):
        return self.items[-1] if self.items else None
`
	const tests = `import pytest

from stack import Stack


def test_pop():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2


def test_peek():
    s = Stack()
    s.push(3)
    assert s.peek() == 3


def test_empty():
    with pytest.raises(IndexError):
        Stack().pop()


@pytest.fixture
def two():
    s = Stack()
    s.push(1)
    s.push(2)
    return s


def test_fixture_peek(two):
    assert two.peek() == 2
`
	fix := []edit{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}}
	for _, tt := range []struct {
		name   string
		src    string
		chosen bool
	}{
		{"isolated", stack, true},
		{"a mutable global", "LOG = []\n\n\n" + strings.Replace(stack, "        self.items.append(item)\n", "        self.items.append(item)\n        LOG.append(item)\n", 1), true},
		{"a class attribute stored", strings.Replace(stack, "        self.items = []\n", "        self.items = []\n        Stack.made = True\n", 1), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target, suite := moduleTestDir(t, "stack", tt.src, tests)
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path}, config{})
			ctx := context.Background()
			orig, err := e.Run(ctx, []byte(tt.src), sandbox.RunOptions{Coverage: true})
			if err != nil {
				t.Fatal(err)
			}
			p, err := program.Parse("stack.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			src, ch := p.RenderChange(patchOf(t, p, fix))
			sel := reaching(orig, p.Stmts[ch.Reach[0]].Line)
			full, err := e.Run(ctx, src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Run(ctx, src, sandbox.RunOptions{Change: &ch, Select: sel})
			if err != nil {
				t.Fatal(err)
			}
			if (got.Skipped != nil) != tt.chosen {
				t.Fatalf("skipped %v (selected %v, compile error %q); want a selection: %v", got.Skipped, sel, got.CompileError, tt.chosen)
			}
			for i, r := range got.Results {
				if got.Skipped != nil && got.Skipped[i] {
					if full.Results[i].Verdict != orig.Results[i].Verdict {
						t.Errorf("%s skipped, but a full run gives %v where the original gave %v", suite.Cases[i].Name, full.Results[i].Verdict, orig.Results[i].Verdict)
					}
				} else if r.Verdict != full.Results[i].Verdict || r.Detail != full.Results[i].Detail {
					t.Errorf("%s: %v %q, a full run %v %q", suite.Cases[i].Name, r.Verdict, r.Detail, full.Results[i].Verdict, full.Results[i].Detail)
				}
			}
		})
	}
}

// TestPytestSelectionShared: a candidate whose edit two of ten tests
// reach runs those two and the test the original fails (which does not
// reach it), each in a fresh child when the tests may leave state for
// one another (a module-level dict the target writes) and in an isolated
// session alike; the other seven keep the original's results
// (Outcome.Skipped, Stats.Selected), and the verdicts of those that run
// are a full run's.
func TestPytestSelectionShared(t *testing.T) {
	py := realPytest(t)
	const isolated = "def name(x):\n    return \"n%d\" % x\n\n\ndef double(x):\n    return x + x\n"
	shared := "SEEN = {}\n\n\n" + strings.Replace(isolated, "    return \"n%d\"", "    SEEN[x] = True\n    return \"n%d\"", 1)
	var tests strings.Builder
	tests.WriteString("from mod import double, name\n\n\ndef test_double_one():\n    assert double(1) == 2\n\n\n")
	for i := range 7 {
		fmt.Fprintf(&tests, "def test_name_%d():\n    assert name(%d) == \"n%d\"\n\n\n", i, i, i)
	}
	tests.WriteString("def test_name_wrong():\n    assert name(9) == \"x9\"\n\n\n")
	tests.WriteString("def test_double_two():\n    assert double(2) == 5\n")
	wantRun := []string{"test_double_one", "test_name_wrong", "test_double_two"}
	for _, tt := range []struct {
		name, src, why string
	}{
		{"not isolated", shared, "mod.SEEN is mutable state"},
		{"isolated", isolated, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target, suite := moduleTestDir(t, "mod", tt.src, tests.String())
			if len(suite.Cases) != 10 {
				t.Fatalf("%d cases, want 10", len(suite.Cases))
			}
			var stderr strings.Builder
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path, Stderr: &stderr}, config{})
			ctx := context.Background()
			orig, err := e.Run(ctx, []byte(tt.src), sandbox.RunOptions{Coverage: true})
			if err != nil {
				t.Fatal(err)
			}
			if said := strings.Contains(stderr.String(), "may leave state for one another ("+tt.why+")"); said != (tt.why != "") {
				t.Errorf("stderr %q; want the tests to leave state (%s): %v", stderr.String(), tt.why, tt.why != "")
			}
			p, err := program.Parse("mod.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			src, ch := p.RenderChange(patchOf(t, p, []edit{{op: program.ReplaceText, stmt: "return x + x", site: "x + x", text: "x * 2"}}))
			sel := reaching(orig, p.Stmts[ch.Reach[0]].Line)
			if n := len(slices.DeleteFunc(slices.Clone(sel), func(b bool) bool { return !b })); n != 2 {
				t.Fatalf("%d tests reach the edit, want 2: %v", n, sel)
			}
			full, err := e.Run(ctx, src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			before := e.Stats().Selected
			got, err := e.Run(ctx, src, sandbox.RunOptions{Change: &ch, Select: sel})
			if err != nil {
				t.Fatal(err)
			}
			if got.Skipped == nil || e.Stats().Selected != before+1 {
				t.Fatalf("no selection: skipped %v, selected %d then %d", got.Skipped, before, e.Stats().Selected)
			}
			var ran []string
			for i, c := range suite.Cases {
				if !got.Skipped[i] {
					ran = append(ran, c.Name[strings.LastIndex(c.Name, ":")+1:])
					if r := got.Results[i]; r.Verdict != full.Results[i].Verdict || r.Detail != full.Results[i].Detail {
						t.Errorf("%s: %v %q, a full run %v %q", c.Name, r.Verdict, r.Detail, full.Results[i].Verdict, full.Results[i].Detail)
					}
				}
			}
			if !slices.Equal(ran, wantRun) {
				t.Errorf("ran %v, want %v", ran, wantRun)
			}
		})
	}
}

// TestPytestCollectOnceRefused: an original whose import changes the
// process (here its working directory, which the forker empties between
// candidates) is not imported in the server: its candidates import and
// collect in their children, with the verdicts of a full run, and the
// project's files stay.
func TestPytestCollectOnceRefused(t *testing.T) {
	py := realPytest(t)
	const mod = "import os\n\nos.chdir(os.path.dirname(os.path.abspath(__file__)))\n\n\ndef f(x):\n    return x + 1\n"
	const tests = "from mod import f\n\n\ndef test_one():\n    assert f(1) == 2\n\n\ndef test_two():\n    assert f(2) == 3\n"
	target, suite := moduleTestDir(t, "mod", mod, tests)
	// Without namespaces the private directory is the host's, writable.
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path}, config{noNamespaces: true})
	p, err := program.Parse("mod.py", []byte(mod))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"- 1", "+ 2", "+ 1"} {
		src, ch := p.RenderChange(patchOf(t, p, []edit{{op: program.ReplaceText, stmt: "return x + 1", site: "x + 1", text: "x " + text}}))
		got, full := partialAndWhole(t, e, src, ch)
		if !slices.Equal(briefs(got), briefs(full)) {
			t.Errorf("x %s: with the change %v, whole %v", text, briefs(got), briefs(full))
		}
		if text == "+ 1" && (got.Results[0].Verdict != fitness.Passed || got.Results[1].Verdict != fitness.Passed) {
			t.Errorf("the original's code fails: %v", briefs(got))
		}
	}
	for _, name := range []string{"mod.py", "test_mod.py"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(target), name)); err != nil {
			t.Errorf("the project lost %s: %v", name, err)
		}
	}
}

// TestPytestPlainPlugins: a plain test function is called directly only
// when no plugin but pytest's own acts while a test runs and no warning
// filter of the ini file or the command line does: a plugin that only
// configures (pytest-mock's kind) keeps the direct call, one that
// implements a hook of the run, or -W error, sends every test through
// pytest's runner. Either way the verdicts are the runner's (a run with
// coverage takes it) and plain pytest's.
func TestPytestPlainPlugins(t *testing.T) {
	py := realPytest(t)
	const tests = `import os
import warnings

from mod import f


def test_passes():
    assert f(2) == 4


def test_fails():
    assert f(2) == 5


def test_warns():
    warnings.warn("careful", UserWarning)
    assert f(1) == 2


def test_current():
    assert os.environ["PYTEST_CURRENT_TEST"] == "tests/test_mod.py::test_current (call)"
    assert os.getenv("PYTEST_CURRENT_TEST") == "tests/test_mod.py::test_current (call)"
    # The process's own environment, which a child process inherits.
    import subprocess
    out = subprocess.run(["/bin/sh", "-c", "echo $PYTEST_CURRENT_TEST"], capture_output=True, text=True).stdout
    assert out == "tests/test_mod.py::test_current (call)\n"
`
	for _, tt := range []struct {
		name, ini, plugin string
		want              []fitness.Verdict // passes, fails, warns, current
	}{
		{"no plugin", "[pytest]\n", "", []fitness.Verdict{fitness.Passed, fitness.WrongAnswer, fitness.Passed, fitness.Passed}},
		{"a plugin that configures", "[pytest]\naddopts = -p plug\n", "def pytest_configure(config):\n    config.addinivalue_line('markers', 'slow: slow')\n",
			[]fitness.Verdict{fitness.Passed, fitness.WrongAnswer, fitness.Passed, fitness.Passed}},
		{"a plugin of the run", "[pytest]\naddopts = -p plug\n", "def pytest_runtest_call(item):\n    raise RuntimeError('from the plugin')\n",
			[]fitness.Verdict{fitness.RuntimeError, fitness.RuntimeError, fitness.RuntimeError, fitness.RuntimeError}},
		{"-W error", "[pytest]\naddopts = -W error::UserWarning\n", "",
			[]fitness.Verdict{fitness.Passed, fitness.WrongAnswer, fitness.RuntimeError, fitness.Passed}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"pytest.ini": tt.ini, "mod.py": "def f(x):\n    return x * 2\n", "tests/test_mod.py": tests}
			if tt.plugin != "" {
				files["plug.py"] = tt.plugin
			}
			t.Chdir(writeTree(t, files))
			suite, err := fitness.Load(filepath.Join("tests", "test_mod.py"))
			if err != nil {
				t.Fatal(err)
			}
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: "mod.py", Python: py.Path, Env: sandbox.Environment{Standard: true}}, config{})
			src := []byte(files["mod.py"])
			plain, err := e.Run(context.Background(), src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			runner, err := e.Run(context.Background(), src, sandbox.RunOptions{Coverage: true})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range suite.Cases {
				p, r := plain.Results[i], runner.Results[i]
				if p.Verdict != tt.want[i] || r.Verdict != tt.want[i] {
					t.Errorf("%s: %v %q, by pytest's runner %v %q; want %v", c.Name, p.Verdict, p.Detail, r.Verdict, r.Detail, tt.want[i])
				}
			}
		})
	}
}

// TestPytestReuse: under pytest, a child serves one candidate after
// another (no fork between them) only when no test can leave anything
// for another, the candidates' code keeps it so, and the tests it ran
// were plain; the functions it changed get the original's code back.
// Every candidate's verdicts are those of a fresh child that imports and
// collects it whole, whatever ran in the child before: fixtures,
// parametrize, xfail and skip marks, errors in setup and teardown, a
// mutable default, a test that stores into the module.
func TestPytestReuse(t *testing.T) {
	py := realPytest(t)
	const stack = `class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("empty")
        return self.items.pop(0)

    def peek(self):
        return self.items[-1] if self.items else None

    def size(self):
        return len(self.items)
`
	const plainTests = `import pytest

from stack import Stack


def test_pop():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2


def test_peek():
    s = Stack()
    s.push(3)
    assert s.peek() == 3


def test_empty():
    with pytest.raises(IndexError):
        Stack().pop()


@pytest.mark.parametrize("n", [0, 1, 3])
def test_size(n):
    s = Stack()
    for i in range(n):
        s.push(i)
    assert s.size() == n
`
	const markedTests = plainTests + `

@pytest.fixture
def two():
    s = Stack()
    s.push(1)
    s.push(2)
    return s


def test_fixture_peek(two):
    assert two.peek() == 2


@pytest.mark.xfail(reason="known")
def test_marked_xfail():
    assert Stack().pop() == 1


@pytest.mark.skip(reason="later")
def test_marked_skip():
    assert False


@pytest.fixture
def broken():
    raise RuntimeError("setup fails")


def test_setup_error(broken):
    pass


@pytest.fixture
def torn():
    yield Stack()
    raise RuntimeError("teardown fails")


def test_teardown_error(torn):
    torn.push(1)
    assert torn.pop() == 1
`
	// A default list that size() appends to: a second call in the same
	// process sees the first's.
	defaults := strings.Replace(stack, "    def size(self):\n        return len(self.items)\n",
		"    def size(self, calls=[]):\n        calls.append(1)\n        return len(self.items) + len(calls) - 1\n", 1)
	const storingTests = plainTests + `

def test_store():
    import stack
    stack.Stack.limit = 3
    assert Stack().limit == 3
`
	candidates := [][]edit{
		{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}},
		{{op: program.ReplaceText, stmt: "return self.items[-1] if self.items else None", site: "-1", text: "0"}},
		{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}},
		{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "0"}},
		{{op: program.ReplaceText, stmt: "self.items.append(item)", site: "item", text: "None"}},
		{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}},
	}
	for _, tt := range []struct {
		name, src, tests string
		noNS             bool // without namespaces (the private directory is the host's)
		reuse            bool // whether a child serves several candidates
	}{
		{"plain tests", stack, plainTests, false, true},
		{"plain tests, degraded", stack, plainTests, true, true},
		{"fixtures, marks, setup and teardown errors", stack, markedTests, false, false},
		{"a mutable default", defaults, plainTests, false, false},
		{"a test that stores into the module", stack, storingTests, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target, suite := moduleTestDir(t, "stack", tt.src, tt.tests)
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path, Workers: 1}, config{noNamespaces: tt.noNS})
			fresh := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path, Workers: 1}, config{noReuse: true})
			p, err := program.Parse("stack.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for round := range 2 {
				for k, edits := range candidates {
					src, ch := p.RenderChange(patchOf(t, p, edits))
					got, err := e.Run(ctx, src, sandbox.RunOptions{Change: &ch})
					if err != nil {
						t.Fatal(err)
					}
					full, err := fresh.Run(ctx, src, sandbox.RunOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(briefs(got), briefs(full)) {
						t.Errorf("round %d, candidate %d: %v\nin a fresh child, whole: %v", round, k, briefs(got), briefs(full))
					}
				}
			}
			if reused := e.Stats().Reused; (reused > 0) != tt.reuse {
				t.Errorf("%d candidates ran in a child that served another; want reuse: %v (%+v)", reused, tt.reuse, e.Stats().FreshForks)
			}
		})
	}
}

// TestKeptImport: a reused child keeps the original's import, and a
// candidate that changes only functions' code runs its cases on it with
// that code swapped in (no import of its own), giving what a fresh
// import of the whole candidate gives: the next candidate finds the
// original's code again (an alias of a changed function follows it); a
// function whose docstring (its __doc__) changed is imported afresh; a
// candidate whose cases store a global leaves the kept import for a
// fresh one, and the next candidate's first case sees none of it.
func TestKeptImport(t *testing.T) {
	const pure = `LIMIT = 3


def f(x):
    """Double."""
    return 2 * x


def g(x):
    return f(x) + LIMIT


h = f
`
	const counting = `COUNT = 0


def f(x):
    return 2 * x


def bump():
    global COUNT
    COUNT += 1
    return COUNT
`
	type step struct {
		name  string
		edits []edit
		kept  bool
	}
	for _, tt := range []struct {
		name, orig string
		cases      []fitness.Case
		steps      []step
	}{
		{"pure", pure, []fitness.Case{call("f", "[2]", "4"), call("g", "[2]", "7"), call("h", "[2]", "4")}, []step{
			{"the original", nil, true},
			{"f changed", []edit{{op: program.ReplaceText, stmt: "return 2 * x", site: "2", text: "3"}}, true},
			{"g changed", []edit{{op: program.ReplaceText, stmt: "return f(x) + LIMIT", site: "+", text: "-"}}, true},
			{"a docstring deleted", []edit{{op: program.Delete, stmt: `"""Double."""`}}, false},
			{"f changed again", []edit{{op: program.ReplaceText, stmt: "return 2 * x", site: "x", text: "(x + 1)"}}, true},
			{"the original again", nil, true},
		}},
		{"a global stored", counting, []fitness.Case{call("bump", "", "1"), call("f", "[2]", "4"), call("bump", "", "1")}, []step{
			{"the original", nil, true},
			{"f stores a global", []edit{{op: program.InsertBefore, stmt: "return 2 * x", donor: "global COUNT"},
				{op: program.InsertBefore, stmt: "return 2 * x", donor: "COUNT += 1"}}, true},
			{"the original again", nil, true},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("cand.py", []byte(tt.orig))
			if err != nil {
				t.Fatal(err)
			}
			opts := sandbox.Options{
				Suite:   &fitness.Suite{MemoryMB: 256, Cases: tt.cases},
				Target:  target(t, "cand.py", map[string]string{"cand.py": tt.orig}),
				Workers: 1,
			}
			e := newTestEngine(t, opts, config{})
			// The same candidates imported afresh for each case, by a
			// child of their own.
			fresh := newTestEngine(t, opts, config{noReuse: true})
			ctx := context.Background()
			for i, st := range tt.steps {
				src := []byte(tt.orig)
				o := sandbox.RunOptions{}
				if st.edits != nil {
					var ch program.Change
					src, ch = p.RenderChange(patchOf(t, p, st.edits))
					if ch.Defs == nil {
						t.Fatalf("%s: not inside definitions", st.name)
					}
					o.Change = &ch
				}
				before := e.Stats()
				got, err := e.Run(ctx, src, o)
				if err != nil {
					t.Fatal(err)
				}
				after := e.Stats()
				if kept := after.Kept > before.Kept; kept != st.kept {
					t.Errorf("%s: ran on the kept import: %v; want %v (%+v)", st.name, kept, st.kept, after)
				}
				if i > 0 && after.Reused == before.Reused {
					t.Errorf("%s: no child reused", st.name)
				}
				want, err := fresh.Run(ctx, src, sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(briefs(got), briefs(want)) {
					t.Errorf("%s: kept %v\nfresh %v", st.name, briefs(got), briefs(want))
				}
			}
		})
	}
}

// partialAndWhole runs candidate src twice on e: with its change (the
// partial path) and whole.
func partialAndWhole(t *testing.T, e *Engine, src []byte, ch program.Change) (got, full *fitness.Outcome) {
	t.Helper()
	full, err := e.Run(context.Background(), src, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err = e.Run(context.Background(), src, sandbox.RunOptions{Change: &ch})
	if err != nil {
		t.Fatal(err)
	}
	return got, full
}
