package cpython

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"repair/fitness"
	"repair/internal/testutil/busy"
	"repair/sandbox"
)

// burn is Python that spins until its process has used secs of CPU time.
func burn(secs string) string {
	return "import time\n_end = time.process_time() + " + secs + "\nwhile time.process_time() < _end:\n    pass\n"
}

// TestCaseTimeLimits: a case's limit is CPU time, with a wall backstop
// that a case which sleeps or waits runs into. A case that uses less
// CPU time than its limit passes however long the machine makes it wait
// for a CPU; a case that loops or sleeps forever is stopped, and its
// detail says which limit stopped it and how to raise it.
func TestCaseTimeLimits(t *testing.T) {
	python(t)
	const limit = 0.3 // seconds: the backstop is sandbox.CaseWall(0.3) = 2.5 s
	for _, tc := range []struct {
		name   string
		src    string
		loaded bool
		want   brief
	}{
		{"sleeps past its limit, within the backstop", "import time\ndef f(x):\n    time.sleep(0.6)\n    return x\n", false,
			brief{fitness.Passed, ""}},
		{"loops", "def f(x):\n    while True:\n        pass\n", false,
			brief{fitness.TimeLimitExceeded, "timed out after 0.3s of CPU time (--case-timeout raises the limit)"}},
		{"sleeps forever", "import time\ndef f(x):\n    time.sleep(1000)\n", false,
			brief{fitness.TimeLimitExceeded, "timed out after 2.5s of wall-clock time, asleep or waiting (--case-timeout raises the limit)"}},
		// Eight loops per CPU make the case wait for a CPU most of the
		// time: its wall time is several times its limit, its CPU time
		// half of it.
		{"uses half its limit on a loaded machine", "def f(x):\n    " + strings.ReplaceAll(burn("0.15"), "\n", "\n    ") + "return x\n", true,
			brief{fitness.Passed, ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.loaded {
				busy.Loops(t, 8*runtime.NumCPU())
			}
			c := with(call("f", "[1]", "1"), func(c *fitness.Case) { c.Timeout = limit })
			out := runOne(t, tc.src, []fitness.Case{c}, sandbox.RunOptions{}, config{})
			if got := briefs(out); len(got) != 1 || got[0] != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestPytestSetupLimit: under pytest, importing the test file (and with
// it the target and its package) and collecting is a child's setup, not
// its first test's time: an import that costs more CPU time than a test
// may use leaves every test its own limit. An import that never ends is
// stopped at the setup's limit, and the tests after are not run.
func TestPytestSetupLimit(t *testing.T) {
	py := realPytest(t)
	const target = "def double(x):\n    return 2 * x\n"
	tests := "from heavy import double\n\ndef test_one():\n    assert double(1) == 2\n\ndef test_two():\n    assert double(2) == 4\n"
	for _, tc := range []struct {
		name string
		src  string // the candidate
		want []brief
	}{
		{"an import that costs more than a test's limit", burn("0.8") + target,
			[]brief{{fitness.Passed, ""}, {fitness.Passed, ""}}},
		{"an import that never ends", "while True:\n    pass\n" + target,
			// The setup's limit is 1 s or five times the server's own
			// setup's CPU time, whichever is more: the number varies.
			[]brief{{fitness.TimeLimitExceeded, "timed out before its first test, after Ns of CPU time importing and collecting the tests"},
				{fitness.TimeLimitExceeded, "not run: the tests' setup timed out"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{"heavy.py": target, "test_heavy.py": tests} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			suite, err := fitness.Load(filepath.Join(dir, "test_heavy.py"))
			if err != nil {
				t.Fatal(err)
			}
			for i := range suite.Cases {
				suite.Cases[i].Timeout = 0.3
			}
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: filepath.Join(dir, "heavy.py"), Python: py.Path},
				config{setupCPU: 1})
			out, err := e.Run(context.Background(), []byte(tc.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := briefs(out)
			for i := range got {
				got[i].Detail = setupSecs.ReplaceAllString(got[i].Detail, "before its first test, after ${1}Ns of CPU")
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// setupSecs matches the seconds of a setup's limit in a detail.
var setupSecs = regexp.MustCompile(`before its first test, after ()[0-9.]+s of CPU`)

// TestCPUCaps: the search's caps of each case's CPU time
// (RunOptions.CPUCaps) stop a loop on a quick case at that case's cap,
// below the cap of every case (RunOptions.Timeout); a case without one
// keeps the cap of every case.
func TestCPUCaps(t *testing.T) {
	python(t)
	const src = "def f(x):\n    while x:\n        pass\n    return x\n"
	cases := []fitness.Case{call("f", "[1]", "1"), call("f", "[0]", "0"), call("f", "[2]", "2")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil)}, config{})
	walls := []float64{0, 0, 0}
	for _, tc := range []struct {
		name string
		cpus []float64
		want []brief
	}{
		{"each case's", []float64{0.05, 0.05, 0.08},
			[]brief{{fitness.TimeLimitExceeded, "timed out after 0.05s of CPU time (the search's cap)"}, {fitness.Passed, ""},
				{fitness.TimeLimitExceeded, "timed out after 0.08s of CPU time (the search's cap)"}}},
		{"none for a case", []float64{0.05, 0.05, 0},
			[]brief{{fitness.TimeLimitExceeded, "timed out after 0.05s of CPU time (the search's cap)"}, {fitness.Passed, ""},
				{fitness.TimeLimitExceeded, "timed out after 0.3s of CPU time (the search's cap)"}}},
		{"above the cap of every case", []float64{1, 1, 1},
			[]brief{{fitness.TimeLimitExceeded, "timed out after 0.3s of CPU time (the search's cap)"}, {fitness.Passed, ""},
				{fitness.TimeLimitExceeded, "timed out after 0.3s of CPU time (the search's cap)"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Timeout: 300 * time.Millisecond, WallCaps: walls, CPUCaps: tc.cpus})
			if err != nil {
				t.Fatal(err)
			}
			got := briefs(out)
			for i := range got {
				got[i].Detail = setupSecs.ReplaceAllString(got[i].Detail, "before its first test, after ${1}Ns of CPU")
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
