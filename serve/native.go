package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"repair/sandbox"
	"repair/sandbox/remote"
)

func nativeCode(c string) string { return c }

// parseEvaluate decodes and checks a native request.
func parseEvaluate(data []byte) (*remote.EvaluateRequest, []byte, error) {
	var req remote.EvaluateRequest
	if err := decodeStrict(data, &req); err != nil {
		return nil, nil, err
	}
	if req.SuiteID == "" && len(req.Suite) == 0 {
		return nil, nil, errors.New("suite_id or suite: one is required")
	}
	if len(req.Suite) > 0 && isNull(req.Suite) {
		return nil, nil, errors.New("suite: must be an object")
	}
	if !(req.Timeout >= 0) || req.Timeout > 1e6 {
		return nil, nil, errors.New("timeout: must be a number of seconds >= 0")
	}
	var src []byte
	switch {
	case req.Source != nil && req.SourceBase64 != nil:
		return nil, nil, errors.New("source and source_base64: give one")
	case req.Source != nil:
		src = []byte(*req.Source)
	case req.SourceBase64 != nil:
		src = req.SourceBase64
	default:
		return nil, nil, errors.New("source or source_base64: one is required")
	}
	return &req, src, nil
}

// decodeStrict decodes one JSON object with no unknown keys.
func decodeStrict(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return errors.New("the body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid request: %v", err)
	}
	if dec.More() {
		return errors.New("invalid JSON: more after the object")
	}
	return nil
}

func (s *Server) evaluateNative(w http.ResponseWriter, r *http.Request) {
	data, ok := s.readBody(w, r, nativeCode)
	if !ok {
		return
	}
	defer s.adm.leave()
	req, src, err := parseEvaluate(data)
	if err != nil {
		writeError(w, http.StatusBadRequest, remote.CodeBadRequest, err.Error())
		return
	}
	rt, ok := s.engineRuntime(req.Engine)
	if !ok {
		var have []string
		for _, rt := range s.runtimes {
			have = append(have, rt.Engine)
		}
		writeError(w, http.StatusBadRequest, remote.CodeEngine, fmt.Sprintf("engine %q is not available here (have %v)", req.Engine, have))
		return
	}
	var sp *spec
	if len(req.Suite) > 0 {
		id := remote.SuiteID(req.Suite)
		if req.SuiteID != "" && req.SuiteID != id {
			writeError(w, http.StatusBadRequest, remote.CodeBadRequest, "suite_id: not the SHA-256 of suite")
			return
		}
		key := rt.Engine + "/" + id
		if sp = s.specs.get(key); sp == nil {
			var suite remote.Suite
			if err := decodeStrict(req.Suite, &suite); err != nil {
				writeError(w, http.StatusBadRequest, remote.CodeBadRequest, "suite: "+err.Error())
				return
			}
			if err := suite.Check(s.limits); err != nil {
				writeError(w, http.StatusBadRequest, remote.CodeBadRequest, "suite: "+err.Error())
				return
			}
			sp = s.specs.add(&spec{key: key, runtime: rt.Engine, suite: &suite, size: len(req.Suite)})
		}
	} else if sp = s.specs.get(rt.Engine + "/" + req.SuiteID); sp == nil {
		writeError(w, http.StatusNotFound, remote.CodeUnknownSuite, "unknown suite "+req.SuiteID+": send the suite with the request")
		return
	}
	ro := sandbox.RunOptions{
		Coverage: req.Coverage, AbandonAfterTimeout: req.AbandonAfterTimeout,
		Timeout: time.Duration(req.Timeout * float64(time.Second)),
		Cases:   sandbox.CaseRange{First: req.First, End: req.End},
	}
	out, desc, err := s.evaluate(r.Context(), epEvaluate, sp, src, ro)
	if err != nil {
		s.evalError(w, r, err, nativeCode)
		return
	}
	for _, res := range out.Results {
		s.m.verdicts.WithLabelValues(epEvaluate, res.Verdict.String()).Inc()
	}
	writeJSON(w, http.StatusOK, remote.EvaluateResponse{SuiteID: sp.key[len(rt.Engine)+1:], Engine: desc, Outcome: out})
}
