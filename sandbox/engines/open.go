// Package engines opens the sandbox's engines by name (--engine): auto,
// cpython, gpython and hybrid, the last an engine of its own that searches
// on gpython and judges on CPython. It is the one package above the
// concrete engines that callers import to get one; the search (package
// repair) runs candidates through the sandbox.Engine contract alone, and
// asks an engine what it can do through sandbox's capabilities.
package engines

import (
	"context"
	"errors"
	"fmt"
	"io"

	"repair/internal/inputerr"
	"repair/sandbox"
	"repair/sandbox/cpython"
	"repair/sandbox/gpython"
)

// Names are the names --engine accepts.
var Names = []string{"auto", "cpython", "gpython", "hybrid"}

// Open starts the named engine ("auto", "cpython", "gpython", "hybrid") for
// opts.Suite. "auto" is cpython when a CPython 3.8 or newer is found (on
// PATH, or opts.Python), else the embedded gpython engine; it says on
// opts.Stderr which one runs. A program gpython cannot run (a :=, a
// module or method gpython lacks) is refused with a bad-input error that
// names the construct and suggests --engine cpython.
func Open(ctx context.Context, name string, opts sandbox.Options) (sandbox.Engine, error) {
	stderr := opts.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	switch name {
	case "auto", "":
		_, err := cpython.FindPython(ctx, opts.Python)
		if err == nil {
			e, err := cpython.New(ctx, opts)
			if err != nil {
				return nil, err
			}
			// The interpreter that runs the candidates: for a test file,
			// the one with pytest (said just before, when it is another).
			py := e.Python()
			fmt.Fprintf(stderr, "repair: --engine auto: cpython %s (%s)\n", py.Version, py.Path)
			return e, nil
		}
		if !errors.Is(err, sandbox.ErrNoPython) {
			return nil, err
		}
		if opts.Python != "" {
			// An interpreter the user named is missing or too old: say so
			// rather than run something else.
			return nil, inputerr.New("--python %s: %v", opts.Python, err)
		}
		fmt.Fprintf(stderr, "repair: --engine auto: %v; running candidates on the embedded gpython engine (a Python 3.4 subset)\n", err)
		return openGPython(ctx, opts, true)
	case "cpython":
		return openCPython(ctx, opts)
	case "hybrid":
		return openHybrid(ctx, opts)
	case "gpython":
		return openGPython(ctx, opts, false)
	}
	return nil, inputerr.New("--engine: unknown engine %q (want %v)", name, Names)
}

// openHybrid starts a CPython pool and a gpython pool for --engine hybrid
// (Hybrid). A program gpython cannot run at all gets CPython alone, said
// on opts.Stderr.
func openHybrid(ctx context.Context, opts sandbox.Options) (sandbox.Engine, error) {
	stderr := opts.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	type opened struct {
		e   sandbox.Engine
		err error
	}
	fast := make(chan opened, 1)
	go func() {
		o := opts
		o.Stderr = io.Discard
		e, err := openGPython(ctx, o, false)
		fast <- opened{e, err}
	}()
	truth, err := openCPython(ctx, opts)
	g := <-fast
	if err != nil {
		if g.e != nil {
			g.e.Close()
		}
		return nil, err
	}
	if g.err != nil {
		if inputerr.Is(g.err) {
			fmt.Fprintf(stderr, "repair: --engine hybrid: %v; searching on CPython alone\n", g.err)
			return truth, nil
		}
		truth.Close()
		return nil, g.err
	}
	return NewHybrid(g.e, truth, stderr), nil
}

func openCPython(ctx context.Context, opts sandbox.Options) (sandbox.Engine, error) {
	e, err := cpython.New(ctx, opts)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func openGPython(ctx context.Context, opts sandbox.Options, auto bool) (sandbox.Engine, error) {
	e, err := gpython.New(ctx, opts)
	if err != nil {
		var ue *gpython.UnsupportedError
		if errors.As(err, &ue) {
			if auto {
				return nil, inputerr.New("%v (with CPython 3.8 or newer on PATH, or --python)", ue)
			}
			return nil, inputerr.Wrap(ue)
		}
		return nil, err
	}
	return e, nil
}
