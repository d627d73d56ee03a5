package gpython

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/internal/testutil/busy"
	"repair/sandbox"
)

// TestRun covers each case kind and check, and what the engine adds to
// gpython: a fresh module per case, standard streams, helper modules, the
// safe os module, builtins shared between candidates.
func TestRun(t *testing.T) {
	P, WA, RTE, CE := fitness.Passed, fitness.WrongAnswer, fitness.RuntimeError, fitness.CompilationError
	raises := func(c fitness.Case, exc string) fitness.Case { c.Raises = exc; return c }
	named := func(c fitness.Case, name string) fitness.Case { c.Name = name; return c }
	tests := []struct {
		name  string
		src   string
		cases []fitness.Case
		want  []brief
	}{
		{"wrong answers", "def f(x):\n    return [x, None, 'a', 1.5]\n",
			[]fitness.Case{call("f", "[1]", `[1, null, "a", 1.5]`), call("f", "[2]", `[1, null, "a", 1.5]`), call("f", "[1]", "1")},
			[]brief{{P, ""}, {WA, "expected [1, None, 'a', 1.5], got [2, None, 'a', 1.5]"}, {WA, "expected 1, got [1, None, 'a', 1.5]"}}},
		{"raises", "def f(x):\n    if x:\n        raise ValueError('bad %d' % x)\n    return 0\n",
			[]fitness.Case{raises(call("f", "[1]", ""), "ValueError"), raises(call("f", "[1]", ""), "Exception"),
				raises(call("f", "[0]", ""), "ValueError"), call("f", "[2]", "0")},
			[]brief{{P, ""}, {P, ""}, {WA, "expected ValueError to be raised, got 0"}, {RTE, "ValueError: bad 2 (line 3)"}}},
		{"in place", "def f(xs):\n    xs.append(len(xs))\n",
			[]fitness.Case{with(call("f", "[[0]]", ""), func(c *fitness.Case) { c.ExpectedArgs = []byte("[[0, 1]]") }),
				with(call("f", "[[]]", ""), func(c *fitness.Case) { c.ExpectedArgs = []byte("[[1]]") })},
			[]brief{{P, ""}, {WA, "expected arguments [[1]] after the call, got [[0]]"}}},
		{"missing callee", "def f():\n    return 1\n", []fitness.Case{call("g", "", "1")},
			[]brief{{RTE, "the candidate does not define g"}}},
		{"does not compile", "def f(:\n    pass\n", []fitness.Case{call("f", "", "1"), call("f", "", "1")},
			[]brief{{CE, "SyntaxError: invalid syntax (line 1)"}, {CE, "SyntaxError: invalid syntax (line 1)"}}},
		{"fresh module per case", "seen = []\ndef f(x):\n    seen.append(x)\n    return len(seen)\n",
			[]fitness.Case{call("f", "[1]", "1"), call("f", "[2]", "1")}, []brief{{P, ""}, {P, ""}}},
		{"io", "name = input('name? ')\nprint('hi', name)\n",
			[]fitness.Case{ioCase("bo\n", "name? hi bo\n"), ioCase("", "x\n"), ioCase("al\n", "name? hi bob\n")},
			[]brief{{P, ""}, {RTE, "EOFError: EOF when reading a line (line 1)"}, {WA, "line 1: expected 'name? hi bob', got 'name? hi al'"}}},
		{"output cap", "print('x' * 70000)\n", []fitness.Case{ioCase("", "x\n")},
			[]brief{{WA, "output longer than 65536 bytes"}}},
		{"stdout per case", "import sys\ndef f(x):\n    print(x)\n    if x:\n        sys.stdout.close()\n    return x\n",
			[]fitness.Case{call("f", "[1]", "1"), call("f", "[0]", "0")}, []brief{{P, ""}, {P, ""}}},
		{"environment and files", "import os\ndef f():\n    return [len(os.environ), os.getenv('HOME', 'none'), sorted(os.listdir('lib'))]\n",
			[]fitness.Case{call("f", "", `[0, "none", ["helper.py"]]`)}, []brief{{P, ""}}},
		{"helper module fresh per case", "import helper\ndef f():\n    helper.n += 1\n    return helper.n\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []brief{{P, ""}, {P, ""}}},
		{"import errors", "def f():\n    import nosuchmodule\n", []fitness.Case{call("f", "", "1")},
			[]brief{{RTE, "ImportError: No module named 'nosuchmodule' (line 2)"}}},
		{"os._exit", "import os\ndef f(x):\n    try:\n        os._exit(x)\n    finally:\n        return 5\n",
			[]fitness.Case{call("f", "[3]", "5"), named(call("f", "[0]", "5"), "again")}, []brief{{RTE, "exited with status 3"}, {RTE, "exited with status 0"}}},
		{"sys.setrecursionlimit", "import sys\ndef depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\ndef f(n):\n    sys.setrecursionlimit(n)\n    return depth(1500)\n",
			[]fitness.Case{call("f", "[5000]", "1500"), call("f", "[100]", "0")},
			[]brief{{P, ""}, {RTE, "RecursionError: maximum recursion depth exceeded (line 3)"}}},
		{"reused frames start fresh", "def f(x, y):\n    t = 0\n    for i in range(x):\n        try:\n            if i == y:\n                raise ValueError('at %d' % i)\n            t += i\n        finally:\n            t += 1\n    return t\ndef g(x):\n    if x:\n        v = x\n    return v\n",
			[]fitness.Case{call("f", "[3, 1]", "0"), call("f", "[3, 5]", "6"), call("g", "[1]", "1"), call("g", "[0]", "1"),
				call("f", "[2, 0]", "0"), call("f", "[4, 9]", "10"), call("g", "[2, 3]", "2"), call("g", "[0]", "1")},
			[]brief{{RTE, "ValueError: at 1 (line 6)"}, {P, ""}, {P, ""}, {RTE, "NameError: name 'v' is not defined (line 14)"},
				{RTE, "ValueError: at 0 (line 6)"}, {P, ""}, {RTE, "TypeError: g() takes 1 positional argument but 2 were given"},
				{RTE, "NameError: name 'v' is not defined (line 14)"}}},
		{"round", "def f(x, n):\n    return [round(x, n), round(x)]\n",
			[]fitness.Case{call("f", "[2.675, 2]", "[2.67, 3]"), call("f", "[2.5, 0]", "[2.0, 2]"), call("f", "[1234.5, -2]", "[1200.0, 1234]")},
			[]brief{{P, ""}, {P, ""}, {P, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tgt := target(t, "cand.py", map[string]string{"helper.py": "n = 0\n"})
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: tt.cases}, Target: tgt}, config{noCheck: true})
			for _, cov := range []bool{false, true} {
				out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{Coverage: cov})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, briefs(out)); diff != "" {
					t.Errorf("coverage %v: mismatch (-want +got):\n%s", cov, diff)
				}
			}
		})
	}
}

// TestBuiltinTypesRestored checks that a candidate that changes a built-in
// type (shared by every context of a worker) does not change it for the
// next candidate.
func TestBuiltinTypesRestored(t *testing.T) {
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{call("f", "", "true")}},
		Target: target(t, "cand.py", nil)}, config{noCheck: true})
	for i, src := range []string{
		"def f():\n    setattr(str, 'extra', 1)\n    list.append = None\n    return hasattr(str, 'extra')\n",
		"def f():\n    return not hasattr(str, 'extra') and [].append(1) is None\n",
	} {
		out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Results[0]; r.Verdict != fitness.Passed {
			t.Errorf("candidate %d: %v %s", i, r.Verdict, r.Detail)
		}
	}
}

// TestTimeoutCap checks RunOptions.Timeout (a cap of every case's timeout)
// and AbandonAfterTimeout, for loops the probes stop and for a loop inside
// a built-in function, which only the engine's kill stops.
func TestTimeoutCap(t *testing.T) {
	src := "def f(x):\n    if x == 1:\n        while True:\n            pass\n    if x == 2:\n        return sum(range(10 ** 15))\n    return x\n"
	cases := []fitness.Case{call("f", "[0]", "0"), call("f", "[1]", "1"), call("f", "[3]", "3"), call("f", "[2]", "2"), call("f", "[4]", "4")}
	TLE, P := fitness.TimeLimitExceeded, fitness.Passed
	tests := []struct {
		name    string
		abandon bool
		want    []brief
	}{
		{"cap", false, []brief{{P, ""}, {TLE, "timed out after 0.3s of CPU time (the search's cap)"}, {P, ""}, {TLE, "timed out after 0.3s of CPU time (the search's cap)"}, {P, ""}}},
		{"abandon", true, []brief{{P, ""}, {TLE, "timed out after 0.3s of CPU time (the search's cap)"}, {TLE, notRun}, {TLE, notRun}, {TLE, notRun}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil)},
				config{noCheck: true, grace: 50 * time.Millisecond})
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Timeout: 300 * time.Millisecond, AbandonAfterTimeout: tt.abandon})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, briefs(out)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("abandon after a kill", func(t *testing.T) {
		e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases[2:]}, Target: target(t, "cand.py", nil)},
			config{noCheck: true, grace: 50 * time.Millisecond})
		out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Timeout: 300 * time.Millisecond, AbandonAfterTimeout: true})
		if err != nil {
			t.Fatal(err)
		}
		want := []brief{{P, ""}, {TLE, "timed out after 0.3s of CPU time (the search's cap)"}, {TLE, notRun}}
		if diff := cmp.Diff(want, briefs(out)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
		if s := e.Stats(); s.Restarts != 1 {
			t.Errorf("%d restarts, want 1", s.Restarts)
		}
	})
}

// TestCapKillsBuiltinLoop: under a search's cap, a case stuck in one
// long built-in call (no probe runs there) is killed from outside after
// about the cap, not after its own timeout: a suite timeout of 1000 s must
// not hold the worker (a 5 ms cap once let such a candidate run 2.3 s).
func TestCapKillsBuiltinLoop(t *testing.T) {
	src := "def f(x):\n    return sum(range(10 ** 15))\n"
	c := call("f", "[0]", "0")
	c.Timeout = 1000
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{c}}, Target: target(t, "cand.py", nil)},
		config{noCheck: true})
	// Far above the cap and its grace, far below the case's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := e.Run(ctx, []byte(src), sandbox.RunOptions{Timeout: 10 * time.Millisecond})
	if err != nil {
		t.Fatalf("the capped case was not stopped: %v", err)
	}
	want := []brief{{fitness.TimeLimitExceeded, "timed out after 0.01s of CPU time (the search's cap)"}}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestCrashRecovery checks that a case that kills its worker (a huge
// allocation) gets its verdict and the others run on a fresh worker.
func TestCrashRecovery(t *testing.T) {
	src := "def f(x):\n    if x:\n        return len([0] * 10 ** 11)\n    return 0\n"
	cases := []fitness.Case{call("f", "[0]", "0"), call("f", "[1]", "0"), call("f", "[0]", "0"), call("f", "[1]", "0")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil)}, config{noCheck: true})
	out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	P, MLE := fitness.Passed, fitness.MemoryLimitExceeded
	want := []brief{{P, ""}, {MLE, "MemoryError"}, {P, ""}, {MLE, "MemoryError"}}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if s := e.Stats(); s.Restarts != 2 {
		t.Errorf("%d restarts, want 2", s.Restarts)
	}
	// The pool is whole again.
	out, err = e.Run(context.Background(), []byte("def f(x):\n    return 0\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := out.Counts(); p != 4 {
		t.Errorf("after the crashes: %d passed, want 4", p)
	}
}

// TestUnsupported checks that New refuses an original program gpython
// cannot run, naming the construct and its line.
func TestUnsupported(t *testing.T) {
	tests := []struct {
		name, src string
		cases     []fitness.Case
		want      string
	}{
		// f-strings run (fstring.go), but not every format spec.
		{"f-string spec", "def f(x):\n    y = 1\n    return f'{x:z.1f}'\n", []fitness.Case{call("f", "[-0.01]", `"0.0"`)},
			`cand.py:3: the embedded gpython engine (a Python 3.4 subset) cannot run this program: gpython does not implement it (f-string format spec "z.1f" for float not implemented) (case #1); use --engine cpython`},
		{"walrus", "def f(x):\n    if (n := x):\n        return n\n", []fitness.Case{call("f", "[1]", "1")},
			"cand.py:2: the embedded gpython engine (a Python 3.4 subset) cannot run an assignment expression := (Python 3.8); use --engine cpython"},
		{"method", "def f(s):\n    return s.title()\n", []fitness.Case{named(call("f", `["a"]`, `"A"`), "title")},
			"cand.py:2: the embedded gpython engine (a Python 3.4 subset) cannot run str.title() (case title); use --engine cpython"},
		{"module", "import collections\ndef f():\n    return 1\n", []fitness.Case{call("f", "", "1")},
			"cand.py:1: the embedded gpython engine (a Python 3.4 subset) cannot run the module collections (case #1); use --engine cpython"},
		{"builtin", "def f(xs):\n    return hash(xs)\n", []fitness.Case{call("f", "[[1]]", "[1]")},
			"cand.py:2: the embedded gpython engine (a Python 3.4 subset) cannot run the built-in hash (case #1); use --engine cpython"},
		{"__eq__", "class P(object):\n    def __eq__(self, o):\n        return True\ndef f():\n    return 1\n", []fitness.Case{call("f", "", "1")},
			"cand.py:2: the embedded gpython engine (a Python 3.4 subset) cannot run a class that defines __eq__ (gpython never calls it: == compares identity, truth is always True); use --engine cpython"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tgt := target(t, "cand.py", map[string]string{"cand.py": tt.src})
			e, err := New(context.Background(), sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: tt.cases}, Target: tgt, Workers: 1})
			if err == nil {
				e.Close()
				t.Fatal("no error")
			}
			var ue *UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("not an UnsupportedError: %v", err)
			}
			got := strings.Replace(err.Error(), tgt, "cand.py", 1)
			if got != tt.want {
				t.Errorf("error\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestClosed checks Run after Close and with a canceled context.
func TestClosed(t *testing.T) {
	target, suite := middleSuite(t)
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target}, config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Run(ctx, []byte("def middle(x, y, z):\n    return y\n"), sandbox.RunOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	e.Close()
	if _, err := e.Run(context.Background(), []byte("def middle(x, y, z):\n    return y\n"), sandbox.RunOptions{}); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("closed: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func named(c fitness.Case, name string) fitness.Case { c.Name = name; return c }

// TestCloseWhileRunning checks that Close stops a busy worker: the Run in
// flight returns ErrClosed, and no process is left.
func TestCloseWhileRunning(t *testing.T) {
	suite := &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{secs(call("f", "", "1"), 30)}}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target(t, "cand.py", nil)}, config{noCheck: true})
	done := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), []byte("import time\ndef f():\n    time.sleep(20)\n"), sandbox.RunOptions{})
		done <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if pids := workerPIDs(e); len(pids) == 1 {
			if i, _ := firstProc(e).shm.running(); i == 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the case never started")
		}
	}
	e.Close()
	if err := <-done; !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("Run during Close: %v, want ErrClosed", err)
	}
	if left := descendants(os.Getpid()); len(left) > 0 {
		t.Errorf("%d processes left behind after Close", len(left))
	}
}

func firstProc(e *Engine) *proc {
	if ws := e.pool.Workers(); len(ws) > 0 {
		return ws[0]
	}
	return nil
}

// TestCaseTimeLimitsLoaded: a case's limit is CPU time, as under the
// cpython engine: one that uses a fraction of its limit passes however
// long the machine makes it wait for a CPU (eight loops per CPU stretch
// its wall time well past the limit), one that loops is stopped at its
// limit.
func TestCaseTimeLimitsLoaded(t *testing.T) {
	busy.Loops(t, 8*runtime.NumCPU())
	// 100,000 rounds: a few hundredths of a second of CPU time.
	const src = "def f(x):\n    if x:\n        while True:\n            pass\n    n = 0\n    for i in range(100000):\n        n += i\n    return 1\n"
	work, loops := call("f", "[0]", "1"), call("f", "[1]", "1")
	work.Timeout, loops.Timeout = 0.3, 0.3
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{work, loops}}, Target: target(t, "cand.py", nil)}, config{})
	out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{{fitness.Passed, ""}, {fitness.TimeLimitExceeded, "timed out after 0.3s of CPU time (--case-timeout raises the limit)"}}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	t.Logf("the case that works took %.2fs of wall time", out.Results[0].Seconds)
}
