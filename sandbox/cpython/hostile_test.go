package cpython

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

// TestHostile runs candidates that attack the sandbox. Each must end with
// its verdict, leave no process behind and write nothing outside the
// private directory; the test process must survive them all.
func TestHostile(t *testing.T) {
	python(t)
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

	secs := func(c fitness.Case, s float64) fitness.Case { c.Timeout = s; return c }
	rows := []struct {
		name   string
		src    string
		cases  []fitness.Case
		want   []fitness.Verdict
		detail string // a substring of the first case's detail ("|" separates alternatives)
	}{
		{"infinite loop", "def f():\n    while True:\n        pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1)}, []fitness.Verdict{fitness.TimeLimitExceeded}, "timed out after 1s"},
		{"deep recursion", "def f():\n    return f()\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.RuntimeError}, "RecursionError"},
		{"deep recursion in C", "import sys\ndef f():\n    sys.setrecursionlimit(10**8)\n    a = []\n    for _ in range(2 * 10**5):\n        a = [a]\n    return repr(a)\n",
			// CPython 3.12 and later have a C recursion limit of their own.
			[]fitness.Case{secs(call("f", "", "1"), 30), call("len", "[[1]]", "1")}, []fitness.Verdict{fitness.RuntimeError, fitness.RuntimeError}, "killed by signal SIGSEGV|RecursionError"},
		{"memory bomb", "def f():\n    return [0] * 10**10\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.MemoryLimitExceeded}, "MemoryError"},
		{"fork bomb", "import os\ndef f():\n    while True:\n        os.fork()\n",
			[]fitness.Case{secs(call("f", "", "1"), 10), call("g", "", "1")}, []fitness.Verdict{fitness.RuntimeError, fitness.RuntimeError}, "BlockingIOError"},
		{"fork and sleep", "import os, time\ndef f():\n    if os.fork() == 0:\n        time.sleep(1000)\n    return 1\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []fitness.Verdict{fitness.Passed, fitness.Passed}, ""},
		{"setsid escape", "import os, time\ndef f():\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            time.sleep(1000)\n        os._exit(0)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.Passed}, ""},
		{"thread left running", "import threading, time\ndef f():\n    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n    return 1\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []fitness.Verdict{fitness.Passed, fitness.Passed}, ""},
		{"print 100 MB", "def f():\n    for _ in range(100000):\n        print('x' * 1000)\n    return 1\n",
			[]fitness.Case{secs(call("f", "", "1"), 30)}, []fitness.Verdict{fitness.Passed}, ""},
		{"write 100 MB to fd 1", "import os\ndef f():\n    os.write(1, b'x' * 10**8)\n    os.write(2, b'x' * 10**8)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.Passed}, ""},
		{"network", fmt.Sprintf("import socket\ndef f():\n    socket.create_connection(('127.0.0.1', %d), timeout=2)\n    return 1\n", port),
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.RuntimeError}, "PermissionError"},
		{"write into the target's directory", fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", filepath.Join(dir, "escaped.txt")),
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.RuntimeError}, "No such file or directory"},
		{"write into /tmp", fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", tmpFile),
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.RuntimeError}, "Read-only file system"},
		{"write into the private directory", "def f():\n    open('scratch.txt', 'w').write('x')\n    return open('scratch.txt').read()\n",
			[]fitness.Case{call("f", "", `"x"`)}, []fitness.Verdict{fitness.Passed}, ""},
		{"kill the parent", "import os\ndef f():\n    os.kill(os.getppid(), 9)\n    return 1\n",
			[]fitness.Case{call("f", "", "1"), call("f", "", "1")}, []fitness.Verdict{fitness.Passed, fitness.Passed}, ""},
		{"kill everything", "import os\ndef f():\n    os.kill(-1, 9)\n    return 1\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{fitness.RuntimeError}, "PermissionError"},
		{"close stdout", "import sys\ndef f():\n    sys.stdout.close()\n    print('x')\n    return 1\ndef g():\n    print('y')\n    return 2\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "2")}, []fitness.Verdict{fitness.RuntimeError, fitness.Passed}, "I/O operation on closed file"},
		{"os._exit before returning", "import os\ndef f():\n    os._exit(0)\ndef g():\n    return 2\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "2")}, []fitness.Verdict{fitness.RuntimeError, fitness.Passed}, "exited with status 0"},
		{"ignore SIGALRM and loop", "import signal\ndef f():\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(1)\n    while True:\n        pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1.5)}, []fitness.Verdict{fitness.TimeLimitExceeded}, "timed out"},
		{"catch BaseException in a loop", "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1)}, []fitness.Verdict{fitness.TimeLimitExceeded}, "timed out"},
		{"put its deadline off", "import sys, time\ndef f():\n    h = sys.modules['__main__']\n    cur, _ = h.CUR.unpack_from(h.SHM, 0)\n    h.CUR.pack_into(h.SHM, 0, cur, time.monotonic() + 1e6)\n    while True:\n        pass\n",
			[]fitness.Case{secs(call("f", "", "1"), 1)}, []fitness.Verdict{fitness.TimeLimitExceeded}, "timed out after 1s"},
		{"stop the sandbox's processes", "import os, signal\ndef f():\n    return 1\ndef g():\n    for p in os.listdir('/proc'):\n        if p.isdigit() and int(p) != os.getpid():\n            try:\n                os.kill(int(p), signal.SIGSTOP)\n            except OSError:\n                pass\n    while True:\n        pass\n",
			// Finished cases keep their verdicts; the case that stopped the
			// manager ends at once, and the rest run in a fresh child.
			[]fitness.Case{call("f", "", "1"), call("g", "", "2"), call("f", "", "1"), call("f", "", "1")},
			[]fitness.Verdict{fitness.Passed, fitness.RuntimeError, fitness.Passed, fitness.Passed}, ""},
		{"environment", "import os\ndef f():\n    return [os.environ.get('REPAIR_HOSTILE_SECRET', 'absent'), len(os.environ)]\n",
			[]fitness.Case{call("f", "", `["absent", 0]`)}, []fitness.Verdict{fitness.Passed}, ""},
	}
	me := os.Getpid()
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{
				Suite:  &fitness.Suite{MemoryMB: 256, Cases: row.cases},
				Target: tgt,
			}, config{})
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
			// Between candidates a server is its forker, its manager and
			// one child that waits for the next candidate (after a pure
			// candidate the one it ran in, else a spare forked once it
			// ended), both leaves: nothing the candidate started is left.
			// The spare comes just after the candidate's results.
			for _, pid := range serverPIDs(e) {
				kids := descendants(pid)
				for wait := time.Now().Add(2 * time.Second); len(kids) < 2 && time.Now().Before(wait); kids = descendants(pid) {
					time.Sleep(5 * time.Millisecond)
				}
				if len(kids) == 2 && len(descendants(kids[0]))+len(descendants(kids[1])) == 0 {
					continue // the manager and a waiting child, both leaves
				}
				for _, k := range kids {
					t.Logf("  %d %s", k, cmdline(k))
				}
				t.Errorf("server %d has %d descendants after the candidate; want its manager and one waiting child, both leaves", pid, len(kids))
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
