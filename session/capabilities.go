// What a session asks of engines beyond sandbox.Engine: how to open one
// by name, how to describe it, and the optional capabilities it may have
// (sandbox's named interfaces and Features).

package session

import (
	"context"
	"errors"

	"repair/sandbox"
	"repair/sandbox/engines"
)

// Engines are the names --engine accepts.
var Engines = engines.Names

// OpenEngine starts the named engine ("auto", "cpython", "gpython",
// "hybrid") for opts.Suite.
func OpenEngine(ctx context.Context, name string, opts sandbox.Options) (sandbox.Engine, error) {
	return engines.Open(ctx, name, opts)
}

// Describe says which engine runs and how candidates are confined.
func Describe(e sandbox.Engine) string { return sandbox.Describe(e) }

// collectedNothing reports whether an engine could not start because
// pytest collects no test from its file.
func collectedNothing(err error) bool { return errors.Is(err, sandbox.ErrCollectedNothing) }

// capacity is, for remote executors, the candidates their workers take
// at once.
func capacity(e sandbox.Engine) (int, bool) {
	c, ok := e.(sandbox.Sizer)
	if !ok {
		return 0, false
	}
	return c.Capacity(), true
}

// grower is the engine's Grow (more servers for a suite whose cases
// mostly wait), or nil.
func grower(e sandbox.Engine) func(context.Context, int) (int, error) {
	if g, ok := e.(sandbox.Grower); ok {
		return g.Grow
	}
	return nil
}

// realPytest reports whether the engine runs a test file under the real
// pytest.
func realPytest(e sandbox.Engine) bool { return sandbox.FeaturesOf(e).RealPytest }

// verifies reports whether the engine, opened with Options.Verify, runs
// the check of delivered fixes.
func verifies(e sandbox.Engine) bool { return sandbox.FeaturesOf(e).Verify }

// plainPytest is what runs plain pytest on the original beside the
// engine's run, for an engine that runs a test file under the real
// pytest; nil otherwise.
func plainPytest(e sandbox.Engine) func(context.Context) (*sandbox.PlainRun, error) {
	pp, ok := e.(sandbox.PlainPytester)
	if !ok || !sandbox.FeaturesOf(e).RealPytest {
		return nil
	}
	return pp.PlainPytest
}

// sandboxStats are the cpython engine's figures of how its servers ran
// the candidates, or nil.
func sandboxStats(e sandbox.Engine) *sandbox.FastPaths { return sandbox.CountsOf(e).FastPaths }

// hybridStats are the hybrid engine's figures, or nil.
func hybridStats(e sandbox.Engine) *sandbox.HybridStats { return sandbox.CountsOf(e).Hybrid }

// environ reports whether candidates find the environment's variables
// in os.environ.
func environ(e sandbox.Engine) bool { return sandbox.FeaturesOf(e).Environ }

// injects reports whether the engine runs programs leniently.
func injects(e sandbox.Engine) bool { return sandbox.FeaturesOf(e).Lenient }
