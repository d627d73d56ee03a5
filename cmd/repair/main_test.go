package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"repair/sandbox"
	"repair/sandbox/cpython"
	"repair/sandbox/gpython"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	gpython.Init()
	testscript.Main(m, map[string]func(){
		"repair": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the end-to-end scripts of testdata/script with the real
// command. $EXAMPLES is the repository's examples folder.
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			// The engine resolves python3 on PATH; keep the user's PATH.
			env.Setenv("PATH", os.Getenv("PATH"))
			if home := os.Getenv("HOME"); home != "" {
				env.Setenv("HOME", home)
			}
			// The interpreter with pytest, for scripts that compare with
			// plain pytest.
			if py := pytestPython(); py != "" {
				env.Setenv("PYTEST_PYTHON", py)
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "python":
				_, err := exec.LookPath("python3")
				return err == nil, nil
			case "root":
				return os.Geteuid() == 0, nil
			case "pytest":
				return havePytest(), nil
			case "pytest_mock":
				// Debian's python3-pytest-mock: the mocker fixture.
				py := pytestPython()
				return py != "" && exec.Command(py, "-c", "import pytest_mock").Run() == nil, nil
			}
			return false, nil
		},
	})
}

// havePytest reports whether python3, or the system python3, has pytest:
// the cpython engine then runs test files under it.
func havePytest() bool { return pytestPython() != "" }

// pytestPython is python3, or the system python3, when it has pytest.
func pytestPython() string {
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		py, err := cpython.FindPython(context.Background(), name)
		if err == nil && cpython.FindPytest(context.Background(), py) != nil {
			return py.Path
		}
	}
	return ""
}
