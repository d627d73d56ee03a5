package repair

import (
	"context"
	"fmt"

	"repair/internal/inputerr"
	"repair/sandbox"
	"repair/sandbox/cpython"
)

// Engines are the names --engine accepts.
var Engines = []string{"auto", "cpython", "gpython"}

// OpenEngine starts the named engine ("auto", "cpython", "gpython") for
// opts.Suite. "auto" is cpython when a CPython 3.8 or newer is found.
func OpenEngine(ctx context.Context, name string, opts sandbox.Options) (sandbox.Engine, error) {
	switch name {
	case "auto", "":
		return cpython.New(ctx, opts)
	case "cpython":
		return cpython.New(ctx, opts)
	case "gpython":
		return nil, inputerr.New("--engine gpython: the embedded engine is not part of this build; use --engine cpython")
	}
	return nil, inputerr.New("--engine: unknown engine %q (want %v)", name, Engines)
}

// Describe says which engine runs and how candidates are confined, for the
// summary line.
func Describe(e sandbox.Engine) string {
	if c, ok := e.(*cpython.Engine); ok {
		py := c.Python()
		conf := c.Confinement()
		iso := "full"
		if !conf.Full() {
			iso = conf.String()
		}
		return fmt.Sprintf("cpython %s (isolation: %s)", py.Version, iso)
	}
	return e.Name()
}
