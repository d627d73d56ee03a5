package cpython

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// commonPlugins are the pytest plugins users commonly have installed, by
// the module each imports as: Debian's python3-pytest-mock,
// python3-flaky, python3-pytest-cov, python3-pytest-timeout,
// python3-pytest-xdist, python3-hypothesis and python3-pytest-asyncio,
// which .ci/run installs.
var commonPlugins = []string{"pytest_mock", "flaky", "pytest_cov", "pytest_timeout", "xdist", "hypothesis", "pytest_asyncio"}

// pytestWithPlugins is an interpreter with pytest and every one of
// commonPlugins; the test is skipped without one (CI installs them all:
// there it fails).
func pytestWithPlugins(t *testing.T) *Interpreter {
	t.Helper()
	py := realPytest(t)
	var missing []string
	for _, m := range commonPlugins {
		if exec.Command(py.Path, "-c", "import "+m).Run() != nil {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s lacks the plugins %v (.ci/run installs them)", py.Path, missing)
		}
		t.Skipf("%s lacks the plugins %v", py.Path, missing)
	}
	return py
}

// TestPytestPluginsReuse: with the common plugins installed, a child
// serves one candidate after another as it does without them, since
// none of them acts on a plain test's run (flaky reruns only a test that
// asks for it, pytest-timeout times only a test a timeout applies to,
// hypothesis and pytest-asyncio wrap only their own tests, xdist acts
// only with -n); where a plugin does act on every test (a timeout
// configured, --force-flaky), every candidate runs in a fresh process
// and one line of stderr names the plugin; so it does what else keeps
// the tests from sharing a child (a module the tool cannot check,
// mutable state). Either way every candidate's
// verdicts are those of a fresh child that imports and collects it
// whole.
func TestPytestPluginsReuse(t *testing.T) {
	py := pytestWithPlugins(t)
	const stack = `class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("empty")
        return self.items.pop(0)

    def peek(self):
        return self.items[-1] if self.items else None
`
	const tests = `import pytest

from stack import Stack


def test_pop():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2


def test_peek():
    s = Stack()
    s.push(3)
    assert s.peek() == 3


def test_empty():
    with pytest.raises(IndexError):
        Stack().pop()


@pytest.mark.parametrize("n", [1, 2])
def test_peek_last(n):
    s = Stack()
    for i in range(n):
        s.push(i)
    assert s.peek() == n - 1
`
	// A test of the plugin's own goes through pytest's runner (a mark
	// makes no test plain), and so ends its child: no reuse, and nothing
	// to say of the plugin.
	const flakyTest = tests + `

@pytest.mark.flaky(max_runs=2)
def test_flaky():
    assert Stack().peek() is None
`
	candidates := [][]edit{
		{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}},
		{{op: program.ReplaceText, stmt: "return self.items[-1] if self.items else None", site: "-1", text: "0"}},
		{{op: program.ReplaceText, stmt: "return self.items.pop(0)", site: "0", text: "-1"}},
		{{op: program.ReplaceText, stmt: "self.items.append(item)", site: "item", text: "None"}},
	}
	for _, tt := range []struct {
		name, ini, tests string
		reuse            bool   // whether a child serves several candidates
		notice           string // what stderr says, or "" for nothing
	}{
		{"no option", "[pytest]\n", tests, true, ""},
		{"a test marked flaky", "[pytest]\n", flakyTest, false, ""},
		// A __future__ import tells the compiler something and leaves no
		// state: the tests are isolated as without it.
		{"a test file with a __future__ import", "[pytest]\n", "from __future__ import annotations\n\n" + tests, true, ""},
		// What keeps every candidate from a reused child, named.
		{"a test file that imports hypothesis", "[pytest]\n", tests + "\n\nfrom hypothesis import given, strategies as st\n", false,
			"repair: the tests may leave state for one another (test_stack.py imports hypothesis): every candidate runs, in a fresh process, the tests that reach its edit and those the original fails; the delivered fix runs them all\n"},
		{"a module-level list", "[pytest]\n", tests + "\n\nSEEN = []\n", false,
			"repair: the tests may leave state for one another (test_stack.SEEN is mutable state): every candidate runs, in a fresh process, the tests that reach its edit and those the original fails; the delivered fix runs them all\n"},
		{"a timeout for every test", "[pytest]\ntimeout = 30\n", tests, false,
			"repair: pytest plugin timeout acts on every test's run: every candidate runs in a fresh process (slower)\n"},
		{"every test flaky", "[pytest]\naddopts = --force-flaky\n", tests, false,
			"repair: pytest plugin flaky acts on every test's run: every candidate runs in a fresh process (slower)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"pytest.ini": tt.ini, "stack.py": stack, "test_stack.py": tt.tests})
			t.Chdir(dir)
			suite, err := fitness.Load("test_stack.py")
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			opts := sandbox.Options{Suite: suite, Target: filepath.Join(dir, "stack.py"), Python: py.Path, Workers: 1,
				Env: sandbox.Environment{Standard: true}}
			o := opts
			o.Stderr = &stderr
			e := newTestEngine(t, o, config{})
			fresh := newTestEngine(t, opts, config{noReuse: true})
			p, err := program.Parse("stack.py", []byte(stack))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for k, edits := range candidates {
				src, ch := p.RenderChange(patchOf(t, p, edits))
				got, err := e.Run(ctx, src, sandbox.RunOptions{Change: &ch})
				if err != nil {
					t.Fatal(err)
				}
				full, err := fresh.Run(ctx, src, sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(briefs(got), briefs(full)) {
					t.Errorf("candidate %d: %v\nin a fresh child, whole: %v", k, briefs(got), briefs(full))
				}
			}
			if reused := e.Stats().Reused; (reused > 0) != tt.reuse {
				t.Errorf("%d candidates ran in a child that served another; want reuse: %v (%+v)", reused, tt.reuse, e.Stats().FreshForks)
			}
			var notes []string
			for _, line := range strings.SplitAfter(stderr.String(), "\n") {
				if strings.Contains(line, "pytest plugin") || strings.Contains(line, "state for one another") {
					notes = append(notes, line)
				}
			}
			if got := strings.Join(notes, ""); got != tt.notice {
				t.Errorf("stderr says %q; want %q", got, tt.notice)
			}
		})
	}
}
