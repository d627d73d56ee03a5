// What a session asks of engines beyond sandbox.Engine: how to open one
// by name, how to describe it, and the optional capabilities it may
// have. Every look at a concrete engine type sits in this file.

package session

import (
	"context"
	"errors"

	"repair/repair"
	"repair/sandbox"
	"repair/sandbox/cpython"
)

// Engines are the names --engine accepts.
var Engines = repair.Engines

// OpenEngine starts the named engine ("auto", "cpython", "gpython",
// "hybrid") for opts.Suite.
func OpenEngine(ctx context.Context, name string, opts sandbox.Options) (sandbox.Engine, error) {
	return repair.OpenEngine(ctx, name, opts)
}

// Describe says which engine runs and how candidates are confined.
func Describe(e sandbox.Engine) string { return repair.Describe(e) }

// collectedNothing reports whether an engine could not start because
// pytest collects no test from its file.
func collectedNothing(err error) bool { return errors.Is(err, cpython.ErrCollectedNothing) }

// capacity is, for remote executors, the candidates their workers take
// at once.
func capacity(e sandbox.Engine) (int, bool) {
	c, ok := e.(interface{ Capacity() int })
	if !ok {
		return 0, false
	}
	return c.Capacity(), true
}

// grower is the engine's Grow (more servers for a suite whose cases
// mostly wait), or nil.
func grower(e sandbox.Engine) func(context.Context, int) (int, error) {
	if g, ok := e.(interface {
		Grow(context.Context, int) (int, error)
	}); ok {
		return g.Grow
	}
	return nil
}

// realPytest reports whether the engine runs a test file under the real
// pytest.
func realPytest(e sandbox.Engine) bool {
	c, ok := e.(interface{ RealPytest() bool })
	return ok && c.RealPytest()
}

// plainPytest is what runs plain pytest on the original beside the
// engine's run, for an engine that runs a test file under the real
// pytest; nil otherwise.
func plainPytest(e sandbox.Engine) func(context.Context) (*cpython.PlainRun, error) {
	ce, ok := e.(*cpython.Engine)
	if !ok || !ce.RealPytest() {
		return nil
	}
	return ce.PlainPytest
}

// sandboxStats are the cpython engine's figures of how its servers ran
// the candidates, or nil.
func sandboxStats(e sandbox.Engine) *cpython.Stats {
	ce, ok := e.(*cpython.Engine)
	if !ok {
		return nil
	}
	st := ce.Stats()
	return &st
}

// hybridStats are the hybrid engine's figures, or nil.
func hybridStats(e sandbox.Engine) *repair.HybridStats {
	h, ok := e.(*repair.Hybrid)
	if !ok {
		return nil
	}
	st := h.Stats()
	return &st
}
