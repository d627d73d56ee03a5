package sandbox

import (
	"errors"
	"fmt"

	"repair/sandbox/pool"
)

// ErrNoPython reports that no usable CPython (3.8 or newer) was found. Test
// for it with errors.Is.
var ErrNoPython = errors.New("no CPython 3.8 or newer found")

// ErrIsolation reports that full isolation was asked for
// ([IsolationStrict]) but the kernel or the environment does not allow it.
// Test for it with errors.Is.
var ErrIsolation = errors.New("full sandbox isolation is not available")

// ErrCollectedNothing is the error (wrapped, an inputerr one) of an
// engine opened for a test file from which pytest collects no test. Test
// for it with errors.Is.
var ErrCollectedNothing = errors.New("pytest collected nothing")

// ErrClosed is returned by an engine's Run after Close: its pool's
// (package pool) closed error.
var ErrClosed = pool.ErrClosed

// ShimError is a failure of the shim before it could execute the program:
// Stage names the step that failed ("namespaces", "mount", "seccomp", ...).
type ShimError struct {
	Stage string
	Msg   string
}

func (e *ShimError) Error() string {
	return fmt.Sprintf("sandbox shim: %s: %s", e.Stage, e.Msg)
}
