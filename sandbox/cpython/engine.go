package cpython

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/internal/pymod"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/pool"
)

// Engine runs candidates on a pool of warm fork servers, one per worker.
// It implements [sandbox.Engine].
type Engine struct {
	opts     sandbox.Options
	cfg      config
	python   *Interpreter
	memoryMB int
	files    []string
	readOnly []string // the host paths candidates see (read-only)
	// project, when not nil, is the package tree the target lives in: its
	// files replace files, the target is imported by its dotted name.
	project *sandbox.Project
	// tree, when not nil, is the user's project a test-file suite runs
	// in (read-only, whole): it replaces files and project.
	tree *sandbox.Tree
	// modules are the module names of opts.Targets when several files
	// are repaired together (the first is the target's).
	modules []string
	// pytest, when not nil, runs the cases of a test file (see
	// harness/real_pytest.py).
	pytest *Pytest
	// origKey names the original's code (originals), "" for none: set
	// with the suite's message, before a server is sent it.
	origKey  string
	suiteMsg []byte
	// original is the target's source the servers keep (the suite
	// message's): a partial candidate equal to it outside its changed
	// definitions is sent as their text alone (msgDelta).
	original []byte
	// failing, once the original ran every case, are the cases it did not
	// pass: under pytest a candidate that runs only its selection runs
	// these too (withFailing).
	failing atomic.Pointer[[]bool]
	// prepared is closed once checks and suiteMsg are set: the first
	// server starts before, and waits for it to send the suite.
	prepared chan struct{}
	nCases   int
	// checks judge what servers report of each case (never sent to them).
	checks []fitness.Check

	watchdog time.Duration
	// startQuiet is how long a starting server may make no progress
	// (StartQuiet).
	startQuiet time.Duration
	// bound is the wall time a run of every case may take in all, when
	// nothing reports progress (plain pytest); stage is the wall time a
	// server may take without reporting progress: a case, or a child's
	// setup, starting (see Run).
	bound, stage time.Duration

	// plain is plain pytest's run of the original, started with the
	// engine (Options.Parity), or nil.
	plain *plainStart

	pool   *pool.Pool[*server] // nil until New returns
	notice sync.Once

	stats struct {
		candidates, forks, reused, selected, partial, kept atomic.Int64
		fresh                                              [forkReasons]atomic.Int64 // by why (fork*)
		// compiled counts the servers that compiled the original
		// (msgOriginal) rather than load the code kept.
		compiled atomic.Int64
	}

	// module is the target's module name (dotted in a package).
	module string
	// splitNotice says once why the check judges tests in-process.
	splitNotice sync.Once
	// splitSpare is the next split run's processes, started (mu).
	splitSpare *splitPair
	spares     sync.WaitGroup // spares starting

	mu          sync.Mutex
	closed      bool // Close was called: no spare starts
	confinement sandbox.Confinement
}

var _ sandbox.Engine = (*Engine)(nil)

// config holds knobs for tests.
type config struct {
	noNamespaces bool          // act as if the kernel refused namespaces
	watchdog     time.Duration // silence after which a busy server counts as wedged
	startQuiet   time.Duration // silence after which a starting server counts as stuck (StartQuiet)
	noReuse      bool          // a fresh fork for every candidate, pure or not
	boundSlack   time.Duration // added to the bounds of a run and of a stage (default 5 s)
	setupCPU     float64       // a child's setup limit (default sandbox.SetupCPU)
	// noStaticCheck reuses a child for any candidate that imports only
	// preloaded pure modules, leaving the guard after each candidate as
	// the only protection: tests use it to exercise that guard.
	noStaticCheck bool
	// noPytest runs test files with the built-in runner even where
	// pytest is installed.
	noPytest bool
	// pytestPerChild configures pytest in every child instead of once
	// per server (the slow path, for benchmarks).
	pytestPerChild bool
	// noCodeCache compiles the project's modules in every case that
	// imports them, as before harness/bytecode.py (for benchmarks).
	noCodeCache bool
	// noSplit runs the check of delivered fixes in-process only (the
	// audited servers), as before split.py.
	noSplit bool
}

// New starts the pool of fork servers for opts.Suite. An interpreter that
// is missing or older than 3.8 is an error wrapping [sandbox.ErrNoPython].
//
// A suite that is a pytest file (fitness.Suite.TestSource) is run by the
// real pytest when the interpreter, or when none was named a system
// interpreter, can import it: New then replaces opts.Suite.Cases with the
// items pytest collects (one case per node id, parametrized ids
// included) and says on opts.Stderr which pytest runs. Without pytest the
// harness's built-in runner runs the top-level test functions.
func New(ctx context.Context, opts sandbox.Options) (*Engine, error) {
	return newEngine(ctx, opts, config{})
}

func newEngine(ctx context.Context, opts sandbox.Options, cfg config) (*Engine, error) {
	if opts.Suite == nil || len(opts.Suite.Cases) == 0 && len(opts.Suite.TestSource) == 0 {
		return nil, errors.New("cpython: no test cases")
	}
	if opts.Target == "" {
		return nil, errors.New("cpython: no target")
	}
	module := strings.TrimSuffix(filepath.Base(opts.Target), ".py")
	var tree *sandbox.Tree
	if s := opts.Suite; len(s.TestSource) > 0 && s.Path != "" && !s.Doctest {
		targets := opts.Targets
		if len(targets) < 2 {
			targets = []string{opts.Target}
		}
		wd, _ := os.Getwd()
		var err error
		if tree, err = sandbox.FindTree(targets, s.Path, wd); err != nil {
			return nil, inputerr.New("%v", err)
		}
	}
	var proj *sandbox.Project
	if tree != nil {
		module = tree.Targets[0].Module
	} else {
		var err error
		if proj, err = sandbox.FindProject(opts.Target, opts.Suite); err != nil {
			return nil, inputerr.New("%v", err)
		}
		if proj != nil {
			module = proj.Module
		} else if !pymod.Identifier(module) {
			return nil, inputerr.New("--target %q: %q is not a Python module name (letters, digits and underscores, not starting with a digit)", opts.Target, module)
		}
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.OutputCap <= 0 {
		opts.OutputCap = 64 << 10
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	py, err := FindPython(ctx, opts.Python)
	if err != nil {
		return nil, err
	}
	e := &Engine{
		opts:       opts,
		cfg:        cfg,
		python:     py,
		memoryMB:   opts.Suite.MemoryMB,
		nCases:     len(opts.Suite.Cases),
		watchdog:   cfg.watchdog,
		startQuiet: cfg.startQuiet,
	}
	if e.startQuiet <= 0 {
		e.startQuiet = StartQuiet
	}
	if e.memoryMB <= 0 {
		e.memoryMB = 512
	}
	if e.watchdog <= 0 {
		e.watchdog = 10 * time.Second
	}
	// The harness ends a case at its limits (sandbox.CaseWall), a child's
	// setup at its own; both grow by the time the process waited for a
	// CPU, which Go does not see: twice the longest, and a few seconds,
	// bound a stage on a loaded machine (Run).
	if e.cfg.boundSlack <= 0 {
		e.cfg.boundSlack = 5 * time.Second
	}
	if e.cfg.setupCPU <= 0 {
		e.cfg.setupCPU = sandbox.SetupCPU
	}
	e.bound = e.cfg.boundSlack + seconds(2*sandbox.CaseWall(e.cfg.setupCPU))
	e.module = module
	e.readOnly = e.trees(py)
	switch {
	case tree != nil:
		e.tree = tree
		if len(tree.Targets) > 1 {
			for _, t := range tree.Targets {
				e.modules = append(e.modules, t.Module)
			}
		}
	case proj != nil:
		e.project = proj
	default:
		if e.files, err = sandbox.HelperFiles(opts.Target, opts.Suite); err != nil {
			return nil, err
		}
	}
	if len(opts.Targets) > 1 && tree == nil {
		if e.modules, err = e.multiLayout(module); err != nil {
			return nil, err
		}
	}
	if suite := opts.Suite; len(suite.TestSource) > 0 && suite.Path != "" && !suite.Doctest && !cfg.noPytest {
		chosen, pt := e.choosePytest(ctx)
		switch {
		case pt != nil:
			fmt.Fprintln(opts.Stderr, pytestNotice(py, chosen, pt))
			e.python, e.pytest = chosen, pt
			e.readOnly = append(e.trees(chosen), pt.Paths...)
			if proj == nil && tree == nil {
				abs, err := filepath.Abs(suite.Path)
				if err != nil {
					return nil, err
				}
				e.files = append(e.files, abs)
			}
			if !opts.Collected || !opts.Verify || len(suite.Cases) == 0 {
				cases, err := e.collect(module)
				if err != nil {
					return nil, err
				}
				suite.Cases = cases
			}
			// Else the search's engine collected them: each of the check's
			// children collects the test file again all the same, and runs
			// these test ids (one it does not collect fails).
			e.nCases = len(suite.Cases)
		case len(suite.Cases) == 0:
			return nil, inputerr.New("%s: its tests (classes, or functions not at the top level) need pytest, which no interpreter here has: install it (apt-get install python3-pytest, or pip install pytest)", suite.Path)
		default:
			fmt.Fprintf(opts.Stderr, "repair: no pytest found (apt-get install python3-pytest); the built-in runner runs the top-level test functions of %s, with parametrize but no fixtures\n", filepath.Base(suite.Path))
		}
	}
	longest := 0.0
	for _, c := range opts.Suite.Cases {
		e.bound += seconds(2 * sandbox.CaseWall(c.Timeout))
		longest = max(longest, c.Timeout)
	}
	e.stage = e.cfg.boundSlack + seconds(2*sandbox.CaseWall(longest))
	if opts.Parity && !opts.Verify {
		e.plain = e.startPlain()
	}

	// One server starts now, the others when they pay (package pool).
	// The first one boots (namespaces, the interpreter, the harness)
	// while the checks and the suite's message are made, which it waits
	// for; it is killed if they fail.
	e.prepared = make(chan struct{})
	e.pool, err = pool.Boot(pool.Config[*server]{
		Start:   e.start,
		Kill:    (*server).kill,
		Dead:    func(s *server) bool { return s.dead.Load() },
		Joined:  e.adopt,
		Workers: opts.Workers,
		Max:     MaxGrowth * opts.Workers,
	}, func() error { return e.prepare(module) }, e.prepared)
	if err != nil {
		e.plain.stop()
		return nil, err
	}
	return e, nil
}

// prepare makes the checks of the cases and the suite's message every
// server receives.
func (e *Engine) prepare(module string) error {
	var err error
	if e.checks, err = fitness.NewChecks(e.opts.Suite.Cases, e.opts.OutputCap); err != nil {
		return fmt.Errorf("cpython: %w", err)
	}
	e.suiteMsg, err = e.suiteMessage(module, e.checks, false)
	return err
}

// adopt records the isolation of the first server that joins the pool
// and says once if isolation is degraded.
func (e *Engine) adopt(s *server) {
	e.mu.Lock()
	if e.confinement == (sandbox.Confinement{}) {
		e.confinement = s.cmd.Confinement
	}
	e.mu.Unlock()
	if c := s.cmd.Confinement; !c.Full() {
		e.notice.Do(func() {
			fmt.Fprintf(e.opts.Stderr, "repair: sandbox isolation is degraded: %s\n", c)
		})
	}
}

// MaxGrowth bounds [Engine.Grow]: at most this many servers per worker
// asked for in Options.Workers.
const MaxGrowth = 4

// Grow starts servers, in the background, until the engine has n (at
// most MaxGrowth times Options.Workers), for a suite whose cases mostly
// wait (sleep, I/O): more candidates at once then cost little CPU each.
// Each joins the pool as soon as it is ready; callers of Run wait for a
// server as before. It returns the number of servers the engine is to
// have; one that fails to start is not replaced (the error of the last is
// kept for Close to drop).
func (e *Engine) Grow(ctx context.Context, n int) (int, error) {
	return e.pool.Grow(n), nil
}

// Name is "cpython".
func (e *Engine) Name() string { return "cpython" }

// Python is the interpreter the servers run.
func (e *Engine) Python() Interpreter { return *e.python }

// Stats counts what the servers did.
type Stats = sandbox.FastPaths

// ForkReasons counts fresh children by why a candidate could not reuse a
// child.
type ForkReasons = sandbox.ForkReasons

// Stats reports the counters since New.
func (e *Engine) Stats() Stats {
	f := &e.stats.fresh
	return Stats{Candidates: e.stats.candidates.Load(), Forks: e.stats.forks.Load(), Reused: e.stats.reused.Load(),
		Selected: e.stats.selected.Load(), Partial: e.stats.partial.Load(), Kept: e.stats.kept.Load(),
		FreshForks: ForkReasons{
			First: f[forkFirst].Load(), NoReuse: f[forkOff].Load(), ImpureName: f[forkName].Load(),
			ImpureImport: f[forkImport].Load(), ImpureDunder: f[forkDunder].Load(), ImpureString: f[forkString].Load(),
			Impure: f[forkImpure].Load(), AfterImpure: f[forkAfter].Load(), Guard: f[forkGuard].Load(),
			Served: f[forkServed].Load(), Ended: f[forkEnded].Load(), Again: f[forkAgain].Load(),
		}}
}

// Confinement is the isolation in force for candidates.
func (e *Engine) Confinement() sandbox.Confinement {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.confinement
}

// Run evaluates one candidate: one Result per case, in the suite's order.
// A server that dies or wedges is replaced and the candidate run again
// once; if it breaks the fresh server too, the cases it did not report get
// RUNTIME_ERROR. A candidate gets the sum of its cases' timeouts and a few
// seconds of wall time in all, measured here where nothing in the sandbox
// can extend it: past that its server is killed and the cases it did not
// report get TIME_LIMIT_EXCEEDED. The error is ctx.Err(),
// [sandbox.ErrClosed], or a failure to start a server.
func (e *Engine) Run(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.splits() && opts.Cases == (sandbox.CaseRange{}) && !opts.Coverage && !opts.Record {
		return e.runSplit(ctx, src, opts)
	}
	return e.runServers(ctx, src, opts)
}

// runServers is Run on the pool of fork servers.
func (e *Engine) runServers(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	out := &fitness.Outcome{Results: make([]fitness.Result, e.nCases)}
	got := make([]bool, e.nCases)
	first, end := opts.Cases.Bounds(e.nCases)
	outside := func() {
		for i := range got {
			got[i] = i < first || i >= end
		}
	}
	outside()
	var broke error
	overBound, overBy := false, time.Duration(0)
	for attempt := 0; attempt < 2; attempt++ {
		if attempt > 0 {
			clear(out.Results)
			outside()
			out.CompileError = ""
			out.Skipped = nil
		}
		s, err := e.pool.Get(ctx)
		if err != nil {
			return nil, err
		}
		err = s.run(ctx, e, src, opts, out, got)
		if err == nil {
			e.pool.Put(s)
			broke = nil
			break
		}
		s.kill()
		e.pool.Put(s)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if e.pool.Closed() {
			return nil, sandbox.ErrClosed
		}
		if errors.Is(err, errOverBound) {
			overBound, overBy, broke = true, s.stageBound(e), nil
			break // the candidate's doing: not run again
		}
		broke = err
	}
	if broke == nil && !overBound && first == 0 && end == e.nCases && opts.Select == nil && opts.Lenient == nil &&
		len(e.original) > 0 && bytes.Equal(src, e.original) {
		e.keepFailing(out)
	}
	for i := range out.Results {
		if !got[i] {
			r := fitness.Result{Verdict: fitness.RuntimeError, Detail: "no result from the sandbox"}
			switch {
			case overBound:
				r = fitness.Result{Verdict: fitness.TimeLimitExceeded,
					Detail: fmt.Sprintf("the sandbox reported no progress for %v (the bound of a case or a setup)", overBy.Round(time.Millisecond))}
			case broke != nil:
				r.Detail = "the sandbox server died while running the candidate"
			}
			out.Results[i] = r
		}
		if opts.Coverage && out.Results[i].Lines == nil {
			out.Results[i].Lines = []int{}
		}
	}
	return out, nil
}

// Close kills every server (busy ones too: their Run returns ErrClosed)
// and removes every temporary file. Safe to call more than once.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	spare := e.splitSpare
	e.splitSpare = nil
	e.mu.Unlock()
	if spare != nil {
		spare.close()
	}
	e.spares.Wait() // a spare still starting closes itself
	e.pool.Close()
	e.plain.stop()
	return nil
}

// limitsMsg are the time limits' constants as the harness gets them (the
// manager's): a child's setup may take SetupCPU seconds of CPU time, or
// SetupFactor times the server's own setup; a case's wall backstop is
// WallFactor times its timeout and WallSlack seconds.
type limitsMsg struct {
	SetupCPU    float64 `json:"setup_cpu"`
	SetupFactor float64 `json:"setup_factor"`
	WallFactor  float64 `json:"wall_factor"`
	WallSlack   float64 `json:"wall_slack"`
}

// suiteMessage is what every server receives once.
func (e *Engine) suiteMessage(module string, checks []fitness.Check, collect bool) ([]byte, error) {
	opts, cfg, pt, memoryMB := e.opts, e.cfg, e.pytest, e.memoryMB
	s := opts.Suite
	msg := struct {
		Module     string            `json:"module"`
		Cases      []sandbox.RunCase `json:"cases"`
		MemoryMB   int               `json:"memory_mb"`
		OutputCap  int               `json:"output_cap"`
		TestSource string            `json:"test_source,omitempty"`
		TestModule string            `json:"test_module,omitempty"`
		TestFile   string            `json:"test_file,omitempty"`
		// Original is the target's source: the harness preloads the
		// modules it imports (see harness/purity.py).
		Original    string `json:"original,omitempty"`
		Reuse       bool   `json:"reuse"`
		StaticCheck bool   `json:"static_check"`
		// LenientRuntime is lenient.py, loaded at the first lenient run.
		LenientRuntime string `json:"lenient_runtime"`
		// Pytest runs test cases with the real pytest; Collect only lists
		// its items (message L) and exits.
		Pytest *pytestMsg `json:"pytest,omitempty"`
		// Doctest: the test source is generated (fitness doctest suites).
		Doctest bool `json:"doctest,omitempty"`
		// Modules are the targets repaired together, in the order of the
		// joined candidate (program.Join).
		Modules []moduleMsg `json:"modules,omitempty"`
		// Project places the target in its package (sandbox.Project).
		Project *projectMsg `json:"project,omitempty"`
		// Tree is the user's project the tests run in (sandbox.Tree);
		// its root, which depends on the server's isolation, is the
		// tree_root each server receives first.
		Tree *treeMsg `json:"tree,omitempty"`
		// Environ: the interpreter started with the candidates'
		// environment (sandbox.Environment), else the harness empties it.
		Environ bool `json:"environ,omitempty"`
		// WorkDirs are made empty in the private directory for every
		// candidate (HOME, TMPDIR).
		WorkDirs []string `json:"work_dirs,omitempty"`
		// Verify: the check of delivered fixes (harness/verify.py).
		Verify bool `json:"verify,omitempty"`
		// Limits are the time limits' constants (sandbox.CaseWall).
		Limits limitsMsg `json:"limits"`
		// Heartbeat is the seconds between the looks of the server's
		// heartbeat while it starts (StartQuiet).
		Heartbeat float64 `json:"heartbeat"`
		// CodeCache: the server compiles the project's modules once for
		// its children (harness/bytecode.py).
		CodeCache bool `json:"code_cache"`
	}{
		Module:         module,
		Cases:          []sandbox.RunCase{},
		MemoryMB:       memoryMB,
		OutputCap:      opts.OutputCap,
		Reuse:          !cfg.noReuse && !opts.Verify,
		Verify:         opts.Verify && len(s.TestSource) > 0,
		StaticCheck:    !cfg.noStaticCheck,
		LenientRuntime: lenientRuntime,
		Limits: limitsMsg{SetupCPU: e.cfg.setupCPU, SetupFactor: sandbox.SetupFactor,
			WallFactor: sandbox.CaseWallFactor, WallSlack: sandbox.CaseWallSlack},
		Heartbeat: heartbeat(e.startQuiet),
		CodeCache: !cfg.noCodeCache,
	}
	if data, err := os.ReadFile(opts.Target); err == nil {
		msg.Original = string(data)
	}
	if len(e.modules) > 1 {
		srcs := make([][]byte, len(opts.Targets))
		for i, t := range opts.Targets {
			data, err := os.ReadFile(t)
			if err != nil {
				return nil, err
			}
			srcs[i] = data
		}
		joined, _, err := program.Join(opts.Targets, srcs)
		if err != nil {
			return nil, inputerr.New("%v", err)
		}
		msg.Original = string(joined)
	}
	e.loadOriginal(originalKey(e.python.Path, msg.Original))
	e.original = []byte(msg.Original)
	if pt != nil {
		msg.Pytest = &pytestMsg{Paths: pt.Paths, Collect: collect, PerChild: cfg.pytestPerChild, Rewritten: e.sharedRewrite()}
	}
	if !collect {
		msg.Cases = sandbox.RunCases(s.Cases, checks)
	}
	if len(s.TestSource) > 0 {
		msg.TestSource = string(s.TestSource)
		msg.TestModule = s.TestModule
		if msg.TestModule == "" {
			msg.TestModule = "test_" + module
		}
		msg.TestFile = msg.TestModule + ".py"
		if s.Path != "" {
			msg.TestFile = filepath.Base(s.Path)
		}
	}
	msg.Doctest = s.Doctest
	for _, m := range e.modules {
		msg.Modules = append(msg.Modules, moduleMsg{Name: m})
	}
	if p := e.project; p != nil {
		msg.Project = &projectMsg{ImportRoot: p.ImportRoot, File: p.File, Package: p.Package}
		if p.TestFile != "" {
			msg.TestFile = p.TestFile
		}
	}
	if t := e.tree; t != nil {
		msg.Tree = &treeMsg{Cwd: t.Cwd, TestFile: t.TestFile}
		for _, tt := range t.Targets {
			msg.Tree.Targets = append(msg.Tree.Targets, treeTargetMsg{Module: tt.Module, File: tt.File, ImportRoot: tt.ImportRoot, Package: tt.Package})
		}
		msg.TestFile = t.TestFile
	}
	msg.Environ = !opts.Env.IsZero()
	if opts.Env.Standard {
		msg.WorkDirs = []string{sandbox.HomeDir, sandbox.TmpDir}
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("cpython: encoding the suite: %w", err)
	}
	return data, nil
}

// pytestMsg is the "pytest" field of the suite message.
type pytestMsg struct {
	Paths    []string `json:"paths"`
	Collect  bool     `json:"collect,omitempty"`
	PerChild bool     `json:"per_child,omitempty"`
	// Rewritten is the test file's assertions as an earlier server
	// rewrote them (rewrites), or nil.
	Rewritten json.RawMessage `json:"rewritten,omitempty"`
}

// projectMsg is the "project" field of the suite message: lib/ mirrors
// the project's root, the target's top package is under ImportRoot.
type projectMsg struct {
	ImportRoot string `json:"import_root"`
	File       string `json:"file,omitempty"`
	Package    bool   `json:"package,omitempty"`
}

// treeMsg is the "tree" field of the suite message (sandbox.Tree): paths
// relative to the tree's root.
type treeMsg struct {
	Cwd      string          `json:"cwd"`
	TestFile string          `json:"test_file"`
	Targets  []treeTargetMsg `json:"targets"`
}

type treeTargetMsg struct {
	Module     string `json:"module"`
	File       string `json:"file"`
	ImportRoot string `json:"import_root"`
	Package    bool   `json:"package,omitempty"`
}

// trees are the host paths candidates read besides the project: the
// interpreter's, and with the standard environment the system's bin
// directories its PATH names.
func (e *Engine) trees(py *Interpreter) []string {
	ro := append([]string(nil), py.Trees...)
	if e.opts.Env.Standard {
		ro = append(ro, sandbox.SystemBin...)
	}
	return ro
}

// env is the environment of a server in the private directory dir.
func (e *Engine) env(dir string) []string {
	if e.opts.Env.IsZero() {
		// Reproducible str hashes (set iteration order) whichever server
		// runs a candidate; the harness empties os.environ at once.
		return []string{"PYTHONHASHSEED=0"}
	}
	return e.opts.Env.Build(filepath.Dir(e.python.Path), dir)
}

// withRoot puts the tree's root as a server sees it (root) first in the
// suite message msg, when candidates run in a project's tree.
func (e *Engine) withRoot(msg []byte, root string) []byte {
	if e.tree == nil || len(msg) < 2 || msg[0] != '{' {
		return msg
	}
	q, _ := json.Marshal(root)
	out := make([]byte, 0, len(msg)+len(q)+16)
	out = append(append(append(out, `{"tree_root":`...), q...), ',')
	return append(out, msg[1:]...)
}

// moduleMsg is one of the targets repaired together.
type moduleMsg struct {
	Name string `json:"name"`
}

// multiLayout checks the targets repaired together and returns their
// module names: plain modules (their helpers are the union of each
// one's), or modules of the target's package project, never a mix. No
// target is also copied as a helper: candidates bring their own.
func (e *Engine) multiLayout(module string) ([]string, error) {
	opts := e.opts
	names := []string{module}
	seen := map[string]bool{module: true}
	abs := map[string]bool{}
	for _, t := range opts.Targets {
		a, err := filepath.Abs(t)
		if err != nil {
			return nil, err
		}
		abs[a] = true
	}
	for _, t := range opts.Targets[1:] {
		p, err := sandbox.FindProject(t, opts.Suite)
		if err != nil {
			return nil, inputerr.New("%v", err)
		}
		name := strings.TrimSuffix(filepath.Base(t), ".py")
		switch {
		case (p == nil) != (e.project == nil):
			return nil, inputerr.New("--target %s: the files repaired together must all be plain modules or all modules of one package tree", t)
		case p != nil:
			ir, _ := filepath.Abs(filepath.Join(p.Root, p.ImportRoot))
			own, _ := filepath.Abs(filepath.Join(e.project.Root, e.project.ImportRoot))
			if ir != own {
				return nil, inputerr.New("--target %s: not under the import root %s of %s", t, own, opts.Target)
			}
			name = p.Module
		case !pymod.Identifier(name):
			return nil, inputerr.New("--target %s: %q is not a Python module name", t, name)
		}
		if seen[name] {
			return nil, inputerr.New("--target %s: a second file for module %s", t, name)
		}
		seen[name] = true
		names = append(names, name)
		if p == nil {
			more, err := sandbox.HelperFiles(t, opts.Suite)
			if err != nil {
				return nil, err
			}
			e.files = append(e.files, more...)
		}
	}
	if e.project != nil {
		kept := e.project.Files[:0:0]
		for _, f := range e.project.Files {
			if !abs[f.Src] {
				kept = append(kept, f)
			}
		}
		e.project.Files = kept
		return names, nil
	}
	kept := e.files[:0:0]
	base := map[string]bool{}
	for _, f := range e.files {
		if !abs[f] && !base[filepath.Base(f)] && !seen[strings.TrimSuffix(filepath.Base(f), ".py")] {
			base[filepath.Base(f)] = true
			kept = append(kept, f)
		}
	}
	e.files = kept
	return names, nil
}

// seconds is s seconds as a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
