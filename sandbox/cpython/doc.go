// Package cpython is the sandbox engine for a real CPython 3.8 or newer:
// a pool of warm fork servers, one per worker, each running the embedded
// harness under the isolation shim of package sandbox. The processes, the
// protocol and the invariants are described in package sandbox's
// documentation.
//
// Use:
//
//	// main (or TestMain) calls sandbox.Init() first.
//	eng, err := cpython.New(ctx, sandbox.Options{Suite: suite, Target: "middle.py"})
//	if errors.Is(err, sandbox.ErrNoPython) { ... fall back ... }
//	defer eng.Close()
//	out, err := eng.Run(ctx, src, sandbox.RunOptions{}) // safe for Workers goroutines
package cpython
