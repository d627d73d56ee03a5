package gpython

import (
	"fmt"

	"repair/sandbox"
)

// What the engine can do beyond Run (see sandbox's capabilities). It
// honours none of sandbox.Features: no lenient runs, an empty os.environ,
// no check of delivered fixes, its own runner of test files.
var (
	_ sandbox.Describer = (*Engine)(nil)
	_ sandbox.Sizer     = (*Engine)(nil)
)

// Describe names the engine and the isolation in force.
func (e *Engine) Describe() string {
	return fmt.Sprintf("gpython (embedded, a Python 3.4 subset; isolation: %s)", sandbox.IsolationLevel(e.Confinement()))
}

// Capacity is the number of workers the engine may have
// (Options.Workers).
func (e *Engine) Capacity() int { return e.pool.Capacity() }
