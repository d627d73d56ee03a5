package cpython

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// slowProject writes a project whose package pkg imports, from its
// __init__, n modules that each run body at import, and a pytest file of
// the target pkg/util.py; it returns the target and the test file.
func slowProject(t *testing.T, n int, body string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pkg/util.py":  "def double(x):\n    return x + x\n",
		"test_util.py": "from pkg.util import double\n\n\ndef test_two():\n    assert double(1) == 2\n\n\ndef test_four():\n    assert double(2) == 4\n",
	}
	var init strings.Builder
	for i := range n {
		fmt.Fprintf(&init, "from . import slow%d\n", i)
		files[fmt.Sprintf("pkg/slow%d.py", i)] = body
	}
	files["pkg/__init__.py"] = init.String()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "pkg", "util.py"), filepath.Join(dir, "test_util.py")
}

// TestStartLiveness: a server's start has no fixed bound. One that keeps
// progressing (here its package loads a module every few tenths of a
// second, for longer than the window of silence allowed) starts; one that
// sleeps or spins in place while it imports is given up after the window,
// with one line that names what it was doing.
func TestStartLiveness(t *testing.T) {
	py := realPytest(t)
	const quiet = 3 * StartQuiet / 60 // 3s: the window of silence, shrunk
	tests := []struct {
		name    string
		modules int
		body    string // each module's
		stuck   bool
	}{
		// 15 × 0.3 s: half again the window, in steps of a tenth of it.
		{name: "progressing imports", modules: 15, body: "import time\ntime.sleep(0.3)\n"},
		{name: "an import that sleeps", modules: 2, body: "import time\ntime.sleep(3600)\n", stuck: true},
		{name: "an import that spins", modules: 2, body: "while True:\n    pass\n", stuck: true},
		{name: "an import that waits for input", modules: 1, body: "import os\nr, w = os.pipe()\nos.read(r, 1)\n", stuck: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tgt, tests := slowProject(t, tc.modules, tc.body)
			suite, err := fitness.Load(tests)
			if err != nil {
				t.Fatal(err)
			}
			e, err := newEngine(context.Background(), sandbox.Options{Suite: suite, Target: tgt, Python: py.Path, Workers: 1}, config{startQuiet: quiet})
			if tc.stuck {
				if err == nil {
					e.Close()
					t.Fatal("the engine started")
				}
				msg := err.Error()
				want := "cpython: the harness made no progress for 3s while importing and collecting the test file test_util.py"
				if msg != want {
					t.Errorf("error:\n%s\nwant:\n%s", msg, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			// Each candidate imports the package again, in its
			// children, as slowly: what the test asks is that it ran.
			src, _ := os.ReadFile(tgt)
			out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Results) != 2 {
				t.Fatalf("%d results, want the 2 tests", len(out.Results))
			}
			for i, r := range out.Results {
				if r.Verdict == fitness.RuntimeError {
					t.Errorf("case %d: %v %s", i, r.Verdict, r.Detail)
				}
			}
		})
	}
}
