package cpython

import (
	"context"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// addCases are four cases of add(a, b) that a wrong add (a + b + 1)
// fails: the attacks below try to pass them without computing a + b.
func addCases() []fitness.Case {
	return []fitness.Case{call("add", "[1, 2]", "3"), call("add", "[2, 2]", "4"), call("add", "[0, 0]", "0"), call("add", "[-1, 1]", "0")}
}

// TestHostileVerdicts: a candidate cannot forge its verdict. The harness
// never holds what a call or I/O case expects, and the tool judges what
// the candidate's process reports, so each attack below (all of which
// gave 4/4 PASSED for a wrong add when the comparison ran in the child)
// ends with the wrong answer it is.
func TestHostileVerdicts(t *testing.T) {
	python(t)
	wrong := []fitness.Verdict{fitness.WrongAnswer, fitness.WrongAnswer, fitness.WrongAnswer, fitness.WrongAnswer}
	rte := []fitness.Verdict{fitness.RuntimeError, fitness.RuntimeError, fitness.RuntimeError, fitness.RuntimeError}
	rows := []struct {
		name   string
		src    string
		cases  []fitness.Case
		want   []fitness.Verdict
		detail string // in every case's detail
	}{
		{"read the expected value from the harness's frames", `import sys
def add(a, b):
    f = sys._getframe(1)
    while f is not None:
        for v in list(f.f_locals.values()):
            for attr in ("expected", "expected_args", "stdout", "raises", "expected_repr"):
                if hasattr(v, attr):
                    return getattr(v, attr)
        f = f.f_back
    return a + b + 1
`, addCases(), wrong, "expected"},
		{"find the expectations among the harness's objects", `import gc
def add(a, b):
    for o in gc.get_objects():
        if isinstance(o, dict) and "expected" in o:
            return o["expected"]
        if isinstance(o, list) and o and isinstance(o[0], dict) and "expected" in o[0]:
            for c in o:
                if c.get("args") == [a, b]:
                    return c["expected"]
    return a + b + 1
`, addCases(), wrong, "expected"},
		{"replace the harness's comparison and encoding", `import sys
def add(a, b):
    h = sys.modules["__main__"]
    for name in ("equal", "compare_stdout", "floats_equal", "set_equal"):
        setattr(h, name, lambda *args, **kw: True)
    if hasattr(h, "Ctx"):
        h.Ctx.check = lambda self, *args: (0, None)
    h.observe_return = lambda r, args: h.observe_return.__defaults__
    h.encode_value = lambda v: b"i" + bytes(8)
    return a + b + 1
`, addCases(), wrong, "expected"},
		{"edit the case objects", `import gc
def add(a, b):
    for o in gc.get_objects():
        if type(o).__name__ == "Case":
            for attr in ("expected", "has_expected", "raises"):
                try:
                    setattr(o, attr, None)
                except AttributeError:
                    pass
    return a + b + 1
`, addCases(), wrong, "expected"},
		{"write PASSED records into the shared memory", `import os, sys
def add(a, b):
    h = sys.modules["__main__"]
    recbase = h.JOB.unpack_from(h.SHM, 32)[3]
    off = recbase
    for i in range(len(h.CASES)):
        h.REC.pack_into(h.SHM, off, i, 0, 0, 0.0)
        off += h.REC.size
    h.HDR.pack_into(h.SHM, 0, -1, 0.0, off, len(h.CASES))
    os._exit(0)
`, addCases(), rte, "verdict of its own"},
		{"a list whose __len__ lies", `class L(list):
    def __len__(self):
        return 3
def f():
    return L([1, 2, 3, 4])
`, []fitness.Case{call("f", "", "[1, 2, 3]")}, []fitness.Verdict{fitness.WrongAnswer}, "got [1, 2, 3, 4]"},
		{"an object equal to everything", `class Any:
    def __eq__(self, other):
        return True
    __hash__ = None
    def __repr__(self):
        return "Any()"
def f():
    return Any()
`, []fitness.Case{call("f", "", "[1, 2, 3]")}, []fitness.Verdict{fitness.WrongAnswer}, "got Any()"},
		{"an int equal to everything", `class I(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
def f():
    return I(99)
`, []fitness.Case{call("f", "", "3")}, []fitness.Verdict{fitness.WrongAnswer}, "got 99"},
		{"a dict whose items lie", `class D(dict):
    def items(self):
        return [("a", 1)]
    def keys(self):
        return ["a"]
    def __iter__(self):
        return iter(["a"])
    def __getitem__(self, k):
        return 1
def f():
    return D(b=2)
`, []fitness.Case{call("f", "", `{"a": 1}`)}, []fitness.Verdict{fitness.WrongAnswer}, "got {'b': 2}"},
		{"a str that lies about itself", `class S(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__
    def __str__(self):
        return "yes"
def f():
    return S("no")
`, []fitness.Case{call("f", "", `"yes"`)}, []fitness.Verdict{fitness.WrongAnswer}, "got 'no'"},
		{"raise the expected exception's name", `class ValueError(Exception):
    pass
def f():
    raise ValueError("mine")
`, []fitness.Case{with(call("f", "", ""), func(c *fitness.Case) { c.Raises = "KeyError" })}, []fitness.Verdict{fitness.RuntimeError}, "ValueError: mine"},
		{"print what the harness would compare", `import sys
h = sys.modules.get("__main__")
for name in ("compare_stdout", "equal"):
    setattr(h, name, lambda *args: None)
print("wrong")
`, []fitness.Case{ioCase("", "right\n")}, []fitness.Verdict{fitness.WrongAnswer}, "expected 'right', got 'wrong'"},
	}
	tgt := target(t, "cand.py", nil)
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: row.cases}, Target: tgt, Workers: 1}, config{})
			out, err := e.Run(context.Background(), []byte(row.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out.Results {
				if r.Verdict != row.want[i] || !strings.Contains(r.Detail, row.detail) {
					t.Errorf("case %d: %v (%s); want %v with %q", i, r.Verdict, r.Detail, row.want[i], row.detail)
				}
			}
		})
	}
}

// TestSkipFails: pytest.skip() raised while a test case runs (here by the
// candidate) fails the case.
func TestSkipFails(t *testing.T) {
	python(t)
	testSrc := "from cand import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"
	suite := &fitness.Suite{MemoryMB: 256, TestSource: []byte(testSrc), TestModule: "test_cand",
		Cases: []fitness.Case{{Name: "test_add", Kind: fitness.Test, Function: "test_add", Weight: 1, Timeout: 5}}}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target(t, "cand.py", nil), Workers: 1}, config{})
	for _, tt := range []struct {
		src    string
		want   fitness.Verdict
		detail string
	}{
		{"import pytest\ndef add(a, b):\n    pytest.skip('not today')\n", fitness.WrongAnswer, "skipped: not today (line 3)"},
		{"import pytest\npytest.skip('at import')\ndef add(a, b):\n    return a + b\n", fitness.WrongAnswer, "skipped: at import (line 2)"},
		{"def add(a, b):\n    return a + b\n", fitness.Passed, ""},
	} {
		out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Results[0]; r.Verdict != tt.want || r.Detail != tt.detail {
			t.Errorf("%q: %v %q; want %v %q", tt.src, r.Verdict, r.Detail, tt.want, tt.detail)
		}
	}
}
