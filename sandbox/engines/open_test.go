package engines

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"repair/internal/inputerr"
	"repair/sandbox"
	"repair/sandbox/cpython"
	"repair/sandbox/enginetest"
	"repair/sandbox/gpython"
)

// TestMain lets the test binary act as the sandbox shim and as a gpython
// worker.
func TestMain(m *testing.M) {
	sandbox.Init()
	gpython.Init()
	os.Exit(m.Run())
}

// needPython skips without a CPython 3.8 or newer.
func needPython(t *testing.T) {
	t.Helper()
	_, err := cpython.FindPython(context.Background(), "")
	if errors.Is(err, sandbox.ErrNoPython) {
		t.Skipf("no python3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// open opens the named engine for enginetest.CapabilitySuite, saying
// what it says on stderr.
func open(t *testing.T, name, src string, stderr *bytes.Buffer) (sandbox.Engine, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cand.py")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Open(context.Background(), name, sandbox.Options{Suite: enginetest.CapabilitySuite(), Target: p, Workers: 1, Stderr: stderr})
	if err == nil {
		t.Cleanup(func() { e.Close() })
	}
	return e, err
}

// TestOpen: each name opens its engine, which says what it can do, and
// says on stderr what it chose; an unknown name is bad input.
func TestOpen(t *testing.T) {
	needPython(t)
	cpythonCaps := []string{"Describer", "Sizer", "Grower", "PlainPytester", "Executable", "Counter", "Featurer"}
	local := sandbox.Features{Lenient: true, Environ: true, Verify: true}
	tests := []struct {
		name       string
		claims     enginetest.Claims
		describe   string // a regexp
		wantStderr string // a regexp; "" for nothing
	}{
		{"auto", enginetest.Claims{Name: "cpython", Capabilities: cpythonCaps, Features: local},
			`^cpython 3\.\d+\.\d+\S* \(isolation: `, `^repair: --engine auto: cpython 3\.\d+`},
		{"cpython", enginetest.Claims{Name: "cpython", Capabilities: cpythonCaps, Features: local},
			`^cpython 3\.\d+\.\d+\S* \(isolation: `, ""},
		{"gpython", enginetest.Claims{Name: "gpython", Capabilities: []string{"Describer", "Sizer"}},
			`^gpython \(embedded, a Python 3\.4 subset; isolation: `, ""},
		// The hybrid engine does what its judge does, but for running a
		// test file under the real pytest: its search does not.
		{"hybrid", enginetest.Claims{Name: "hybrid", Capabilities: []string{"Describer", "Counter", "Featurer"}, Features: local},
			`^hybrid: gpython searches, cpython 3\.\d+\.\d+\S* \(isolation: [^)]*\) validates$`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			e, err := open(t, tt.name, enginetest.CapabilitySource, &stderr)
			if err != nil {
				t.Fatal(err)
			}
			enginetest.Capabilities(t, e, tt.claims)
			if d := sandbox.Describe(e); !regexp.MustCompile(tt.describe).MatchString(d) {
				t.Errorf("Describe = %q, want %s", d, tt.describe)
			}
			if tt.wantStderr == "" && stderr.Len() > 0 || !regexp.MustCompile(tt.wantStderr).MatchString(stderr.String()) {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.wantStderr)
			}
		})
	}

	t.Run("unknown", func(t *testing.T) {
		_, err := open(t, "pypy", enginetest.CapabilitySource, &bytes.Buffer{})
		if !inputerr.Is(err) || err.Error() != `--engine: unknown engine "pypy" (want [auto cpython gpython hybrid])` {
			t.Errorf("err = %v, want a bad-input error naming the engines", err)
		}
	})
}

// TestOpenHybridCPythonAlone: a program gpython cannot run gets CPython
// alone under --engine hybrid, said on stderr; --engine gpython refuses
// it as bad input.
func TestOpenHybridCPythonAlone(t *testing.T) {
	needPython(t)
	const walrus = "def f(x):\n    if (y := x * 2):\n        return y\n    return 0\n"
	var stderr bytes.Buffer
	e, err := open(t, "hybrid", walrus, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "cpython" {
		t.Errorf("Name() = %q, want cpython alone", e.Name())
	}
	if !regexp.MustCompile(`^repair: --engine hybrid: .*; searching on CPython alone\n$`).MatchString(stderr.String()) {
		t.Errorf("stderr %q, want the fallback said", stderr.String())
	}
	if _, err := open(t, "gpython", walrus, &bytes.Buffer{}); !inputerr.Is(err) {
		t.Errorf("gpython on a walrus: err = %v, want bad input", err)
	}
}
