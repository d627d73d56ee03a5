package cpython

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// Pytest is a pytest an interpreter can import.
type Pytest struct {
	// Version is pytest.__version__.
	Version string
	// Paths are the sys.path entries pytest and the plugins it loads by
	// default come from (site.py adds them; the sandbox runs without it).
	Paths []string
}

// pytestProbe imports pytest as the harness will, with the plugins of
// entry points (group pytest11) as plain pytest loads them, and prints its
// version and the sys.path entries of every module that import brought in
// (an empty version when pytest does not import), then the directories
// whose contents decide that answer: every sys.path entry and the
// directory holding it (a package installed, a .pth file, a site
// directory made, changes one of them).
const pytestProbe = `import os, sys
before = set(sys.modules)
watched = set()
for p in sys.path:
    p = os.path.abspath(p or os.curdir)
    watched.add(p)
    watched.add(os.path.dirname(p))
try:
    import pytest, _pytest.config, _pytest.main, _pytest.runner
except ImportError:
    print()
    print()
    print("\0".join(sorted(watched)))
    sys.exit(0)
for n in _pytest.config.default_plugins:
    try:
        __import__("_pytest." + n)
    except ImportError:
        pass
try:
    import importlib.metadata as md
    eps = md.entry_points()
    eps = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", ())
    for ep in eps:
        try:
            ep.load()
        except Exception:
            pass
except Exception:
    pass
entries = sorted({os.path.abspath(p) for p in sys.path if p}, key=len, reverse=True)
paths = set()
for name, m in list(sys.modules.items()):
    f = getattr(m, "__file__", None)
    if name in before or not isinstance(f, str):
        continue
    f = os.path.abspath(f)
    for p in entries:
        if f.startswith(p + os.sep):
            paths.add(p)
            break
print(pytest.__version__)
print("\0".join(sorted(paths)))
print("\0".join(sorted(watched)))`

// pytestFound is FindPytest's answer for one interpreter, once a probe
// ran to its end (mu held while one runs: engines opened at once, the
// search's and the check's, probe once).
type pytestFound struct {
	mu   sync.Mutex
	done bool
	pt   *Pytest
}

var (
	pytestMu    sync.Mutex
	pytestFinds = map[string]*pytestFound{}
)

// FindPytest reports the pytest py can import, or nil when it has none.
// The answer is kept for the process's life, as FindPython's, and in the
// cache directory (pytestKey) while the directories the probe names are
// as they were: the probe imports pytest and its plugins (0.1-0.2 s of
// CPU, before anything else of a run of a test file can start), and every
// engine a repair of a test file opens (the search's, the check of
// delivered fixes') asks.
func FindPytest(ctx context.Context, py *Interpreter) *Pytest {
	pytestMu.Lock()
	f := pytestFinds[py.Path]
	if f == nil {
		f = &pytestFound{}
		pytestFinds[py.Path] = f
	}
	pytestMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.done {
		pt, final := probePytest(ctx, py)
		if !final {
			return pt
		}
		f.done, f.pt = true, pt
	}
	if f.pt == nil {
		return nil
	}
	pt := *f.pt
	pt.Paths = slices.Clone(f.pt.Paths)
	return &pt
}

// probePytest reads the kept probe, or runs it (and keeps it); final is
// false when ctx ended it (the answer is then not kept).
func probePytest(ctx context.Context, py *Interpreter) (pt *Pytest, final bool) {
	key := pytestKey(py.Path)
	if key != "" {
		if pt, ok := keptPytest(key); ok {
			return pt, true
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py.Path, "-s", "-B", "-c", pytestProbe)
	cmd.Env = []string{"PYTHONHASHSEED=0"}
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, false
	}
	if err != nil {
		return nil, true
	}
	pt, watched := parsePytestProbe(out)
	if key != "" {
		keepPytest(key, out, watched)
	}
	return pt, true
}

// pytestKey names the kept pytest probe of the interpreter at p: by what
// names its interpreter probe (probeKey), the probe itself and the
// directory it runs from (sys.path's first entry); "" when there is none.
func pytestKey(p string) string {
	k := probeKey(p)
	if k == "" {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return cacheKey("pytest", []byte(k), []byte(pytestProbe), []byte(wd))
}

// keptProbe is a kept pytest probe: its output and the stamps of the
// directories it named.
type keptProbe struct {
	Out    []byte            `json:"out"`
	Stamps map[string]string `json:"stamps"`
}

// dirStamp is what changes when a directory's entries change (its device,
// inode, modification and change times), or "" when it cannot be read.
func dirStamp(dir string) (stamp string, recent bool) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "-", false // (a directory that does not exist must not appear)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d:%d", st.Dev, st.Ino, fi.ModTime().UnixNano(), st.Ctim.Nano()), time.Since(fi.ModTime()) < 2*time.Second
}

// keepPytest keeps the probe's output with the stamps of the directories
// it watched, unless one changed too lately to tell a change during the
// probe from one before it.
func keepPytest(key string, out []byte, watched []string) {
	k := keptProbe{Out: out, Stamps: map[string]string{}}
	for _, d := range watched {
		stamp, recent := dirStamp(d)
		if stamp == "" || recent {
			return
		}
		k.Stamps[d] = stamp
	}
	if data, err := json.Marshal(k); err == nil {
		writeCache(key, data)
	}
}

// keptPytest is the kept answer of key while every directory it watched
// is as it was.
func keptPytest(key string) (*Pytest, bool) {
	data := readCache(key)
	if data == nil {
		return nil, false
	}
	var k keptProbe
	if json.Unmarshal(data, &k) != nil || len(k.Stamps) == 0 {
		return nil, false
	}
	for d, stamp := range k.Stamps {
		if now, _ := dirStamp(d); now == "" || now != stamp {
			return nil, false
		}
	}
	pt, watched := parsePytestProbe(k.Out)
	if len(watched) != len(k.Stamps) {
		return nil, false
	}
	return pt, true
}

// parsePytestProbe reads the probe's output: the version (none: no
// pytest), the paths, the directories it watched.
func parsePytestProbe(out []byte) (*Pytest, []string) {
	lines := strings.SplitN(strings.TrimRight(string(out), "\n"), "\n", 3)
	var watched []string
	if len(lines) == 3 {
		for _, d := range strings.Split(lines[2], "\x00") {
			if d != "" && filepath.IsAbs(d) {
				watched = append(watched, d)
			}
		}
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) == "" {
		return nil, watched
	}
	pt := &Pytest{Version: strings.TrimSpace(lines[0])}
	for _, p := range strings.Split(lines[1], "\x00") {
		if p != "" && filepath.IsAbs(p) {
			pt.Paths = append(pt.Paths, p)
		}
	}
	return pt, watched
}

// systemPythons are interpreters tried for pytest when the chosen one has
// none and the user did not name one: Debian's python3-pytest installs
// pytest for the system interpreter only.
var systemPythons = []string{"/usr/bin/python3"}

// choosePytest picks the interpreter and pytest that run a test-file
// suite: the engine's interpreter when it has pytest, else (when the user
// named none) a system one that has; nil when none has pytest.
func (e *Engine) choosePytest(ctx context.Context) (*Interpreter, *Pytest) {
	if pt := FindPytest(ctx, e.python); pt != nil {
		return e.python, pt
	}
	if e.opts.Python != "" {
		return nil, nil
	}
	for _, name := range systemPythons {
		py, err := FindPython(ctx, name)
		if err != nil || py.Path == e.python.Path {
			continue
		}
		if pt := FindPytest(ctx, py); pt != nil {
			return py, pt
		}
	}
	return nil, nil
}

// rewrites keeps the test files' assertions as pytest rewrote them in the
// first server of a run that rewrote them (0.1 s of a server's start for a
// file of 100 tests), for the servers that start after it: by interpreter
// and test file (rewriteKey), the JSON the server gave ({"key", "code"}:
// what the rewriting depends on, digested, and the marshalled code). A
// server says what it rewrote before it runs any candidate (in its hello,
// or the collection's list), and uses what it is given only when the key
// is its own file's, pytest's and interpreter's (real_pytest.py).
var rewrites sync.Map // rewriteKey → json.RawMessage

// rewriteKey names a test file's rewriting in rewrites.
func (e *Engine) rewriteKey() string {
	return e.python.Path + "\x00" + fitness.KeyOf(e.opts.Suite.TestSource).String()
}

// keepRewrite keeps what a server rewrote (nil: nothing).
func (e *Engine) keepRewrite(r json.RawMessage) {
	if len(r) > 0 && e.pytest != nil {
		rewrites.Store(e.rewriteKey(), r)
	}
}

// sharedRewrite is the rewriting kept for the engine's test file, or nil.
func (e *Engine) sharedRewrite() json.RawMessage {
	if e.pytest == nil {
		return nil
	}
	if v, ok := rewrites.Load(e.rewriteKey()); ok {
		return v.(json.RawMessage)
	}
	return nil
}

// collected is what the harness lists in collect mode.
type collected struct {
	Items []struct {
		ID    string `json:"id"`
		Line  int    `json:"line"`
		XFail bool   `json:"xfail"`
		Skip  bool   `json:"skip"`
	} `json:"items"`
	Error     *string         `json:"error"`
	Rewritten json.RawMessage `json:"rewritten"`
}

// ErrCollectedNothing is sandbox.ErrCollectedNothing.
var ErrCollectedNothing = sandbox.ErrCollectedNothing

// collect runs pytest's collection once, in the sandbox, with the original
// target, and returns one Test case per item pytest collects (its node
// id, e.g. "test_m.py::TestX::test_y[2-3]").
func (e *Engine) collect(module string) ([]fitness.Case, error) {
	msg, err := e.suiteMessage(module, nil, true)
	if err != nil {
		return nil, err
	}
	s, kind, payload, err := e.startWith(msg, nil)
	if err != nil {
		return nil, err
	}
	defer s.kill()
	if kind != msgList {
		return nil, fmt.Errorf("cpython: collecting the tests: unexpected message %q: %.200s", kind, payload)
	}
	var c collected
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, fmt.Errorf("cpython: collecting the tests: %v", err)
	}
	e.keepRewrite(c.Rewritten)
	suite := e.opts.Suite
	name := filepath.Base(suite.Path)
	if len(c.Items) == 0 {
		why := "no tests"
		if c.Error != nil {
			why = *c.Error
		}
		return nil, inputerr.Wrap(fmt.Errorf("%s: %w: %s%s", suite.Path, ErrCollectedNothing, why, e.envHint(why)))
	}
	if c.Error != nil {
		fmt.Fprintf(e.opts.Stderr, "repair: %s: pytest: %s (the other tests run)\n", name, *c.Error)
	}
	cases := make([]fitness.Case, 0, len(c.Items))
	for _, it := range c.Items {
		cases = append(cases, fitness.Case{
			Name: it.ID, Kind: fitness.Test, Function: it.ID, Line: it.Line, XFail: it.XFail, Skip: it.Skip,
			Weight: fitness.DefaultWeight, Timeout: suite.DefaultCaseTimeout(), Tolerance: fitness.DefaultTolerance,
		})
	}
	return cases, nil
}

// keyError finds the key of a KeyError in pytest's collection error.
var keyError = regexp.MustCompile(`KeyError: '([A-Za-z_][A-Za-z0-9_]*)'`)

// envHint names the flag when a collection error is a KeyError for a
// variable that is set in the tool's environment but not the candidates'.
func (e *Engine) envHint(why string) string {
	m := keyError.FindStringSubmatch(why)
	if m == nil {
		return ""
	}
	if _, ok := os.LookupEnv(m[1]); !ok {
		return ""
	}
	for _, kv := range e.opts.Env.Build("", "") {
		if strings.HasPrefix(kv, m[1]+"=") {
			return ""
		}
	}
	return fmt.Sprintf(" (the environment variable %s is set here but not passed to the candidates: --pass-env %s)", m[1], m[1])
}

// pytestNotice says which pytest runs the tests, once, and when it is
// another interpreter's than py's, that this one runs the candidates too.
func pytestNotice(py, chosen *Interpreter, pt *Pytest) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "repair: pytest %s runs the tests", pt.Version)
	if chosen.Path != py.Path {
		fmt.Fprintf(&b, " and the candidates with %s (Python %s): %s (Python %s) has no pytest", chosen.Path, chosen.Version, py.Path, py.Version)
	}
	return b.String()
}

// keepFailing keeps the cases the original's run out (every case of the
// original, none skipped) does not pass, for withFailing: up to its first
// time-out, which is not kept (a candidate that does not reach that case
// would time out there too, at the cost of its cap, and the search
// abandons it there: repair/select.go leaves it and the cases after it
// out of the selection).
func (e *Engine) keepFailing(out *fitness.Outcome) {
	failing := make([]bool, len(out.Results))
	for i, r := range out.Results {
		if r.Verdict == fitness.TimeLimitExceeded {
			break
		}
		failing[i] = r.Verdict != fitness.Passed
	}
	e.failing.Store(&failing)
}

// withFailing is a candidate's selection sel (sandbox.RunOptions.Select)
// as the harness gets it: under pytest the cases the original fails are
// run too. A candidate whose tests may leave state for one another (a
// session that is not isolated, or code that stores state: the harness
// then runs the selection in a fresh child, collected.keeps_isolation)
// may change what a failing test sees through the tests before it rather
// than through the edit, and the failing tests are the search's signal;
// the other cases keep the original's results, and the validation of a
// delivered fix runs them all. In an isolated session they are the
// original's verdicts anyway and are seldom not reached. sel as it is
// without pytest or before the original ran every case.
func (e *Engine) withFailing(sel []bool) []bool {
	f := e.failing.Load()
	if e.pytest == nil || f == nil || len(*f) != len(sel) {
		return sel
	}
	out := slices.Clone(sel)
	for i, bad := range *f {
		out[i] = out[i] || bad
	}
	return out
}

// noticed holds the notices said once per process and writer: the
// search's engine and the overfitting guard's start servers of the same
// suite, whose hellos say the same.
var noticed sync.Map

// noteSlowPath says, once, what keeps a test file's candidates from the
// fast path, as the server's hello tells it, and what that costs: the
// pytest plugins that act on the run of tests that are plain but for
// them (by name, how many of the items it collected once), and why the
// tests may leave state for one another (notIsolated; then neither a
// reused child nor test selection applies).
func (e *Engine) noteSlowPath(plugins map[string]int, notIsolated string) {
	var msgs []string
	if notIsolated != "" {
		msgs = append(msgs, fmt.Sprintf("repair: the tests may leave state for one another (%s): every candidate runs, in a fresh process, the tests that reach its edit and those the original fails; the delivered fix runs them all", notIsolated))
	}
	for _, name := range slices.Sorted(maps.Keys(plugins)) {
		if n := plugins[name]; n >= e.nCases {
			msgs = append(msgs, fmt.Sprintf("repair: pytest plugin %s acts on every test's run: every candidate runs in a fresh process (slower)", name))
		} else {
			msgs = append(msgs, fmt.Sprintf("repair: pytest plugin %s acts on the runs of %d of %d tests: a candidate that runs them runs in a fresh process (slower)", name, n, e.nCases))
		}
	}
	w := e.opts.Stderr
	for _, msg := range msgs {
		if t := reflect.TypeOf(w); t != nil && t.Comparable() {
			if _, said := noticed.LoadOrStore(struct {
				w   io.Writer
				msg string
			}{w, msg}, true); said {
				continue
			}
		}
		fmt.Fprintln(w, msg)
	}
}
