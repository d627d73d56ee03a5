package cpython

import (
	"context"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// TestPytestThreadsAndProcesses: a test file's tests start the threads
// and processes a test suite starts beside plain pytest on a developer's
// machine (50 threads alive at once, a pool of 32, ten subprocesses,
// 150 threads), and they pass under the tool and under plain pytest in
// the sandbox alike; a test that starts threads without end is still
// stopped, and fails. (Fork bombs: TestHostile.)
func TestPytestThreadsAndProcesses(t *testing.T) {
	py := realPytest(t)
	const tests = `import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from calc import add


def started(n):
    barrier = threading.Barrier(n + 1)
    results = []
    lock = threading.Lock()

    def work(i):
        barrier.wait(timeout=30)
        with lock:
            results.append(add(i, 1))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    barrier.wait(timeout=30)  # every one of them alive at once
    for t in threads:
        t.join()
    return sorted(results) == list(range(1, n + 1))


def test_ten_threads():
    assert started(10)


def test_fifty_threads():
    assert started(50)


def test_many_threads():
    assert started(150)


def test_pool():
    with ThreadPoolExecutor(max_workers=32) as pool:
        assert sorted(pool.map(lambda i: add(i, 0), range(200))) == list(range(200))


def test_subprocesses():
    procs = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.2)"]) for _ in range(10)]
    assert [p.wait() for p in procs] == [0] * 10


def test_thread_bomb():
    stop = threading.Event()
    started = 0
    try:
        while True:
            threading.Thread(target=stop.wait, daemon=True).start()
            started += 1
    finally:
        stop.set()
`
	want := map[string]struct {
		verdict fitness.Verdict
		detail  string // a substring of the detail
		plain   string // plain pytest's outcome
	}{
		"test_ten_threads":   {fitness.Passed, "", "passed"},
		"test_fifty_threads": {fitness.Passed, "", "passed"},
		"test_many_threads":  {fitness.Passed, "", "passed"},
		"test_pool":          {fitness.Passed, "", "passed"},
		"test_subprocesses":  {fitness.Passed, "", "passed"},
		"test_thread_bomb":   {fitness.RuntimeError, "can't start new thread", "failed"},
	}
	for _, noNS := range []bool{false, true} {
		name := "namespaces"
		if noNS {
			name = "degraded"
		}
		t.Run(name, func(t *testing.T) {
			target, suite := moduleTestDir(t, "calc", "def add(a, b):\n    return a + b\n", tests)
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path, Env: sandbox.Environment{Standard: true}},
				config{noNamespaces: noNS})
			out, err := e.Run(context.Background(), []byte("def add(a, b):\n    return a + b\n"), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range suite.Cases {
				_, fn, _ := strings.Cut(c.Name, "::")
				w, ok := want[fn]
				if !ok {
					t.Errorf("%s: collected, not expected", c.Name)
					continue
				}
				if r := out.Results[i]; r.Verdict != w.verdict || !strings.Contains(r.Detail, w.detail) {
					t.Errorf("%s: %v %q; want %v %q", c.Name, r.Verdict, r.Detail, w.verdict, w.detail)
				}
			}
			plain, err := e.PlainPytest(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if plain == nil {
				t.Fatal("no plain pytest run")
			}
			for _, pt := range plain.Tests {
				_, fn, _ := strings.Cut(pt.ID, "::")
				if w := want[fn]; pt.Outcome != w.plain {
					t.Errorf("plain pytest: %s %s %q; want %s", pt.ID, pt.Outcome, pt.Detail, w.plain)
				}
			}
			if len(plain.Tests) != len(want) {
				t.Errorf("plain pytest ran %d tests; want %d", len(plain.Tests), len(want))
			}
		})
	}
}
