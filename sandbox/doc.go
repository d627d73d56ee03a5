// Package sandbox runs untrusted, machine-mutated candidate programs: it
// defines the [Engine] contract (docs/design.md §4), the capabilities an
// engine may have beyond it ([Describer], [Sizer], [Grower],
// [PlainPytester], [Executable], [Counter], [Featurer]), and the isolation
// shim every engine starts its worker processes under. Package cpython is
// the engine for a real CPython interpreter; package engines opens one by
// name.
//
// A failing candidate is data ([fitness.Outcome]), never a Go error; an
// error means the tool itself broke (no interpreter, context canceled, a
// worker that cannot be restarted).
//
// # The isolation shim
//
// [Command] prepares a program to run under the shim: our own executable
// (/proc/self/exe) re-executed with os.Args[1] == "-repair-sandbox-shim".
// Every main, and every TestMain of a package whose tests start engines,
// calls [Init] first; in a shim process Init confines the process and
// executes the program, and never returns:
//
//	func TestMain(m *testing.M) {
//		sandbox.Init()
//		os.Exit(m.Run())
//	}
//
// The parent passes the configuration on an inherited pipe (never in the
// environment) and reads the outcome on a close-on-exec status pipe: a
// "C" line with the [Confinement] in force before the execve, or an "E"
// line naming the step that failed. EOF after "C" means the program runs.
// [Cmd.Start] returns only then, so a shim failure is an error of Start.
//
// The shim confines itself in this order:
//
//  1. Namespaces (clone flags of the re-execution): a new user namespace
//     mapping the current uid and gid, and new PID, network, IPC, UTS and
//     mount namespaces. The shim, and the program after it, is PID 1 of
//     its PID namespace: the kernel kills every process of the namespace
//     when it dies, and orphans are reparented to it.
//  2. Mounts: nothing propagates back (MS_PRIVATE), and the program gets
//     a root of its own: a small tmpfs, mounted on the empty temporary
//     directory of the host the parent made, holding only, each at its host
//     path and read-only, nosuid and nodev: the system libraries and the
//     loader's cache (/lib, /lib64, /usr/lib, ..., /etc/ld.so.cache, with
//     the merged-/usr symbolic links that lead to them recreated), the time
//     zone data, [Config.ReadOnly] (the cpython engine gives the
//     interpreter's prefixes and sys.path), [Config.Project] (the user's
//     project a test file runs in) and the program itself;
//     /dev/null, zero, full, random and urandom (bound without nodev); a
//     fresh /proc of the PID namespace, read-only; and the private working
//     directory, a fresh tmpfs at the same path as the host's empty
//     directory, with the configured files copied into its lib/
//     subdirectory, which is then bound read-only. The root is made
//     read-only and pivoted to (pivot_root(".", "."), then the old root
//     detached). The user's files, the suite, the home directory (but for
//     the path to an interpreter installed in it) and the rest of /tmp are
//     not there ([Confinement.PrivateRoot]). Where that fails, every mount
//     of the host is made read-only instead (mount_setattr with
//     AT_RECURSIVE, or a remount per mount point before Linux 5.12) and
//     Degraded says why. The program starts in the private directory.
//  3. Resource limits: CPU seconds, file size, open files, processes
//     (RLIMIT_NPROC, counted per user namespace), core size 0.
//  4. The child-subreaper flag (orphans stay reachable without a PID
//     namespace), then every capability set emptied: bounding, ambient,
//     inheritable, permitted, effective, with SECBIT_NOROOT and friends
//     locked so that uid 0 of the user namespace gets nothing back on
//     execve.
//  5. PR_SET_NO_NEW_PRIVS.
//  6. The seccomp filter (github.com/elastic/go-seccomp-bpf, TSYNC): a deny
//     list failing with EPERM: socket creation and connection (socketpair
//     only for AF_UNIX), ptrace and process_vm_*, every mount, namespace,
//     module, kexec, bpf, perf, keyring, swap, clock and io_uring call,
//     clone with namespace flags; clone3 fails with ENOSYS so that the C
//     library falls back to clone, whose flags the filter can read.
//  7. RLIMIT_AS, set with raw system calls immediately before a raw
//     execve (the Go runtime of the shim reserves far more address space
//     than a candidate may use), and the execve of the program with the
//     configured environment (empty by default).
//
// When the kernel refuses namespaces (or a mount step fails inside them),
// [IsolationAuto] starts the shim again without them: steps 3 to 7 still
// apply, the private directory is a real temporary directory, and
// [Confinement.Degraded] says why; the cpython engine prints that once on
// [Options.Stderr]. [IsolationStrict] refuses with an error wrapping
// [ErrIsolation] instead. [IsolationNone] applies the resource limits only.
// [Config.NoNamespaces] simulates the refusal for tests.
//
// The kernel does not apply RLIMIT_NPROC to uid 0 of the initial user
// namespace (a namespace that maps uid 0 to itself is still that user),
// so when the tool runs as root the shim is also placed in a pids cgroup
// (cgroup v1's pids hierarchy, or v2 with CLONE_INTO_CGROUP) when one can
// be created; [Confinement.PidsCgroup] says whether it was. The shim
// mounts and confines itself while the cgroup takes it (a cgroup v1
// migration can take milliseconds) and executes the program only once it
// is in; with [Config.EarlyStart] (the engines' workers, which run nothing
// of the user's before they are sent the suite) the program may boot
// before, and [Cmd.Contained], which the engines call before sending the
// suite, waits for the move.
//
// [Cmd.Wait] removes the private directory and the cgroup; [Cmd.Kill]
// kills the program and, without a PID namespace, its cgroup and every
// descendant.
//
// # The cpython engine
//
// Package cpython keeps up to one warm server per worker (the first starts
// with the engine, the others when they pay: package pool). A server is the
// harness (the Python modules of cpython/harness/, embedded with go:embed
// and loaded from memory by a bootstrap given with -c) running under the
// real interpreter (sys.executable of python3, resolved once: version
// managers' shims cost ~100 ms a start) with -s -S -B, inside the shim.
// The interpreter starts with the candidates' environment
// ([Options.Env], [Environment]): with the zero value PYTHONHASHSEED=0
// only, for str hashes (set iteration order) that do not depend on which
// server runs a candidate, and the harness empties os.environ before any
// candidate runs; with the standard environment (the command line's)
// PATH, HOME and TMPDIR (directories of the private directory the forker
// empties and makes afresh before every candidate), LANG, LC_ALL, TZ,
// PYTHONHASHSEED and the variables the user passed, which the harness
// keeps.
//
// A test file's candidates run in the user's project ([FindTree]): the
// whole tree, read-only ([Config.Project]: bound at its own path, or
// without namespaces copied into lib/), the tests in the directory pytest
// would run in (the child changes into it; the server stays in the
// private directory), the target handed out by the harness's finder.
//
// A server is three kinds of process sharing one anonymous shared mapping:
//
//   - the forker: the process the shim executed, PID 1 of the namespace.
//     It forks a child when the manager asks, reaps it, then kills and
//     reaps every other process the candidate left (they are all its
//     children by then: orphans go to PID 1), and reports the exit status.
//     Its loop touches few pages, so forking it costs few copy-on-write
//     faults. Candidates cannot signal it (PID 1 ignores signals it has no
//     handler for).
//   - the manager, forked once, never forking: it talks to Go, compiles
//     each candidate and puts the marshalled code into the mapping,
//     enforces the per-case deadlines from outside and sends the records.
//   - the child: loads the code and runs the cases, writing the running
//     case and its start time, then one record per case, into the mapping:
//     no system call per case. Its deadline is enforced by the manager,
//     which kills its process group (and the forker everything else) at
//     the deadline; the child cannot dodge it.
//
// # Partial re-execution and test selection
//
// With [RunOptions].Change the manager compiles only the top-level
// definitions a candidate changes, over the original's code the forker
// compiled once, after checking that the candidate equals the original
// elsewhere and that its module body runs the same code (harness
// partial.py); with [RunOptions].Select the child runs only the selected
// cases when the original, the candidate and the test file are pure, the
// edits keep every name's scope and every function's kind, and the
// interpreter is 3.10 or later, and the engine marks the others in
// [fitness.Outcome].Skipped. Under pytest the forker imports the original
// and collects once; a partially compiled candidate's code is put into
// the original's functions in the child. [RunOptions].WallCaps cap each
// case's wall time, not counting the time the child waited for a CPU.
// docs/engines.md says why each is sound and where it does not apply.
//
// # Protocol
//
// Between Go and a server (the manager), over two pipes, every message is
// a little-endian u32 length (of the kind byte and the payload), a kind
// byte, the payload: the modules and their cached code, the suite, a
// candidate (flags, the case cap, a case range, the source); the server
// answers ready, still busy, result records, a compile error, done, or
// failed. The message kinds, flags, layouts and sizes are spelled once,
// in internal/protogen, which writes the Go constants, the harness's
// protocol module and the table of docs/engines.md ("The cpython harness
// protocol").
//
// A record is u32 case, u8 status, u8 flags, f64 seconds, then with a
// status of 16 or more the observation ([fitness.ReadObservation]), with
// flags&1 a u16-length UTF-8 detail, with flags&2 a u32 count of u32 line
// numbers, and with flags&4 (lenient runs) a u16 count of injections, each
// a u32 line and three u8-length UTF-8 strings (kind, name, class). A
// status below 16 is a verdict ([fitness.Verdict]). Go trusts nothing a
// server sends: lengths, case numbers and statuses are checked, and
// garbage, silence (the watchdog) or death replace the server; the
// candidate in flight then runs once more on a fresh server, and if it
// breaks that one too the cases it did not report get RUNTIME_ERROR.
//
// # Who decides a verdict
//
// The suite a server receives says how to run each case (the callee, the
// arguments, stdin, the timeout, whether the arguments are checked after
// the call), never what it should give: the expected value, the expected
// arguments, the exception and the expected output stay in the tool's
// process. For a call or I/O case the child reports an observation: the
// value returned, encoded by what it holds (fitness/value.go: a subclass of
// a built-in type by its base type's storage, anything else by its repr,
// which equals nothing; the candidate's __eq__, __len__ and __iter__ play
// no part), the arguments after the call, the class names of a raised
// exception, or the output of the program; [fitness.Check.Judge] decides
// the verdict in Go. A verdict record for such a case is taken only when it
// cannot favour the candidate (TIME_LIMIT_EXCEEDED, RUNTIME_ERROR,
// MEMORY_LIMIT_EXCEEDED: the manager's, for a death or a deadline); a
// PASSED written by a child becomes RUNTIME_ERROR. A test-file case runs
// the test function's own asserts in the child, next to the candidate, and
// its verdict is the child's: a candidate can reach the test's code. An
// xfail or skip passes only as the test file declared it (its marks as
// collected with the original travel with each case), never when the code
// under test raised it; a delivered fix's tests run again under the check
// of [Options.Verify] (an audit hook and a comparison of the test
// machinery after each test, in servers of their own); docs/engines.md
// ("What a test file's verdict rests on") says what remains in-process.
//
// The engine also bounds each candidate's wall time in Go, where no
// process of the sandbox can extend it: the sum of its cases' timeouts,
// 50 ms a case and 5 s. Past it the server is killed and the cases not
// reported get TIME_LIMIT_EXCEEDED. The manager gives up (and so the
// server is replaced) when the forker does not reap a killed child within
// 5 s, as when a candidate stopped it (possible without a PID namespace).
// The forker and the manager are not dumpable (prctl PR_SET_DUMPABLE 0,
// inherited by the children), so a candidate cannot open their
// /proc/PID/mem for writing even without namespaces; with namespaces /proc
// is read-only besides.
//
// # Cases
//
// A case that ends its process (os._exit, a signal, its deadline, a crash)
// gets its own verdict from the manager, and the remaining cases go on in
// a fresh child. A case that leaves processes or threads running ends its
// child at the case boundary for the same reason. Each case sees a fresh
// import of the candidate: a new module object registered in sys.modules
// under the target's module name (so the test file's "from middle import
// middle" and helper modules importing the target get it), its code
// executed again, arguments decoded again; helper modules next to the
// target imported by a case are forgotten before the next one. Standard
// streams are fresh per case: stdout and stderr are captured up to
// [Options.OutputCap], stdin holds the case's input; file descriptors 1 and
// 2 are /dev/null.
//
// Other process-wide state a case changes (the working directory, files of
// the private directory, signal handlers, attributes of standard-library
// modules) is visible to the following cases of the same candidate, as it
// would be in one Python process (files of the private directory also
// across the fresh children a candidate's cases may end in); it never
// reaches another candidate: each runs in a fresh child, or in a reused
// one that was checked (below), and the forker empties the private
// directory (but for lib/, read-only) before the first child of every
// candidate, once everything the previous one started is gone, whatever
// modes it left on its files (without namespaces, where lib/ is writable
// by its owner, it puts lib/ back as it was too). Every candidate starts
// in the same empty directory: a file one leaves cannot make another pass,
// a full tmpfs cannot make it fail.
//
// # Reusing a child for pure candidates
//
// A fork per candidate costs far more than running a small candidate's
// cases (copy-on-write faults of a CPython process; 1.3 to 1.9 ms of CPU on
// the development machine, against 0.3 ms for a reused child). So a
// candidate whose code is pure runs in the child of the previous pure
// candidate when that one provably left the process as it found it. Pure is
// decided on the bytecode: no name that reaches the interpreter, other
// modules' globals, frames or the process (sys, os, open, eval, getattr,
// __dict__, __globals__, f_back, ..., and the mutable attributes of the
// standard library modules it may use), none of the functions of those
// modules that read attributes or evaluate code named at run time
// (operator.attrgetter and methodcaller, string.Formatter, typing's
// get_type_hints and ForwardRef, functools.wraps, typing's overload
// registry: an audit of every module a pure candidate may import), no
// string constant that names one of those, no store to a dunder
// attribute, and imports only of preloaded pure standard-library modules
// (math, collections, itertools, functools, heapq, re, ...: those the
// target imports are preloaded). After such a candidate a guard in the
// child (a closure bound before the first candidate, so that rebinding a
// global cannot switch it off) checks that nothing outside the
// candidate's module changed: builtins, every preloaded module, its
// classes and functions, the pytest stand-in, the harness's own globals,
// classes and functions' code, the module table, no tracer or profiler,
// no process or thread, no MemoryError, no uncollectable garbage, the
// working directory still empty; only then does the child wait for the
// next pure candidate. Anything else gets a fresh fork. That fork is made
// ahead when it can be (a spare): when a job ends and no child waits,
// and when a server has started (while its hello goes out), the manager
// has the forker fork the
// next candidate's first child in an emptied working directory, where it
// does its own set-up and waits for the manager's go, with nothing run in
// it. It is the next candidate's first fresh child whatever that
// candidate is (a pure one, one that is not, a coverage run), so the
// fork and the child's set-up overlap Go's work between jobs instead of
// delaying the job. cpython.Engine.Stats counts forks and reuses. The static check is what
// keeps a candidate from reaching the harness at all; the guard catches
// what one could change by a route the audit missed (the tests run every
// attack with the static check off to see the guard stop it alone).
//
// Within such a candidate, when its code stores no attribute at all, the
// module itself may serve more than one case: only while its body ran in
// under a millisecond (on one of two tries: a child preempted while it
// ran the body is not taken for a slow body) and made nothing but
// functions of its own (no closure, immutable defaults), immutable
// constants and objects of pure standard-library modules, and only as
// long as a case leaves its globals as they were (checked after every
// case; a changed module is executed afresh for the next case). Pure code without attribute stores cannot
// change anything such a body reads, so a fresh import would make the same
// module: the semantics stay "a fresh import per case", which
// TestFreshImportPerCase and TestFreshImportPerCasePure check. Code with no
// STORE_GLOBAL or DELETE_GLOBAL either cannot change the globals at all
// (pure code reaches them no other way), so they are not compared: in a
// module of a thousand functions the comparison cost more than the case.
// The original's coverage run shares the import the same way, its lines
// traced on the first case.
//
// # Lenient runs
//
// A candidate run with [RunOptions].Lenient (package lenient) is compiled
// by the manager from its AST with every attribute read turned into a call
// of the lenient runtime (positions kept), and never runs in a reused
// child. Its child loads the runtime (marshalled by the manager into the
// mapping after the code, with the plan) and gives the candidate's module,
// in every case, a fresh copy of the builtins whose __missing__ and
// __import__ inject values for missing names and modules; each case's
// record lists the injections. Plain candidates run exactly as before.
//
// # Comparison
//
// Values and output compare in Go, with [fitness.Check.Judge]: like
// [fitness.Equal] (the shared vectors in fitness/testdata), extended to
// what JSON cannot hold ([fitness.EqualValue]): None only equals null,
// bools only bools, ints exactly, floats within the tolerance (abs or
// relative; NaN never, an infinity only itself), tuple and list as arrays,
// dicts as objects with keys converted as json.dumps converts them, a set
// or frozenset as an array in any order, an iterator, generator, range or
// dict view materialised (at most 10,000 items), str exactly, anything else
// never. Standard output compares line by line, trailing whitespace and
// trailing empty lines ignored, tokens equal as strings or as numbers
// within the tolerance ([fitness.EqualStdout]).
//
// # Invariants
//
//   - A candidate never runs outside the shim, and never with the tool's
//     environment, capabilities or network.
//   - A call or I/O case's verdict is decided in the tool's process, from
//     what the candidate's process reported; what the case expects never
//     enters the sandbox.
//   - Every process a candidate starts is gone before the next candidate
//     starts (killed by the forker), and every process and directory of an
//     engine is gone after Close.
//   - Results never depend on a previous candidate: fresh child, or a
//     reused child whose shared state was checked unchanged; an empty
//     working directory either way.
//   - No candidate keeps the tool waiting past the sum of its case
//     timeouts and a few seconds.
package sandbox
