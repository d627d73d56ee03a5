package cpython

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// splitScript runs a test file with the code under test in a process of
// its own (see split.py); plain.py follows it, and runs pytest in the
// tests' process.
//
//go:embed split.py
var splitScript string

// maxSplitFiles bounds the project files copied for the code under test.
const maxSplitFiles = 5000

// splits reports whether the engine judges its test file with the code
// under test in a process of its own: the check of delivered fixes
// (Options.Verify) of a pytest file, one target.
func (e *Engine) splits() bool {
	s := e.opts.Suite
	return e.opts.Verify && e.pytest != nil && len(s.TestSource) > 0 && !s.Doctest && s.Path != "" &&
		len(e.modules) <= 1 && e.project == nil && !e.cfg.noSplit
}

// splitLayout is where the two processes find what they run.
type splitLayout struct {
	module  string
	pkg     bool
	relFile string // the target, relative to the import root's parent tree
	// tree: the candidate's project files (relative paths), or files: the
	// helper modules, by base name.
	tree  []sandbox.TreeFile
	files []string
	// roots are the import roots relative to the candidate's lib.
	roots []string
}

// layout lays out the candidate's side: the project's modules, never a
// test file, a conftest.py or a module from the test file's directory
// that is not the target's.
func (e *Engine) splitLayout() (*splitLayout, error) {
	l := &splitLayout{module: e.module}
	if e.tree == nil {
		dir, _ := filepath.Abs(filepath.Dir(e.opts.Target))
		for _, f := range e.files {
			if filepath.Dir(f) == dir && !testLike(filepath.Base(f)) {
				l.files = append(l.files, f)
			}
		}
		l.relFile, l.roots = e.module+".py", []string{""}
		return l, nil
	}
	t := e.tree.Targets[0]
	l.module, l.pkg = t.Module, t.Package
	rel, err := filepath.Rel(e.tree.Root, t.File)
	if err != nil {
		rel = t.File
	}
	l.relFile = rel
	root := t.ImportRoot
	if filepath.IsAbs(root) {
		if r, err := filepath.Rel(e.tree.Root, root); err == nil {
			root = r
		}
	}
	l.roots = []string{root}
	target := filepath.Clean(t.File)
	if !filepath.IsAbs(target) {
		target = filepath.Join(e.tree.Root, target)
	}
	err = filepath.WalkDir(e.tree.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != e.tree.Root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".py") || testLike(name) || p == target || !d.Type().IsRegular() {
			return nil
		}
		if len(l.tree) >= maxSplitFiles {
			return errTooMany
		}
		r, err := filepath.Rel(e.tree.Root, p)
		if err == nil {
			l.tree = append(l.tree, sandbox.TreeFile{Src: p, Rel: filepath.ToSlash(r)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

var errTooMany = fmt.Errorf("the project has more than %d Python files", maxSplitFiles)

// skipDirs are directories whose modules the code under test never
// needs.
var skipDirs = map[string]bool{"__pycache__": true, "node_modules": true, "venv": true, "env": true, "site-packages": true, "build": true, "dist": true}

// testLike reports whether a file's name is a test module's or a
// conftest.py: never shown to the code under test.
func testLike(name string) bool {
	return name == "conftest.py" || strings.HasPrefix(name, "test_") && strings.HasSuffix(name, ".py") || strings.HasSuffix(name, "_test.py")
}

// splitPair is the two processes of a split run, started ahead of the
// run that uses them (the tests' imports pytest and its plugins while it
// waits): an engine keeps one spare (splitSpare).
type splitPair struct {
	cand, tests      *sandbox.Cmd
	candOut, testOut *tailBuffer
	candCfg, testCfg *os.File // their configurations go here
	testSel          *os.File // the tests to run go here (JSON: null for every one)
	out              *os.File // the tests' results come here
	layout           *splitLayout
	closers          []io.Closer
}

// close kills both processes and closes what is left of the pipes.
func (p *splitPair) close() {
	p.tests.Kill()
	p.cand.Kill()
	p.tests.Wait()
	p.cand.Wait()
	for _, c := range p.closers {
		c.Close()
	}
}

// startPair starts the two processes of a split run.
func (e *Engine) startPair() (_ *splitPair, err error) {
	l, err := e.splitLayout()
	if err != nil {
		return nil, err
	}
	p := &splitPair{layout: l}
	var ends []*os.File // the children's ends, closed here once they started
	pipe := func() (*os.File, *os.File) {
		if err != nil {
			return nil, nil
		}
		var r, w *os.File
		r, w, err = os.Pipe()
		if err == nil {
			p.closers = append(p.closers, r, w)
		}
		return r, w
	}
	defer func() {
		if err != nil {
			for _, c := range p.closers {
				c.Close()
			}
		}
	}()
	t2cR, t2cW := pipe()
	c2tR, c2tW := pipe()
	outR, outW := pipe()
	candIn, candCfg := pipe()
	testIn, testCfg := pipe()
	selR, selW := pipe()
	if err != nil {
		return nil, err
	}
	p.candCfg, p.testCfg, p.testSel, p.out = candCfg, testCfg, selW, outR
	ends = []*os.File{t2cR, c2tW, candIn, outW, t2cW, c2tR, testIn, selR}
	limits := sandbox.Limits{
		AddressSpace: int64(e.memoryMB+256) << 20,
		FileSize:     64 << 20,
		OpenFiles:    1024,
		Processes:    maxTasks,
		ScratchBytes: 64 << 20,
	}
	// The scripts come on a file descriptor each (loader), not in the
	// command line.
	script := splitScript + "\n" + plainScript
	candScript, err := scriptPipe(script)
	if err != nil {
		return nil, err
	}
	p.closers = append(p.closers, candScript)
	testScript, err := scriptPipe(script)
	if err != nil {
		return nil, err
	}
	p.closers = append(p.closers, testScript)
	ends = append(ends, candScript, testScript)
	p.cand, err = sandbox.Command(sandbox.Config{
		Path: e.python.Path, Args: []string{e.python.Path, "-s", "-B", "-c", loader(5), "candidate"}, Isolation: e.opts.Isolation,
		Files: l.files, Tree: l.tree, ReadOnly: e.readOnly, Limits: limits,
		NoNamespaces: e.cfg.noNamespaces,
	})
	if err != nil {
		return nil, err
	}
	p.cand.Setenv(withTmp(e.env(p.cand.Dir), p.cand.Dir))
	p.candOut = &tailBuffer{max: 4 << 10}
	p.cand.Stdin, p.cand.Stdout, p.cand.Stderr = candIn, p.candOut, p.candOut
	p.cand.ExtraFiles = []*os.File{t2cR, c2tW, candScript}

	cfg := sandbox.Config{
		Path: e.python.Path, Args: []string{e.python.Path, "-s", "-B", "-c", loader(6), "tests"}, Isolation: e.opts.Isolation,
		ReadOnly: e.readOnly, Limits: limits, NoNamespaces: e.cfg.noNamespaces,
	}
	if e.tree != nil {
		cfg.Project = e.tree.Root
	} else {
		cfg.Files = e.files
	}
	if p.tests, err = sandbox.Command(cfg); err != nil {
		return nil, err
	}
	p.tests.Setenv(withTmp(e.env(p.tests.Dir), p.tests.Dir))
	p.testOut = &tailBuffer{max: 4 << 10}
	p.tests.Stdin, p.tests.Stdout, p.tests.Stderr = testIn, p.testOut, p.testOut
	p.tests.ExtraFiles = []*os.File{outW, t2cW, c2tR, testScript, selR}

	if err = p.cand.Start(); err != nil {
		return nil, fmt.Errorf("cpython: the code under test's process: %w", err)
	}
	if err = p.tests.Start(); err != nil {
		p.cand.Kill()
		p.cand.Wait()
		return nil, fmt.Errorf("cpython: the tests' process: %w", err)
	}
	for _, f := range ends {
		f.Close()
	}
	// The tests' process configures pytest and starts collecting at once:
	// it waits at the first use of the target for the candidate's code.
	timeout := 0.0
	for _, c := range e.opts.Suite.Cases {
		timeout = max(timeout, c.Timeout)
	}
	var tc map[string]any
	if e.tree != nil {
		root := p.tests.ProjectRoot()
		tgts := []string{}
		for _, t := range e.tree.Targets {
			tgts = append(tgts, t.ImportRoot)
		}
		tc = map[string]any{
			"root": root, "cwd": e.tree.Cwd, "test_file": filepath.Join(root, filepath.FromSlash(e.tree.TestFile)),
			"import_roots": tgts, "target_file": filepath.Join(root, l.relFile),
		}
	} else {
		tlib := filepath.Join(p.tests.Dir, "lib")
		tc = map[string]any{
			"root": tlib, "cwd": "", "test_file": filepath.Join(tlib, filepath.Base(e.opts.Suite.Path)),
			"import_roots": []string{""}, "target_file": filepath.Join(tlib, l.relFile),
		}
	}
	tc["role"], tc["module"], tc["package"] = "tests", l.module, l.pkg
	tc["timeout"], tc["wall_factor"], tc["wall_slack"] = timeout, sandbox.CaseWallFactor, sandbox.CaseWallSlack
	if e.opts.Env.Standard {
		tc["work_dirs"] = []string{sandbox.HomeDir, sandbox.TmpDir}
	}
	conf, _ := json.Marshal(tc)
	p.testCfg.Write(conf)
	p.testCfg.Close()
	return p, nil
}

// takePair returns the spare pair, or a new one, and starts the next
// spare.
func (e *Engine) takePair() (*splitPair, error) {
	e.mu.Lock()
	p := e.splitSpare
	e.splitSpare = nil
	closed := e.closed
	if !closed {
		e.spares.Add(1) // the next spare's, under mu: Close waits for it
	}
	e.mu.Unlock()
	if closed {
		if p != nil {
			p.close()
		}
		return nil, sandbox.ErrClosed
	}
	var err error
	if p == nil {
		if p, err = e.startPair(); err != nil {
			e.spares.Done()
			return nil, err
		}
	}
	go func() {
		defer e.spares.Done()
		next, err := e.startPair()
		if err != nil {
			return
		}
		e.mu.Lock()
		if e.closed || e.splitSpare != nil {
			e.mu.Unlock()
			next.close()
			return
		}
		e.splitSpare = next
		e.mu.Unlock()
	}()
	return p, nil
}

// splitRun runs the test file on src with the code under test in a
// process of its own: each test's outcome as plain pytest counts it, or
// "uncrossable" (the test hands the code under test what cannot cross:
// judge it in-process), by node id; and the collection errors. With only
// not nil, the tests of those node ids alone run (pytest deselects the
// others after collecting them).
func (e *Engine) splitRun(ctx context.Context, src []byte, only []string) (*PlainRun, error) {
	p, err := e.takePair()
	if err != nil {
		return nil, err
	}
	defer p.close()
	l := p.layout
	// The selection goes to the tests' process on a pipe of its own, from
	// here: never through the code under test's process.
	sel, _ := json.Marshal(only)
	p.testSel.Write(sel)
	p.testSel.Close()
	lib := filepath.Join(p.cand.Dir, "lib")
	roots := make([]string, len(l.roots))
	for i, r := range l.roots {
		roots[i] = filepath.Join(lib, r)
	}
	cc, _ := json.Marshal(map[string]any{
		"role": "candidate", "module": l.module, "package": l.pkg,
		"path": filepath.Join(lib, l.relFile), "source": string(src), "roots": roots,
		"setup_cpu": e.cfg.setupCPU,
	})
	p.candCfg.Write(cc)
	p.candCfg.Close()

	bound := e.bound + 10*time.Second
	timer := time.NewTimer(bound)
	defer timer.Stop()
	done := make(chan struct{})
	stopped := make(chan struct{})
	var killed atomic.Bool
	go func() {
		defer close(stopped)
		select {
		case <-ctx.Done():
		case <-timer.C:
		case <-done:
			return
		}
		killed.Store(true)
		p.tests.Kill()
		p.cand.Kill()
	}()
	data, _ := io.ReadAll(io.LimitReader(p.out, 64<<20))
	p.tests.Kill()
	werr := p.tests.Wait()
	close(done)
	<-stopped
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var got struct {
		Tests  []PlainTest `json:"tests"`
		Errors []PlainTest `json:"errors"`
		Exit   int         `json:"exit"`
		// Uncrossable: the test file's module code handed the target
		// what cannot cross.
		Uncrossable string `json:"uncrossable"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		why := strings.TrimSpace(p.testOut.String())
		if killed.Load() {
			why = fmt.Sprintf("it ran past %v", bound.Round(time.Second))
		} else if werr != nil && why == "" {
			why = werr.Error()
		}
		return nil, fmt.Errorf("%w: %s", errSplit, lastLine(why))
	}
	if got.Uncrossable != "" {
		return nil, fmt.Errorf("the test file %s", strings.TrimPrefix(got.Uncrossable, "it "))
	}
	return &PlainRun{Tests: got.Tests, Errors: got.Errors, Exit: got.Exit, Tree: e.tree}, nil
}

// withTmp is env with TMPDIR set to dir, a process's private directory,
// unless env sets it: pytest's capture needs a writable temporary
// directory.
func withTmp(env []string, dir string) []string {
	for _, v := range env {
		if strings.HasPrefix(v, "TMPDIR=") {
			return env
		}
	}
	return append(env, "TMPDIR="+dir)
}

// errSplit: the tests' process gave no result.
var errSplit = errors.New("the tests' process gave no result")

// runSplit is Run for an engine that splits: each case's verdict from the
// split run; a case whose test hands the code under test what cannot
// cross is judged in-process (by the check's servers), and says why in
// its Via.
func (e *Engine) runSplit(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	cases := e.opts.Suite.Cases
	var only []string
	if len(opts.Select) == len(cases) {
		only = []string{}
		for i, c := range cases {
			if opts.Select[i] {
				only = append(only, c.Name)
			}
		}
	}
	run, err := e.splitRun(ctx, src, only)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		e.splitNotice.Do(func() {
			fmt.Fprintf(e.opts.Stderr, "repair: the check runs the tests beside the code under test (in-process): %v\n", err)
		})
		o, err2 := e.runServers(ctx, src, opts)
		if o != nil {
			for i := range o.Results {
				o.Results[i].Via = sandbox.ViaInProcess + err.Error()
			}
		}
		return o, err2
	}
	byID := make(map[string]PlainTest, len(run.Tests))
	for _, t := range run.Tests {
		byID[t.ID] = t
	}
	collectErr := ""
	for _, c := range run.Errors {
		collectErr = "collecting: " + c.Detail
		break
	}
	out := &fitness.Outcome{Results: make([]fitness.Result, len(cases))}
	var inproc []int
	for i, c := range cases {
		r := &out.Results[i]
		r.Via = sandbox.ViaSplit
		t, ok := byID[c.Name]
		switch {
		case only != nil && !opts.Select[i]:
			if out.Skipped == nil {
				out.Skipped = make([]bool, len(cases))
			}
			out.Skipped[i] = true
			r.Verdict, r.Via = fitness.Passed, sandbox.ViaUnselected
		case !ok:
			r.Verdict, r.Detail = fitness.RuntimeError, "not run under the check"
			if collectErr != "" {
				r.Detail = collectErr
			}
		case t.Outcome == "passed":
			r.Verdict = fitness.Passed
		case t.Outcome == "uncrossable":
			inproc = append(inproc, i)
			r.Via = sandbox.ViaInProcess + "the test " + strings.TrimPrefix(t.Detail, "it ")
		case t.Outcome == "timeout":
			r.Verdict, r.Detail = fitness.TimeLimitExceeded, t.Detail
		case t.Outcome == "skipped":
			r.Verdict, r.Detail = fitness.WrongAnswer, "skipped: "+t.Detail
		case t.Outcome == "failed" && strings.HasPrefix(t.Detail, "AssertionError"):
			r.Verdict, r.Detail = fitness.WrongAnswer, t.Detail
		case t.Outcome == "failed" && strings.HasPrefix(t.Detail, "CannotCross"):
			r.Verdict, r.Detail = fitness.WrongAnswer, strings.TrimPrefix(strings.TrimPrefix(t.Detail, "CannotCross"), ": ")
		case t.Outcome == "failed" && strings.HasPrefix(t.Detail, "MemoryError"):
			r.Verdict, r.Detail = fitness.MemoryLimitExceeded, t.Detail
		case t.Outcome == "error":
			r.Verdict, r.Detail = fitness.RuntimeError, "error in setup or teardown: "+t.Detail
		default:
			r.Verdict, r.Detail = fitness.RuntimeError, t.Detail
		}
	}
	if len(inproc) > 0 {
		// The in-process run is of the cases from the first of them to
		// the last.
		in := opts
		in.Select, in.SelectWide = nil, nil
		in.Cases = sandbox.CaseRange{First: inproc[0], End: inproc[len(inproc)-1] + 1}
		o, err := e.runServers(ctx, src, in)
		if err != nil {
			return nil, err
		}
		for _, i := range inproc {
			via := out.Results[i].Via
			out.Results[i] = o.Results[i]
			out.Results[i].Via = via
		}
		e.splitNotice.Do(func() {
			fmt.Fprintf(e.opts.Stderr, "repair: the check judges %s beside the code under test (in-process): %s\n",
				e.opts.Suite.Cases[inproc[0]].Name, strings.TrimPrefix(out.Results[inproc[0]].Via, sandbox.ViaInProcess))
		})
		out.CompileError = o.CompileError
	}
	return out, nil
}
