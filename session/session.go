package session

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"repair/fitness"
	"repair/guard"
	"repair/internal/inputerr"
	"repair/lenient"
	"repair/repair"
	"repair/sandbox"
)

// Session is what a repair runs on: the main engine, the overfitting
// guard's engine (started in the background when the suite alone decides
// its inputs), the engine of the check of delivered fixes (opened when
// the search first delivers), the parity check with plain pytest. Close
// closes them all.
type Session struct {
	cfg *Config
	in  *Input
	// Engine is the main engine, once Open has started it.
	Engine sandbox.Engine
	// shared: many searches of in's suite at once (Hooks keeps one guard
	// engine and one check engine for all of them).
	shared bool

	openGuard func(context.Context, *fitness.Suite) (guard.Runner, func(), error)
	probes    func() (*fitness.Suite, []int)
	par       *parity
	// verify is the shared check's opener (NewShared), made once.
	verify func(context.Context) (repair.Runner, func(), error)
	// closers run at Close, last first; closing waits for the guard's
	// engines, which close in the background.
	mu      sync.Mutex
	closers []func()
	closing sync.WaitGroup
}

// New begins a session for in (whose Prog may still be parsing: New
// needs its paths and suite only). It checks the configuration and, for
// a suite whose generated inputs the suite alone decides, starts the
// guard's engine in the background while the main one starts.
func New(ctx context.Context, cfg *Config, in *Input) (*Session, error) {
	if err := cfg.checkGuard(); err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, in: in}
	s.openGuard = s.guardOpener(2)
	if s.guarded() {
		var cleanup func()
		s.openGuard, s.probes, cleanup = s.prestartGuard(ctx, cfg.GuardInputs)
		s.defers(cleanup)
	}
	return s, nil
}

// NewShared is New for many searches of in's suite at once (a sweep's
// trials, a class's submissions): the guard's engine and the check's
// are opened once, when first needed, and shared by the searches; there
// is no parity check and no growing of the main engine.
func NewShared(cfg *Config, in *Input) (*Session, error) {
	if err := cfg.checkGuard(); err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, in: in, shared: true}
	s.openGuard = s.sharedGuard(s.guardOpener(2))
	return s, nil
}

func (f *Config) checkGuard() error {
	if f.GuardInputs < 0 || f.GuardInputs > 100_000 {
		return inputerr.New("--guard-inputs must be from 0 to 100000, got %d", f.GuardInputs)
	}
	return nil
}

// guarded reports whether the overfitting guard runs.
func (s *Session) guarded() bool { return s.cfg.GuardInputs > 0 && !s.cfg.Lenient }

// Guarded reports whether the overfitting guard checks the fixes.
func (s *Session) Guarded() bool { return s.guarded() }

// Checked reports whether the check of delivered fixes runs (a test
// file's suite on an engine that has it, sandbox.Features.Verify, unless
// turned off); after Open.
func (s *Session) Checked() bool {
	return !s.cfg.NoCheck && len(s.in.Suite.TestSource) > 0 && s.Engine != nil && verifies(s.Engine)
}

// defers adds f to what Close runs.
func (s *Session) defers(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closers = append(s.closers, f)
}

// Open starts the main engine; its notices go to stderr. Unless the
// session is lenient, it starts plain pytest's run for the parity check
// as soon as the engine has collected the tests.
func (s *Session) Open(ctx context.Context, stderr io.Writer) (sandbox.Engine, error) {
	// The hybrid engine has no parity check (it is no
	// sandbox.PlainPytester): its CPython pool would run plain pytest for
	// nothing.
	return s.open(ctx, stderr, !s.cfg.Lenient && !s.shared && s.cfg.Engine != "hybrid")
}

// OpenPlain is Open for a command without the parity check.
func (s *Session) OpenPlain(ctx context.Context, stderr io.Writer) (sandbox.Engine, error) {
	return s.open(ctx, stderr, false)
}

func (s *Session) open(ctx context.Context, stderr io.Writer, parity bool) (sandbox.Engine, error) {
	eng, err := s.cfg.openEngine(ctx, s.in, s.in.Suite, engineOpts{stderr: stderr, parity: parity})
	if err != nil {
		return nil, err
	}
	s.Engine = eng
	s.defers(func() { eng.Close() })
	return eng, nil
}

// StartParity starts plain pytest on the original beside the tool's run
// when the engine runs a project's test file under the real pytest.
func (s *Session) StartParity(ctx context.Context) {
	s.par = startParity(ctx, s.Engine, s.in.Suite)
	s.defers(s.par.stop)
}

// ParityReport compares the original's outcome under the tool with plain
// pytest's (waiting for it; StartParity started it), or for other suites
// says which environment variables cases lacked.
func (s *Session) ParityReport(ctx context.Context, orig *fitness.Outcome) (repair.ParityReport, error) {
	return s.par.report(ctx, orig)
}

// LenientPlan predicts the values a lenient run injects (--lenient), for
// the engine Open started.
func (s *Session) LenientPlan() (*lenient.Plan, error) { return lenientPlan(s.in, s.Engine) }

// Hooks sets what repair.Run takes from the session: the parity check
// (CheckOriginal, its lines on warn; stage announces it), the guard
// (Guard, GuardInputs, GuardProbes), the check of delivered fixes
// (Verify), and the engine's capacity (Workers, Grow) when the user
// chose no --workers.
func (s *Session) Hooks(ctx context.Context, o *repair.Options, warn io.Writer) {
	eng := s.Engine
	if !s.cfg.Lenient && !s.shared {
		s.StartParity(ctx)
		check := s.par.check(s.cfg.AllowMismatch, warn)
		stage := o.Stage
		o.CheckOriginal = func(ctx context.Context, orig *fitness.Outcome, again func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
			if stage != nil {
				stage("parity check")
			}
			return check(ctx, orig, again)
		}
	}
	if s.guarded() {
		o.Guard, o.GuardInputs, o.GuardProbes = s.openGuard, s.cfg.GuardInputs, s.probes
		if !s.shared {
			o.GuardExamples = s.examples()
		}
	}
	if s.Checked() {
		if s.shared {
			// Its own collection: the searches' programs differ (a
			// class's submissions), and so may what pytest collects.
			s.mu.Lock()
			if s.verify == nil {
				s.verify = s.sharedVerify(s.verifyOpener(false))
			}
			o.Verify = s.verify
			s.mu.Unlock()
		} else {
			o.Verify = s.verifyOpener(realPytest(eng))
		}
	}
	if c, ok := capacity(eng); ok && o.Workers == 0 {
		// Remote executors: keep as many candidates in flight as their
		// workers, not as this machine has CPUs.
		o.Workers = min(max(c, 1), 1024)
	}
	if g := grower(eng); g != nil && s.cfg.Workers == 0 && !s.shared {
		// A suite whose cases mostly wait gets more candidates at once
		// (the user did not choose how many).
		o.Grow = g
	}
}

// examples is the doctest suite of the target's docstring examples, for
// the guard of a test file's suite (repair.Options.GuardExamples); nil
// when the suite is no test file or is those doctests, when several
// files are repaired together, or when the target has no examples.
func (s *Session) examples() *fitness.Suite {
	su := s.in.Suite
	if len(su.TestSource) == 0 || su.Doctest || len(s.in.Paths) > 1 {
		return nil
	}
	ex, err := fitness.Load(fitness.DoctestPrefix + s.in.Path)
	if err != nil {
		return nil
	}
	return ex
}

// Close stops plain pytest, closes the engines and waits for them.
func (s *Session) Close() {
	s.mu.Lock()
	closers := s.closers
	s.closers = nil
	s.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
	s.closing.Wait()
}

// guardOpener opens engines for the overfitting guard's generated inputs
// like the main one (same engine, isolation, executors) with workers
// workers; its notices are not repeated. An engine's close returns at
// once and the engine closes in the background, beside the main one:
// Close waits for it.
func (s *Session) guardOpener(workers int) func(context.Context, *fitness.Suite) (guard.Runner, func(), error) {
	return func(ctx context.Context, ps *fitness.Suite) (guard.Runner, func(), error) {
		// Two workers, of which one starts: the guard runs a program at a
		// time, and its engine starts while the search runs; a waiting
		// suite's inputs run in ranges at once, and the engine grows to
		// as many servers as the search's (growForRanges; Grow allows
		// MaxGrowth per worker). It judges on CPython with the hybrid
		// engine.
		g := *s.cfg
		if g.Engine == "hybrid" {
			g.Engine = "cpython"
		}
		eng, err := g.openEngine(ctx, s.in, ps, engineOpts{workers: workers})
		if err != nil {
			return nil, nil, err
		}
		run := growForRanges(eng, s.cfg.Workers)
		return run, func() { s.closing.Go(func() { eng.Close() }) }, nil
	}
}

// sharedGuard is open for many searches: the engine of the first probe
// suite asked for is kept for every search that asks for the same
// inputs, and closed with the session; other inputs get an engine of
// their own.
func (s *Session) sharedGuard(open func(context.Context, *fitness.Suite) (guard.Runner, func(), error)) func(context.Context, *fitness.Suite) (guard.Runner, func(), error) {
	var mu sync.Mutex
	var kept *fitness.Suite
	var run guard.Runner
	var err error
	return func(ctx context.Context, ps *fitness.Suite) (guard.Runner, func(), error) {
		mu.Lock()
		if kept == nil {
			kept = ps
			var closeFn func()
			// Not the first search's context: the engine outlives it.
			run, closeFn, err = open(context.WithoutCancel(ctx), ps)
			if closeFn != nil {
				s.defers(closeFn)
			}
		}
		same := sameProbes(kept, ps)
		r, e := run, err
		mu.Unlock()
		if same {
			return r, func() {}, e
		}
		return open(ctx, ps)
	}
}

// growForRanges is eng's Run, for the overfitting guard's engine: when
// the suite's cases mostly wait (sleep, I/O), repair runs a program's
// generated inputs in ranges at once (one per candidate the search runs
// at once), and the first run of a range grows the engine, when it can
// grow, to repair.WaitFactor servers per worker (workers, 0: one per
// CPU) at once, as the search's engine grows.
func growForRanges(eng sandbox.Engine, workers int) guard.Runner {
	grow := grower(eng)
	if grow == nil {
		return eng.Run
	}
	workers = Workers(workers)
	var once sync.Once
	return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		if o.Cases.End > 0 {
			once.Do(func() { grow(ctx, repair.WaitFactor*workers) })
		}
		return eng.Run(ctx, src, o)
	}
}

// prestartGuard opens the overfitting guard's engine in the background
// while the main engine starts, for a suite whose generated inputs the
// suite alone decides (not a test file's): the guard's cost is mostly its
// engine's start, and the inputs are generated there too, off the main
// engine's way. The opener it returns hands that engine to repair.Run,
// which asks for it with the same probe suite (else it opens one as
// guardOpener does); the cleanup closes it if Run never took it.
func (s *Session) prestartGuard(ctx context.Context, n int) (get func(context.Context, *fitness.Suite) (guard.Runner, func(), error), probes func() (*fitness.Suite, []int), cleanup func()) {
	open := s.openGuard
	if len(s.in.Suite.TestSource) > 0 {
		return open, nil, func() {}
	}
	type opened struct {
		probes *fitness.Suite
		run    guard.Runner
		close  func()
		err    error
	}
	ch := make(chan opened, 1)
	type made struct {
		ps     *fitness.Suite
		origin []int
	}
	inputs := make(chan made, 1)
	pctx, cancel := context.WithCancel(ctx)
	go func() {
		ps, origin := guard.Probes(s.in.Suite, nil, n)
		inputs <- made{ps, origin}
		if ps == nil {
			ch <- opened{}
			return
		}
		run, closeFn, err := open(pctx, ps)
		ch <- opened{ps, run, closeFn, err}
	}()
	var taken atomic.Bool
	get = func(ctx context.Context, want *fitness.Suite) (guard.Runner, func(), error) {
		if !taken.CompareAndSwap(false, true) {
			return open(ctx, want)
		}
		o := <-ch
		if o.probes == nil || !sameProbes(o.probes, want) {
			if o.close != nil {
				o.close()
			}
			return open(ctx, want)
		}
		return o.run, o.close, o.err
	}
	// The inputs, for repair.Options.GuardProbes: made once, here.
	probes = sync.OnceValues(func() (*fitness.Suite, []int) {
		m := <-inputs
		return m.ps, m.origin
	})
	cleanup = func() {
		cancel()
		if taken.CompareAndSwap(false, true) {
			if o := <-ch; o.close != nil {
				o.close()
			}
		}
	}
	return get, probes, cleanup
}

// sameProbes reports whether two probe suites hold the same inputs.
func sameProbes(a, b *fitness.Suite) bool {
	if len(a.Cases) != len(b.Cases) {
		return false
	}
	for i := range a.Cases {
		x, y := &a.Cases[i], &b.Cases[i]
		if x.Name != y.Name || x.Function != y.Function || string(x.Args) != string(y.Args) || string(x.Kwargs) != string(y.Kwargs) ||
			(x.Stdin == nil) != (y.Stdin == nil) || x.Stdin != nil && *x.Stdin != *y.Stdin {
			return false
		}
	}
	return true
}

// verifyOpener opens the engine of the check of delivered fixes
// (sandbox.Options.Verify) like the main one; its notices are not
// repeated.
//
// With collected, the suite's cases are what the search's engine
// collected under the real pytest (sandbox.Options.Collected): the
// check's engine does not collect them again.
func (s *Session) verifyOpener(collected bool) func(context.Context) (repair.Runner, func(), error) {
	workers := 1
	if s.shared {
		workers = 0
	}
	return func(ctx context.Context) (repair.Runner, func(), error) {
		// A copy: the engine replaces a pytest file's cases by those it
		// collects, while the search reads them.
		c := copySuite(s.in.Suite)
		eng, err := s.cfg.openEngine(ctx, s.in, c, engineOpts{workers: workers, verify: true, collected: collected})
		if err != nil {
			return nil, nil, err
		}
		return repair.SameCases(s.in.Suite, c, eng.Run), func() { eng.Close() }, nil
	}
}

// sharedVerify is open for many searches: one engine, opened when first
// needed, closed with the session.
func (s *Session) sharedVerify(open func(context.Context) (repair.Runner, func(), error)) func(context.Context) (repair.Runner, func(), error) {
	var once sync.Once
	var run repair.Runner
	var err error
	return func(ctx context.Context) (repair.Runner, func(), error) {
		once.Do(func() {
			var closeFn func()
			// Not the first search's context: the engine outlives it.
			run, closeFn, err = open(context.WithoutCancel(ctx))
			if closeFn != nil {
				s.defers(closeFn)
			}
		})
		return run, func() {}, err
	}
}

// copySuite is a copy of s whose cases (its parts' too) an engine may
// replace.
func copySuite(s *fitness.Suite) *fitness.Suite {
	c := *s
	c.Cases = append([]fitness.Case(nil), s.Cases...)
	if s.Parts != nil {
		c.Parts = make([]*fitness.Suite, len(s.Parts))
		for i, p := range s.Parts {
			c.Parts[i] = copySuite(p)
		}
	}
	return &c
}
