package sandbox

import "context"

// What an engine can do beyond the Engine contract. Every engine runs
// candidates; one that can do more says so by implementing one of the
// interfaces below, the way an io.Writer that can copy from a reader is
// also an io.ReaderFrom, or an http.ResponseWriter that can flush is an
// http.Flusher. Callers ask the engine through these interfaces and the
// functions beside them, never by its Name (a remote engine answers the
// name of its servers' runtime, and a hybrid one does what its judge
// does) nor by a cast to its concrete type. Package sandbox/enginetest checks, for every
// engine, that what it claims holds (enginetest.Capabilities).

// Describer is an engine that says which interpreter runs candidates and
// how they are confined: "cpython 3.11.7 (isolation: full)". The summary
// line of repair and repair run, serve's runtimes and experiment's trials
// print it (through Describe).
type Describer interface {
	Describe() string
}

// Describe is e's description (Describer), or its Name for an engine that
// has none.
func Describe(e Engine) string {
	if d, ok := e.(Describer); ok {
		return d.Describe()
	}
	return e.Name()
}

// IsolationLevel is how a description names the isolation in force:
// "full", or the layers that are (Confinement.String).
func IsolationLevel(c Confinement) string {
	if c.Full() {
		return "full"
	}
	return c.String()
}

// Sizer is an engine that knows how many candidates it evaluates at once:
// its workers, or a remote engine's servers' workers in all. When the
// user did not choose (--workers 0), repair keeps that many candidates in
// flight (repair.Options.Workers) instead of one per CPU of this machine.
type Sizer interface {
	// Capacity is at least 1, and at least what Grow last returned.
	Capacity() int
}

// Grower is an engine that can start more workers while it runs: for a
// suite whose cases mostly wait (sleep, I/O), the search asks for more
// candidates at once (repair.Options.Grow).
type Grower interface {
	// Grow starts workers until the engine has n (it may cap n), in the
	// background, and returns how many it is to have.
	Grow(ctx context.Context, n int) (int, error)
}

// PlainPytester is an engine that can run the suite's test file under
// plain pytest, on the original program, in the sandbox the candidates
// run in: the reference of the parity check (docs/engines.md, "Parity
// with plain pytest"), which repair and repair run start beside the
// original's run when Features.RealPytest holds.
type PlainPytester interface {
	// PlainPytest returns plain pytest's run; a nil PlainRun without
	// error means the engine has no such run for its suite (a data
	// suite, no pytest, no project tree).
	PlainPytest(ctx context.Context) (*PlainRun, error)
}

// Executable is an engine that runs candidates with an interpreter of
// this machine: serve names its path as the runtime's execute command.
type Executable interface {
	// Executable is the interpreter's path.
	Executable() string
}

// Counter is an engine that counts how it ran candidates: --report
// records the counts, and -v says how the fast paths went.
type Counter interface {
	Counts() Counts
}

// CountsOf is e's counts (Counter), or none.
func CountsOf(e Engine) Counts {
	if c, ok := e.(Counter); ok {
		return c.Counts()
	}
	return Counts{}
}

// Counts are what an engine counted of its runs; each engine fills what
// it has, the rest is nil.
type Counts struct {
	// FastPaths are the fork-server engine's (cpython): fresh forks,
	// reused children, partial re-execution, test selection.
	FastPaths *FastPaths
	// Hybrid are the hybrid engine's: what ran on which interpreter.
	Hybrid *HybridStats
}

// Featurer is an engine that says which of the options it honours
// (Features): callers check before they ask for one.
type Featurer interface {
	Features() Features
}

// FeaturesOf is e's features (Featurer), or none.
func FeaturesOf(e Engine) Features {
	if f, ok := e.(Featurer); ok {
		return f.Features()
	}
	return Features{}
}

// Features are the options an engine honours beyond running the suite,
// and how it runs a test file. The zero value honours none of them.
type Features struct {
	// Lenient: Run injects values for what a program misses
	// (RunOptions.Lenient); --lenient needs it.
	Lenient bool
	// Environ: candidates find Options.Env in os.environ; without it
	// --env and --pass-env are lost, and repair says so.
	Environ bool
	// Verify: an engine opened as this one was, with Options.Verify,
	// runs the check of delivered fixes (docs/engines.md, "The check of
	// a delivered fix"); repair and batch open one for a test-file suite
	// only then.
	Verify bool
	// RealPytest: every run of a test file's cases is under the real
	// pytest, on the items it collected (the suite's cases as the engine
	// replaced them): an engine for the check of delivered fixes need not
	// collect them again (Options.Collected), and the parity check with
	// plain pytest applies.
	RealPytest bool
}

// And is what both f and g honour: the features of an engine that runs
// each candidate on both, or on either.
func (f Features) And(g Features) Features {
	return Features{
		Lenient:    f.Lenient && g.Lenient,
		Environ:    f.Environ && g.Environ,
		Verify:     f.Verify && g.Verify,
		RealPytest: f.RealPytest && g.RealPytest,
	}
}
