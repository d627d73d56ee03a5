package fitness

import "fmt"

// Verdict is the outcome of one test case on one candidate. The set is
// ExecEval's (docs/design.md §3).
type Verdict uint8

const (
	// Passed: the case's checks all held.
	Passed Verdict = iota
	// WrongAnswer: the case ran to completion but a check failed (wrong
	// return value, wrong argument state, wrong stdout, missing exception).
	WrongAnswer
	// TimeLimitExceeded: the case ran past its timeout and was stopped.
	TimeLimitExceeded
	// RuntimeError: the case raised an unexpected exception, or its process
	// ended abnormally (signal, os._exit, crash).
	RuntimeError
	// CompilationError: the candidate source does not compile.
	CompilationError
	// MemoryLimitExceeded: MemoryError, or the process was killed for
	// going over the memory limit.
	MemoryLimitExceeded
)

var verdictNames = [...]string{
	Passed:              "PASSED",
	WrongAnswer:         "WRONG_ANSWER",
	TimeLimitExceeded:   "TIME_LIMIT_EXCEEDED",
	RuntimeError:        "RUNTIME_ERROR",
	CompilationError:    "COMPILATION_ERROR",
	MemoryLimitExceeded: "MEMORY_LIMIT_EXCEEDED",
}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", v)
}

// ParseVerdict is the inverse of [Verdict.String].
func ParseVerdict(s string) (Verdict, bool) {
	for i, n := range verdictNames {
		if n == s {
			return Verdict(i), true
		}
	}
	return 0, false
}

// MarshalText encodes a verdict by its name.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText decodes a verdict name.
func (v *Verdict) UnmarshalText(b []byte) error {
	p, ok := ParseVerdict(string(b))
	if !ok {
		return fmt.Errorf("unknown verdict %q", b)
	}
	*v = p
	return nil
}

// Result is what one case did on one candidate.
type Result struct {
	Verdict Verdict `json:"verdict"`
	// Seconds is the wall time the case took.
	Seconds float64 `json:"seconds"`
	// Detail is a short human reason: "expected 2, got 1", the exception
	// line, "timed out after 2s". Empty for PASSED.
	Detail string `json:"detail,omitempty"`
	// Lines are the 1-based line numbers of the candidate that the case
	// executed, sorted, without duplicates. Nil unless coverage was asked for.
	// Results of one outcome may share the slice: read it, never change it.
	Lines []int `json:"lines,omitempty"`
	// Injections are the values lenient execution injected during the
	// case for what the program misses (package lenient), in the order
	// they first happened, one per line, kind and name. Nil unless the run
	// was lenient.
	Injections []Injection `json:"injections,omitempty"`
	// Progress is, for a test function that failed (WRONG_ANSWER or
	// RUNTIME_ERROR in its body), the share of its asserts before the line
	// where it stopped, in [0, 1): how far it got. The fitness gives it
	// partial credit (see PartialCredit). 0 when unknown, and for other
	// kinds of case.
	Progress float64 `json:"progress,omitempty"`
	// CPU is the CPU time (seconds) the case's process used while it ran,
	// when the engine measured it (cpython, with coverage); 0 otherwise.
	// The time the process waited for a CPU (a loaded machine) counts in
	// it, so Seconds much above it mean the case mostly waits (sleeps,
	// I/O).
	CPU float64 `json:"cpu_seconds,omitempty"`
	// Calls are, for a test case run with sandbox.RunOptions.Record, the
	// calls it made into the target (the overfitting guard's inputs).
	Calls []RecordedCall `json:"calls,omitempty"`
	// Via says how the check of delivered fixes reached the verdict:
	// "separate processes" (the test code in a process of its own, the
	// code under test in another), or "in-process: " and why not. Empty
	// for other runs.
	Via string `json:"via,omitempty"`
}

// Injection is one value lenient execution injected: the case's verdict
// rests on it.
type Injection struct {
	// Line is the candidate's 1-based line that needed the value (0: code
	// outside the candidate, such as a test file, needed it).
	Line int `json:"line"`
	// Kind is "name" (a name read that nothing defines), "import" (a
	// module that does not exist), "attribute" (an attribute read that
	// would raise AttributeError), "call" (the result of calling an
	// injected value) or "decorator" (an injected decorator applied to
	// one of the program's functions or classes, which it gives back).
	Kind string `json:"kind"`
	// Name is what was missing: the name, the module, the attribute
	// ("module.attr" on a module), the callee.
	Name string `json:"name"`
	// Class is the value class injected (LExecutor's: "None", "True",
	// "int_pos", "str_nonempty", "list_nonempty", "callable", "resource",
	// "object", ...), "module" for an import, "identity" for a decorator.
	Class string `json:"class"`
}

// Outcome is what one candidate did on a suite: one Result per case, in the
// suite's order.
type Outcome struct {
	Results []Result `json:"results"`
	// CompileError is non-empty when the candidate does not compile; every
	// Result is then CompilationError and no case ran.
	CompileError string `json:"compile_error,omitempty"`
	// Skipped, when not nil (one per case), marks the cases the engine did
	// not run because a selection (sandbox.RunOptions.Select) left them
	// out: their Results are zero, and the caller gives them the
	// original's.
	Skipped []bool `json:"skipped,omitempty"`
}

// Passed reports whether every case passed.
func (o *Outcome) Passed() bool {
	if o.CompileError != "" {
		return false
	}
	for _, r := range o.Results {
		if r.Verdict != Passed {
			return false
		}
	}
	return true
}

// Counts returns how many cases passed and how many did not.
func (o *Outcome) Counts() (passed, failed int) {
	for _, r := range o.Results {
		if r.Verdict == Passed {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}
