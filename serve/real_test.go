package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/sandbox"
	"repair/sandbox/cpython"
)

// newRealServer starts a Server on the real engines, or skips without a
// CPython.
func newRealServer(t testing.TB, opts Options) *Server {
	t.Helper()
	if _, err := cpython.FindPython(context.Background(), ""); errors.Is(err, sandbox.ErrNoPython) {
		t.Skipf("no python3: %v", err)
	}
	if opts.Workers == 0 {
		opts.Workers = 2
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// execRequestJSON builds an ExecEval request.
func execRequestJSON(src string, cpu float64, stop bool, tests ...[2]string) string {
	type ut struct {
		Input  string   `json:"input"`
		Output []string `json:"output"`
	}
	req := struct {
		Language        string         `json:"language"`
		SourceCode      string         `json:"source_code"`
		Unittests       []ut           `json:"unittests"`
		Limits          map[string]any `json:"limits"`
		StopOnFirstFail bool           `json:"stop_on_first_fail"`
	}{Language: "Python 3", SourceCode: src, Limits: map[string]any{"cpu": cpu, "nofile": 4}, StopOnFirstFail: stop}
	for _, t := range tests {
		req.Unittests = append(req.Unittests, ut{t[0], []string{t[1]}})
	}
	data, _ := json.Marshal(req)
	return string(data)
}

// TestExecEvalRealVerdicts runs ExecEval requests on CPython: ordinary
// and hostile programs get ExecEval's verdicts.
func TestExecEvalRealVerdicts(t *testing.T) {
	s := newRealServer(t, Options{Queue: 16})
	h := s.Handler()
	sum := "a, b = map(int, input().split())\nprint(a + b)\n"
	tests := []struct {
		name  string
		src   string
		tests [][2]string
		want  []string
	}{
		{"passed", sum, [][2]string{{"1 2\n", "3"}, {"10 -3", "7\n"}}, []string{"PASSED", "PASSED"}},
		{"floats within tolerance", "print(0.1 + 0.2)", [][2]string{{"", "0.3"}}, []string{"PASSED"}},
		{"wrong answer", sum, [][2]string{{"1 2", "3"}, {"2 2", "5"}}, []string{"PASSED", "WRONG_ANSWER"}},
		// ExecEval's rules (fitness.ExecEvalDifference): lines, then tokens.
		{"nan matches nan as text", "print(float('nan'))", [][2]string{{"", "nan"}}, []string{"PASSED"}},
		{"YES matches yes", "print('YES')", [][2]string{{"", "yes"}}, []string{"PASSED"}},
		{"other words keep case", "print('Hello')", [][2]string{{"", "hello"}}, []string{"WRONG_ANSWER"}},
		{"tokens across lines", "print(1)\nprint(2)", [][2]string{{"", "1 2"}}, []string{"PASSED"}},
		{"floats: absolute 1e-12", "print(1e12 + 0.01)", [][2]string{{"", "1000000000000"}}, []string{"WRONG_ANSWER"}},
		{"runtime error", "print(1 // int(input()))", [][2]string{{"1", "1"}, {"0", "0"}}, []string{"PASSED", "RUNTIME_ERROR"}},
		{"exit code", "import sys\nprint(1)\nsys.exit(3)", [][2]string{{"", "1"}}, []string{"RUNTIME_ERROR"}},
		{"exit zero", "import sys\nprint(1)\nsys.exit(0)", [][2]string{{"", "1"}}, []string{"PASSED"}},
		{"os._exit", "import os\nos._exit(1)", [][2]string{{"", "1"}}, []string{"RUNTIME_ERROR"}},
		{"compilation error", "def f(:\n", [][2]string{{"", "1"}, {"", "2"}}, []string{"COMPILATION_ERROR"}},
		{"time limit", "while True: pass", [][2]string{{"", "1"}}, []string{"TIME_LIMIT_EXCEEDED"}},
		{"sleep", "import time\ntime.sleep(30)", [][2]string{{"", "1"}}, []string{"TIME_LIMIT_EXCEEDED"}},
		{"memory", "x = bytearray(10**11)", [][2]string{{"", "1"}}, []string{"MEMORY_LIMIT_EXCEEDED"}},
		{"huge output", "while True: print('x' * 1000)", [][2]string{{"", "1"}}, []string{"WRONG_ANSWER", "TIME_LIMIT_EXCEEDED"}},
		{"network", "import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=1)\nprint(1)", [][2]string{{"", "1"}}, []string{"RUNTIME_ERROR"}},
		{"fork bomb", "import os\nwhile True:\n    os.fork()", [][2]string{{"", "1"}}, []string{"RUNTIME_ERROR", "TIME_LIMIT_EXCEEDED"}},
		{"stops on first fail", sum, [][2]string{{"1 1", "3"}, {"1 2", "3"}}, []string{"WRONG_ANSWER", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, h, "POST", "/api/execute_code", execRequestJSON(tt.src, 0.5, true, tt.tests...))
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var resp ExecResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ut := range resp.Data {
				if ut.ExecOutcome == nil {
					got = append(got, "")
				} else {
					got = append(got, *ut.ExecOutcome)
				}
			}
			// A want of two verdicts for one unit test lists the
			// acceptable ones (hostile programs may end either way).
			if len(tt.tests) == 1 && len(tt.want) == 2 {
				if len(got) != 1 || (got[0] != tt.want[0] && got[0] != tt.want[1]) {
					t.Errorf("verdicts %v, want one of %v: %s", got, tt.want, rec.Body)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("verdicts mismatch (-want +got):\n%s\n%s", diff, rec.Body)
			}
		})
	}
	live, _ := s.pool.stats()
	if live > s.opts.Instances {
		t.Errorf("%d instances alive, more than %d", live, s.opts.Instances)
	}
}

// TestNativeRealCoverage: the native endpoint answers coverage of a
// call suite on CPython.
func TestNativeRealCoverage(t *testing.T) {
	s := newRealServer(t, Options{Queue: 4})
	body := `{"suite": {"module": "m", "memory_mb": 256, "cases": [` +
		`{"name": "a", "kind": "call", "function": "f", "args": [1], "expected": 2, "weight": 1, "timeout": 2, "tolerance": 1e-9},` +
		`{"name": "b", "kind": "call", "function": "f", "args": [-1], "expected": 1, "weight": 1, "timeout": 2, "tolerance": 1e-9}]},` +
		`"source": "def f(x):\n    if x > 0:\n        return 2 * x\n    return 0\n", "coverage": true}`
	rec := do(t, s.Handler(), "POST", "/api/v1/evaluate", body)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var resp struct {
		Outcome struct {
			Results []struct {
				Verdict string
				Lines   []int
			}
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(resp.Outcome.Results)
	want := "[{PASSED [1 2 3]} {WRONG_ANSWER [1 2 4]}]"
	if got != want {
		t.Errorf("results %s, want %s", got, want)
	}
	if !strings.Contains(rec.Body.String(), `"engine":"cpython `) {
		t.Errorf("no engine description: %s", rec.Body)
	}
}

// TestExecEvalRuntimeNames: every Python runtime name of ExecEval gets
// verdicts (not a 400), each answer names what ran it, and a time limit
// scales by that name's factor.
func TestExecEvalRuntimeNames(t *testing.T) {
	s := newRealServer(t, Options{Queue: 16})
	h := s.Handler()
	for _, name := range []string{"Python 3", "Python 3 + libs", "PyPy 3", "PyPy 3-64", "Python 2", "PyPy 2"} {
		t.Run(name, func(t *testing.T) {
			body := `{"language": "` + name + `", "source_code": "print(int(input()) * 2)", "unittests": [{"input": "21", "output": ["42"]}]}`
			rec := do(t, h, "POST", "/api/execute_code", body)
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"exec_outcome":"PASSED"`) {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			ran := rec.Header().Get("X-Repair-Runtime")
			if !strings.HasPrefix(ran, "cpython ") || (name != "Python 3" && !strings.Contains(ran, "standing in for "+name)) {
				t.Errorf("X-Repair-Runtime: %q", ran)
			}
		})
	}
	// Python 2 syntax does not run on the CPython 3 that stands in.
	rec := do(t, h, "POST", "/api/execute_code", `{"language": "Python 2", "source_code": "print 42", "unittests": [{"input": "", "output": ["42"]}]}`)
	if !strings.Contains(rec.Body.String(), `"exec_outcome":"COMPILATION_ERROR"`) {
		t.Errorf("Python 2 print statement: %s", rec.Body)
	}
}
