package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/remote"
)

// ExecRequest is ExecEval's JobData: the body of POST /api/execute_code.
// Keys beyond these are ignored, as ExecEval ignores them.
type ExecRequest struct {
	Language   string         `json:"language"`
	SourceCode string         `json:"source_code"`
	Unittests  []ExecUnittest `json:"unittests"`
	// Limits are ExecEval's ResourceLimits (RLIMIT_* values; _as and fsize
	// in bytes, cpu in seconds). Only cpu and _as are used here: the
	// sandbox sets the others itself. -1 means the server's maximum.
	Limits map[string]float64 `json:"limits"`
	// BlockNetwork is always in force: candidates never have a network.
	BlockNetwork bool `json:"block_network"`
	// StopOnFirstFail (default true) reports no verdict for the unit
	// tests after the first that does not pass, as ExecEval does.
	StopOnFirstFail bool `json:"stop_on_first_fail"`
	// CompileCmd, CompileFlags, ExecuteCmd, ExecuteFlags and UseSanitizer
	// are accepted and ignored: each runtime runs its engine.
	CompileCmd   *string `json:"compile_cmd"`
	CompileFlags *string `json:"compile_flags"`
	ExecuteCmd   *string `json:"execute_cmd"`
	ExecuteFlags *string `json:"execute_flags"`
	UseSanitizer bool    `json:"use_sanitizer"`
}

// ExecUnittest is ExecEval's ExtendedUnittest: the request gives Input and
// Output (the accepted outputs; a run passes when its output equals one
// of them), the answer adds the rest.
type ExecUnittest struct {
	Input  string   `json:"input"`
	Output []string `json:"output"`
	// Result is what ExecEval puts here (the program's output or error
	// text): for a case that did not pass, the reason (the first line
	// that differs, the exception, the compile error); nil when it passed
	// or did not run.
	Result *string `json:"result"`
	// ExecOutcome is the verdict name; nil when the test did not run
	// (stop_on_first_fail).
	ExecOutcome *string `json:"exec_outcome"`
	// TimeConsumed is the wall time of the run in seconds; nil when it
	// did not run.
	TimeConsumed *float64 `json:"time_consumed"`
	// PeakMemoryConsumed is ExecEval's "NNN kB"; the engines do not
	// measure it, so it is always nil.
	PeakMemoryConsumed *string `json:"peak_memory_consumed"`
}

// ExecResponse is the answer of POST /api/execute_code.
type ExecResponse struct {
	Data []ExecUnittest `json:"data"`
}

// limitKeys are the fields of ExecEval's ResourceLimits.
var limitKeys = []string{"core", "data", "fsize", "sigpending", "rss", "nofile", "msgqueue", "rtprio", "stack", "cpu", "nproc", "_as", "locks"}

// unittestKeys are the fields of ExecEval's ExtendedUnittest.
var unittestKeys = []string{"input", "output", "result", "exec_outcome", "time_consumed", "peak_memory_consumed"}

// ExecEval's defaults for ResourceLimits.cpu and _as.
const (
	defaultCPU = 2
	defaultAS  = 2 << 30
)

// parseExecRequest decodes and checks a body as ExecEval's JobData. Its
// errors are one line naming the field.
func parseExecRequest(data []byte) (*ExecRequest, error) {
	var top map[string]json.RawMessage
	if err := decodeObject(data, &top); err != nil {
		return nil, err
	}
	req := &ExecRequest{StopOnFirstFail: true, BlockNetwork: true}
	str := func(key string, dst *string) error {
		raw, ok := top[key]
		if !ok || isNull(raw) {
			return nil
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("%s: must be a string", key)
		}
		return nil
	}
	optStr := func(key string, dst **string) error {
		raw, ok := top[key]
		if !ok || isNull(raw) {
			return nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("%s: must be a string or null", key)
		}
		*dst = &s
		return nil
	}
	boolean := func(key string, dst *bool) error {
		raw, ok := top[key]
		if !ok {
			return nil
		}
		if isNull(raw) { // ExecEval reads null as false
			*dst = false
			return nil
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("%s: must be true or false", key)
		}
		return nil
	}
	for _, err := range []error{
		str("language", &req.Language),
		optStr("compile_cmd", &req.CompileCmd), optStr("compile_flags", &req.CompileFlags),
		optStr("execute_cmd", &req.ExecuteCmd), optStr("execute_flags", &req.ExecuteFlags),
		boolean("block_network", &req.BlockNetwork), boolean("stop_on_first_fail", &req.StopOnFirstFail),
		boolean("use_sanitizer", &req.UseSanitizer),
	} {
		if err != nil {
			return nil, err
		}
	}
	if req.Language == "" {
		return nil, errors.New("Language must be selected to execute a code.")
	}
	raw, ok := top["source_code"]
	if !ok || isNull(raw) {
		return nil, errors.New("source_code: required")
	}
	if err := json.Unmarshal(raw, &req.SourceCode); err != nil {
		return nil, errors.New("source_code: must be a string")
	}
	raw, ok = top["unittests"]
	if !ok || isNull(raw) {
		return nil, errors.New("unittests: required")
	}
	var uts []json.RawMessage
	if err := json.Unmarshal(raw, &uts); err != nil {
		return nil, errors.New("unittests: must be an array of objects")
	}
	if len(uts) == 0 {
		return nil, errors.New("unittests: at least one unit test is required")
	}
	req.Unittests = make([]ExecUnittest, len(uts))
	for i, raw := range uts {
		ut, err := parseUnittest(raw)
		if err != nil {
			return nil, fmt.Errorf("unittests[%d]%s", i, err)
		}
		req.Unittests[i] = ut
	}
	if raw, ok := top["limits"]; ok && !isNull(raw) {
		var lim map[string]json.RawMessage
		if err := decodeObject(raw, &lim); err != nil {
			return nil, errors.New("limits: must be an object")
		}
		req.Limits = map[string]float64{}
		for k, v := range lim {
			if !slices.Contains(limitKeys, k) {
				return nil, fmt.Errorf("limits.%s: unknown limit (valid: %s)", k, strings.Join(limitKeys, ", "))
			}
			var f float64
			if err := json.Unmarshal(v, &f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, fmt.Errorf("limits.%s: must be a number", k)
			}
			req.Limits[k] = f
		}
	}
	return req, nil
}

func parseUnittest(raw json.RawMessage) (ExecUnittest, error) {
	var ut ExecUnittest
	var m map[string]json.RawMessage
	if err := decodeObject(raw, &m); err != nil {
		return ut, errors.New(": must be an object")
	}
	for k := range m {
		if !slices.Contains(unittestKeys, k) {
			return ut, fmt.Errorf(".%s: unknown key (valid: input, output)", k)
		}
	}
	in, ok := m["input"]
	if !ok {
		return ut, errors.New(".input: required")
	}
	if err := json.Unmarshal(in, &ut.Input); err != nil || isNull(in) {
		return ut, errors.New(".input: must be a string")
	}
	if out, ok := m["output"]; ok && !isNull(out) {
		if err := json.Unmarshal(out, &ut.Output); err != nil {
			return ut, errors.New(".output: must be an array of strings")
		}
	}
	ut.Input = crlfToLF(ut.Input)
	for j := range ut.Output {
		ut.Output[j] = crlfToLF(ut.Output[j])
	}
	if ut.Output == nil {
		ut.Output = []string{}
	}
	return ut, nil
}

// decodeObject decodes one JSON object (and nothing after it) into v.
func decodeObject(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return errors.New("the body is empty: want a JSON object")
	}
	if data[0] != '{' {
		return errors.New("the body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid JSON: %v", err)
	}
	if dec.More() {
		return errors.New("invalid JSON: more after the object")
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func crlfToLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// execModule is the module name of an ExecEval program (it runs as
// __main__ anyway).
const execModule = "solution"

// execSpec turns a request into a suite: one I/O case per accepted output
// of each unit test (a unit test without outputs gets one case that only
// runs it), and the case's time limit is limits.cpu times the runtime's
// factor, capped by the server.
func (s *Server) execSpec(req *ExecRequest, rt Runtime) (*spec, [][]int, error) {
	cpu, ok := req.Limits["cpu"]
	if !ok {
		cpu = defaultCPU
	}
	timeout := s.opts.MaxTime
	if cpu > 0 {
		// Whole milliseconds: 0.3 × 3 is 0.9, not 0.8999999999999999.
		timeout = min(math.Round(cpu*rt.TimelimitFactor*1000)/1000, s.opts.MaxTime)
		timeout = max(timeout, 0.001)
	}
	as, ok := req.Limits["_as"]
	if !ok {
		as = defaultAS
	}
	memMB := s.opts.MaxMemoryMB
	if as > 0 {
		memMB = min(max(int(math.Ceil(as/(1<<20))), 1), s.opts.MaxMemoryMB)
	}
	suite := &remote.Suite{Module: execModule, MemoryMB: memMB}
	groups := make([][]int, len(req.Unittests))
	for i, ut := range req.Unittests {
		in := ut.Input
		outs := ut.Output
		if len(outs) == 0 {
			outs = []string{""}
		}
		for j := range outs {
			c := fitness.Case{
				Name: fmt.Sprintf("unittests[%d]", i), Kind: fitness.IO, Stdin: &in,
				Weight: 1, Timeout: timeout, Tolerance: fitness.DefaultTolerance, OutputRule: "execeval",
			}
			if len(ut.Output) > 0 {
				c.Stdout = &ut.Output[j]
				c.Name = fmt.Sprintf("unittests[%d].output[%d]", i, j)
			}
			groups[i] = append(groups[i], len(suite.Cases))
			suite.Cases = append(suite.Cases, c)
		}
	}
	if len(suite.Cases) > s.opts.MaxCases {
		return nil, nil, fmt.Errorf("unittests: %d outputs to check, more than the server's maximum of %d", len(suite.Cases), s.opts.MaxCases)
	}
	raw, err := json.Marshal(suite)
	if err != nil {
		return nil, nil, err
	}
	return &spec{key: rt.Engine + "/" + remote.SuiteID(raw), runtime: rt.Engine, suite: suite, size: len(raw)}, groups, nil
}

func execCode(string) string { return "" }

func (s *Server) executeCode(w http.ResponseWriter, r *http.Request) {
	data, ok := s.readBody(w, r, execCode)
	if !ok {
		return
	}
	defer s.adm.leave()
	req, err := parseExecRequest(data)
	if err != nil {
		writeError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	rt, ok := s.runtimeByName(req.Language)
	if !ok {
		writeError(w, http.StatusBadRequest, "", fmt.Sprintf("Support for %s is not implemented.", req.Language))
		return
	}
	sp, groups, err := s.execSpec(req, rt)
	if err != nil {
		writeError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	// With stop_on_first_fail, nothing after a timed-out case is
	// reported, so it need not run (a looping program costs one time
	// limit, not one per unit test).
	ro := sandbox.RunOptions{AbandonAfterTimeout: req.StopOnFirstFail}
	out, _, err := s.evaluate(r.Context(), epExecute, sp, []byte(crlfToLF(req.SourceCode)), ro)
	if err != nil {
		s.evalError(w, r, err, execCode)
		return
	}
	w.Header().Set("X-Repair-Runtime", rt.Describe)
	resp := execAnswer(req, groups, out)
	for _, ut := range resp.Data {
		if ut.ExecOutcome != nil {
			s.m.verdicts.WithLabelValues(epExecute, *ut.ExecOutcome).Inc()
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

// execAnswer maps an outcome back to the unit tests: a unit test passes
// when one of its outputs' cases passed; otherwise its verdict and reason
// are its first case's. A unit test without outputs that runs cleanly is a
// wrong answer, as in ExecEval (no output matches).
func execAnswer(req *ExecRequest, groups [][]int, out *fitness.Outcome) *ExecResponse {
	if out.CompileError != "" {
		v := fitness.CompilationError.String()
		msg := out.CompileError
		return &ExecResponse{Data: []ExecUnittest{{Input: "", Output: []string{}, Result: &msg, ExecOutcome: &v}}}
	}
	resp := &ExecResponse{Data: make([]ExecUnittest, len(req.Unittests))}
	stopped := false
	for i, ut := range req.Unittests {
		d := ExecUnittest{Input: ut.Input, Output: ut.Output}
		if !stopped {
			first := out.Results[groups[i][0]]
			verdict, secs, detail := first.Verdict, first.Seconds, first.Detail
			for _, k := range groups[i] {
				if out.Results[k].Verdict == fitness.Passed {
					verdict, secs, detail = fitness.Passed, out.Results[k].Seconds, ""
					break
				}
			}
			if len(ut.Output) == 0 && verdict == fitness.Passed {
				verdict, detail = fitness.WrongAnswer, "no expected output to match"
			}
			v := verdict.String()
			d.ExecOutcome, d.TimeConsumed = &v, &secs
			if verdict != fitness.Passed {
				if detail == "" {
					detail = strings.ToLower(strings.ReplaceAll(v, "_", " "))
				}
				d.Result = &detail
				stopped = req.StopOnFirstFail
			}
		}
		resp.Data[i] = d
	}
	return resp
}
