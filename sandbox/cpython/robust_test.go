package cpython

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// TestNoNamespaces: where the kernel refuses namespaces the engine runs
// with the remaining layers, gives the same verdicts and says so once.
func TestNoNamespaces(t *testing.T) {
	tgt, suite := middleSuite(t)
	var stderr bytes.Buffer
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 2, Stderr: &stderr}, config{noNamespaces: true})
	src, err := os.ReadFile(tgt)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]*fitness.Outcome, 4)
	errs := make([]error, 4)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = e.Run(context.Background(), src, sandbox.RunOptions{})
		}()
	}
	wg.Wait()
	for i, out := range outs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		passed, failed := out.Counts()
		if passed != 100 || failed != 100 {
			t.Errorf("run %d: %d passed, %d failed; want 100 and 100", i, passed, failed)
		}
	}
	if c := e.Confinement(); c.Namespaces || c.Degraded == "" {
		t.Errorf("confinement %+v; want degraded, without namespaces", c)
	}
	if n := strings.Count(stderr.String(), "isolation is degraded"); n != 1 {
		t.Errorf("degraded notice printed %d times; want once:\n%s", n, stderr.String())
	}
}

// TestNoNamespacesHostile: the rlimits-only path still stops loops and
// memory bombs and survives a candidate that kills its server.
func TestNoNamespacesHostile(t *testing.T) {
	python(t)
	src := "import os\ndef loop():\n    while True:\n        pass\ndef mem():\n    return [0] * 10**10\ndef kill():\n    os.kill(os.getppid(), 9)\n    return 1\ndef ok():\n    return 1\n"
	cases := []fitness.Case{with(call("loop", "", "1"), func(c *fitness.Case) { c.Timeout = 0.5 }), call("mem", "", "1"), call("ok", "", "1")}
	out := runOne(t, src, cases, sandbox.RunOptions{}, config{noNamespaces: true})
	want := []brief{{fitness.TimeLimitExceeded, "timed out after 0.5s of CPU time (--case-timeout raises the limit)"}, {fitness.MemoryLimitExceeded, "MemoryError"}, {fitness.Passed, ""}}
	if diff := cmp.Diff(want, briefs(out)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// Without a PID namespace the candidate can kill its server: the
	// engine retries once on a fresh server, then gives up on the
	// candidate, not on the run.
	cases = []fitness.Case{call("ok", "", "1"), call("kill", "", "1")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil)}, config{noNamespaces: true})
	got, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Results[1]; r.Verdict != fitness.RuntimeError {
		t.Errorf("killing the server: %v (%s); want RUNTIME_ERROR", r.Verdict, r.Detail)
	}
	// The engine still works.
	got, err = e.Run(context.Background(), []byte("def ok():\n    return 1\ndef kill():\n    return 1\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p, f := got.Counts(); p != 2 || f != 0 {
		t.Errorf("after a killed server: %d passed, %d failed; want 2 passed", p, f)
	}
}

// TestServerReplaced: a server killed from outside, or wedged, is replaced
// and the candidate in flight runs again on the fresh one.
func TestServerReplaced(t *testing.T) {
	tgt, suite := middleSuite(t)
	src, err := os.ReadFile(tgt)
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, out *fitness.Outcome, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if p, f := out.Counts(); p != 100 || f != 100 {
			t.Errorf("%d passed, %d failed; want 100 and 100", p, f)
		}
	}
	t.Run("killed while idle", func(t *testing.T) {
		e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt}, config{})
		for _, pid := range serverPIDs(e) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
		check(t, out, err)
	})
	t.Run("wedged", func(t *testing.T) {
		e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt}, config{watchdog: 500 * time.Millisecond})
		for _, pid := range serverPIDs(e) {
			syscall.Kill(pid, syscall.SIGSTOP) // the forker stops: nothing answers
		}
		out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
		check(t, out, err)
	})
	t.Run("killed during a candidate", func(t *testing.T) {
		cases := []fitness.Case{with(call("f", "", "1"), func(c *fitness.Case) { c.Timeout = 60 })}
		e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil)}, config{})
		pids := serverPIDs(e)
		dir := serverDirs(e)[0]
		// The candidate announces it is running by creating a file in its
		// private directory, then sleeps.
		src := "import os, time\ndef f():\n    open('started', 'w').close()\n    time.sleep(1)\n    return 1\n"
		done := make(chan struct{})
		var out *fitness.Outcome
		var err error
		go func() {
			defer close(done)
			out, err = e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
		}()
		waitForFile(t, pids[0], dir, "started")
		syscall.Kill(pids[0], syscall.SIGKILL)
		<-done
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Results[0]; r.Verdict != fitness.Passed {
			t.Errorf("%v (%s); want PASSED on the fresh server", r.Verdict, r.Detail)
		}
	})
}

// waitForFile waits until the candidate on server pid created name in its
// private directory dir (seen through /proc/PID/root: it is a tmpfs of the
// server's mount namespace).
func waitForFile(t *testing.T, pid int, dir, name string) {
	t.Helper()
	p := filepath.Join("/proc", strconv.Itoa(pid), "root", dir, name)
	for i := 0; i < 3000; i++ {
		if _, err := os.Stat(p); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the candidate did not start")
}

// TestCancel: canceling the context aborts a running candidate promptly
// with ctx.Err(), and the engine goes on working.
func TestCancel(t *testing.T) {
	cases := []fitness.Case{with(call("f", "", "1"), func(c *fitness.Case) { c.Timeout = 600 })}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil)}, config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := e.Run(ctx, []byte("def f():\n    while True:\n        pass\n"), sandbox.RunOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v; want context.Canceled", err)
	}
	out, err := e.Run(context.Background(), []byte("def f():\n    return 1\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Results[0].Verdict != fitness.Passed {
		t.Errorf("after cancel: %v", out.Results[0])
	}
}

// TestClose: Close stops busy servers too; Run then fails with ErrClosed,
// and nothing is left behind.
func TestClose(t *testing.T) {
	cases := []fitness.Case{with(call("f", "", "1"), func(c *fitness.Case) { c.Timeout = 600 })}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil), Workers: 2}, config{})
	dirs := serverDirs(e)
	errc := make(chan error, 1)
	go func() {
		_, err := e.Run(context.Background(), []byte("def f():\n    while True:\n        pass\n"), sandbox.RunOptions{})
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("Run during Close = %v; want ErrClosed", err)
	}
	if _, err := e.Run(context.Background(), []byte("def f():\n    return 1\n"), sandbox.RunOptions{}); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("Run after Close = %v; want ErrClosed", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if left := descendants(os.Getpid()); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("private directory %s left after Close", d)
		}
	}
}

// TestNoPython: a missing interpreter is ErrNoPython.
func TestNoPython(t *testing.T) {
	_, suite := middleSuite(t)
	_, err := New(context.Background(), sandbox.Options{Suite: suite, Target: "middle.py", Python: "/nonexistent/python3"})
	if !errors.Is(err, sandbox.ErrNoPython) {
		t.Errorf("New = %v; want ErrNoPython", err)
	}
	_, err = New(context.Background(), sandbox.Options{Suite: suite, Target: "middle.py", Python: "sh"})
	if !errors.Is(err, sandbox.ErrNoPython) {
		t.Errorf("New with sh = %v; want ErrNoPython", err)
	}
}

// TestDecodeRecords: what a server sends is not trusted, and the verdict
// of a call case is the tool's: a child that writes PASSED gets none.
func TestDecodeRecords(t *testing.T) {
	rec := func(idx uint32, status, flags byte, secs float64, extra ...byte) []byte {
		b := binary.LittleEndian.AppendUint32(nil, idx)
		b = append(b, status, flags)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(secs))
		return append(b, extra...)
	}
	returned := func(v int64) []byte {
		_, b := fitness.AppendObservation(nil, &fitness.Observation{Ending: fitness.Returned, Value: fitness.Value{Kind: fitness.VInt, Int: v}})
		return b
	}
	detail := append(binary.LittleEndian.AppendUint16(nil, 2), 'o', 'k')
	lines := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 1), 7)
	// Case 0 is a call case expecting 1, case 1 a test case.
	checks, err := fitness.NewChecks([]fitness.Case{
		{Kind: fitness.Call, Function: "f", Expected: []byte("1")},
		{Kind: fitness.Test, Function: "test_x"},
	}, 100)
	if err != nil {
		t.Fatal(err)
	}
	ret := fitness.StatusReturned
	tests := []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"good", append(rec(0, ret, 0, 0.5, returned(1)...), rec(1, 1, 3, 1, append(detail, lines...)...)...), true},
		{"empty", nil, true},
		{"truncated", rec(0, 0, 0, 0.5)[:10], false},
		{"truncated observation", rec(0, ret, 0, 0.5, returned(1)[:5]...), false},
		{"case out of range", rec(2, 0, 0, 0), false},
		{"bad verdict", rec(0, 9, 0, 0), false},
		{"bad status", rec(0, 19, 0, 0), false},
		{"compilation error from a child", rec(0, byte(fitness.CompilationError), 0, 0), false},
		{"detail too long", rec(0, 1, 1, 0, 0xff, 0xff, 'x'), false},
		{"too many lines", rec(0, 0, 2, 0, 0xff, 0xff, 0xff, 0x0f), false},
		{"the same lines as no record before", rec(1, 1, recSameLines, 0), false},
		{"the same lines as a record without", append(rec(0, ret, 0, 0, returned(1)...), rec(1, 1, recSameLines, 0)...), false},
		{"lines of a record not listed", append(rec(0, ret, recLines, 0, append(returned(1), lines...)...), rec(1, 1, recLinesRef, 0, 1, 0)...), false},
		{"truncated reference", rec(1, 1, recLinesRef, 0, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := make([]fitness.Result, 2)
			got := make([]bool, 2)
			err := decodeRecords(tt.in, checks, fitness.NewMemo(2), res, got, true)
			if (err == nil) != tt.ok {
				t.Errorf("err = %v; want ok=%v", err, tt.ok)
			}
		})
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want []fitness.Result
	}{
		{"judged", append(rec(0, ret, 0, math.NaN(), returned(1)...), rec(1, 1, 3, 1, append(detail, lines...)...)...),
			[]fitness.Result{{Verdict: fitness.Passed}, {Verdict: fitness.WrongAnswer, Seconds: 1, Detail: "ok", Lines: []int{7}}}},
		{"wrong value", rec(0, ret, 0, 0, returned(2)...),
			[]fitness.Result{{Verdict: fitness.WrongAnswer, Detail: "expected 1, got 2"}, {}}},
		{"forged verdicts", append(rec(0, byte(fitness.Passed), 0, 0), rec(1, byte(fitness.Passed), 0, 0)...),
			[]fitness.Result{{Verdict: fitness.RuntimeError, Detail: "the candidate's process reported a verdict of its own"}, {Verdict: fitness.Passed}}},
		{"the same lines", append(rec(0, ret, recLines, 0, append(returned(1), lines...)...), rec(1, 1, recSameLines, 0)...),
			[]fitness.Result{{Verdict: fitness.Passed, Lines: []int{7}}, {Verdict: fitness.WrongAnswer, Lines: []int{7}}}},
		{"lines listed before", append(rec(0, ret, recLines, 0, append(returned(1), lines...)...), rec(1, 1, recLinesRef, 0, 0, 0)...),
			[]fitness.Result{{Verdict: fitness.Passed, Lines: []int{7}}, {Verdict: fitness.WrongAnswer, Lines: []int{7}}}},
	} {
		res := make([]fitness.Result, 2)
		got := make([]bool, 2)
		if err := decodeRecords(tt.in, checks, fitness.NewMemo(2), res, got, true); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, res); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestStrict: IsolationStrict starts with full isolation, and refuses with
// ErrIsolation where it is not available.
func TestStrict(t *testing.T) {
	tgt, suite := middleSuite(t)
	python(t)
	e, err := newEngine(context.Background(), sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Isolation: sandbox.IsolationStrict}, config{})
	if err != nil {
		t.Skipf("full isolation is not available here: %v", err)
	}
	if c := e.Confinement(); !c.Full() {
		t.Errorf("strict engine with confinement %v", c)
	}
	e.Close()
	_, err = newEngine(context.Background(), sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Isolation: sandbox.IsolationStrict}, config{noNamespaces: true})
	if !errors.Is(err, sandbox.ErrIsolation) {
		t.Errorf("strict without namespaces: %v; want ErrIsolation", err)
	}
}

// TestPyenvTarget resolves pyenv shims without running them.
func TestPyenvTarget(t *testing.T) {
	root := t.TempDir()
	mk := func(p string, mode os.FileMode, data string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
	}
	shim := filepath.Join(root, "shims", "python3")
	mk(shim, 0o755, "#!/bin/sh\n")
	mk(filepath.Join(root, "versions", "3.11.7", "bin", "python3"), 0o755, "")
	mk(filepath.Join(root, "versions", "3.12.1", "bin", "python3"), 0o755, "")
	mk(filepath.Join(root, "version"), 0o644, "# global\n3.11.7\n")
	proj := filepath.Join(root, "proj", "sub")
	mk(filepath.Join(root, "proj", ".python-version"), 0o644, "3.12.1\n")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PYENV_ROOT", root)
	tests := []struct {
		name, env, wd, want string
	}{
		{"global version file", "", root, filepath.Join(root, "versions", "3.11.7", "bin", "python3")},
		{"local file in a parent", "", proj, filepath.Join(root, "versions", "3.12.1", "bin", "python3")},
		{"environment wins", "3.11.7:3.12.1", proj, filepath.Join(root, "versions", "3.11.7", "bin", "python3")},
		{"system is left to the shim", "system", proj, ""},
		{"missing version is left to the shim", "3.99.0", proj, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PYENV_VERSION", tt.env)
			t.Chdir(tt.wd)
			got, ok := pyenvTarget(shim)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("pyenvTarget = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
	if _, ok := pyenvTarget("/usr/bin/python3"); ok {
		t.Errorf("a plain interpreter was taken for a shim")
	}
}

// TestDelta: a partial candidate is sent as its changed definitions'
// text only when it is the original elsewhere; anything else (a gap or
// the tail that differs, spans out of order or out of range, no change)
// is sent whole.
func TestDelta(t *testing.T) {
	orig := []byte("a\ndef f():\n    return 1\nb\ndef g():\n    return 2\nc\n")
	f := strings.Index(string(orig), "def f")
	g := strings.Index(string(orig), "def g")
	fEnd, gEnd := f+len("def f():\n    return 1\n"), g+len("def g():\n    return 2\n")
	two := []byte("a\ndef f():\n    return 10\nb\ndef g():\n    x = 1\n    return 2\nc\n")
	f2End := f + len("def f():\n    return 10\n")
	g2 := f2End + 2
	g2End := g2 + len("def g():\n    x = 1\n    return 2\n")
	ch := &program.Change{Defs: []int{0, 1}, Orig: []program.Span{{Start: f, End: fEnd}, {Start: g, End: gEnd}},
		Cand: []program.Span{{Start: f, End: f2End}, {Start: g2, End: g2End}}}
	tests := []struct {
		name string
		src  []byte
		ch   *program.Change
		want string // "" for: sent whole
	}{
		{"two definitions", two, ch, "def f():\n    return 10\ndef g():\n    x = 1\n    return 2\n"},
		{"a gap differs", []byte(strings.Replace(string(two), "\nb\n", "\nB\n", 1)), ch, ""},
		{"the tail differs", append(append([]byte(nil), two...), '#'), ch, ""},
		{"the head differs", []byte("A" + string(two[1:])), ch, ""},
		{"spans out of order", two, &program.Change{Defs: []int{0, 1}, Orig: []program.Span{ch.Orig[1], ch.Orig[0]}, Cand: []program.Span{ch.Cand[1], ch.Cand[0]}}, ""},
		{"a span out of range", two, &program.Change{Defs: []int{0}, Orig: []program.Span{{Start: f, End: len(orig) + 1}}, Cand: []program.Span{ch.Cand[0]}}, ""},
		{"no change", two, &program.Change{}, ""},
		{"nil", two, nil, ""},
	}
	for _, tt := range tests {
		got, ok := delta(tt.src, orig, tt.ch)
		if ok != (tt.want != "") || string(got) != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
}
