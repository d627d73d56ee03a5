package sandbox

import (
	"context"
	"io"
	"time"

	"repair/fitness"
	"repair/lenient"
)

// Engine runs candidate programs against the suite it was created for.
// Run is safe for concurrent use by up to Options.Workers goroutines (more
// callers wait for a free worker).
//
// A failing candidate (wrong answers, crashes, timeouts, syntax errors) is
// reported in the Outcome; Run returns an error only when the tool itself
// broke (the interpreter is gone, ctx was canceled, a worker cannot be
// restarted).
type Engine interface {
	// Name is "cpython" or "gpython".
	Name() string
	// Run evaluates src (a complete candidate of the target file).
	Run(ctx context.Context, src []byte, opts RunOptions) (*fitness.Outcome, error)
	// Close stops every worker and removes every temporary file. Safe to call
	// more than once.
	Close() error
}

// RunOptions are per-candidate options.
type RunOptions struct {
	// Coverage asks for the executed line numbers of each case.
	Coverage bool
	// Timeout, when > 0, caps every case's timeout for this run (the search
	// uses a cap calibrated on the original program, so that looping
	// candidates cost little; the final validation runs with the suite's).
	Timeout time.Duration
	// AbandonAfterTimeout stops running a candidate at its first timed-out
	// case: the cases after it get TIME_LIMIT_EXCEEDED without running (a
	// shortcut for the search, where a looping candidate is worth little).
	AbandonAfterTimeout bool
	// Cases, when its End is above 0, runs only the cases of that range;
	// the Results of the others are left zero. Run the original program's
	// cases on several workers at once this way (localization does). An
	// engine that cannot run a range runs every case: callers read only
	// the range's Results.
	Cases CaseRange
	// Lenient, when not nil, runs the candidate leniently (package
	// lenient): what it misses gets a value of the plan's class, and each
	// Result lists its Injections. Engines that cannot inject (gpython)
	// ignore it; callers check Engine.Name first.
	Lenient *lenient.Plan
	// Record asks, of a test-file suite, for the calls each test case
	// makes into the target's functions and methods (fitness.Result.Calls:
	// the overfitting guard's inputs). Engines that cannot record leave
	// them nil.
	Record bool
}

// CaseRange is the cases First..End-1 of a suite, in its order.
type CaseRange struct{ First, End int }

// Bounds is the range clamped to n cases: all of them when End is 0.
func (r CaseRange) Bounds(n int) (first, end int) {
	if r.End <= 0 || r.End > n {
		r.End = n
	}
	return min(max(r.First, 0), r.End), r.End
}

// Isolation selects how strictly candidates are confined.
type Isolation uint8

const (
	// IsolationAuto uses namespaces, seccomp and a read-only file system
	// where the kernel allows, and otherwise rlimits only (said once on
	// Options.Stderr).
	IsolationAuto Isolation = iota
	// IsolationStrict refuses to run when full isolation is unavailable.
	IsolationStrict
	// IsolationNone applies rlimits only (for debugging).
	IsolationNone
)

// Options configure an engine.
type Options struct {
	// Suite is the suite every candidate is run against.
	Suite *fitness.Suite
	// Target is the path of the target file: its base name (without .py) is
	// the module name candidates are imported as, and the files of its
	// directory are importable by the candidate and the tests.
	Target string
	// Targets, when more than one, are the files repaired together
	// (Target first): a candidate is their joined text (see
	// program.ParseFiles), which the engine splits and imports as their
	// modules. Engines that cannot (gpython, remote) refuse.
	Targets []string
	// Workers is the number of worker processes (default: number of CPUs).
	Workers int
	// Isolation level (default IsolationAuto).
	Isolation Isolation
	// OutputCap caps captured output per case in bytes (default 64 KiB).
	OutputCap int
	// Python overrides the interpreter (cpython engine); empty means
	// resolve python3 from PATH to its real executable.
	Python string
	// Stderr receives one-time notices (degraded isolation). Nil discards.
	Stderr io.Writer
	// Verify runs a test file's cases under the check of delivered fixes
	// (cpython; docs/engines.md, "The check of a delivered fix"): servers
	// that no search ran in, an audit hook installed before pytest and
	// the target load, the test machinery compared after every case. A
	// case fails when the code under test reached or changed the test
	// machinery. Engines without the check run the cases as usual.
	Verify bool
}
