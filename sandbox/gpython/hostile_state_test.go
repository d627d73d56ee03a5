package gpython

import (
	"context"
	"strings"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// TestHostileVerdicts: a gpython candidate cannot forge its verdict. The
// worker never holds what a call or I/O case expects (the engine judges
// what it reports), and a candidate cannot reach the worker's memory or
// its shared area.
func TestHostileVerdicts(t *testing.T) {
	RTE, WA := fitness.RuntimeError, fitness.WrongAnswer
	rows := []struct {
		name   string
		src    string
		cases  []fitness.Case
		want   fitness.Verdict
		detail string
	}{
		{"write PASSED records into the shared area", "def f():\n    out = open('/proc/self/fd/5', 'r+b')\n    out.write(b'x' * 64)\n    return 0\n",
			[]fitness.Case{call("f", "", "1")}, RTE, "Permission denied: '/proc/self/fd/5'"},
		{"read the worker's memory", "def f():\n    return open('/proc/self/mem', 'rb').read(10)\n",
			[]fitness.Case{call("f", "", "1")}, RTE, "Permission denied: '/proc/self/mem'"},
		{"write to the worker's stderr", "def f():\n    open('/dev/stderr', 'w').write('x' * 1000)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, RTE, "Permission denied: '/dev/stderr'"},
		{"list the root", "import os\ndef f():\n    return os.listdir('/')\n",
			[]fitness.Case{call("f", "", "[]")}, RTE, "Permission denied: '/'"},
		{"glob the home directory", "import glob\ndef f():\n    return glob.glob('/root/*')\n",
			[]fitness.Case{call("f", "", "[]")}, RTE, "Permission denied"},
		{"write a helper module", "def f():\n    open('lib/helper.py', 'w').write('K = 3\\n')\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, RTE, "(read-only)"},
		{"an object equal to everything", "class Any:\n    def __eq__(self, other):\n        return True\n    def __repr__(self):\n        return 'Any()'\ndef f():\n    return Any()\n",
			[]fitness.Case{call("f", "", "[1, 2, 3]")}, WA, "got Any()"},
		// gpython cannot subclass list: the attack that passed the
		// cpython harness's comparison ends in an error here.
		{"a list whose __len__ lies", "class L(list):\n    def __len__(self):\n        return 3\ndef f():\n    return L([1, 2, 3, 4])\n",
			[]fitness.Case{call("f", "", "[1, 2, 3]")}, RTE, "takes no parameters"},
		{"raise the expected exception's name", "class KeyError(Exception):\n    pass\ndef f():\n    raise ValueError('mine')\n",
			[]fitness.Case{with(call("f", "", ""), func(c *fitness.Case) { c.Raises = "KeyError" })}, RTE, "ValueError: mine"},
	}
	tgt := target(t, "cand.py", map[string]string{"helper.py": "K = 2\n"})
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: row.cases}, Target: tgt, Workers: 1}, config{noCheck: true})
			out, err := e.Run(context.Background(), []byte(row.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r := out.Results[0]; r.Verdict != row.want || !strings.Contains(r.Detail, row.detail) {
				t.Errorf("%v (%s); want %v with %q", r.Verdict, r.Detail, row.want, row.detail)
			}
		})
	}
}

// TestSkipFails: pytest.skip() while a test case runs fails the case
// (under gpython, whose exceptions cannot be subclassed, raising the
// stand-in's Skipped is itself an error).
func TestSkipFails(t *testing.T) {
	testSrc := "from cand import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"
	suite := &fitness.Suite{MemoryMB: 256, TestSource: []byte(testSrc), TestModule: "test_cand",
		Cases: []fitness.Case{{Name: "test_add", Kind: fitness.Test, Function: "test_add", Weight: 1, Timeout: 5}}}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target(t, "cand.py", nil), Workers: 1}, config{noCheck: true})
	for _, tt := range []struct {
		src    string
		want   fitness.Verdict
		detail string
	}{
		{"import pytest\ndef add(a, b):\n    pytest.skip('not today')\n", fitness.RuntimeError, "not callable"},
		{"def add(a, b):\n    return a + b\n", fitness.Passed, ""},
	} {
		out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Results[0]; r.Verdict != tt.want || !strings.Contains(r.Detail, tt.detail) {
			t.Errorf("%q: %v %q; want %v %q", tt.src, r.Verdict, r.Detail, tt.want, tt.detail)
		}
	}
}

// step is one candidate of a sequence run on one worker.
type step struct {
	src  string
	want fitness.Verdict // of every case; anyVerdict: not checked
}

const anyVerdict fitness.Verdict = 255

// TestHostileState: nothing one candidate does reaches the next on the
// same worker: not files of the working directory, not builtins or
// modules a pure candidate (whose context the next pure one reuses)
// could change. Each sequence ends with a wrong candidate that must fail
// and a correct one that must pass.
func TestHostileState(t *testing.T) {
	double := []fitness.Case{call("f", "[1]", "2"), call("f", "[3]", "6")}
	correct := step{"def f(x):\n    return x * 2\n", fitness.Passed}
	rows := []struct {
		name  string
		steps []step
	}{
		{"a file left for the next candidate", []step{
			{"def f(x):\n    open('answers.txt', 'w').write('1 2\\n3 6\\n')\n    return x * 2\n", fitness.Passed},
			{"import os\ndef f(x):\n    if 'answers.txt' in os.listdir('.'):\n        for line in open('answers.txt').read().split('\\n'):\n            if line and int(line.split()[0]) == x:\n                return int(line.split()[1])\n    return -1\n", fitness.WrongAnswer},
			correct,
		}},
		{"a full working directory", []step{
			{"def f(x):\n    out = open('fill', 'w')\n    try:\n        for _ in range(100):\n            out.write('x' * (1 << 20))\n    except Exception:\n        pass\n    return x * 2\n", anyVerdict},
			{"def f(x):\n    open('scratch', 'w').write(str(x * 2))\n    return int(open('scratch').read())\n", fitness.Passed},
		}},
		{"a built-in type changed", []step{
			{"def f(x):\n    setattr(str, 'twice', lambda s: 2)\n    return x * 2\n", fitness.Passed},
			{"def f(x):\n    return 'a'.twice() * x\n", fitness.RuntimeError},
			correct,
		}},
		{"a module's function replaced", []step{
			{"import math\ndef f(x):\n    math.floor = lambda v: 2 * v\n    return x * 2\n", fitness.Passed},
			{"import math\ndef f(x):\n    return math.floor(x)\n", fitness.WrongAnswer},
			{"import math\ndef f(x):\n    return math.floor(x * 2.0)\n", fitness.Passed},
		}},
	}
	tgt := target(t, "cand.py", map[string]string{"cand.py": "import math\n"})
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: double}, Target: tgt, Workers: 1}, config{noCheck: true})
			for i, s := range row.steps {
				out, err := e.Run(context.Background(), []byte(s.src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for j, r := range out.Results {
					if s.want != anyVerdict && r.Verdict != s.want {
						t.Errorf("candidate %d, case %d: %v (%s); want %v", i, j, r.Verdict, r.Detail, s.want)
					}
				}
			}
		})
	}
}

// TestBound: the engine bounds a candidate's wall time in all, in the
// tool's process: past it the worker is killed, the cases not reported get
// TIME_LIMIT_EXCEEDED, and the engine goes on. (Each case's deadline holds
// already; the bound is what no worker can extend. A small bound shows it
// here.)
func TestBound(t *testing.T) {
	cases := []fitness.Case{call("f", "[1]", "2"), call("f", "[2]", "4"), call("f", "[3]", "6")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil), Workers: 1},
		config{noCheck: true, bound: 700 * time.Millisecond})
	out, err := e.Run(context.Background(), []byte("import time\ndef f(x):\n    time.sleep(0.4)\n    return x * 2\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Results[0]; r.Verdict != fitness.Passed {
		t.Errorf("case 0: %v (%s)", r.Verdict, r.Detail)
	}
	for _, r := range out.Results[2:] {
		if r.Verdict != fitness.TimeLimitExceeded || !strings.Contains(r.Detail, "time bound of 700ms") {
			t.Errorf("a case past the bound: %v (%s)", r.Verdict, r.Detail)
		}
	}
	out, err = e.Run(context.Background(), []byte("def f(x):\n    return x * 2\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed {
			t.Errorf("the next candidate, case %d: %v (%s)", i, r.Verdict, r.Detail)
		}
	}
}
