package cpython

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// verifyTagsScript runs the check's comparison of the test machinery
// (verify.quick) on a module of its own, once per row: a change made
// between two comparisons, with the dicts' version tags read (TAG) and
// without. It prints whether this interpreter's tags can be read, and
// per row and mode what quick said after the change, then after a
// second, plain change of the function f.
const verifyTagsScript = `import json, os, sys, types
sys.argv = ["-c", "3", "4"]  # what protocol.py reads
sys.path.insert(0, os.environ["H_DIR"])
from h import verify

SETUP = """
def f():
    return 1

def g():
    return 2

class K:
    def run(self):
        return 3

data = 1
"""
rows = json.loads(sys.stdin.read())
tag = verify.make_tag()
out = {"tag": tag is not None, "rows": {}}
for name, change in rows:
    said = []
    for mode in (tag, None):
        verify.TAG = mode
        m = types.ModuleType("mach")
        exec(SETUP, m.__dict__)
        snap = verify.snapshot([m], True)
        first = verify.quick(snap)
        exec(change, {"m": m, "verify": verify})
        after = verify.quick(snap)
        m.f = lambda: 0
        said.append([first, after, verify.quick(snap)])
    out["rows"][name] = said
print(json.dumps(out))
`

// TestVerifyTags: the check of a delivered fix compares the test
// machinery after every test by the dicts' version tags where the
// interpreter's can be read (CPython 3.8 to 3.13, which change a dict's
// tag at every change), and names every change as it does without them:
// a change made in any way, a change undone within the test (nothing to
// name), and a change after one undone.
func TestVerifyTags(t *testing.T) {
	py := python(t)
	rows := []struct {
		name, change string
		want         any // what quick says after the change (nil: nothing)
	}{
		{"nothing", "pass", nil},
		{"data changed", "m.data = 2", nil},
		{"function replaced", "m.f = lambda: 0", "f of mach"},
		{"function added", "m.h = lambda: 0", "h of mach"},
		{"function deleted", "del m.g", "g of mach"},
		{"set through the dict", "vars(m)['g'] = len", "g of mach"},
		{"stored as a global", "exec('def f(): return 0', vars(m))", "f of mach"},
		{"setdefault", "vars(m).setdefault('h', len)", "h of mach"},
		{"update", "vars(m).update(g=len)", "g of mach"},
		{"method replaced", "m.K.run = lambda self: 0", "run of K"},
		{"method added", "m.K.walk = lambda self: 0", "walk of K"},
		{"data made code", "m.data = len", "data of mach"},
		{"changed and changed back", "f = m.f\nm.f = len\nm.f = f", nil},
		{"key swapped", "f = m.f\ndel m.f\nm.f = f", nil},
		{"code swapped", "m.f.__code__ = m.g.__code__", "the code of f"},
	}
	var in [][2]string
	for _, r := range rows {
		in = append(in, [2]string{r.name, r.change})
	}
	var got struct {
		Tag  bool
		Rows map[string][2][3]any
	}
	harnessScript(t, py, verifyTagsScript, in, &got)
	if !got.Tag {
		t.Errorf("%s (Python %s): the dicts' version tags are not read", py.Path, py.Version)
	}
	for _, r := range rows {
		said := got.Rows[r.name]
		for mode, s := range said {
			how := []string{"with tags", "without tags"}[mode]
			if s[0] != nil {
				t.Errorf("%s, %s: quick found %v before any change", r.name, how, s[0])
			}
			if s[1] != r.want {
				t.Errorf("%s, %s: quick said %v; want %v", r.name, how, s[1], r.want)
			}
			if want := "f of mach"; r.want == nil && s[2] != want {
				t.Errorf("%s, %s: after a second change quick said %v; want %v", r.name, how, s[2], want)
			}
		}
	}
}

// TestCheckOriginalEq: an object the target returns to a test fails the
// check when its class compares by an __eq__ the original's class does
// not define; the original's classes are read from its source however it
// spells the method (a name Python normalises, NFKC, included).
func TestCheckOriginalEq(t *testing.T) {
	py := realPytest(t)
	const test = "from cand import make\n\n\ndef test_make():\n    assert make(1) == make(1)\n"
	for _, row := range []struct {
		name, original, candidate string
		want                      fitness.Verdict
	}{
		{"defined", "class P:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n        return self.v == o.v\n\ndef make(v):\n    return P(v + 1)\n", "", fitness.Passed},
		{"assigned", "def _eq(a, b):\n    return a.v == b.v\n\nclass P:\n    __eq__ = _eq\n    def __init__(self, v):\n        self.v = v\n\ndef make(v):\n    return P(v + 1)\n", "", fitness.Passed},
		{"spelled in full-width letters", "class P:\n    def __init__(self, v):\n        self.v = v\n    def __\uff45q__(self, o):\n        return self.v == o.v\n\ndef make(v):\n    return P(v + 1)\n", "", fitness.Passed},
		{"added by the candidate", "class P:\n    def __init__(self, v):\n        self.v = v\n\ndef make(v):\n    return P(v + 1)\n",
			"class P:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n        return True\n\ndef make(v):\n    return P(v + 1)\n", fitness.RuntimeError},
	} {
		t.Run(row.name, func(t *testing.T) {
			tgt, suite := testFileDir(t, row.original, test)
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path, Verify: true}, config{noSplit: true})
			src := row.candidate
			if src == "" {
				src = row.original
			}
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r := out.Results[0]; r.Verdict != row.want {
				t.Errorf("%v (%s); want %v", r.Verdict, r.Detail, row.want)
			}
		})
	}
}

// harnessScript runs a Python script on the harness's modules
// (harnessPackage) with in as its standard input, JSON, and decodes what
// it prints, JSON, into out.
func harnessScript(t *testing.T, py *Interpreter, script string, in, out any) {
	t.Helper()
	dir := harnessPackage(t)
	stdin, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py.Path, "-s", "-S", "-B", "-c", script)
	cmd.Env = []string{"H_DIR=" + dir}
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(string(stdin))
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal(got, out); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
}

// harnessPackage writes the harness's modules into a fresh directory as
// the package h (scripts import them with H_DIR on sys.path and sys.argv
// as the bootstrap's) and returns the directory.
func harnessPackage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "h")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := fs.ReadDir(harnessFS, "harness")
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range ents {
		src, err := fs.ReadFile(harnessFS, "harness/"+ent.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, ent.Name()), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
