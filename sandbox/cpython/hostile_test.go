package cpython

import (
	"fmt"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/enginetest"
)

// TestHostile runs candidates that attack the sandbox
// (enginetest.Hostile): the attacks every engine ends the same way, and
// those CPython lets a candidate make (processes, threads, signals,
// sockets, raw writes, the harness's shared area).
func TestHostile(t *testing.T) {
	python(t)
	own := func(env enginetest.HostileEnv) []enginetest.HostileRow {
		RTE, TLE, OK := fitness.RuntimeError, fitness.TimeLimitExceeded, fitness.Passed
		return []enginetest.HostileRow{
			{Name: "fork bomb", Src: "import os\ndef f():\n    while True:\n        os.fork()\n",
				// One case: the bomb's processes live until the candidate's
				// run ends, so a second case of the same candidate would
				// compete with them for the CPU and its verdict would depend
				// on the load; the rows after this one are the engine's
				// next candidates, run once the bomb is gone.
				Cases: []fitness.Case{secs(call("f", "", "1"), 10)}, Want: []fitness.Verdict{RTE}, Detail: "BlockingIOError"},
			{Name: "fork and sleep", Src: "import os, time\ndef f():\n    if os.fork() == 0:\n        time.sleep(1000)\n    return 1\n",
				Cases: []fitness.Case{call("f", "", "1"), call("f", "", "1")}, Want: []fitness.Verdict{OK, OK}},
			{Name: "setsid escape", Src: "import os, time\ndef f():\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            time.sleep(1000)\n        os._exit(0)\n    return 1\n",
				Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{OK}},
			{Name: "thread left running", Src: "import threading, time\ndef f():\n    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n    return 1\n",
				Cases: []fitness.Case{call("f", "", "1"), call("f", "", "1")}, Want: []fitness.Verdict{OK, OK}},
			{Name: "write 100 MB to fd 1", Src: "import os\ndef f():\n    os.write(1, b'x' * 10**8)\n    os.write(2, b'x' * 10**8)\n    return 1\n",
				Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{OK}},
			{Name: "network", Src: fmt.Sprintf("import socket\ndef f():\n    socket.create_connection(('127.0.0.1', %d), timeout=2)\n    return 1\n", env.Port),
				Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "PermissionError"},
			{Name: "write into the target's directory", Src: fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", env.Escape),
				Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "No such file or directory"},
			{Name: "write into /tmp", Src: fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", env.TmpFile),
				Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "Read-only file system"},
			{Name: "kill the parent", Src: "import os\ndef f():\n    os.kill(os.getppid(), 9)\n    return 1\n",
				Cases: []fitness.Case{call("f", "", "1"), call("f", "", "1")}, Want: []fitness.Verdict{OK, OK}},
			{Name: "kill everything", Src: "import os\ndef f():\n    os.kill(-1, 9)\n    return 1\n",
				Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "PermissionError"},
			{Name: "ignore SIGALRM and loop", Src: "import signal\ndef f():\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(1)\n    while True:\n        pass\n",
				Cases: []fitness.Case{secs(call("f", "", "1"), 1.5)}, Want: []fitness.Verdict{TLE}, Detail: "timed out"},
			{Name: "put its deadline off", Src: "import sys, time\ndef f():\n    h = sys.modules['__main__']\n    cur, _ = h.CUR.unpack_from(h.SHM, 0)\n    h.CUR.pack_into(h.SHM, 0, cur, time.monotonic() + 1e6)\n    while True:\n        pass\n",
				Cases: []fitness.Case{secs(call("f", "", "1"), 1)}, Want: []fitness.Verdict{TLE}, Detail: "timed out after 1s"},
			{Name: "stop the sandbox's processes", Src: "import os, signal\ndef f():\n    return 1\ndef g():\n    for p in os.listdir('/proc'):\n        if p.isdigit() and int(p) != os.getpid():\n            try:\n                os.kill(int(p), signal.SIGSTOP)\n            except OSError:\n                pass\n    while True:\n        pass\n",
				// Finished cases keep their verdicts; the case that stopped the
				// manager ends at once, and the rest run in a fresh child.
				Cases: []fitness.Case{call("f", "", "1"), call("g", "", "2"), call("f", "", "1"), call("f", "", "1")},
				Want:  []fitness.Verdict{OK, RTE, OK, OK}},
		}
	}
	open := func(t *testing.T, suite *fitness.Suite, target string) *Engine {
		e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target}, config{})
		if !e.Confinement().Full() {
			t.Skipf("full isolation is not available: %v", e.Confinement())
		}
		return e
	}
	// Between candidates a server is its forker, its manager and one
	// child that waits for the next candidate (after a pure candidate the
	// one it ran in, else a spare forked once it ended), both leaves:
	// nothing the candidate started is left. The spare comes just after
	// the candidate's results.
	idle := func(t *testing.T, e *Engine) {
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
	}
	enginetest.Hostile(t, own, open, idle)
}
