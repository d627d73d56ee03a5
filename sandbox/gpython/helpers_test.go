package gpython

import (
	"context"
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

// workerPIDs are the pids of e's live workers as the host sees them.
func workerPIDs(e *Engine) []int {
	var pids []int
	for _, p := range e.pool.Workers() {
		if !p.dead.Load() {
			pids = append(pids, p.cmd.Process.Pid)
		}
	}
	return pids
}
