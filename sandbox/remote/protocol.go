package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"repair/fitness"
	"repair/internal/pymod"
	"repair/sandbox"
)

// Paths of the native endpoints of `repair serve`.
const (
	// EvaluatePath takes an [EvaluateRequest] (POST) and answers an
	// [EvaluateResponse], or an [ErrorResponse] with a 4xx or 5xx status.
	EvaluatePath = "/api/v1/evaluate"
	// HealthPath answers a [Health] (GET).
	HealthPath = "/healthz"
	// RuntimesPath is ExecEval's runtime listing (GET); it needs the
	// token when the server has one.
	RuntimesPath = "/api/all_runtimes"
)

// Error codes of an [ErrorResponse].
const (
	// CodeUnknownSuite: the request named a suite by SuiteID only and the
	// server does not hold it (it never saw it, evicted it, or restarted).
	// The client sends the request again with the suite.
	CodeUnknownSuite = "unknown_suite"
	// CodeBadRequest: the request is malformed (JSON, a field, the suite).
	CodeBadRequest = "bad_request"
	// CodeEngine: the requested engine is not available on the server.
	CodeEngine = "engine_unavailable"
	// CodeBusy: every worker is busy and the queue is full (status 503,
	// with Retry-After).
	CodeBusy = "busy"
	// CodeUnauthorized: a bearer token is required and was missing or wrong.
	CodeUnauthorized = "unauthorized"
	// CodeTooLarge: the body is larger than the server accepts (413).
	CodeTooLarge = "too_large"
	// CodeInternal: the server's sandbox failed (500).
	CodeInternal = "internal"
)

// Suite is the wire form of what an engine is bound to: the cases and the
// files a candidate sees. Its JSON encoding, as the client sends it, is
// hashed into the suite's ID ([SuiteID]).
type Suite struct {
	// Module is the candidate's module name (the target's file name
	// without ".py"); an identifier.
	Module string `json:"module"`
	// Original is the target's source as it is on the client's disk: the
	// harness preloads the modules it imports.
	Original string `json:"original,omitempty"`
	// Files are the helper modules next to the target ("node.py" → its
	// text), importable by the candidate and the tests.
	Files map[string]string `json:"files,omitempty"`
	// Function is the suite's default callee (informative; every call case
	// names its own).
	Function string `json:"function,omitempty"`
	// MemoryMB limits a candidate's process (> 0).
	MemoryMB int `json:"memory_mb"`
	// Cases are complete cases (every default applied), in order.
	Cases []fitness.Case `json:"cases"`
	// TestSource, TestModule and TestFile describe a Python test file
	// (Kind Test cases); empty otherwise.
	TestSource string `json:"test_source,omitempty"`
	TestModule string `json:"test_module,omitempty"`
	TestFile   string `json:"test_file,omitempty"`
}

// EvaluateRequest asks a server to run one candidate. Exactly one of
// SuiteID and Suite is needed: SuiteID alone when the server already holds
// the suite (the usual case), Suite (with or without SuiteID) otherwise.
// Exactly one of Source and SourceBase64 is needed.
type EvaluateRequest struct {
	// SuiteID is the [SuiteID] of the suite's JSON.
	SuiteID string `json:"suite_id,omitempty"`
	// Suite is a [Suite] as JSON.
	Suite json.RawMessage `json:"suite,omitempty"`
	// Engine is "cpython", "gpython", or empty (or "auto") for the
	// server's default.
	Engine string `json:"engine,omitempty"`
	// Source is the candidate, when it is valid UTF-8; SourceBase64
	// carries any other bytes exactly.
	Source       *string `json:"source,omitempty"`
	SourceBase64 []byte  `json:"source_base64,omitempty"`
	// Coverage asks for the executed lines of each case.
	Coverage bool `json:"coverage,omitempty"`
	// Timeout, when > 0, caps every case's timeout for this run, in
	// seconds; AbandonAfterTimeout stops the candidate at its first timed
	// out case (sandbox.RunOptions).
	Timeout             float64 `json:"timeout,omitempty"`
	AbandonAfterTimeout bool    `json:"abandon_after_timeout,omitempty"`
	// First and End, when End > 0, run only the cases First..End-1
	// (sandbox.RunOptions.Cases); the others' results are left zero. A
	// server that does not know them runs every case.
	First int `json:"first,omitempty"`
	End   int `json:"end,omitempty"`
}

// EvaluateResponse is the answer to an [EvaluateRequest].
type EvaluateResponse struct {
	// SuiteID is the ID under which the server holds the suite now.
	SuiteID string `json:"suite_id"`
	// Engine describes the engine that ran the candidate, e.g.
	// "cpython 3.11.7 (isolation: full)".
	Engine string `json:"engine"`
	// Outcome is the candidate's verdicts, one per case in suite order.
	Outcome *fitness.Outcome `json:"outcome"`
}

// ErrorResponse is the body of every 4xx and 5xx answer of the server, on
// every endpoint. Code is one of the Code constants on the native endpoint
// (ExecEval's endpoints answer only Error, as ExecEval does).
type ErrorResponse struct {
	Error string `json:"error"`
	Code  string `json:"code,omitempty"`
}

// Health is the answer of [HealthPath].
type Health struct {
	Status string `json:"status"` // "ok", or "draining" during shutdown
	// Version is the server's tool version.
	Version string `json:"version"`
	// Engine is the default runtime ("cpython"), Engines every available
	// one.
	Engine  string   `json:"engine"`
	Engines []string `json:"engines"`
	// Workers is the number of candidates evaluated at once, Queue the
	// number of requests that may wait for a worker.
	Workers int `json:"workers"`
	Queue   int `json:"queue"`
	// Busy and Waiting are the current load.
	Busy    int `json:"busy"`
	Waiting int `json:"waiting"`
}

// SuiteID is the hex SHA-256 of a suite's JSON as sent.
func SuiteID(raw []byte) string {
	h := sha256.Sum256(raw)
	return hex.EncodeToString(h[:])
}

// NewSuite builds the wire form of suite for the target file: it reads
// the target and the helper modules of its directory (and of the test
// file's, for a Python test file) the way the cpython engine finds them.
// Every text must be UTF-8.
func NewSuite(target string, suite *fitness.Suite) (*Suite, error) {
	if suite == nil || len(suite.Cases) == 0 {
		return nil, errors.New("remote: no test cases")
	}
	module := strings.TrimSuffix(filepath.Base(target), ".py")
	if !isIdentifier(module) {
		return nil, fmt.Errorf("remote: target %s: %q is not a Python module name", target, module)
	}
	s := &Suite{
		Module:   module,
		Function: suite.Function,
		MemoryMB: suite.MemoryMB,
		Cases:    suite.Cases,
	}
	if s.MemoryMB <= 0 {
		s.MemoryMB = fitness.DefaultMemoryMB
	}
	if data, err := os.ReadFile(target); err == nil {
		if !utf8.Valid(data) {
			return nil, fmt.Errorf("remote: %s is not UTF-8 text", target)
		}
		s.Original = string(data)
	}
	files, err := sandbox.HelperFiles(target, suite)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("remote: %w", err)
		}
		if !utf8.Valid(data) {
			return nil, fmt.Errorf("remote: %s is not UTF-8 text", f)
		}
		if s.Files == nil {
			s.Files = map[string]string{}
		}
		s.Files[filepath.Base(f)] = string(data)
	}
	if len(suite.TestSource) > 0 {
		if !utf8.Valid(suite.TestSource) {
			return nil, fmt.Errorf("remote: %s is not UTF-8 text", suite.Path)
		}
		s.TestSource = string(suite.TestSource)
		s.TestModule = suite.TestModule
		if s.TestModule == "" {
			s.TestModule = "test_" + module
		}
		s.TestFile = s.TestModule + ".py"
		if suite.Path != "" {
			s.TestFile = filepath.Base(suite.Path)
		}
	}
	return s, nil
}

// Limits bound what a server accepts in a [Suite].
type Limits struct {
	// MaxCases bounds the number of cases (0: no bound).
	MaxCases int
	// MaxTimeout caps every case's timeout in seconds (0: no cap).
	MaxTimeout float64
	// MaxMemoryMB caps the suite's memory limit (0: no cap).
	MaxMemoryMB int
	// MaxFiles bounds the number of helper files (0: no bound).
	MaxFiles int
}

// Check validates a suite received from a client, and caps its timeouts
// and memory at the limits (changing s). Its error is one line naming the
// field at fault.
func (s *Suite) Check(lim Limits) error {
	if !isIdentifier(s.Module) {
		return fmt.Errorf("module: %q is not a Python module name", s.Module)
	}
	if len(s.Cases) == 0 {
		return errors.New("cases: no test cases")
	}
	if lim.MaxCases > 0 && len(s.Cases) > lim.MaxCases {
		return fmt.Errorf("cases: %d cases, more than the server's maximum of %d", len(s.Cases), lim.MaxCases)
	}
	if s.MemoryMB <= 0 {
		return fmt.Errorf("memory_mb: must be > 0, got %d", s.MemoryMB)
	}
	if lim.MaxMemoryMB > 0 {
		s.MemoryMB = min(s.MemoryMB, lim.MaxMemoryMB)
	}
	if lim.MaxFiles > 0 && len(s.Files) > lim.MaxFiles {
		return fmt.Errorf("files: %d files, more than the server's maximum of %d", len(s.Files), lim.MaxFiles)
	}
	for name := range s.Files {
		if err := checkFileName(name); err != nil {
			return fmt.Errorf("files[%q]: %v", name, err)
		}
		if name == s.Module+".py" {
			return fmt.Errorf("files[%q]: the target itself", name)
		}
	}
	hasTests := s.TestSource != ""
	if hasTests {
		if !isIdentifier(s.TestModule) {
			return fmt.Errorf("test_module: %q is not a Python module name", s.TestModule)
		}
		if err := checkFileName(s.TestFile); err != nil {
			return fmt.Errorf("test_file: %v", err)
		}
		if s.TestFile == s.Module+".py" {
			return fmt.Errorf("test_file: %q is the target itself", s.TestFile)
		}
		if _, ok := s.Files[s.TestFile]; ok {
			return fmt.Errorf("test_file: %q is also a helper file", s.TestFile)
		}
	}
	names := make(map[string]bool, len(s.Cases))
	for i := range s.Cases {
		c := &s.Cases[i]
		at := fmt.Sprintf("cases[%d]", i)
		if names[c.Name] {
			return fmt.Errorf("%s.name: duplicate name %q", at, c.Name)
		}
		names[c.Name] = true
		switch c.Kind {
		case fitness.Call:
			if c.Function == "" {
				return fmt.Errorf("%s.function: a call case needs a function", at)
			}
			if c.Stdin != nil || c.Stdout != nil {
				return fmt.Errorf("%s: a call case has no stdin or stdout", at)
			}
		case fitness.IO:
			if len(c.Args) > 0 || len(c.Kwargs) > 0 || len(c.Expected) > 0 || len(c.ExpectedArgs) > 0 || c.Raises != "" {
				return fmt.Errorf("%s: an I/O case has no call keys", at)
			}
		case fitness.Test:
			if !hasTests {
				return fmt.Errorf("%s: a test case needs the suite's test_source", at)
			}
			if c.Function == "" {
				return fmt.Errorf("%s.function: a test case needs its test function", at)
			}
		default:
			return fmt.Errorf("%s.kind: unknown kind %d", at, c.Kind)
		}
		for _, v := range []struct {
			key  string
			raw  json.RawMessage
			want byte
		}{{"args", c.Args, '['}, {"kwargs", c.Kwargs, '{'}, {"expected_args", c.ExpectedArgs, '['}} {
			if len(v.raw) > 0 && v.raw[0] != v.want {
				return fmt.Errorf("%s.%s: wrong JSON type", at, v.key)
			}
		}
		if !(c.Weight > 0) {
			return fmt.Errorf("%s.weight: must be > 0", at)
		}
		if !(c.Timeout > 0) {
			return fmt.Errorf("%s.timeout: must be > 0", at)
		}
		if lim.MaxTimeout > 0 {
			c.Timeout = min(c.Timeout, lim.MaxTimeout)
		}
		if !(c.Tolerance >= 0) {
			return fmt.Errorf("%s.tolerance: must be >= 0", at)
		}
	}
	return nil
}

// Write puts the suite's files into dir (the target, the helpers, the test
// file) and returns the target's path and the suite an engine runs, for
// sandbox.Options.
func (s *Suite) Write(dir string) (target string, suite *fitness.Suite, err error) {
	target = filepath.Join(dir, s.Module+".py")
	if err := os.WriteFile(target, []byte(s.Original), 0o644); err != nil {
		return "", nil, err
	}
	names := make([]string, 0, len(s.Files))
	for name := range s.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s.Files[name]), 0o644); err != nil {
			return "", nil, err
		}
	}
	suite = &fitness.Suite{
		Path:     filepath.Join(dir, "suite.json"),
		Function: s.Function,
		MemoryMB: s.MemoryMB,
		Cases:    s.Cases,
	}
	if s.TestSource != "" {
		suite.Path = filepath.Join(dir, s.TestFile)
		suite.TestSource = []byte(s.TestSource)
		suite.TestModule = s.TestModule
		if err := os.WriteFile(suite.Path, suite.TestSource, 0o644); err != nil {
			return "", nil, err
		}
	}
	return target, suite, nil
}

// checkFileName accepts the base name of an importable module.
func checkFileName(name string) error {
	mod, ok := strings.CutSuffix(name, ".py")
	if !ok || !isIdentifier(mod) {
		return fmt.Errorf("%q is not the file name of a Python module", name)
	}
	return nil
}

// isIdentifier reports whether s is a module name a server accepts: an
// identifier of at most 255 bytes.
func isIdentifier(s string) bool { return len(s) <= 255 && pymod.Identifier(s) }
