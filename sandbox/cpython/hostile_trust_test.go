package cpython

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// testFileDir writes a target and its test file into a fresh directory
// and returns the target's path and the loaded suite.
func testFileDir(t *testing.T, target, test string) (string, *fitness.Suite) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"cand.py": target, "test_cand.py": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite, err := fitness.Load(filepath.Join(dir, "test_cand.py"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "cand.py"), suite
}

// TestHostileCollection: a target that ends the process while pytest
// collects the tests is bad input naming the target (exit code 2), as
// sys.exit and pytest.exit on import are, never a failure of the sandbox.
func TestHostileCollection(t *testing.T) {
	py := realPytest(t)
	test := "from cand import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
	for _, tt := range []struct {
		name, src, want string
	}{
		{"os._exit on import", "import os\nos._exit(0)\n", "importing cand.py or test_cand.py ended the process (exit status 0"},
		{"SIGKILL on import", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "importing cand.py or test_cand.py ended the process (it was killed by signal 9)"},
		{"sys.exit on import", "import sys\nsys.exit(0)\n", "SystemExit: 0 (line 2)"},
		{"pytest.exit on import", "import pytest\npytest.exit('bye')\n", "bye"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tgt, suite := testFileDir(t, tt.src, test)
			_, err := newEngine(context.Background(), sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path}, config{})
			if err == nil || !inputerr.Is(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v; want bad input with %q", err, tt.want)
			}
		})
	}
}
