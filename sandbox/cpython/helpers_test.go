package cpython

import (
	"context"
	"slices"
	"testing"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/enginetest"
)

// The helpers every engine's tests share (package enginetest).
var (
	call        = enginetest.Call
	ioCase      = enginetest.IOCase
	with        = enginetest.With
	secs        = enginetest.Secs
	target      = enginetest.Target
	descendants = enginetest.Descendants
	cmdline     = enginetest.Cmdline
	containsAny = enginetest.ContainsAny
)

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
