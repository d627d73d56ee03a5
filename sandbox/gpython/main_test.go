package gpython

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	Init()
	os.Exit(m.Run())
}

// middleSuite decodes examples/middle/tests.json minimally (the real loader
// is package fitness's).
func middleSuite(t testing.TB) (target string, suite *fitness.Suite) {
	t.Helper()
	dir := filepath.Join("..", "..", "examples", "middle")
	data, err := os.ReadFile(filepath.Join(dir, "tests.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Function string `json:"function"`
		Tests    []struct {
			Args     json.RawMessage `json:"args"`
			Expected json.RawMessage `json:"expected"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	suite = &fitness.Suite{Path: filepath.Join(dir, "tests.json"), Function: raw.Function, MemoryMB: 512}
	for _, tc := range raw.Tests {
		suite.Cases = append(suite.Cases, fitness.Case{
			Kind: fitness.Call, Function: raw.Function, Args: tc.Args, Expected: tc.Expected,
			Weight: 1, Timeout: 2, Tolerance: 1e-9,
		})
	}
	return filepath.Join(dir, "middle.py"), suite
}

// newTestEngine starts an engine and closes it when the test ends.
func newTestEngine(t testing.TB, opts sandbox.Options, cfg config) *Engine {
	t.Helper()
	if opts.Workers == 0 {
		opts.Workers = 1
	}
	e, err := newEngine(context.Background(), opts, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
