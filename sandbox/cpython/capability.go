package cpython

import (
	"fmt"

	"repair/sandbox"
)

// What the engine can do beyond Run (see sandbox's capabilities).
var (
	_ sandbox.Describer     = (*Engine)(nil)
	_ sandbox.Sizer         = (*Engine)(nil)
	_ sandbox.Grower        = (*Engine)(nil)
	_ sandbox.PlainPytester = (*Engine)(nil)
	_ sandbox.Executable    = (*Engine)(nil)
	_ sandbox.Counter       = (*Engine)(nil)
	_ sandbox.Featurer      = (*Engine)(nil)
)

// Describe names the interpreter and the isolation in force:
// "cpython 3.11.7 (isolation: full)".
func (e *Engine) Describe() string {
	return fmt.Sprintf("cpython %s (isolation: %s)", e.python.Version, sandbox.IsolationLevel(e.Confinement()))
}

// Capacity is the number of servers the engine may have: Options.Workers,
// or what Grow raised it to.
func (e *Engine) Capacity() int { return e.pool.Capacity() }

// Executable is the path of the interpreter the servers run.
func (e *Engine) Executable() string { return e.python.Path }

// Counts are the servers' fast paths so far (Stats).
func (e *Engine) Counts() sandbox.Counts {
	st := e.Stats()
	return sandbox.Counts{FastPaths: &st}
}

// Features: the engine injects values (lenient runs), gives candidates
// Options.Env, runs the check of delivered fixes, and runs a test file
// under the real pytest when it found pytest for it.
func (e *Engine) Features() sandbox.Features {
	return sandbox.Features{Lenient: true, Environ: true, Verify: true, RealPytest: e.RealPytest()}
}
