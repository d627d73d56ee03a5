package gpython

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// hostileRow is a candidate that attacks the sandbox, with the verdicts it
// must get under gpython.
type hostileRow struct {
	name   string
	src    string
	cases  []fitness.Case
	want   []fitness.Verdict
	detail string // a substring of the first case's detail ("|" separates alternatives)
}

// gpythonOnly are hostile rows that attack gpython's worker, not
// something CPython has: the conformance test leaves them out.
var gpythonOnly = map[string]bool{"the worker's pipes": true}

func secs(c fitness.Case, s float64) fitness.Case { c.Timeout = s; return c }

// hostileRows is the hostile table of the CPython engine's tests (with the
// verdicts gpython gives: it has no fork, kill, socket, signal or threads,
// so those attacks end as runtime errors), plus attacks on gpython's own
// weak points: recursion without probes, huge allocations, loops inside
// built-in functions, file descriptors of the worker, built-in types shared
// between candidates.
func hostileRows(dir, tmpFile string, port int) []hostileRow {
	RTE, TLE, MLE, OK := fitness.RuntimeError, fitness.TimeLimitExceeded, fitness.MemoryLimitExceeded, fitness.Passed
	return []hostileRow{
		{"infinite loop", "def f():\n    while True:\n        pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1)}, []fitness.Verdict{TLE}, "timed out after 1s of CPU time"},
		{"deep recursion", "def f():\n    return f()\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "RecursionError"},
		{"deep recursion in C", "import sys\ndef f():\n    sys.setrecursionlimit(10**8)\n    a = []\n    for _ in range(2 * 10**5):\n        a = [a]\n    return repr(a)\n",
			[]fitness.Case{secs(call("f", "", "1"), 30), call("len", "[[1]]", "1")}, []fitness.Verdict{RTE, RTE}, "RecursionError"},
		{"memory bomb", "def f():\n    return [0] * 10**10\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{MLE}, "MemoryError"},
		{"fork bomb", "import os\ndef f():\n    while True:\n        os.fork()\n",
			[]fitness.Case{secs(call("f", "", "1"), 10), call("g", "", "1")}, []fitness.Verdict{RTE, RTE}, "AttributeError"},
		{"fork and sleep", "import os, time\ndef f():\n    if os.fork() == 0:\n        time.sleep(1000)\n    return 1\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []fitness.Verdict{RTE, RTE}, "AttributeError"},
		{"setsid escape", "import os, time\ndef f():\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            time.sleep(1000)\n        os._exit(0)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "AttributeError"},
		{"thread left running", "import threading, time\ndef f():\n    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n    return 1\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []fitness.Verdict{RTE, RTE}, "ImportError: No module named 'threading'"},
		{"print 100 MB", "def f():\n    for _ in range(100000):\n        print('x' * 1000)\n    return 1\n",
			[]fitness.Case{secs(call("f", "", "1"), 30)}, []fitness.Verdict{OK}, ""},
		{"write 100 MB to fd 1", "import os\ndef f():\n    os.write(1, b'x' * 10**8)\n    os.write(2, b'x' * 10**8)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "AttributeError"},
		{"network", fmt.Sprintf("import socket\ndef f():\n    socket.create_connection(('127.0.0.1', %d), timeout=2)\n    return 1\n", port),
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "ImportError: No module named 'socket'"},
		{"read /etc/shadow", "def f():\n    return open('/etc/shadow').read()\n",
			[]fitness.Case{call("f", "", `""`)}, []fitness.Verdict{RTE}, "outside the sandbox's working directory"},
		{"read the target's directory", fmt.Sprintf("def f():\n    return open(%q).read()\n", filepath.Join(dir, "cand.py")),
			[]fitness.Case{call("f", "", `""`)}, []fitness.Verdict{RTE}, "outside the sandbox's working directory"},
		{"write into the target's directory", fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", filepath.Join(dir, "escaped.txt")),
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "outside the sandbox's working directory"},
		{"write into /tmp", fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", tmpFile),
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "outside the sandbox's working directory"},
		{"write into the private directory", "def f():\n    open('scratch.txt', 'w').write('x')\n    return open('scratch.txt').read()\n",
			[]fitness.Case{call("f", "", `"x"`)}, []fitness.Verdict{OK}, ""},
		{"kill the parent", "import os\ndef f():\n    os.kill(os.getppid(), 9)\n    return 1\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []fitness.Verdict{RTE, RTE}, "AttributeError"},
		{"kill everything", "import os\ndef f():\n    os.kill(-1, 9)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "AttributeError"},
		{"close stdout", "import sys\ndef f():\n    sys.stdout.close()\n    print('x')\n    return 1\ndef g():\n    print('y')\n    return 2\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "2")}, []fitness.Verdict{RTE, OK}, "I/O operation on closed file"},
		{"os._exit before returning", "import os\ndef f():\n    os._exit(0)\ndef g():\n    return 2\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "2")}, []fitness.Verdict{RTE, OK}, "exited with status 0"},
		{"ignore SIGALRM and loop", "import signal\ndef f():\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(1)\n    while True:\n        pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1.5)}, []fitness.Verdict{RTE}, "ImportError: No module named 'signal'"},
		{"catch BaseException in a loop", "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1)}, []fitness.Verdict{TLE}, "timed out"},
		{"environment", "import os\ndef f():\n    return [os.getenv('REPAIR_HOSTILE_SECRET', 'absent'), len(os.environ)]\n",
			[]fitness.Case{call("f", "", `["absent", 0]`)}, []fitness.Verdict{OK}, ""},

		// gpython's weak points.
		{"recursion through a lambda", "f = lambda n: f(n + 1)\ndef g():\n    return 2\n",
			[]fitness.Case{call("f", "[0]", "1"), call("g", "", "2")}, []fitness.Verdict{RTE, OK}, "RecursionError"},
		{"loop inside a built-in", "def f():\n    return sum(range(10**15))\ndef g():\n    return 2\n",
			[]fitness.Case{secs(call("f", "", "1"), 0.2), call("g", "", "2")}, []fitness.Verdict{TLE, OK}, "timed out after 0.2s of CPU time"},
		{"sleep", "import time\ndef f():\n    time.sleep(100)\n",
			[]fitness.Case{secs(call("f", "", "1"), 0.2)}, []fitness.Verdict{TLE}, "of wall-clock time, asleep or waiting"},
		{"memory grows in a loop", "def f():\n    a = []\n    while True:\n        a.append([0] * 1000)\n",
			[]fitness.Case{secs(call("f", "", "1"), 20), call("len", "[[1]]", "1")}, []fitness.Verdict{MLE, RTE}, "MemoryError"},
		{"huge int", "def f():\n    return 10 ** (10 ** 10)\n",
			[]fitness.Case{secs(call("f", "", "1"), 1)}, []fitness.Verdict{TLE}, "timed out|MemoryError"},
		{"the worker's pipes", "def f():\n    open('/proc/self/fd/4', 'w').write('garbage')\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "PermissionError"},
		{"os.system and os.remove", "import os\ndef f():\n    os.system('true')\ndef g():\n    os.remove('x')\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "1")}, []fitness.Verdict{RTE, RTE}, "AttributeError"},
		{"sys.exit", "import sys\ndef f():\n    sys.exit(3)\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "SystemExit: 3"},
	}
}

// TestHostile runs candidates that attack the sandbox. Each must end with
// its verdict and leave no process behind; the test process must survive
// them all, and nothing outside the private directory may be written.
func TestHostile(t *testing.T) {
	dir := t.TempDir()
	tgt := filepath.Join(dir, "cand.py")
	if err := os.WriteFile(tgt, []byte("# original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmpFile := filepath.Join(os.TempDir(), fmt.Sprintf("repair-hostile-%d.txt", os.Getpid()))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	t.Setenv("REPAIR_HOSTILE_SECRET", "leaked")
	me := os.Getpid()
	for _, row := range hostileRows(dir, tmpFile, port) {
		t.Run(row.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{
				Suite:  &fitness.Suite{MemoryMB: 256, Cases: row.cases},
				Target: tgt,
			}, config{noCheck: true})
			if !e.Confinement().Full() {
				t.Skipf("full isolation is not available: %v", e.Confinement())
			}
			out, err := e.Run(context.Background(), []byte(row.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range out.Results {
				if r.Verdict != row.want[i] {
					t.Errorf("case %d: %v (%s); want %v", i, r.Verdict, r.Detail, row.want[i])
				}
			}
			if d := out.Results[0].Detail; !containsAny(d, strings.Split(row.detail, "|")) {
				t.Errorf("detail %q does not contain %q", d, row.detail)
			}
			// Between candidates a worker is one process with nothing
			// under it (gpython cannot start processes).
			for _, pid := range workerPIDs(e) {
				if kids := descendants(pid); len(kids) != 0 {
					for _, k := range kids {
						t.Logf("  %d %s", k, cmdline(k))
					}
					t.Errorf("worker %d has %d descendants after the candidate", pid, len(kids))
				}
			}
			e.Close()
			if left := descendants(me); len(left) > 0 {
				for _, k := range left {
					t.Logf("  %d %s", k, cmdline(k))
				}
				t.Errorf("%d processes left behind after Close", len(left))
			}
		})
	}
	for _, p := range []string{filepath.Join(dir, "escaped.txt"), tmpFile} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			os.Remove(p)
			t.Errorf("%s was written from inside the sandbox", p)
		}
	}
	ln.(*net.TCPListener).SetDeadline(time.Now())
	if c, err := ln.Accept(); err == nil {
		c.Close()
		t.Errorf("the listener saw a connection from inside the sandbox")
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
