package fitness

import (
	"encoding/json"
	"fmt"
)

// Kind says how a case is run.
type Kind uint8

const (
	// Call cases call Function(*Args, **Kwargs) on a fresh import of the
	// candidate and check Expected, ExpectedArgs and/or Raises.
	Call Kind = iota
	// IO cases run the candidate as __main__ with Stdin and compare its
	// standard output with Stdout.
	IO
	// Test cases run one top-level test_* function (Function) of a Python
	// test file (Suite.TestSource) that imports the candidate.
	Test
)

var kindNames = [...]string{Call: "call", IO: "io", Test: "test"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText encodes a kind by its name ("call", "io", "test").
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a kind name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown case kind %q", b)
}

// Case is one test case with every default of its suite already applied, so
// an engine needs nothing else to run it. Its JSON form (these tags) is what
// engines send to their workers.
type Case struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Function is the callee of a Call case, or the test function of a Test
	// case. Empty for IO cases.
	Function string `json:"function,omitempty"`
	// Args is a JSON array of positional arguments; nil means none.
	Args json.RawMessage `json:"args,omitempty"`
	// Kwargs is a JSON object of keyword arguments; nil means none.
	Kwargs json.RawMessage `json:"kwargs,omitempty"`
	// Then, of a call case, is a JSON array of method calls
	// ([name, args, kwargs]) made in order on what the call returned (an
	// object's life as a test lived it, RecordedCall.Then); the case's value is
	// then the list of what each returned. Nil for a plain call. Only the
	// overfitting guard's probes have it; engines that cannot run it
	// (gpython) are never given one.
	Then json.RawMessage `json:"then,omitempty"`
	// Expected is the expected return value as JSON; nil means the return
	// value is not checked ("null" means it must be None).
	Expected json.RawMessage `json:"expected,omitempty"`
	// ExpectedArgs is a JSON array: the state of Args after the call; nil
	// means not checked.
	ExpectedArgs json.RawMessage `json:"expected_args,omitempty"`
	// Raises names an exception type (the class or a base class) the call
	// must raise; empty means the call must return normally.
	Raises string `json:"raises,omitempty"`
	// Stdin and Stdout are the input and expected output of an IO case.
	Stdin  *string `json:"stdin,omitempty"`
	Stdout *string `json:"stdout,omitempty"`
	// Inplace is EiplGrader's in-place mode of a call: 0 checks the
	// return value; 1 the first argument after the call (the return value
	// is ignored); 2 the return value, or the first argument after the
	// call when the function returned None.
	Inplace int `json:"inplace,omitempty"`
	// ExpectedType, when set (EiplGrader's expected_type: "int", "double",
	// "string", "bool", "List[int]"...), is the type the checked value must
	// have, besides being equal to Expected.
	ExpectedType string `json:"expected_type,omitempty"`
	// OutputRule selects how Stdout compares: "" (line by line, trailing
	// whitespace ignored, numbers within Tolerance) or "execeval"
	// (ExecEval's rules, see ExecEvalDifference).
	OutputRule string `json:"output_rule,omitempty"`
	// Weight multiplies the case inside its fitness sum (default 1, > 0).
	Weight float64 `json:"weight"`
	// Timeout in seconds (> 0).
	Timeout float64 `json:"timeout"`
	// Tolerance for float comparison, absolute or relative (>= 0).
	Tolerance float64 `json:"tolerance"`
	// Line is the 1-based line of the case in its suite file, when known
	// (JSON lines, Python test files); 0 otherwise.
	Line int `json:"-"`
	// XFail and Skip are a test case's pytest marks as collected with the
	// original program: an xfail mark, a skip or skipif mark. An xfail
	// outcome passes only with XFail, a skip in setup only with Skip (the
	// code under test can mark the running item or raise either). Set by
	// engines that collect with pytest; never read from a suite file.
	XFail bool `json:"-"`
	Skip  bool `json:"-"`
	// Probe marks a case with no expectation whose run is observed, not
	// judged: its verdict is PASSED whenever the code returned, raised or
	// finished, and its Result.Detail is the [Behaviour] seen (the
	// overfitting guard compares two programs' behaviour this way). Never
	// read from a suite file.
	Probe bool `json:"-"`
	// Path is the JSON path of the case in a suite object ("tests[3]") or
	// a bare array ("[3]"); empty for JSON lines and Python test files,
	// which Line locates. [Suite.Where] formats a case's location.
	Path string `json:"-"`
}

// Suite is a loaded, validated test suite.
type Suite struct {
	// Path is the file the suite was loaded from.
	Path string
	// Target is the program the suite names (resolved against the suite's
	// directory); empty when it names none. --target wins over it.
	Target string
	// Function is the default callee of call cases.
	Function string
	// MemoryMB limits the memory of a candidate's process (default 512).
	MemoryMB int
	// Cases are the test cases, in file order. Never empty.
	Cases []Case
	// TestSource is the text of a Python test file (Kind Test cases), and
	// TestModule the module name it is imported as; empty otherwise.
	TestSource []byte
	TestModule string
	// Doctest is true when TestSource was generated from the doctests of
	// Target ("doctest:FILE"): the built-in runner runs it, never pytest.
	Doctest bool
	// Parts, when not nil, are the test files of a suite of several
	// (LoadFiles): each a Python test file's suite, run by an engine of
	// its own; Cases are theirs in order (JoinParts), and TestSource
	// their sources one after the other (for what reads a test file's
	// text: the raises the overfitting guard looks for).
	Parts []*Suite
	// CaseTimeout, when above 0, is every case's timeout in seconds (the
	// user's --case-timeout), the cases an engine collects later
	// included: see SetCaseTimeout.
	CaseTimeout float64
}

// SetCaseTimeout makes secs every case's timeout, and the timeout of the
// cases an engine collects later (CaseTimeout). secs must be in
// (0, MaxTimeout].
func (s *Suite) SetCaseTimeout(secs float64) {
	s.CaseTimeout = secs
	for _, p := range s.Parts {
		p.SetCaseTimeout(secs)
	}
	for i := range s.Cases {
		s.Cases[i].Timeout = secs
	}
}

// DefaultCaseTimeout is the timeout of a case collected after the suite
// loaded: CaseTimeout when set, else a test file's DefaultTestTimeout.
func (s *Suite) DefaultCaseTimeout() float64 {
	switch {
	case s.CaseTimeout > 0:
		return s.CaseTimeout
	case len(s.TestSource) > 0 && !s.Doctest:
		return DefaultTestTimeout
	}
	return DefaultTimeout
}
