// Command protogen writes the cpython harness protocol from its one
// source, the table below: the harness's constants
// (sandbox/cpython/harness/protocol.py), the Go side's
// (sandbox/cpython/protocol.go) and the tables of docs/engines.md ("The
// cpython harness protocol", between its generated-code markers). Run it
// with go generate ./sandbox/cpython; TestGenerated fails when a written
// file is not what it writes.
//
// Usage:
//
//	protogen [-src dir] [-out dir]
//
// reads docs/engines.md under -src and writes the three files under -out
// (both the module's root by default, the working directory's parent's
// parent: go generate runs it in sandbox/cpython).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// Kind is how a row's value is spelled.
type Kind int

const (
	// Bytes is a one-byte bytes value: the message kinds, the forker's
	// requests and reports. Value is the character.
	Bytes Kind = iota
	// Layout is a struct layout (Python's struct module, little-endian,
	// standard sizes); its Go constant is its size.
	Layout
	// Expr is an integer (or, without a Go constant, any) expression that
	// Python and Go both read the same: a literal, <<, +, *.
	Expr
)

// Row is one constant of the protocol.
type Row struct {
	Name  string // the harness's name (protocol.py)
	Kind  Kind
	Value string
	Go    string // the Go constant equal to it (a layout's size); "fitness.X" is package fitness's; "" for none
	What  string // what it means (Markdown: `code` spans)
}

// Section is a table of docs/engines.md and a block of each generated
// file.
type Section struct {
	Intro string // Markdown: what the table holds
	Rows  []Row
}

// sections is the protocol, spelled once.
var sections = []Section{
	{
		Intro: "Messages:",
		Rows: []Row{
			{"MSG_MODULES", Bytes, "M", "msgModules", "Go → bootstrap, first: a u32 length and the code Go kept for this interpreter, then each module's name and source, each followed by a NUL byte"},
			{"MSG_CODE", Bytes, "K", "msgCode", "bootstrap → Go: `sys.hexversion` (u32) and the marshalled code it compiled, or nothing when it ran Go's"},
			{"MSG_ORIGINAL", Bytes, "O", "msgOriginal", "Go → server, before the suite, when Go keeps it: the original's code an earlier server compiled (`partial.original_tag`, then the code marshalled); server → Go, before its first answer, when it compiled the original itself (Go kept none, or none for this interpreter): the same, for Go to keep"},
			{"MSG_SUITE", Bytes, "S", "msgSuite", "Go → server, once: the suite, JSON {tree_root (where this server finds the project's tree, first), module, cases (each: kind, function, args, kwargs, then, stdin, timeout, want_args, xfail, skip; nothing it expects), memory_mb, output_cap, test_source, test_module, test_file, original, reuse, static_check, lenient_runtime, pytest (paths, collect, per_child, rewritten: the test file's assertions as the run's first server rewrote them), doctest, modules, project, tree, environ, work_dirs, verify, limits (setup_cpu, setup_factor, wall_factor, wall_slack: the time limits, sandbox.CaseWall), heartbeat (the seconds between the looks of the start's heartbeat), code_cache (`bytecode.py`)}"},
			{"MSG_DELTA", Bytes, "D", "msgDelta", "Go → server: `MSG_RUN` with `RUN_PARTIAL`, the changed definitions' text, one after the other, in the place of the source: the rest is the original's, which the server keeps (its hello says `\"delta\": true`) and Go checked; 90 KB less to send and read per candidate at 5,000 lines. The original itself goes so with no span and no text"},
			{"MSG_RUN", Bytes, "R", "msgRun", "Go → server: a candidate: a flags byte (`RUN_*`), `CAP`, with `RUN_RANGE` a `RANGE`, with `RUN_LENIENT` a u32 length and the plan (JSON), with `RUN_PARTIAL` a u32 count and as many `SPAN`s, with `RUN_SELECT` one byte per case (bit 1: it reaches an edit, bit 2: it reaches a changed function), then the source"},
			{"MSG_WALL", Bytes, "W", "msgWall", "Go → server, before the first run with `RUN_WALL`: one `WALL` per case, then, when the search caps each case's CPU time (`RunOptions.CPUCaps`), one more `WALL` per case: that cap (0: the run's `CAP`)"},
			{"MSG_QUIT", Bytes, "Q", "", "Go → server: exit (Go closes the pipe instead)"},
			{"MSG_HELLO", Bytes, "H", "msgHello", "server → Go: ready, JSON {version, pid_ns, undumpable, delta, setup_cpu (the CPU seconds a child's setup may take), rewritten (the test file's assertions, when it rewrote them), plugins (the pytest plugins that act on the run of tests plain but for them: by name, how many), not_isolated (why the tests may leave state for one another)}"},
			{"MSG_PING", Bytes, "P", "msgPing", "server → Go: still busy (every second: Go's watchdog), and its progress: a `PING`; while it starts (before its hello, its list or its `MSG_ORIGINAL`), that it progressed, in the stage its payload names (`alive.py`)"},
			{"MSG_CHUNK", Bytes, "C", "msgChunk", "server → Go: records of finished cases"},
			{"MSG_COMPILE", Bytes, "E", "msgCompile", "server → Go: the candidate does not compile: the message"},
			{"MSG_DONE", Bytes, "D", "msgDone", "server → Go: the candidate is finished: `DONE`"},
			{"MSG_FATAL", Bytes, "X", "msgFatal", "server → Go: the server failed: the message (then it exits)"},
			{"MSG_LIST", Bytes, "L", "msgList", "server → Go, collect mode only: JSON {items: [{id, line}], error, rewritten}"},
		},
	},
	{
		Intro: "A run request and its answer:",
		Rows: []Row{
			{"RUN_COVERAGE", Expr, "1", "runCoverage", "report the lines each case executed"},
			{"RUN_ABANDON", Expr, "2", "runAbandon", "stop at the first case that times out; the others get `TLE`"},
			{"RUN_LENIENT", Expr, "4", "runLenient", "a lenient run (package lenient)"},
			{"RUN_RANGE", Expr, "8", "runRange", "run the cases first..end-1 only"},
			{"RUN_RECORD", Expr, "16", "runRecord", "test cases record the calls they make into the target (`record.py`)"},
			{"RUN_PARTIAL", Expr, "32", "runPartial", "the definitions the candidate changes follow: compile them over the original's code (partial re-execution)"},
			{"RUN_SELECT", Expr, "64", "runSelect", "the cases to run follow; the others may be skipped (test selection)"},
			{"RUN_WALL", Expr, "128", "runWall", "cap each case's wall time too (`MSG_WALL`)"},
			{"CAP", Layout, "<d", "capSize", "the cap of every case's timeout, seconds (0: the suite's own)"},
			{"RANGE", Layout, "<II", "rangeSize", "first case, end"},
			{"SPAN", Layout, "<IIII", "spanSize", "a changed top-level definition: its bytes start..end in the candidate, then in the original"},
			{"WALL", Layout, "<d", "wallSize", "a case's wall cap, seconds (0: none)"},
			{"PING", Layout, "<qq", "pingSize", "the running candidate's children so far, the case the manager last saw running (-1: none); Go's bound of a stage restarts when either is higher than before"},
			{"DONE", Layout, "<IIIII", "doneSize", "chunks run in a reused child, fresh children, whether a child is kept, how it ran (`DONE_*`), why its first fresh child was forked (`FORK_*`; 0: none was)"},
			{"DONE_SELECTED", Expr, "1", "doneSelected", "only the selected cases ran"},
			{"DONE_PARTIAL", Expr, "2", "donePartial", "compiled over the original's code (partial re-execution)"},
			{"DONE_KEPT", Expr, "4", "doneKept", "ran on the import of the original that the child kept, the changed functions' code swapped in"},
			{"DONE_WIDE", Expr, "8", "doneWide", "with `DONE_SELECTED`: the cases that reach the changed functions ran, not only those that reach the edits (the candidate changes a name's scope in them)"},
			{"FORK_FIRST", Expr, "1", "forkFirst", "no child was kept yet: the server's first candidate"},
			{"FORK_OFF", Expr, "2", "forkOff", "the run reuses no child (coverage, a recording, lenient), or the server never does"},
			{"FORK_NAME", Expr, "3", "forkName", "not pure: a name that reaches the interpreter, the process or a pure module's mutable attribute"},
			{"FORK_IMPORT", Expr, "4", "forkImport", "not pure: an import of a module that is not pure or not preloaded"},
			{"FORK_DUNDER", Expr, "5", "forkDunder", "not pure: a dunder attribute stored, or a dunder name as a string"},
			{"FORK_STRING", Expr, "6", "forkString", "not pure: a string naming a pure module's mutable attribute, and an import"},
			{"FORK_IMPURE", Expr, "7", "forkImpure", "not pure in its changed definitions alone (partial re-execution)"},
			{"FORK_AFTER", Expr, "8", "forkAfter", "the previous candidate kept no child: not pure, or its run reuses none"},
			{"FORK_GUARD", Expr, "9", "forkGuard", "the guard refused the previous candidate's child"},
			{"FORK_SERVED", Expr, "10", "forkServed", "the previous child had served `MAX_SERVED` candidates"},
			{"FORK_ENDED", Expr, "11", "forkEnded", "the previous candidate's child ended before its last case (a deadline, a crash, threads left)"},
			{"FORK_AGAIN", Expr, "12", "forkAgain", "the candidate's own earlier child ended before its last case"},
			{"MAX_SERVED", Expr, "500", "", "candidates one reused child runs at most"},
		},
	},
	{
		Intro: "Records, one per case, in `C` (`decodeRecords`): `REC`, then with a status of `ST_RETURNED` or more the observation ([`fitness.ReadObservation`](../fitness/observe.go)), with `REC_DETAIL` a `U16` length and the detail, with `REC_LINES` a `U32` count and the line numbers (`U32`), with `REC_INJECTIONS` a `U16` count of injections, each a u32 line and three u8-length strings (kind, name, class), with `REC_PROGRESS` a `PROGRESS`, with `REC_CALLS` a `U32` length and the calls the case made into the target (JSON, see `record.py`), with `REC_CPU` a `CPU_SECS`:",
		Rows: []Row{
			{"REC", Layout, "<IBBd", "recSize", "case, status, flags, seconds"},
			{"REC_DETAIL", Expr, "1", "recDetail", "a detail follows"},
			{"REC_LINES", Expr, "2", "recLines", "the lines the case executed follow"},
			{"REC_INJECTIONS", Expr, "4", "recInjections", "the injections of a lenient run follow"},
			{"REC_PROGRESS", Expr, "8", "recProgress", "a failing test's progress follows"},
			{"REC_CALLS", Expr, "16", "recCalls", "the calls a test case made into the target follow: a `U32` length and JSON"},
			{"REC_CPU", Expr, "32", "recCPU", "the CPU time the case used follows (coverage runs)"},
			{"REC_SAME_LINES", Expr, "64", "recSameLines", "without `REC_LINES`: the case executed the lines of the record before it in the message, not listed again"},
			{"REC_LINES_REF", Expr, "128", "recLinesRef", "without `REC_LINES` or `REC_SAME_LINES`: a u16 k, the case executed the lines of the message's k-th record with `REC_LINES` (from 0), not listed again"},
			{"CALLS_MAX", Expr, "16 << 10", "", "bytes of a case's recorded calls"},
			{"PROGRESS", Layout, "<HH", "progressSize", "asserts passed, asserts of the test function"},
			{"CPU_SECS", Layout, "<d", "cpuSize", "the CPU seconds a case used"},
			{"U16", Layout, "<H", "", "a length"},
			{"U32", Layout, "<I", "", "a length, a count, a line"},
			{"DETAIL_MAX", Expr, "480", "", "bytes of a detail"},
			{"INJ_MAX", Expr, "2 + 32 * (4 + 3 + 12 + 100 + 16)", "", "bytes of a case's injections: at most 32, names cut to 12, 100 and 16 bytes"},
			{"PASSED", Expr, "0", "fitness.Passed", "a status below 16 is a verdict"},
			{"WRONG", Expr, "1", "fitness.WrongAnswer", ""},
			{"TLE", Expr, "2", "fitness.TimeLimitExceeded", ""},
			{"RTE", Expr, "3", "fitness.RuntimeError", ""},
			{"CE", Expr, "4", "fitness.CompilationError", "never in a record"},
			{"MLE", Expr, "5", "fitness.MemoryLimitExceeded", ""},
			{"ST_RETURNED", Expr, "16", "fitness.StatusReturned", "a call returned: the value, the arguments"},
			{"ST_RAISED", Expr, "17", "fitness.StatusRaised", "the case raised: the class names"},
			{"ST_FINISHED", Expr, "18", "fitness.StatusFinished", "an I/O case ended: the output"},
			{"VALUE_MAX", Expr, "4 << 20", "", "bytes of an encoded value"},
			{"MAX_DEPTH", Expr, "100", "fitness.MaxDepth", "nesting of an encoded value"},
			{"MATERIALISE_MAX", Expr, "10000", "fitness.MaxMaterialise", "items taken from a returned iterator"},
		},
	},
	{
		Intro: "The suite's case kinds:",
		Rows: []Row{
			{"CALL", Expr, "0", "fitness.Call", "call the function on a fresh import"},
			{"IO", Expr, "1", "fitness.IO", "run the program as `__main__`"},
			{"TEST", Expr, "2", "fitness.Test", "run a test function"},
			{"KINDS", Expr, "{\"call\": CALL, \"io\": IO, \"test\": TEST}", "fitness.Kind", "the kinds by their names in `S`"},
		},
	},
	{
		Intro: "Inside a server: the shared memory, the manager's requests to the forker and its reports, a reused child's pipes:",
		Rows: []Row{
			{"SHM_SIZE", Expr, "32 << 20", "", "bytes of the anonymous shared mapping"},
			{"HDR", Layout, "<qdQQ", "", "at 0, written by the child: running case (-1: none), its start, records end, next case"},
			{"CUR", Layout, "<qd", "", "the start of `HDR`: running case, its start"},
			{"JOB_OFF", Expr, "32", "", "where `JOB` is"},
			{"JOB", Layout, "<QQQQQQQQQQQQ", "", "written by the manager: code length, lines (coverage), coverage offset, records offset, records end, reuse, job number, lenient offset, pure modules mask, end of the cases, `JOB_*` flags, selection offset (0: none)"},
			{"JOB_PARTIAL", Expr, "1", "", "`JOB` flag: the code is the original's constants to replace (partial re-execution)"},
			{"JOB_PURE", Expr, "2", "", "`JOB` flag: pure code, whose every fresh import runs the same lines: a coverage run traces the first"},
			{"JOB_RECORD", Expr, "4", "", "`JOB` flag: test cases record their calls into the target (`RUN_RECORD`)"},
			{"JOB_KEEP", Expr, "8", "", "`JOB` flag, with `JOB_PURE`: the code stores no attribute, so a coverage run's call cases share one import while it holds what a fresh one would (`run_pure_calls`' rule)"},
			{"JOB_NO_GLOBALS", Expr, "16", "", "`JOB` flag, with `JOB_KEEP`: no global name is stored or deleted either, so the shared import's globals need no comparison after a case"},
			{"JOB_ORIGINAL", Expr, "32", "", "`JOB` flag: the candidate is the original, whose code every child has (the server's, made when it started): none at `CODE_OFF`"},
			{"JOB_KEPT", Expr, "64", "", "`JOB` flag the child sets: the cases ran on its kept import of the original (`candidate.kept_original`)"},
			{"CODE_OFF", Expr, "128", "", "the marshalled candidate; then the lenient runtime and plan, the coverage bytes, the records"},
			{"FORK", Bytes, "F", "", "manager → forker: a fresh child"},
			{"FORK_WIPE", Bytes, "W", "", "manager → forker: a fresh child in an emptied working directory (a candidate's first)"},
			{"FORK_SPARE", Bytes, "A", "", "manager → forker: `FORK_WIPE`'s child forked ahead (a spare): it waits for `CHILD_GO` before its first job"},
			{"MSG", Layout, "<cq", "", "forker → manager: a kind and a number"},
			{"FORKED", Bytes, "p", "", "`MSG`: the child's pid"},
			{"REAPED", Bytes, "s", "", "`MSG`: its wait status, once it and all it left are reaped"},
			{"CHILD_GO", Bytes, "g", "", "manager → reused or spare child: the next job is in the mapping"},
			{"CHILD_QUIT", Bytes, "q", "", "manager → reused child: exit"},
			{"CHILD_DONE", Bytes, "d", "", "reused child → manager: finished, waiting"},
			{"EXIT_MEMORY", Expr, "0x7D", "", "exit status of a child out of memory in harness code: `MLE`"},
		},
	},
}

func main() {
	src := flag.String("src", filepath.Join("..", ".."), "the module's root, where docs/engines.md is read")
	out := flag.String("out", filepath.Join("..", ".."), "the module's root, where the files are written")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}
