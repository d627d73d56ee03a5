// Package cpython is the sandbox engine for a real CPython 3.8 or newer:
// a pool of warm fork servers, one per worker, each running the embedded
// harness under the isolation shim of package sandbox. The processes and
// the invariants are described in package sandbox's documentation.
//
// The harness is a package of Python modules in harness/, embedded with
// go:embed: boot.py is the bootstrap, which the interpreter's -c argument,
// a one-line loader, reads from file descriptor 5 and runs (the command
// line stays short); it reads the other modules from the server's pipe,
// compiles them (or runs the code an earlier server of the same
// interpreter compiled, which the engine keeps), imports them from memory and runs main.py as __main__;
// it writes no file and leaves nothing of the harness importable. What
// each module owns, how they are loaded and the protocol between Go and a
// server are in docs/engines.md ("The cpython harness" and "The cpython
// harness protocol"); one table (internal/protogen, go generate) spells
// the protocol's constants and writes harness/protocol.py, protocol.go and
// that section's tables. lenient.py, the runtime of lenient runs, travels
// in the suite message.
//
// Use:
//
//	// main (or TestMain) calls sandbox.Init() first.
//	eng, err := cpython.New(ctx, sandbox.Options{Suite: suite, Target: "middle.py"})
//	if errors.Is(err, sandbox.ErrNoPython) { ... fall back ... }
//	defer eng.Close()
//	out, err := eng.Run(ctx, src, sandbox.RunOptions{}) // safe for Workers goroutines
package cpython

//go:generate go run repair/internal/protogen -src ../.. -out ../..
