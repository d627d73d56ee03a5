package cpython

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// treeProject is a project as a developer has it: a src/ layout, package
// data, an ini file whose option changes a verdict, a conftest fixture,
// fixtures read relative to the test file and to the directory pytest
// runs in, and tests that need HOME, TMPDIR and PATH.
var treeProject = map[string]string{
	"pytest.ini":                "[pytest]\nxfail_strict = true\n",
	"src/greet/__init__.py":     "from .core import greeting\n",
	"src/greet/data/words.json": `{"en": "Hello", "fr": "Bonjour"}`,
	"src/greet/core.py": `import json
import os
import shutil

DATA = os.path.join(os.path.dirname(__file__), "data", "words.json")


def greeting(lang, name):
    with open(DATA) as f:
        words = json.load(f)
    return "%s, %s!" % (words.get(lang, words["en"]), name)


def save(text):
    d = os.path.join(os.environ["HOME"], ".config", "greet")
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, "last.txt")
    with open(p, "w") as f:
        f.write(text)
    return p


def have_shell():
    return shutil.which("sh") is not None
`,
	"tests/conftest.py": `import pytest


@pytest.fixture
def lang():
    return "fr"
`,
	"tests/fixtures/cases.json": `[{"lang": "fr", "name": "Ann", "want": "Bonjour, Ann!"}]`,
	"tests/test_greet.py": `import json
import os
import pathlib
import tempfile

import pytest

from greet import greeting
from greet.core import have_shell, save

HERE = pathlib.Path(__file__).parent


def test_fixture_file():
    for c in json.loads((HERE / "fixtures" / "cases.json").read_text()):
        assert greeting(c["lang"], c["name"]) == c["want"]


def test_relative_to_cwd():
    assert os.path.exists("tests/fixtures/cases.json")


def test_conftest(lang):
    assert greeting(lang, "Bo") == "Bonjour, Bo!"


def test_home():
    p = save("hi")
    assert p.startswith(os.environ["HOME"]) and open(p).read() == "hi"


def test_tmpdir(tmp_path):
    with tempfile.NamedTemporaryFile("w") as f:
        assert f.name.startswith(os.environ["TMPDIR"])
    (tmp_path / "x").write_text("1")


def test_path():
    assert have_shell()


def test_environment():
    assert os.environ["LANG"] == "C.UTF-8" and os.environ["TZ"] == "UTC"
    assert os.environ["PYTHONHASHSEED"] == "0"


@pytest.mark.xfail(reason="passes: strict in pytest.ini makes it fail")
def test_strict():
    assert True
`,
}

// writeTree writes files under a fresh directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeDigest is every file and directory under dir with its mode and
// content hash: what must not change.
func treeDigest(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			out = append(out, p+": "+err.Error())
			return nil
		}
		fi, _ := d.Info()
		line := fmt.Sprintf("%s %v", p, fi.Mode())
		if d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		out = append(out, line)
		return nil
	})
	sort.Strings(out)
	return out
}

// TestProjectTree: a project's tests run in its whole tree, read-only,
// from the directory pytest runs in, with the standard environment: data
// files, ini options, conftest files, HOME, TMPDIR and PATH work as under
// plain pytest, with namespaces and without (where the tree is a copy).
// Nothing of the tree is written.
func TestProjectTree(t *testing.T) {
	py := realPytest(t)
	for _, noNS := range []bool{false, true} {
		t.Run(fmt.Sprintf("namespaces=%v", !noNS), func(t *testing.T) {
			dir := writeTree(t, treeProject)
			before := treeDigest(t, dir)
			t.Chdir(dir)
			suite, err := fitness.Load(filepath.Join("tests", "test_greet.py"))
			if err != nil {
				t.Fatal(err)
			}
			target := filepath.Join("src", "greet", "core.py")
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path, Env: sandbox.Environment{Standard: true}},
				config{noNamespaces: noNS})
			src, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for i, c := range suite.Cases {
				got[c.Name] = out.Results[i].Verdict.String()
				if out.Results[i].Verdict != fitness.Passed {
					got[c.Name] += ": " + out.Results[i].Detail
				}
			}
			want := map[string]string{}
			for _, name := range []string{"fixture_file", "relative_to_cwd", "conftest", "home", "tmpdir", "path", "environment"} {
				want["tests/test_greet.py::test_"+name] = "PASSED"
			}
			want["tests/test_greet.py::test_strict"] = "WRONG_ANSWER: [XPASS(strict)] passes: strict in pytest.ini makes it fail"
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			e.Close()
			if diff := cmp.Diff(before, treeDigest(t, dir)); diff != "" {
				t.Errorf("the project's tree changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestPackageInit: a package's __init__.py can be the target: the package
// is the candidate, its submodules import from beside it.
func TestPackageInit(t *testing.T) {
	py := realPytest(t)
	dir := writeTree(t, map[string]string{
		"tab/__init__.py": "from .fmt import pad\n\ndef table(rows):\n    return [pad(r) for r in rows][1:]\n",
		"tab/fmt.py":      "def pad(s):\n    return '[' + s + ']'\n",
		"test/test_tab.py": "import tab\nfrom tab import table\n\ndef test_table():\n    assert table(['a', 'b']) == ['[a]', '[b]']\n\n" +
			"def test_package():\n    assert tab.__path__ and tab.__file__.endswith('__init__.py')\n",
	})
	t.Chdir(dir)
	suite, err := fitness.Load("test/test_tab.py")
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: "tab/__init__.py", Python: py.Path}, config{})
	fixed := "from .fmt import pad\n\ndef table(rows):\n    return [pad(r) for r in rows]\n"
	for _, tt := range []struct {
		src  string
		want []fitness.Verdict
	}{
		{"from .fmt import pad\n\ndef table(rows):\n    return [pad(r) for r in rows][1:]\n", []fitness.Verdict{fitness.WrongAnswer, fitness.Passed}},
		{fixed, []fitness.Verdict{fitness.Passed, fitness.Passed}},
	} {
		out, err := e.Run(context.Background(), []byte(tt.src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []fitness.Verdict
		for _, r := range out.Results {
			got = append(got, r.Verdict)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: verdicts (-want +got):\n%s\n%+v", tt.src, diff, out.Results)
		}
	}
}

// TestPlainPytest: plain pytest in the sandbox gives each test's outcome
// and recognises what in the sandbox made a test fail, the same whether
// it runs when asked or started with the engine (Options.Parity).
func TestPlainPytest(t *testing.T) {
	for _, parity := range []bool{false, true} {
		t.Run(fmt.Sprintf("parity=%v", parity), func(t *testing.T) { testPlainPytest(t, parity) })
	}
}

func testPlainPytest(t *testing.T, parity bool) {
	py := realPytest(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{
		"m.py": "def f():\n    return 1\n",
		"test_m.py": fmt.Sprintf(`import os, socket
import pytest
from m import f

def test_pass():
    assert f() == 1

def test_fail():
    assert f() == 2

def test_env():
    assert os.environ["REPAIR_PLAIN_VAR"]

def test_file():
    open(%q).read()

def test_write():
    open("written.txt", "w").write("x")

def test_network():
    socket.create_connection(("127.0.0.1", 9), timeout=1)

def test_skips_itself():
    pytest.skip("not here")

@pytest.mark.skip(reason="marked")
def test_marked():
    assert False
`, outside),
	})
	t.Chdir(dir)
	suite, err := fitness.Load("test_m.py")
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: "m.py", Python: py.Path, Env: sandbox.Environment{Standard: true}, Parity: parity}, config{})
	if (e.plain != nil) != parity {
		t.Errorf("plain pytest started with the engine: %v, want %v", e.plain != nil, parity)
	}
	run, err := e.PlainPytest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Outcome string
		Cause   Cause
	}
	got := map[string]row{}
	for _, tt := range run.Tests {
		r := row{Outcome: tt.Outcome}
		if tt.Cause != nil {
			r.Cause = *tt.Cause
		}
		got[strings.TrimPrefix(tt.ID, "test_m.py::")] = r
	}
	want := map[string]row{
		"test_pass":         {Outcome: "passed"},
		"test_fail":         {Outcome: "failed"},
		"test_env":          {Outcome: "failed", Cause: Cause{Kind: "env", Name: "REPAIR_PLAIN_VAR"}},
		"test_file":         {Outcome: "failed", Cause: Cause{Kind: "file", Path: outside}},
		"test_write":        {Outcome: "failed", Cause: Cause{Kind: "readonly", Path: filepath.Join(dir, "written.txt")}},
		"test_network":      {Outcome: "failed", Cause: Cause{Kind: "network"}},
		"test_skips_itself": {Outcome: "skipped"},
		"test_marked":       {Outcome: "passed"},
	}
	if !e.Confinement().PrivateRoot {
		t.Skipf("no private root: %v", e.Confinement())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("plain pytest (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "written.txt")); err == nil {
		t.Errorf("plain pytest wrote into the project's tree")
	}
}

// TestPlainPytestClosed: an engine closed while the plain pytest run it
// started (Options.Parity) still runs ends it: no process is left, and
// PlainPytest says the run did not finish.
func TestPlainPytestClosed(t *testing.T) {
	py := realPytest(t)
	dir := writeTree(t, map[string]string{
		"m.py":      "def f():\n    return 1\n",
		"test_m.py": "import time\nfrom m import f\n\ndef test_slow():\n    time.sleep(30)\n    assert f() == 1\n",
	})
	t.Chdir(dir)
	suite, err := fitness.Load("test_m.py")
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(context.Background(), sandbox.Options{Suite: suite, Target: "m.py", Python: py.Path, Workers: 1, Env: sandbox.Environment{Standard: true}, Parity: true}, config{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Close took %v: it waited for the sleeping test", took)
	}
	if run, err := e.PlainPytest(context.Background()); err == nil {
		t.Errorf("PlainPytest after Close: no error, want the run's end (started: %v, run %+v)", e.plain != nil, run)
	}
	if left := descendants(os.Getpid()); len(left) > 0 {
		t.Errorf("processes left after Close: %v", left)
	}
}
