package cpython

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"repair/fitness"
	"repair/internal/testutil/proctest"
	"repair/sandbox"
)

// call is a Call case: fn(*args) with args and expected as JSON ("" for
// none).
func call(fn, args, expected string) fitness.Case {
	c := fitness.Case{Kind: fitness.Call, Function: fn, Weight: 1, Timeout: 5, Tolerance: 1e-9}
	if args != "" {
		c.Args = json.RawMessage(args)
	}
	if expected != "" {
		c.Expected = json.RawMessage(expected)
	}
	return c
}

// ioCase is an IO case.
func ioCase(stdin, stdout string) fitness.Case {
	return fitness.Case{Kind: fitness.IO, Stdin: &stdin, Stdout: &stdout, Weight: 1, Timeout: 5, Tolerance: 1e-9}
}

// with returns c changed by f.
func with(c fitness.Case, f func(*fitness.Case)) fitness.Case {
	f(&c)
	return c
}

// target writes a target file (and helpers) into a fresh directory and
// returns its path.
func target(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, src := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, name)
	if _, ok := files[name]; !ok {
		if err := os.WriteFile(p, []byte("# original\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// runOne starts an engine for cases, runs src once and closes the engine.
func runOne(t testing.TB, src string, cases []fitness.Case, opts sandbox.RunOptions, cfg config) *fitness.Outcome {
	t.Helper()
	e := newTestEngine(t, sandbox.Options{
		Suite:  &fitness.Suite{MemoryMB: 256, Cases: cases},
		Target: target(t, "cand.py", nil),
	}, cfg)
	out, err := e.Run(context.Background(), []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// brief is a Result without timing, for comparisons.
type brief struct {
	Verdict fitness.Verdict
	Detail  string
}

func briefs(out *fitness.Outcome) []brief {
	var b []brief
	for _, r := range out.Results {
		b = append(b, brief{r.Verdict, r.Detail})
	}
	return b
}

// descendants lists the pids of the living processes whose parent chain
// leads to pid.
func descendants(pid int) []int { return proctest.PIDs(proctest.Descendants(pid)) }

// serverPIDs are the pids of e's live servers (forkers) as the host sees
// them.
func serverPIDs(e *Engine) []int {
	var pids []int
	for _, s := range e.pool.Workers() {
		if s.dead.Load() {
			continue // replaced by the next Run
		}
		pids = append(pids, s.cmd.Process.Pid)
	}
	return pids
}

// serverDirs are the private directories of e's live servers.
func serverDirs(e *Engine) []string {
	var dirs []string
	for _, s := range e.pool.Workers() {
		if !s.dead.Load() {
			dirs = append(dirs, s.cmd.Dir)
		}
	}
	return dirs
}

func cmdline(pid int) string {
	s := strings.Join(proctest.Cmdline(pid), " ")
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}

// reaching selects the cases of the original's coverage run orig that
// executed line: those a change there can reach, as the search selects
// them.
func reaching(orig *fitness.Outcome, line int) []bool {
	sel := make([]bool, len(orig.Results))
	for i, r := range orig.Results {
		sel[i] = slices.Contains(r.Lines, line)
	}
	return sel
}
