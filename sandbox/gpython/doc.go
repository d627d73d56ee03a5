// Package gpython is the embedded engine: it runs candidates under
// github.com/go-python/gpython (v0.2.0, a Python 3.4 subset) in worker
// processes of our own binary, so that repair works where no CPython is
// installed. docs/engines.md compares it with the cpython engine and lists
// the known differences.
//
// # Workers
//
// [New] starts one worker per [sandbox.Options.Workers]: the running
// executable (os.Executable) re-executed under the isolation shim
// ([sandbox.Command]) with os.Args[1] == "-repair-gpython-worker". Every
// main, and every TestMain of a package whose tests start gpython engines,
// calls [Init] right after [sandbox.Init]; in a worker Init serves the
// engine and never returns:
//
//	func TestMain(m *testing.M) {
//		sandbox.Init()
//		gpython.Init()
//		os.Exit(m.Run())
//	}
//
// In a binary without the hook the worker runs main instead, which fails
// (command-line programs and test binaries reject the unknown flag) or
// reaches New, which refuses to start workers in a worker; either way New
// in the parent fails to start the pool.
//
// A worker limits itself before serving: RLIMIT_DATA of the suite's memory
// plus 256 MiB for the Go runtime, a Go heap limit, a 64 MiB Go stack,
// GOMAXPROCS 1. It replaces gpython's os module by one without system,
// remove, rmdir, removedirs, putenv, unsetenv, chdir, close and fdopen and
// with an empty environ, registers a pytest stand-in (pytest.py), and fixes
// gpython bugs whose CPython behaviour is unambiguous (fixes.go). Before
// gpython compiles a candidate, the test file or (in New) the original, the
// engine rewrites dotted decorators (probe.go) and f-strings (fstring.go),
// keeping every line where it was.
//
// # Protocol
//
// Between the engine and a worker, over two pipes (file descriptors 3 and
// 4 of the worker), every message is a little-endian u32 length (of the
// kind byte and the payload), a kind byte, the payload:
//
//	engine → worker  'S' the suite, once: JSON {module, cases
//	                     ([sandbox.RunCase]: how to run each case, nothing
//	                     it expects), memory_mb, output_cap, test_source,
//	                     test_module, test_file}
//	                 'R' a candidate: u8 flags (1 coverage, 2 check for
//	                     gpython limitations, 4 abandon after a timeout),
//	                     u32 first case, f64 cap of the case timeouts in
//	                     seconds (0: none), the source
//	worker → engine  'P' before 'H', while it starts: it progressed (it
//	                     allocated in the last second), in the stage named
//	                 'H' ready: JSON {pid_ns, stack_limit}
//	                 'C' records, when the shared area is full
//	                 'E' the candidate does not compile: the message
//	                 'D' done: the records are in the shared area
//	                 'X' the worker failed: the message (then it exits)
//
// The shared area is an 8 MiB memfd (file descriptor 5) both map. The
// worker writes there the running case and when it started (nanotime,
// CLOCK_MONOTONIC) before each case, and appends one record per finished
// case, publishing the end of the records after each: no system call per
// case, and after a crash the engine knows which case was running and has
// every record before it. A record is u32 case, u8 status, u8 flags, f64
// seconds, then with a status of 16 or more the observation
// ([fitness.ReadObservation]), with flags&1 a u16-length UTF-8 detail,
// with flags&2 a u32 count of u32 line numbers, with flags&4 a u16-length
// description of the gpython limitation the case met. The engine trusts
// nothing a worker sends: lengths, case numbers and statuses are checked.
//
// # Who decides a verdict
//
// As in the cpython engine (package sandbox, "Who decides a verdict"): a
// worker reports what a call or I/O case did (the value returned, encoded
// by what it holds; the arguments after the call when the case checks
// them; the class names of an exception; the output), and the engine
// judges it with [fitness.Check.Judge]; a verdict a worker reports for
// such a case counts only when it cannot favour the candidate (a
// deadline, os._exit, memory). A test-file case's verdict is the worker's:
// the test's asserts run next to the candidate. pytest.skip() fails a
// case (under gpython, whose exceptions cannot be subclassed, it is an
// error). A case's limit is CPU time, with a wall backstop for a case that
// sleeps or waits, as under the cpython engine (sandbox.CaseWall): the
// worker's probes check it, and from outside the engine reads the
// worker's CPU clock and the time its threads waited for a CPU
// (proc.watch). The engine bounds a candidate's wall time in all (twice
// the sum of its cases' backstops and 5 s) besides.
//
// A candidate reaches files only through open(), os.listdir, os.mkdir,
// os.makedirs and glob.glob, and the worker lets it use its working
// directory (read-only lib/ included) and /dev/null, zero, full, random
// and urandom, nothing else: not /proc (the worker's memory, the shared
// area), not /dev/stderr, not the user's files, with or without
// namespaces. The working directory is emptied (but for lib/) before every
// candidate, and the files a candidate left open are closed then.
//
// # Deadlines, crashes and probes
//
// gpython cannot interrupt running code and aborts the process on
// unbounded recursion or memory, so the engine inserts probes into every
// candidate's source (probe.go: calls of a probe function, without adding
// a line). A probe records its line (coverage), counts a step, checks the
// Go stack depth against the recursion limit (calibrated at worker start
// to CPython's 1,000 calls) and, every so often, the case's deadline and
// the heap. Past a limit it raises an exception that every later probe
// raises again. What no probe sees (a loop inside a built-in, one huge
// allocation, recursion through a lambda) ends with the engine killing the
// worker at its limit, or with the worker's death: the running case
// gets TIME_LIMIT_EXCEEDED, MEMORY_LIMIT_EXCEEDED or RUNTIME_ERROR, and the
// remaining cases run on a fresh worker.
//
// # Programs gpython cannot run
//
// New refuses an original program (or test file) that gpython does not
// compile, whose classes define methods gpython silently never calls, or
// whose run on the suite meets a limitation of gpython (a method, built-in
// or module CPython has, a dict key that is not a str, ...), with an
// [UnsupportedError] that names the construct.
//
// # Invariants
//
//   - A candidate never runs outside the shim, and never with the tool's
//     environment, capabilities or network.
//   - Results never depend on a previous candidate: a fresh context, or the
//     context of a previous pure candidate, which cannot have changed it
//     (reuse.go); built-in types a candidate changed are restored.
//   - Every process and directory of an engine is gone after Close: a
//     worker is PID 1 of its namespace and cannot start processes.
package gpython

import _ "github.com/go-python/gpython/stdlib" // py.Compile, py.NewContext and the built-in modules
