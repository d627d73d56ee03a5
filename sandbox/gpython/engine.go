package gpython

import (
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

	"github.com/go-python/gpython/py"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/internal/pymod"
	"repair/sandbox"
	"repair/sandbox/pool"
)

// Engine runs candidates on a pool of gpython worker processes, one per
// worker. It implements [sandbox.Engine].
type Engine struct {
	opts     sandbox.Options
	cfg      config
	exe      string
	files    []string
	suiteMsg []byte
	// prepared is closed once checks and suiteMsg are set: the first
	// worker starts before, and waits for it to send the suite.
	prepared chan struct{}
	// checks judge what workers report of each case (never sent to them).
	checks []fitness.Check
	cases  []fitness.Case

	startQuiet time.Duration // silence after which a starting worker counts as stuck (StartQuiet)
	bound      time.Duration // of a candidate's wall time in all
	watchdog   time.Duration // silence after which a busy worker counts as wedged
	poll       time.Duration // how often a waiting Run looks at the running case
	grace      time.Duration // beyond a case's timeout before its worker is killed

	pool   *pool.Pool[*proc] // nil until the first worker is up
	notice sync.Once

	stats struct{ candidates, restarts, unprobed, partial atomic.Int64 }

	mu          sync.Mutex
	confinement sandbox.Confinement
	stackLimit  int
}

var _ sandbox.Engine = (*Engine)(nil)

// config holds knobs for tests.
type config struct {
	noNamespaces bool          // act as if the kernel refused namespaces
	noCheck      bool          // do not check that gpython can run the original
	watchdog     time.Duration // default 10s
	grace        time.Duration // default 250ms
	bound        time.Duration // a candidate's wall time in all (default: see newEngine)
	startQuiet   time.Duration // silence after which a starting worker counts as stuck (StartQuiet)
}

// New starts the worker pool for opts.Suite. It first checks that gpython
// can run the original program (opts.Target) and its test file: when it
// cannot, the error is an *UnsupportedError naming the construct.
// opts.Python is ignored.
func New(ctx context.Context, opts sandbox.Options) (*Engine, error) {
	return newEngine(ctx, opts, config{})
}

func newEngine(ctx context.Context, opts sandbox.Options, cfg config) (*Engine, error) {
	if len(os.Args) > 1 && os.Args[1] == workerArg {
		// Started as a worker by a binary whose main lacks the hook: do not
		// start workers of workers.
		return nil, errors.New("gpython: this process was started as a worker, but its main does not call gpython.Init")
	}
	if opts.Suite != nil && len(opts.Suite.Cases) == 0 && len(opts.Suite.TestSource) > 0 {
		return nil, inputerr.New("%s: its tests are in classes, which only the real pytest runs: use --engine cpython with pytest installed", opts.Suite.Path)
	}
	if opts.Suite == nil || len(opts.Suite.Cases) == 0 {
		return nil, errors.New("gpython: no test cases")
	}
	if opts.Target == "" {
		return nil, errors.New("gpython: no target")
	}
	if len(opts.Targets) > 1 {
		return nil, inputerr.New("--target: several files are repaired together with --engine cpython only")
	}
	if proj, err := sandbox.FindProject(opts.Target, opts.Suite); err != nil || proj != nil {
		return nil, inputerr.New("%s: a module inside a package (%s holds an __init__.py) needs --engine cpython", opts.Target, filepath.Dir(opts.Target))
	}
	module := strings.TrimSuffix(filepath.Base(opts.Target), ".py")
	if !pymod.Identifier(module) {
		return nil, inputerr.New("--target %q: %q is not a Python module name (letters, digits and underscores, not starting with a digit)", opts.Target, module)
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
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("gpython: finding the executable to start workers: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return nil, fmt.Errorf("gpython: %w", err)
	}
	original, err := os.ReadFile(opts.Target)
	if err != nil {
		return nil, fmt.Errorf("gpython: %w", err)
	}
	e := &Engine{
		opts:       opts,
		cfg:        cfg,
		exe:        exe,
		cases:      opts.Suite.Cases,
		startQuiet: cfg.startQuiet,
		watchdog:   cfg.watchdog,
		poll:       100 * time.Millisecond,
		grace:      cfg.grace,
	}
	if e.watchdog <= 0 {
		e.watchdog = 10 * time.Second
	}
	if e.startQuiet <= 0 {
		e.startQuiet = StartQuiet
	}
	if e.grace <= 0 {
		e.grace = 250 * time.Millisecond
	}
	// A candidate's wall time in all, kept here where nothing in the
	// sandbox can extend it (as the cpython engine does): twice the sum
	// of its cases' backstops (sandbox.CaseWall: a loaded machine
	// stretches a case's wall time by what it waits for a CPU) and 5 s.
	// The engine enforces each case's deadline from outside already; this
	// bounds whatever else a worker could make it wait for.
	e.bound = cfg.bound
	if e.bound <= 0 {
		e.bound = 5 * time.Second
		for _, c := range opts.Suite.Cases {
			e.bound += time.Duration(2 * sandbox.CaseWall(effectiveTimeout(c.Timeout, 0)) * float64(time.Second))
		}
	}
	if e.files, err = sandbox.HelperFiles(opts.Target, opts.Suite); err != nil {
		return nil, err
	}

	// One worker starts now, the others when they pay (package pool).
	// The first one boots (namespaces, two process starts) while the
	// program is checked and the suite's message made, which it waits
	// for; it is killed if they fail.
	e.prepared = make(chan struct{})
	e.pool, err = pool.Boot(pool.Config[*proc]{
		Start:   e.start,
		Kill:    (*proc).kill,
		Dead:    func(p *proc) bool { return p.dead.Load() },
		Forget:  (*proc).unmap,
		Joined:  e.adopt,
		Workers: opts.Workers,
	}, func() error { return e.prepare(module, original) }, e.prepared)
	if err != nil {
		return nil, err
	}
	if !cfg.noCheck {
		if err := e.checkRun(ctx, original); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// prepare checks the program (unless the engine's config says not to)
// and makes the suite's message every worker receives.
func (e *Engine) prepare(module string, original []byte) error {
	if !e.cfg.noCheck {
		if err := checkSyntax(e.opts.Target, original, e.opts.Suite); err != nil {
			return err
		}
	}
	var err error
	if e.checks, err = fitness.NewChecks(e.opts.Suite.Cases, e.opts.OutputCap); err != nil {
		return fmt.Errorf("gpython: %w", err)
	}
	e.suiteMsg, err = suiteMessage(module, e.opts, e.checks, original)
	return err
}

// checkSyntax compiles the target and the test file with gpython, and
// refuses a class method gpython would silently not call (see
// silentDunders).
func checkSyntax(target string, src []byte, suite *fitness.Suite) error {
	check := func(path string, src []byte) error {
		name := probeName(src)
		src, _ = rewriteDecorators(src, name+"d")
		src, _ = rewriteFStrings(src, name+"f")
		code, err := py.Compile(string(src), path, py.ExecMode, 0, true)
		if err == nil {
			if d := silentDunder(code); d != "" {
				return &UnsupportedError{File: path, Line: defLine(src, d),
					Construct: fmt.Sprintf("a class that defines %s (gpython never calls it: == compares identity, truth is always True)", d)}
			}
			return nil
		}
		line := 0
		if exc := excOf(err); exc != nil {
			if l, ok := exc.Dict["lineno"].(py.Int); ok {
				line = int(l)
			}
		}
		construct, cline := syntaxConstruct(src, line)
		if construct == "" {
			construct = "this program: " + compileMessage(err)
		} else {
			line = cline
		}
		return &UnsupportedError{File: path, Line: line, Construct: construct}
	}
	if err := check(target, src); err != nil {
		return err
	}
	if len(suite.TestSource) > 0 {
		path := suite.Path
		if path == "" {
			path = "the test file"
		}
		return check(path, suite.TestSource)
	}
	return nil
}

// defLine is the line of the first "def name(" of src, or 0.
func defLine(src []byte, name string) int {
	for i, line := range strings.Split(string(src), "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "def ") && strings.HasPrefix(strings.TrimSpace(l[4:]), name+"(") {
			return i + 1
		}
	}
	return 0
}

// checkRun runs the original program once and refuses it when a case ran
// into a limitation of gpython.
func (e *Engine) checkRun(ctx context.Context, original []byte) error {
	res, err := e.evaluate(ctx, original, runCheck, 0, sandbox.CaseRange{})
	if err != nil {
		return err
	}
	if res.out.CompileError != "" {
		return &UnsupportedError{File: e.opts.Target, Construct: "this program: " + res.out.CompileError}
	}
	for i, u := range res.unsupported {
		if u == "" {
			continue
		}
		file, line := e.opts.Target, caseLine(res.out.Results[i].Detail)
		if d := res.out.Results[i].Detail; strings.Contains(d, ".py line ") && e.opts.Suite.Path != "" {
			file = e.opts.Suite.Path
			if j := strings.LastIndex(d, " line "); j >= 0 {
				fmt.Sscanf(d[j+6:], "%d", &line)
			}
		}
		name := e.cases[i].Name
		if name == "" {
			name = fmt.Sprintf("#%d", i+1)
		}
		return &UnsupportedError{File: file, Line: line, Construct: u, Case: name}
	}
	return nil
}

// adopt records the isolation of the first worker that joins the pool
// and says once if isolation is degraded.
func (e *Engine) adopt(p *proc) {
	e.mu.Lock()
	if e.confinement == (sandbox.Confinement{}) {
		e.confinement = p.cmd.Confinement
		e.stackLimit = p.hello.StackLimit
	}
	e.mu.Unlock()
	if c := p.cmd.Confinement; !c.Full() {
		e.notice.Do(func() {
			fmt.Fprintf(e.opts.Stderr, "repair: sandbox isolation is degraded: %s\n", c)
		})
	}
}

// Name is "gpython".
func (e *Engine) Name() string { return "gpython" }

// Confinement is the isolation in force for candidates.
func (e *Engine) Confinement() sandbox.Confinement {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.confinement
}

// Stats counts what the workers did.
type Stats struct {
	// Candidates evaluated (compile errors included).
	Candidates int64
	// Restarts of a worker that crashed or passed a deadline.
	Restarts int64
	// Unprobed counts candidates that ran without probes (no coverage, no
	// step budget): the probes did not compile.
	Unprobed int64
	// Partial counts candidates compiled one changed definition at a
	// time (partial.go) on the worker that finished them.
	Partial int64
}

// Stats reports the counters since New.
func (e *Engine) Stats() Stats {
	return Stats{Candidates: e.stats.candidates.Load(), Restarts: e.stats.restarts.Load(), Unprobed: e.stats.unprobed.Load(), Partial: e.stats.partial.Load()}
}

// errLenient refuses lenient runs: gpython has no hook to inject values
// for what a program misses.
var errLenient = errors.New("the gpython engine cannot run leniently (inject values for missing names); use the cpython engine")

// Run evaluates one candidate: one Result per case, in the suite's order.
// A case that crashes its worker (a Go stack overflow, memory) or passes
// its deadline without reaching a probe gets its verdict, and the
// remaining cases go on in a fresh worker. The error is ctx.Err(),
// [sandbox.ErrClosed], or a failure to start a worker.
func (e *Engine) Run(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	if opts.Lenient != nil {
		return nil, errLenient
	}
	var flags byte
	if opts.Coverage {
		flags |= runCoverage
	}
	if opts.AbandonAfterTimeout {
		flags |= runAbandon
	}
	if ch := opts.Change; ch != nil && len(ch.Defs) > 0 && !opts.Coverage && len(ch.Cand) == len(ch.Orig) && len(src) < 1<<31 {
		// The changed definitions first: the worker compiles only them
		// when it can (partial.go).
		spans := make([]partialSpan, len(ch.Cand))
		for i := range spans {
			spans[i] = partialSpan{ch.Cand[i].Start, ch.Cand[i].End, ch.Orig[i].Start, ch.Orig[i].End}
		}
		flags |= runPartial
		src = append(appendSpans(make([]byte, 0, 4+spanSize*len(spans)+len(src)), spans), src...)
	}
	res, err := e.evaluate(ctx, src, flags, opts.Timeout.Seconds(), opts.Cases)
	if err != nil {
		return nil, err
	}
	return res.out, nil
}

// results collects the records of one candidate and judges them.
type results struct {
	out         *fitness.Outcome
	got         []bool
	unsupported []string
	cov         bool
	checks      []fitness.Check
}

func newResults(checks []fitness.Check, cov bool) *results {
	n := len(checks)
	return &results{out: &fitness.Outcome{Results: make([]fitness.Result, n)}, got: make([]bool, n), cov: cov, checks: checks}
}

// add decodes and judges records. memo (one per worker) remembers the
// verdicts of the observations last judged.
func (r *results) add(p []byte, strs strCache, memo *fitness.Memo) error {
	var bad error
	err := decodeRecords(p, len(r.got), strs, func(rec record) {
		if !r.cov {
			rec.Result.Lines = nil
		}
		if rec.Status != 0 {
			v, d, err := memo.Judge(r.checks, rec.Case, rec.Status, rec.Payload, rec.Result.Detail)
			if err != nil {
				bad = err
				return
			}
			rec.Result.Verdict, rec.Result.Detail = v, d
		} else {
			rec.Result.Verdict, rec.Result.Detail = r.checks[rec.Case].JudgeVerdict(rec.Result.Verdict, rec.Result.Detail)
		}
		if rec.Result.Verdict == fitness.Passed {
			rec.Unsupported = "" // an exception the case expected
		}
		r.out.Results[rec.Case] = rec.Result
		if rec.Unsupported != "" {
			if r.unsupported == nil {
				r.unsupported = make([]string, len(r.got))
			}
			r.unsupported[rec.Case] = rec.Unsupported
		}
		r.got[rec.Case] = true
	})
	if err == nil {
		err = bad
	}
	return err
}

func (r *results) compileError(msg string) {
	r.out.CompileError = msg
	for i := range r.out.Results {
		r.out.Results[i] = fitness.Result{Verdict: fitness.CompilationError, Detail: msg}
		r.got[i] = true
	}
}

// next is the first case without a result at or after i, or len.
func (r *results) next(i int) int {
	for i < len(r.got) && r.got[i] {
		i++
	}
	return i
}

// capGrace is the least grace of a capped case (proc.watch).
const capGrace = 20 * time.Millisecond

// evaluate runs a candidate's cases in rng to the end, on as many workers
// as it kills. cap (seconds, 0 for none) caps every case's timeout.
func (e *Engine) evaluate(ctx context.Context, src []byte, flags byte, cap float64, rng sandbox.CaseRange) (*results, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := newResults(e.checks, flags&runCoverage != 0)
	first, end := rng.Bounds(len(e.cases))
	for i := range res.got {
		res.got[i] = i < first || i >= end // out of the range: left zero
	}
	bound := time.Now().Add(e.bound)
	start := res.next(first)
	retried := false
	rerun := -1 // the case run again after its worker was killed from outside
	var lastErr string
	for start < len(e.cases) {
		p, err := e.pool.Get(ctx)
		if err != nil {
			return nil, err
		}
		rr := p.run(ctx, e, src, flags, start, first, end, cap, res, bound)
		if rr.end == endDone || rr.end == endCompile {
			e.pool.Put(p)
			if rr.noProbe {
				e.stats.unprobed.Add(1)
			}
			if rr.partial {
				e.stats.partial.Add(1)
			}
			break
		}
		p.kill()
		e.pool.Put(p)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if e.pool.Closed() {
			return nil, sandbox.ErrClosed
		}
		e.stats.restarts.Add(1)
		if rr.end == endOverBound {
			for j := range res.got {
				if !res.got[j] {
					res.out.Results[j] = fitness.Result{Verdict: fitness.TimeLimitExceeded,
						Detail: fmt.Sprintf("the candidate ran past its time bound of %v in all", e.bound.Round(time.Millisecond))}
					res.got[j] = true
				}
			}
			break
		}
		i := rr.running
		if i >= 0 && i < len(e.cases) && !res.got[i] {
			switch rr.end {
			case endTimeout:
				t, own := effectiveTimeout(e.cases[i].Timeout, cap), effectiveTimeout(e.cases[i].Timeout, 0)
				res.out.Results[i] = fitness.Result{Verdict: fitness.TimeLimitExceeded, Seconds: t,
					Detail: limitDetail(t, own, t < own, rr.walled)}
				if flags&runAbandon != 0 {
					for j := i + 1; j < end; j++ {
						res.out.Results[j] = fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: notRun}
						res.got[j] = true
					}
				}
			case endCrash:
				if _, ok := p.killedBy(); ok && rerun != i {
					// Killed from outside while running case i: nothing
					// the candidate did. Run it again, once, on a fresh
					// worker, so that the result is the one an undisturbed
					// run gives.
					rerun = i
					start = i
					continue
				}
				v, d := p.crashVerdict()
				res.out.Results[i] = fitness.Result{Verdict: v, Detail: d}
			default:
				res.out.Results[i] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "the gpython worker stopped answering"}
			}
			res.got[i] = true
			start = res.next(i + 1)
			continue
		}
		// The worker broke outside any case (compiling, talking garbage):
		// once more on a fresh worker, then the rest are runtime errors.
		if rr.err != nil {
			lastErr = rr.err.Error()
		}
		if rr.end == endCrash {
			_, lastErr = p.crashVerdict()
		}
		if retried {
			for j := range res.got {
				if !res.got[j] {
					res.out.Results[j] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "the gpython worker died while running the candidate: " + lastErr}
					res.got[j] = true
				}
			}
			break
		}
		retried = true
		start = res.next(0)
	}
	e.stats.candidates.Add(1)
	for i := range res.out.Results {
		if !res.got[i] {
			res.out.Results[i] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "no result from the sandbox"}
		}
		if res.cov && res.out.Results[i].Lines == nil {
			res.out.Results[i].Lines = []int{}
		}
	}
	return res, nil
}

// Close kills every worker (busy ones too: their Run returns ErrClosed)
// and removes every temporary file. Safe to call more than once.
func (e *Engine) Close() error {
	e.pool.Close()
	return nil
}

// suiteMessage is what every worker receives once.
func suiteMessage(module string, opts sandbox.Options, checks []fitness.Check, original []byte) ([]byte, error) {
	s := opts.Suite
	msg := workerSuite{Module: module, Cases: sandbox.RunCases(s.Cases, checks), MemoryMB: s.MemoryMB, OutputCap: opts.OutputCap,
		Original: string(original)}
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
	data, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("gpython: encoding the suite: %w", err)
	}
	return data, nil
}
