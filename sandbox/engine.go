package sandbox

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"repair/fitness"
	"repair/lenient"
	prog "repair/program"
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
	// Name names the engine in messages: "cpython", "gpython" or
	// "hybrid" (a remote engine: its servers' runtime). What an engine
	// can do beyond Run it says through the capabilities of
	// capability.go, not by its name.
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
	// Change, when not nil, is what the candidate changes of the original
	// program (program.RenderChange of its patch): an engine that keeps
	// the original loaded may compile and execute only the changed
	// definitions (docs/engines.md, "Partial re-execution"). The
	// candidate's source is still complete, and the engine checks that it
	// equals the original outside the change.
	Change *prog.Change
	// Select, when not nil (one entry per case), are the cases the
	// candidate must run: the others cannot reach a statement it changes
	// (Change.Reach), so their verdicts are the original's. An engine runs
	// only the selected cases when it can prove that what a case leaves
	// behind cannot reach another (docs/engines.md, "Partial re-execution
	// and test selection"), and
	// then says so in Outcome.Skipped; otherwise it runs every case.
	Select []bool
	// SelectWide, with Select (one entry per case), are the cases that
	// reach any statement of the top-level definitions the candidate
	// changes (Change.Defs): what an engine may run instead when the
	// candidate changes a name's scope there (a variable that is no
	// longer local, a comprehension's free variables), which changes how
	// the statements no edit touched run, in those functions alone. Nil:
	// such a candidate runs every case.
	SelectWide []bool
	// WallCaps, when not nil (one per case, in seconds; 0 for none), cap
	// each case's wall time on top of Timeout's cap of its CPU time: the
	// search derives them from the original's run, so that a candidate
	// that sleeps or waits stops soon. Engines that cannot (gpython,
	// remote) ignore them.
	WallCaps []float64
	// CPUCaps, with WallCaps (one per case, in seconds; 0 for none), cap
	// each case's CPU time below Timeout's cap: the search derives them
	// from the original's run, a case's own time times a factor, so that
	// a candidate that loops on a quick case stops soon. Engines that
	// cannot (gpython, remote) use Timeout's cap alone.
	CPUCaps []float64
	// Lenient, when not nil, runs the candidate leniently (package
	// lenient): what it misses gets a value of the plan's class, and each
	// Result lists its Injections. Engines that cannot inject (gpython)
	// refuse it; callers check Features.Lenient first.
	Lenient *lenient.Plan
	// Validate marks the final validation of a fix: an engine that runs
	// the search on a faster interpreter than it judges with (the hybrid
	// engine) runs it on the judging one. Others ignore it.
	Validate bool
	// Record asks, of a test-file suite, for the calls each test case
	// makes into the target's functions and methods (fitness.Result.Calls:
	// the overfitting guard's inputs). Engines that cannot record leave
	// them nil.
	Record bool
}

// The limits of a case's time under an engine that counts CPU time
// (cpython; docs/engines.md, "Time limits"). A case may use its timeout
// (fitness.Case.Timeout, or RunOptions.Timeout's cap below it) of CPU
// time, counted on its process's CPU clock: a busy machine slows a case
// down but does not make it use more CPU, so no verdict depends on the
// load. A case that sleeps or waits uses none: CaseWallFactor times its
// timeout plus CaseWallSlack seconds of wall time, not counting the time
// it waited for a CPU, ends it. What a process does before its first
// case (under pytest: importing the test file, the target and its
// package, and collecting) counts against neither case: it may use
// SetupCPU seconds of CPU time, or SetupFactor times what the server's
// own setup used, whichever is more, with the same kind of backstop.
const (
	CaseWallFactor = 5.0
	CaseWallSlack  = 1.0 // seconds
	SetupCPU       = 10.0
	SetupFactor    = 5.0
)

// CaseWall is the wall-time backstop of a case whose CPU-time limit is
// timeout seconds (before the time it waits for a CPU is added).
func CaseWall(timeout float64) float64 { return CaseWallFactor*timeout + CaseWallSlack }

// Via values of the check's results (fitness.Result.Via).
const (
	// ViaSplit: the test ran in a process of its own, the code under test
	// in another, which cannot reach the test's verdict.
	ViaSplit = "separate processes"
	// ViaInProcess prefixes why a test ran beside the code under test
	// instead.
	ViaInProcess = "in-process: "
	// ViaUnselected: the test was not run, as the run's selection asked
	// (RunOptions.Select; Outcome.Skipped): for the check of a delivered
	// fix, it reaches no statement of the fix, and the original passes it.
	ViaUnselected = "not run: it reaches no statement of the fix"
)

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
	// Parity starts plain pytest's run of the original (the parity
	// check: cpython's Engine.PlainPytest) as soon as the engine has
	// collected a test file's tests, beside its servers' start, so that
	// it is done when the original's run under the tool is. Engines
	// without such a run ignore it.
	Parity bool
	// Collected says that a test file's Suite.Cases are already the items
	// the real pytest collected for this suite, target and options (by
	// the search's engine): an engine for the check of delivered fixes
	// (Verify) then does not collect them again. Others ignore it.
	Collected bool
	// Env is the environment candidates run with (cpython engine); the
	// zero value is an empty environment.
	Env Environment
}

// Environment is what candidates find in os.environ (docs/design.md §13).
type Environment struct {
	// Standard gives them the documented minimal environment: PATH (the
	// interpreter's directory and the system's bin directories), HOME and
	// TMPDIR (empty directories of the candidate's own, made afresh for
	// each), LANG and LC_ALL C.UTF-8, TZ UTC, PYTHONHASHSEED 0. Nothing
	// of the invoking user's environment is in it.
	Standard bool
	// Vars are KEY=VALUE pairs added to it (--env, --pass-env); a key
	// given again replaces the earlier value, standard ones included.
	Vars []string
}

// IsZero reports an empty environment.
func (e Environment) IsZero() bool { return !e.Standard && len(e.Vars) == 0 }

// Work directories of the standard environment, in the private directory.
const (
	HomeDir = "home"
	TmpDir  = "tmp"
)

// SystemBin are the system's bin directories of the standard PATH, after
// the interpreter's.
var SystemBin = []string{"/usr/local/bin", "/usr/bin", "/bin"}

// Build is the environment of a program whose interpreter lives in
// binDir, in the private directory dir: the standard variables (when
// Standard), then Vars, a later key replacing an earlier one, and
// PYTHONHASHSEED=0 unless given. Sorted by key.
func (e Environment) Build(binDir, dir string) []string {
	vals := map[string]string{"PYTHONHASHSEED": "0"}
	if e.Standard {
		path := []string{}
		for _, d := range append([]string{binDir}, SystemBin...) {
			if d != "" && !slices.Contains(path, d) {
				path = append(path, d)
			}
		}
		vals["PATH"] = strings.Join(path, ":")
		vals["HOME"] = filepath.Join(dir, HomeDir)
		vals["TMPDIR"] = filepath.Join(dir, TmpDir)
		vals["LANG"] = "C.UTF-8"
		vals["LC_ALL"] = "C.UTF-8"
		vals["TZ"] = "UTC"
	}
	for _, kv := range e.Vars {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			vals[k] = v
		}
	}
	out := make([]string, 0, len(vals))
	for k, v := range vals {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// CheckEnvVar checks a KEY=VALUE of --env (or a NAME of --pass-env, with
// value false): a name of letters, digits and underscores not starting
// with a digit, and no NUL byte.
func CheckEnvVar(s string, value bool) error {
	k := s
	if value {
		var ok bool
		if k, _, ok = strings.Cut(s, "="); !ok {
			return fmt.Errorf("%q: want KEY=VALUE", s)
		}
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%q: a NUL byte", s)
	}
	if k == "" {
		return fmt.Errorf("%q: no variable name", s)
	}
	for i, r := range k {
		if r != '_' && !(r >= 'A' && r <= 'Z') && !(r >= 'a' && r <= 'z') && (i == 0 || !(r >= '0' && r <= '9')) {
			return fmt.Errorf("%q: %q is not a variable name (letters, digits, _)", s, k)
		}
	}
	return nil
}
