package fitness

import "fmt"

// Verdict is the outcome of one test case on one candidate. The set is
// ExecEval's (DESIGN.md §3).
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
	Lines []int `json:"lines,omitempty"`
}

// Outcome is what one candidate did on a suite: one Result per case, in the
// suite's order.
type Outcome struct {
	Results []Result `json:"results"`
	// CompileError is non-empty when the candidate does not compile; every
	// Result is then CompilationError and no case ran.
	CompileError string `json:"compile_error,omitempty"`
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
