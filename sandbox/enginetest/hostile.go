package enginetest

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

// HostileRow is a candidate that attacks the sandbox, with the verdicts it
// must get.
type HostileRow struct {
	Name   string
	Src    string
	Cases  []fitness.Case
	Want   []fitness.Verdict
	Detail string // a substring of the first case's detail ("|" separates alternatives)
}

// HostileEnv is what the hostile rows attack outside the sandbox.
type HostileEnv struct {
	Dir     string // the target's directory
	Target  string // the target, Dir/cand.py
	Escape  string // Dir/escaped.txt, never written
	TmpFile string // a file in the system's temporary directory, never written
	Port    int    // a port of 127.0.0.1 that listens, never connected to
}

// HostileRows are the attacks every engine ends the same way: the same
// verdicts, the same words in the first case's detail.
func HostileRows(env HostileEnv) []HostileRow {
	RTE, TLE, MLE, OK := fitness.RuntimeError, fitness.TimeLimitExceeded, fitness.MemoryLimitExceeded, fitness.Passed
	call := Call
	return []HostileRow{
		{"infinite loop", "def f():\n    while True:\n        pass\n",
			[]fitness.Case{Secs(call("f", "", "1"), 1)}, []fitness.Verdict{TLE}, "timed out after 1s of CPU time"},
		{"deep recursion", "def f():\n    return f()\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{RTE}, "RecursionError"},
		{"deep recursion in C", "import sys\ndef f():\n    sys.setrecursionlimit(10**8)\n    a = []\n    for _ in range(2 * 10**5):\n        a = [a]\n    return repr(a)\n",
			// CPython before 3.12 overflows the C stack (gpython and
			// CPython 3.12 and later have a C recursion limit).
			[]fitness.Case{Secs(call("f", "", "1"), 30), call("len", "[[1]]", "1")}, []fitness.Verdict{RTE, RTE}, "killed by signal SIGSEGV|RecursionError"},
		{"memory bomb", "def f():\n    return [0] * 10**10\n",
			[]fitness.Case{call("f", "", "1")}, []fitness.Verdict{MLE}, "MemoryError"},
		{"print 100 MB", "def f():\n    for _ in range(100000):\n        print('x' * 1000)\n    return 1\n",
			[]fitness.Case{Secs(call("f", "", "1"), 30)}, []fitness.Verdict{OK}, ""},
		{"write into the private directory", "def f():\n    open('scratch.txt', 'w').write('x')\n    return open('scratch.txt').read()\n",
			[]fitness.Case{call("f", "", `"x"`)}, []fitness.Verdict{OK}, ""},
		{"close stdout", "import sys\ndef f():\n    sys.stdout.close()\n    print('x')\n    return 1\ndef g():\n    print('y')\n    return 2\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "2")}, []fitness.Verdict{RTE, OK}, "I/O operation on closed file"},
		{"os._exit before returning", "import os\ndef f():\n    os._exit(0)\ndef g():\n    return 2\n",
			[]fitness.Case{call("f", "", "1"), call("g", "", "2")}, []fitness.Verdict{RTE, OK}, "exited with status 0"},
		{"catch BaseException in a loop", "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n",
			[]fitness.Case{Secs(call("f", "", "1"), 1)}, []fitness.Verdict{TLE}, "timed out"},
		{"environment", "import os\ndef f():\n    return [os.getenv('" + hostileSecret + "', 'absent'), len(os.environ)]\n",
			[]fitness.Case{call("f", "", `["absent", 0]`)}, []fitness.Verdict{OK}, ""},
	}
}

// hostileSecret is a variable of the test's environment that no candidate
// may see.
const hostileSecret = "REPAIR_HOSTILE_SECRET"

// Hostile runs the rows HostileRows and own give, each on an engine of its
// own that open starts for the row's suite and target (skipping the test
// where the engine lacks full isolation). Each candidate must end with its
// verdicts, leave the engine's processes as idle says they are between
// candidates, and leave no process behind once the engine is closed;
// the test process must survive them all, nothing outside the private
// directory may be written and nothing may connect to the test's port.
func Hostile[E sandbox.Engine](t *testing.T, own func(HostileEnv) []HostileRow,
	open func(t *testing.T, suite *fitness.Suite, target string) E, idle func(t *testing.T, e E)) {
	dir := t.TempDir()
	env := HostileEnv{Dir: dir, Target: filepath.Join(dir, "cand.py"), Escape: filepath.Join(dir, "escaped.txt"),
		TmpFile: filepath.Join(os.TempDir(), fmt.Sprintf("repair-hostile-%d.txt", os.Getpid()))}
	if err := os.WriteFile(env.Target, []byte("# original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env.Port = ln.Addr().(*net.TCPAddr).Port
	t.Setenv(hostileSecret, "leaked")
	me := os.Getpid()
	rows := HostileRows(env)
	if own != nil {
		rows = append(rows, own(env)...)
	}
	for _, row := range rows {
		t.Run(row.Name, func(t *testing.T) {
			e := open(t, &fitness.Suite{MemoryMB: 256, Cases: row.Cases}, env.Target)
			out, err := e.Run(context.Background(), []byte(row.Src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Results) != len(row.Want) {
				t.Fatalf("%d results, want %d", len(out.Results), len(row.Want))
			}
			for i, r := range out.Results {
				if r.Verdict != row.Want[i] {
					t.Errorf("case %d: %v (%s); want %v", i, r.Verdict, r.Detail, row.Want[i])
				}
			}
			if d := out.Results[0].Detail; !ContainsAny(d, strings.Split(row.Detail, "|")) {
				t.Errorf("detail %q does not contain %q", d, row.Detail)
			}
			idle(t, e)
			e.Close()
			if left := Descendants(me); len(left) > 0 {
				for _, k := range left {
					t.Logf("  %d %s", k, Cmdline(k))
				}
				t.Errorf("%d processes left behind after Close", len(left))
			}
		})
	}
	for _, p := range []string{env.Escape, env.TmpFile} {
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
