package sandbox

// FastPaths count what a fork-server engine's servers did (the cpython
// engine's Counts): how often a candidate took a fast path, and why the
// others forked afresh.
type FastPaths struct {
	// Candidates evaluated (compile errors included).
	Candidates int64 `json:"candidates"`
	// Forks of a fresh child process.
	Forks int64 `json:"forks"`
	// Reused counts candidates (or parts of one) that ran in the child of
	// the previous pure candidate instead of a fresh fork (see
	// sandbox/doc.go).
	Reused int64 `json:"reused"`
	// Selected counts candidates that ran only the cases of their
	// selection (RunOptions.Select).
	Selected int64 `json:"selected"`
	// Partial counts candidates compiled one changed definition at a time
	// over the original's code (RunOptions.Change).
	Partial int64 `json:"partial"`
	// Kept counts candidates (and runs of the original) whose cases ran
	// on the import of the original a reused child kept, with the code of
	// the functions they change swapped in (sandbox/cpython/harness/candidate.py,
	// kept_original): no import of their own.
	Kept int64 `json:"kept"`
	// FreshForks counts the fresh children (Forks) by why their candidate
	// did not run in the child the previous one left waiting.
	FreshForks ForkReasons `json:"fresh_forks"`
}

// ForkReasons counts fresh children by why a candidate could not reuse a
// child (see sandbox/doc.go, "Reusing a child for pure candidates").
type ForkReasons struct {
	// First: no child was kept yet (the server's first candidate).
	First int64 `json:"first"`
	// NoReuse: the run reuses no child (coverage, a recording, lenient),
	// or the server never does (pytest, a package, several targets, the
	// check of delivered fixes, a test file that is not pure).
	NoReuse int64 `json:"no_reuse"`
	// The candidate is not pure: ImpureName names what reaches the
	// interpreter, the process or a pure module's mutable attribute;
	// ImpureImport imports a module that is not pure or not preloaded;
	// ImpureDunder stores a dunder attribute or holds a dunder name as a
	// string; ImpureString holds the name of a pure module's mutable
	// attribute as a string and imports a module; Impure is not pure in
	// its changed definitions alone (partial re-execution).
	ImpureName   int64 `json:"impure_name"`
	ImpureImport int64 `json:"impure_import"`
	ImpureDunder int64 `json:"impure_dunder"`
	ImpureString int64 `json:"impure_string"`
	Impure       int64 `json:"impure"`
	// AfterImpure: the previous candidate kept no child (it was not pure,
	// or its run reuses none).
	AfterImpure int64 `json:"after_impure"`
	// Guard: the guard refused the previous candidate's child.
	Guard int64 `json:"guard"`
	// Served: the previous child had served its 500 candidates.
	Served int64 `json:"served"`
	// Ended: the previous candidate's child ended before its last case
	// (a deadline, a crash, threads or processes left, a full record
	// area).
	Ended int64 `json:"ended"`
	// Again: a later child of the same candidate, whose earlier one ended
	// before its last case.
	Again int64 `json:"again"`
}

// HybridStats counts what the hybrid engine ran where, for --report.
type HybridStats struct {
	// Agree reports whether gpython gave the original's verdicts on every
	// case (false: the search ran on CPython).
	Agree bool `json:"agree"`
	// Mismatch names the first case whose verdict differed, if any.
	Mismatch string `json:"mismatch,omitempty"`
	// Search and Validated count the runs on gpython and on CPython.
	Search    int `json:"gpython_runs"`
	Validated int `json:"cpython_runs"`
	// Rejected counts the validations of fixes, which gpython's runs had
	// passed, that CPython failed (each fix is validated twice before it
	// is rejected, three times when its verdicts changed).
	Rejected int `json:"rejected_validations"`
}
