package cpython

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// codeCacheProject is a package whose target, pkg/util.py, uses a helper
// module of the package; compiles() counts the compilations of the
// helper's source when it is imported afresh, as each case imports it.
var codeCacheProject = map[string]string{
	"pkg/__init__.py": "from . import helper\n",
	"pkg/helper.py":   "def scale(x):\n    return x * 10\n",
	"pkg/util.py": `from pkg import helper


def f(x):
    return helper.scale(x) + 1


def compiles():
    import importlib
    import sys

    seen = []
    sys.addaudithook(lambda ev, args: seen.append(args[1]) if ev == "compile" else None)
    sys.modules.pop("pkg.helper", None)
    importlib.import_module("pkg.helper")
    return sum(1 for f in seen if isinstance(f, str) and f.endswith("helper.py"))


def loader():
    import inspect

    t = type(helper.__loader__)
    return [t.__module__ + "." + t.__qualname__, inspect.getsource(helper.scale).split("\n")[0],
            helper.__file__.endswith("/pkg/helper.py")]
`,
}

// TestCodeCache: the server compiles the project's modules once, and
// each case that imports them afresh runs that code (no compilation of
// its own) as the interpreter's loader would have run it; a candidate's
// change of the target is never shadowed by the original's code; and
// nothing is written into the project.
func TestCodeCache(t *testing.T) {
	python(t)
	dir := t.TempDir()
	for name, text := range codeCacheProject {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tgt := filepath.Join(dir, "pkg", "util.py")
	orig := codeCacheProject["pkg/util.py"]
	changed := strings.Replace(orig, "helper.scale(x) + 1", "helper.scale(x) + 2", 1)
	loaderWant := `["_frozen_importlib_external.SourceFileLoader", "def scale(x):", true]`
	tests := []struct {
		name     string
		cfg      config
		src      string
		compiles string // compiles()'s answer
		f        fitness.Verdict
	}{
		{name: "the original", src: orig, compiles: "0", f: fitness.Passed},
		{name: "a candidate that changes the target", src: changed, compiles: "0", f: fitness.WrongAnswer},
		{name: "the original after it", src: orig, compiles: "0", f: fitness.Passed},
		{name: "without the cache", cfg: config{noCodeCache: true}, src: orig, compiles: "1", f: fitness.Passed},
	}
	var e *Engine
	var cfg *config
	top := t
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if cfg == nil || *cfg != tc.cfg {
				cfg = &tc.cfg
				suite := &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{
					call("f", "[3]", "31"), call("compiles", "", tc.compiles), call("loader", "", loaderWant),
				}}
				e = newTestEngine(top, sandbox.Options{Suite: suite, Target: tgt}, tc.cfg)
			}
			out, err := e.Run(context.Background(), []byte(tc.src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r := out.Results[0]; r.Verdict != tc.f {
				t.Errorf("f(3): %v %s, want %v", r.Verdict, r.Detail, tc.f)
			}
			for _, r := range out.Results[1:] {
				if r.Verdict != fitness.Passed {
					t.Errorf("%v %s", r.Verdict, r.Detail)
				}
			}
		})
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "__pycache__" {
			t.Errorf("%s: written into the project", p)
		}
		return nil
	})
}
