package gpython

import (
	"fmt"
	"path/filepath"
	"testing"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/enginetest"
)

// gpythonOnly are hostile rows that attack gpython's worker, not
// something CPython has: the conformance test leaves them out.
var gpythonOnly = map[string]bool{"the worker's pipes": true}

// hostileRows are the hostile rows every engine shares
// (enginetest.HostileRows) and the CPython engine's other attacks with
// the verdicts gpython gives (it has no fork, kill, socket, signal or
// threads, so those attacks end as runtime errors), plus attacks on
// gpython's own weak points: recursion without probes, huge allocations,
// loops inside built-in functions, file descriptors of the worker,
// built-in types shared between candidates.
func hostileRows(env enginetest.HostileEnv) []enginetest.HostileRow {
	return append(enginetest.HostileRows(env), ownHostileRows(env)...)
}

func ownHostileRows(env enginetest.HostileEnv) []enginetest.HostileRow {
	RTE, TLE, MLE, OK := fitness.RuntimeError, fitness.TimeLimitExceeded, fitness.MemoryLimitExceeded, fitness.Passed
	return []enginetest.HostileRow{
		{Name: "fork bomb", Src: "import os\ndef f():\n    while True:\n        os.fork()\n",
			Cases: []fitness.Case{secs(call("f", "", "1"), 10), call("g", "", "1")}, Want: []fitness.Verdict{RTE, RTE}, Detail: "AttributeError"},
		{Name: "fork and sleep", Src: "import os, time\ndef f():\n    if os.fork() == 0:\n        time.sleep(1000)\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1"), call("f", "", "1")}, Want: []fitness.Verdict{RTE, RTE}, Detail: "AttributeError"},
		{Name: "setsid escape", Src: "import os, time\ndef f():\n    if os.fork() == 0:\n        os.setsid()\n        if os.fork() == 0:\n            time.sleep(1000)\n        os._exit(0)\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "AttributeError"},
		{Name: "thread left running", Src: "import threading, time\ndef f():\n    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1"), call("f", "", "1")}, Want: []fitness.Verdict{RTE, RTE}, Detail: "ImportError: No module named 'threading'"},
		{Name: "write 100 MB to fd 1", Src: "import os\ndef f():\n    os.write(1, b'x' * 10**8)\n    os.write(2, b'x' * 10**8)\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "AttributeError"},
		{Name: "network", Src: fmt.Sprintf("import socket\ndef f():\n    socket.create_connection(('127.0.0.1', %d), timeout=2)\n    return 1\n", env.Port),
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "ImportError: No module named 'socket'"},
		{Name: "read /etc/shadow", Src: "def f():\n    return open('/etc/shadow').read()\n",
			Cases: []fitness.Case{call("f", "", `""`)}, Want: []fitness.Verdict{RTE}, Detail: "outside the sandbox's working directory"},
		{Name: "read the target's directory", Src: fmt.Sprintf("def f():\n    return open(%q).read()\n", filepath.Join(env.Dir, "cand.py")),
			Cases: []fitness.Case{call("f", "", `""`)}, Want: []fitness.Verdict{RTE}, Detail: "outside the sandbox's working directory"},
		{Name: "write into the target's directory", Src: fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", env.Escape),
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "outside the sandbox's working directory"},
		{Name: "write into /tmp", Src: fmt.Sprintf("def f():\n    open(%q, 'w').write('x')\n    return 1\n", env.TmpFile),
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "outside the sandbox's working directory"},
		{Name: "kill the parent", Src: "import os\ndef f():\n    os.kill(os.getppid(), 9)\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1"), call("f", "", "1")}, Want: []fitness.Verdict{RTE, RTE}, Detail: "AttributeError"},
		{Name: "kill everything", Src: "import os\ndef f():\n    os.kill(-1, 9)\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "AttributeError"},
		{Name: "ignore SIGALRM and loop", Src: "import signal\ndef f():\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n    signal.alarm(1)\n    while True:\n        pass\n",
			Cases: []fitness.Case{secs(call("f", "", "1"), 1.5)}, Want: []fitness.Verdict{RTE}, Detail: "ImportError: No module named 'signal'"},

		// gpython's weak points.
		{Name: "recursion through a lambda", Src: "f = lambda n: f(n + 1)\ndef g():\n    return 2\n",
			Cases: []fitness.Case{call("f", "[0]", "1"), call("g", "", "2")}, Want: []fitness.Verdict{RTE, OK}, Detail: "RecursionError"},
		{Name: "loop inside a built-in", Src: "def f():\n    return sum(range(10**15))\ndef g():\n    return 2\n",
			Cases: []fitness.Case{secs(call("f", "", "1"), 0.2), call("g", "", "2")}, Want: []fitness.Verdict{TLE, OK}, Detail: "timed out after 0.2s of CPU time"},
		{Name: "sleep", Src: "import time\ndef f():\n    time.sleep(100)\n",
			Cases: []fitness.Case{secs(call("f", "", "1"), 0.2)}, Want: []fitness.Verdict{TLE}, Detail: "of wall-clock time, asleep or waiting"},
		{Name: "memory grows in a loop", Src: "def f():\n    a = []\n    while True:\n        a.append([0] * 1000)\n",
			Cases: []fitness.Case{secs(call("f", "", "1"), 20), call("len", "[[1]]", "1")}, Want: []fitness.Verdict{MLE, RTE}, Detail: "MemoryError"},
		{Name: "huge int", Src: "def f():\n    return 10 ** (10 ** 10)\n",
			Cases: []fitness.Case{secs(call("f", "", "1"), 1)}, Want: []fitness.Verdict{TLE}, Detail: "timed out|MemoryError"},
		{Name: "the worker's pipes", Src: "def f():\n    open('/proc/self/fd/4', 'w').write('garbage')\n    return 1\n",
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "PermissionError"},
		{Name: "os.system and os.remove", Src: "import os\ndef f():\n    os.system('true')\ndef g():\n    os.remove('x')\n",
			Cases: []fitness.Case{call("f", "", "1"), call("g", "", "1")}, Want: []fitness.Verdict{RTE, RTE}, Detail: "AttributeError"},
		{Name: "sys.exit", Src: "import sys\ndef f():\n    sys.exit(3)\n",
			Cases: []fitness.Case{call("f", "", "1")}, Want: []fitness.Verdict{RTE}, Detail: "SystemExit: 3"},
	}
}

// TestHostile runs candidates that attack the sandbox
// (enginetest.Hostile) with the rows of hostileRows.
func TestHostile(t *testing.T) {
	open := func(t *testing.T, suite *fitness.Suite, target string) *Engine {
		e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target}, config{noCheck: true})
		if !e.Confinement().Full() {
			t.Skipf("full isolation is not available: %v", e.Confinement())
		}
		return e
	}
	// Between candidates a worker is one process with nothing under it
	// (gpython cannot start processes).
	idle := func(t *testing.T, e *Engine) {
		for _, pid := range workerPIDs(e) {
			if kids := descendants(pid); len(kids) != 0 {
				for _, k := range kids {
					t.Logf("  %d %s", k, cmdline(k))
				}
				t.Errorf("worker %d has %d descendants after the candidate", pid, len(kids))
			}
		}
	}
	enginetest.Hostile(t, ownHostileRows, open, idle)
}
