package main

import (
	"context"
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

	"github.com/spf13/cobra"

	"repair/donors"
	"repair/fitness"
	"repair/guard"
	"repair/internal/inputerr"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
	"repair/sandbox/engines"
	"repair/sandbox/remote"
)

// inputFlags are the flags every command that runs a program shares.
type inputFlags struct {
	targets []string
	tests   string
	// donors are programs whose code joins the ingredients (--donors),
	// the donorsMax closest to the target.
	donors    []string
	donorsMax int
	engine    string
	workers   int
	isolation string
	python    string
	// executors are the `repair serve` servers that evaluate candidates
	// instead of a local engine; executorToken is their bearer token file.
	executors     []string
	executorToken string
	// env and passEnv add variables to the candidates' environment
	// (--env KEY=VALUE, --pass-env NAME).
	env, passEnv []string
	// allowMismatch goes on when the original's verdicts under the tool
	// differ from plain pytest's (--allow-mismatch).
	allowMismatch bool
	// caseTimeout, when set, is every case's limit of CPU time
	// (--case-timeout), over the suite's.
	caseTimeout time.Duration
}

func (f *inputFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.targets, "target", nil, "the Python file under test (default: the suite's \"target\"); several files (repeat the flag, or F1,F2) or a directory are taken together")
	addTests(fl, &f.tests)
	addEngine(fl, &f.engine, "auto")
	addWorkers(fl, &f.workers)
	addSandbox(fl, &f.isolation, "auto")
	addPython(fl, &f.python)
	registerExecutorFlags(cmd, &f.executors, &f.executorToken)
	fl.StringArrayVar(&f.env, "env", nil, "set KEY=VALUE in the candidates' environment (repeatable; besides PATH, HOME, TMPDIR, LANG, LC_ALL, TZ, PYTHONHASHSEED)")
	fl.StringArrayVar(&f.passEnv, "pass-env", nil, "pass the variable NAME of this environment to the candidates (repeatable)")
	fl.DurationVar(&f.caseTimeout, "case-timeout", 0, "each test's limit of CPU time, e.g. 10s (default: the suite's \"timeout\", else 2s); a test that sleeps or waits stops at 5 times it and 1s of wall time, not counting time spent waiting for a CPU")
	_ = cmd.MarkFlagFilename("target", "py")
	_ = cmd.MarkFlagFilename("tests", "json", "jsonl", "py")
}

// registerDonors adds --donors and --donors-max, for the commands that
// search.
func (f *inputFlags) registerDonors(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringSliceVar(&f.donors, "donors", nil, "Python files or directories whose code joins the ingredients of the search (e.g. a class's correct submissions)")
	fl.IntVar(&f.donorsMax, "donors-max", 5, "use the N donors most similar to the target")
}

// loaded is a parsed target with its suite.
type loaded struct {
	prog  *program.Program
	suite *fitness.Suite
	path  string // the target as shown in messages and diffs
	// paths are the target files, path first: more than one when several
	// files are repaired together (prog is then their joined program).
	paths []string
	// notes are said once on stderr (donors that were skipped or used).
	notes []string
}

// load reads the suite and the target, and checks they fit together.
func (f *inputFlags) load() (*loaded, error) {
	l, parse, err := f.startLoad()
	if err != nil {
		return nil, err
	}
	if err := parse(); err != nil {
		return nil, err
	}
	return l, nil
}

// startLoad is load in two steps: it reads the suite and finds the
// targets (what an engine needs to start), and parse parses the targets
// into l.prog (with donors, l.notes) and checks they fit the suite. A
// command may start its engine while parse runs (a large file's parse
// takes tens of milliseconds); parse touches only l.prog and l.notes.
func (f *inputFlags) startLoad() (l *loaded, parse func() error, err error) {
	if f.tests == "" {
		return nil, nil, &flagError{fmt.Errorf("--tests is required")}
	}
	if f.caseTimeout < 0 || f.caseTimeout.Seconds() > fitness.MaxTimeout || (f.caseTimeout > 0 && f.caseTimeout < time.Millisecond) {
		return nil, nil, &flagError{fmt.Errorf("--case-timeout must be between 1ms and %v, got %v", time.Duration(fitness.MaxTimeout)*time.Second, f.caseTimeout)}
	}
	var suite *fitness.Suite
	if files, several, err := fitness.TestFiles(f.tests); err != nil {
		return nil, nil, err
	} else if several {
		if suite, err = fitness.LoadFiles(f.tests, files); err != nil {
			return nil, nil, err
		}
	} else if suite, err = fitness.Load(f.tests); err != nil {
		return nil, nil, err
	}
	if f.caseTimeout > 0 {
		suite.SetCaseTimeout(f.caseTimeout.Seconds())
	}
	targets, err := expandTargets(f.targets, f.tests)
	if err != nil {
		return nil, nil, err
	}
	target := ""
	if len(targets) > 0 {
		target = targets[0]
	}
	if target == "" {
		target = suite.Target
	}
	if target == "" {
		return nil, nil, &flagError{fmt.Errorf("--target is required (the suite %s names no \"target\")", f.tests)}
	}
	if suite.Doctest && !samePath(target, suite.Target) {
		return nil, nil, &flagError{fmt.Errorf("--target %s: a doctest suite tests the file it comes from (%s); drop --target or name that file", target, suite.Target)}
	}
	if len(targets) > 1 && suite.Doctest {
		return nil, nil, &flagError{fmt.Errorf("--target: a doctest suite tests one file")}
	}
	if len(f.donors) > 0 && len(targets) > 1 {
		return nil, nil, &flagError{fmt.Errorf("--donors: with one --target only")}
	}
	paths := targets
	if len(paths) < 2 {
		paths = []string{target}
	}
	// The files are read here, before any engine starts: a device or a
	// FIFO is refused, not read without end by an engine.
	srcs := make([][]byte, len(paths))
	for i, t := range paths {
		if srcs[i], err = program.ReadFile(t); err != nil {
			return nil, nil, err
		}
	}
	l = &loaded{suite: suite, path: target, paths: paths}
	parse = func() error {
		var prog *program.Program
		var err error
		if len(targets) > 1 {
			if prog, err = parseTargets(targets, srcs); err != nil {
				return err
			}
		} else if prog, err = program.Parse(target, srcs[0]); err != nil {
			return err
		}
		var notes []string
		if len(f.donors) > 0 {
			if prog, notes, err = withDonors(prog, target, f.donors, f.donorsMax, f.tests); err != nil {
				return err
			}
		}
		prog.Path = displayPath(target)
		if err := suite.CheckTarget(target, prog.Scopes[0].Names); err != nil {
			return err
		}
		l.prog, l.notes = prog, notes
		return nil
	}
	return l, parse, nil
}

// displayPath is the path a patch names the target by, so that it applies
// from a root with `git apply` or `patch -p1`: relative to the root of the
// git work tree holding the target, else to the working directory when the
// target lies below it, else the target's base name (apply it from the
// target's directory). Never "../x.py" or an absolute path, which neither
// tool accepts in a/ b/ headers.
func displayPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if root := gitRoot(filepath.Dir(abs)); root != "" {
		if rel, ok := below(root, abs); ok {
			return rel
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := below(wd, abs); ok {
			return rel
		}
	}
	return filepath.Base(abs)
}

// below is abs relative to dir, in slashes, when abs lies below dir.
func below(dir, abs string) (string, bool) {
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// gitRoot is the nearest directory from dir upwards that holds a .git
// (a directory, or a file in a linked work tree), or "".
func gitRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func (f *inputFlags) isolationLevel() (sandbox.Isolation, error) {
	switch f.isolation {
	case "auto", "":
		return sandbox.IsolationAuto, nil
	case "strict":
		return sandbox.IsolationStrict, nil
	case "none":
		return sandbox.IsolationNone, nil
	}
	return 0, &flagError{fmt.Errorf("--sandbox must be auto, strict or none, got %q", f.isolation)}
}

// open starts the engine for a loaded target.
func (f *inputFlags) open(ctx context.Context, l *loaded, io streams) (sandbox.Engine, error) {
	return f.openSuite(ctx, l, l.suite, 0, io)
}

// openParity is open for a command that compares the original with plain
// pytest (startParity): the engine starts plain pytest's run as soon as
// it has collected the tests (sandbox.Options.Parity).
func (f *inputFlags) openParity(ctx context.Context, l *loaded, io streams) (sandbox.Engine, error) {
	// The hybrid engine has no parity check (it is no
	// sandbox.PlainPytester): its CPython pool would run plain pytest for
	// nothing.
	return f.openEngine(ctx, l, l.suite, 0, io, false, f.engine != "hybrid", false)
}

// guardOpener opens engines for the overfitting guard's generated inputs
// like the main one (same engine, isolation, executors); its notices are
// not repeated. With closing, an engine's close returns at once and the
// engine closes in the background, beside the main one: closing.Wait
// waits for it.
func (f *inputFlags) guardOpener(l *loaded, closing *sync.WaitGroup) func(context.Context, *fitness.Suite) (guard.Runner, func(), error) {
	return func(ctx context.Context, ps *fitness.Suite) (guard.Runner, func(), error) {
		// Two workers, of which one starts: the guard runs a program at a
		// time, and its engine starts while the search runs; a waiting
		// suite's inputs run in ranges at once, and the engine grows to
		// as many servers as the search's (growForRanges; Grow allows
		// MaxGrowth per worker). It judges on CPython with the hybrid
		// engine.
		g := *f
		if g.engine == "hybrid" {
			g.engine = "cpython"
		}
		eng, err := g.openSuite(ctx, l, ps, 2, streams{Out: discard{}, Err: discard{}})
		if err != nil {
			return nil, nil, err
		}
		run := growForRanges(eng, f.workers)
		if closing == nil {
			return run, func() { eng.Close() }, nil
		}
		return run, func() { closing.Go(func() { eng.Close() }) }, nil
	}
}

// growForRanges is eng's Run, for the overfitting guard's engine: when
// the suite's cases mostly wait (sleep, I/O), repair runs a program's
// generated inputs in ranges at once (one per candidate the search runs
// at once), and the first run of a range grows the engine, when it can
// grow, to repair.WaitFactor servers per worker (workers, 0: one per
// CPU) at once, as the search's engine grows.
func growForRanges(eng sandbox.Engine, workers int) guard.Runner {
	g, ok := eng.(sandbox.Grower)
	if !ok {
		return eng.Run
	}
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	var once sync.Once
	return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		if o.Cases.End > 0 {
			once.Do(func() { g.Grow(ctx, repair.WaitFactor*workers) })
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
func (f *inputFlags) prestartGuard(ctx context.Context, l *loaded, n int, closing *sync.WaitGroup) (get func(context.Context, *fitness.Suite) (guard.Runner, func(), error), probes func() (*fitness.Suite, []int), cleanup func()) {
	open := f.guardOpener(l, closing)
	if len(l.suite.TestSource) > 0 {
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
		ps, origin := guard.Probes(l.suite, nil, n)
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
// With collected, l.suite's cases are what the search's engine collected
// under the real pytest (sandbox.Options.Collected): the check's engine
// does not collect them again.
func (f *inputFlags) verifyOpener(l *loaded, collected bool) func(context.Context) (repair.Runner, func(), error) {
	return func(ctx context.Context) (repair.Runner, func(), error) {
		// A copy: the engine replaces a pytest file's cases by those it
		// collects, while the search reads them.
		s := copySuite(l.suite)
		eng, err := f.openEngine(ctx, l, s, 1, streams{Out: discard{}, Err: discard{}}, true, false, collected)
		if err != nil {
			return nil, nil, err
		}
		return repair.SameCases(l.suite, s, eng.Run), func() { eng.Close() }, nil
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

// openSuite starts an engine for a loaded target and the given suite,
// with workers workers (0: --workers).
func (f *inputFlags) openSuite(ctx context.Context, l *loaded, suite *fitness.Suite, workers int, io streams) (sandbox.Engine, error) {
	return f.openEngine(ctx, l, suite, workers, io, false, false, false)
}

// openEngine is openSuite, with the check of delivered fixes when verify,
// starting plain pytest's run early when parity (sandbox.Options.Parity),
// on the suite's cases as collected when collected (Options.Collected).
func (f *inputFlags) openEngine(ctx context.Context, l *loaded, suite *fitness.Suite, workers int, io streams, verify, parity, collected bool) (sandbox.Engine, error) {
	iso, err := f.isolationLevel()
	if err != nil {
		return nil, err
	}
	if f.workers < 0 || f.workers > 1024 {
		return nil, &flagError{fmt.Errorf("--workers must be from 0 (one per CPU) to 1024, got %d", f.workers)}
	}
	if workers == 0 {
		workers = f.workers
	}
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	env, err := f.environment(io.Err)
	if err != nil {
		return nil, err
	}
	opts := sandbox.Options{
		Suite: suite, Target: l.path, Targets: l.paths, Workers: workers, Isolation: iso,
		Python: f.python, Stderr: io.Err, Env: env, Verify: verify, Parity: parity, Collected: collected,
	}
	if suite.Parts != nil {
		return f.openParts(ctx, opts)
	}
	if len(f.executors) > 0 {
		open, err := remoteOpener(f.executors, f.executorToken)
		if err != nil {
			return nil, err
		}
		return open(ctx, f.engine, opts)
	}
	eng, err := engines.Open(ctx, f.engine, opts)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		return nil, fmt.Errorf("start the %s engine: %w", f.engine, err)
	}
	if !sandbox.FeaturesOf(eng).Environ && len(env.Vars) > 0 {
		fmt.Fprintln(io.Err, "repair: --env, --pass-env: the gpython engine's os.environ stays empty; use --engine cpython")
	}
	return eng, nil
}

// openParts opens a suite of several test files (fitness.Suite.Parts):
// a cpython engine per file, joined (sandbox.Multi), their collected
// cases the suite's (fitness.Suite.JoinParts). Plain pytest's parity
// check runs on one file at a time only: not here.
func (f *inputFlags) openParts(ctx context.Context, opts sandbox.Options) (sandbox.Engine, error) {
	suite := opts.Suite
	switch {
	case len(f.executors) > 0:
		return nil, &flagError{fmt.Errorf("--executor: not with several test files (--tests %s)", suite.Path)}
	case f.engine != "auto" && f.engine != "cpython":
		return nil, &flagError{fmt.Errorf("--engine %s: several test files (--tests %s) need --engine cpython", f.engine, suite.Path)}
	}
	// The first file's engine opens alone (its notices are said once,
	// and what it finds of the interpreter and pytest is kept for the
	// others), then the others a few at a time.
	parts := make([]sandbox.Engine, len(suite.Parts))
	errs := make([]error, len(suite.Parts))
	open := func(i int) {
		o := opts
		o.Suite, o.Parity = suite.Parts[i], false
		if i > 0 {
			o.Stderr = discard{}
		}
		parts[i], errs[i] = engines.Open(ctx, "cpython", o)
	}
	open(0)
	for errors.Is(errs[0], sandbox.ErrCollectedNothing) && len(parts) > 1 {
		fmt.Fprintf(opts.Stderr, "repair: %s: pytest collects no test from it: left out\n", suite.Parts[0].Path)
		suite.DropPart(0)
		parts, errs = parts[1:], errs[1:]
		open(0)
	}
	if errs[0] == nil {
		var wg sync.WaitGroup
		slots := make(chan struct{}, runtime.NumCPU())
		for i := 1; i < len(parts); i++ {
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				open(i)
			})
		}
		wg.Wait()
	}
	// A file pytest collects nothing from (its tests are for another
	// interpreter, or it has none) is left out, as plain pytest runs it.
	for i := len(parts) - 1; i > 0; i-- {
		if errors.Is(errs[i], sandbox.ErrCollectedNothing) {
			fmt.Fprintf(opts.Stderr, "repair: %s: pytest collects no test from it: left out\n", suite.Parts[i].Path)
			suite.DropPart(i)
			parts = append(parts[:i:i], parts[i+1:]...)
			errs = append(errs[:i:i], errs[i+1:]...)
		}
	}
	sizes := make([]int, len(parts))
	for i, err := range errs {
		if err == nil {
			sizes[i] = len(suite.Parts[i].Cases)
			continue
		}
		for _, e := range parts {
			if e != nil {
				e.Close()
			}
		}
		if inputerr.Is(err) || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("start the cpython engine for %s: %w", suite.Parts[i].Path, err)
	}
	suite.JoinParts()
	fmt.Fprintf(opts.Stderr, "repair: %d test files, %d tests\n", len(parts), len(suite.Cases))
	return sandbox.NewMulti(parts, sizes), nil
}

// environment is the candidates' environment: the standard one, then
// --pass-env's variables of this environment, then --env's (a later one
// wins). A --pass-env variable that is not set here is said on stderr.
func (f *inputFlags) environment(stderr io.Writer) (sandbox.Environment, error) {
	env := sandbox.Environment{Standard: true}
	if len(f.executors) > 0 && len(f.env)+len(f.passEnv) > 0 {
		return env, &flagError{fmt.Errorf("--env, --pass-env: not with --executor (candidates run with the servers' environment)")}
	}
	for _, name := range f.passEnv {
		if err := sandbox.CheckEnvVar(name, false); err != nil {
			return env, &flagError{fmt.Errorf("--pass-env %v", err)}
		}
		v, ok := os.LookupEnv(name)
		if !ok {
			if stderr != nil {
				fmt.Fprintf(stderr, "repair: --pass-env %s: not set here; the candidates do not get it\n", name)
			}
			continue
		}
		env.Vars = append(env.Vars, name+"="+v)
	}
	for _, kv := range f.env {
		if err := sandbox.CheckEnvVar(kv, true); err != nil {
			return env, &flagError{fmt.Errorf("--env %v", err)}
		}
		env.Vars = append(env.Vars, kv)
	}
	return env, nil
}

// registerExecutorFlags adds --executor and --executor-token-file.
func registerExecutorFlags(cmd *cobra.Command, executors *[]string, token *string) {
	fl := cmd.Flags()
	fl.StringSliceVar(executors, "executor", nil, "evaluate candidates on these 'repair serve' servers (URL[,URL...]) instead of locally")
	fl.StringVar(token, "executor-token-file", "", "bearer token file for the --executor servers")
	_ = cmd.MarkFlagFilename("executor-token-file")
}

// remoteOpener checks --executor and returns what starts a remote engine
// on those servers (the engine name selects their runtime).
func remoteOpener(executors []string, tokenFile string) (func(context.Context, string, sandbox.Options) (sandbox.Engine, error), error) {
	var urls []string
	for _, u := range executors {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	if len(urls) == 0 {
		return nil, &flagError{fmt.Errorf("--executor: no URL")}
	}
	for _, u := range urls {
		if err := remote.CheckURL(u); err != nil {
			return nil, &flagError{fmt.Errorf("--executor: %v", err)}
		}
	}
	var token string
	if tokenFile != "" {
		var err error
		if token, err = readToken(tokenFile); err != nil {
			return nil, err
		}
	}
	return func(ctx context.Context, engine string, opts sandbox.Options) (sandbox.Engine, error) {
		eng, err := remote.New(ctx, opts, remote.Config{Executors: urls, Engine: engine, Token: token})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("--executor: %w", err)
		}
		return eng, nil
	}, nil
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(fa, fb)
}

// maxTargets bounds the files repaired together.
const maxTargets = 64

// expandTargets resolves the --target values: files as given, a
// directory as the Python files under it that are not tests (test_*.py,
// *_test.py, conftest.py) nor the suite, sorted.
func expandTargets(values []string, suite string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	suiteAbs, _ := filepath.Abs(suite)
	add := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] || abs == suiteAbs {
			return
		}
		seen[abs] = true
		out = append(out, p)
	}
	for _, v := range values {
		if v == "" {
			continue
		}
		fi, err := os.Stat(v)
		if err != nil || !fi.IsDir() {
			add(v) // reading it says what is wrong
			continue
		}
		err = filepath.WalkDir(v, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != v && (strings.HasPrefix(name, ".") || name == "__pycache__" || name == "venv" || name == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, ".py") && !strings.HasPrefix(name, "test_") && !strings.HasSuffix(name, "_test.py") && name != "conftest.py" && d.Type().IsRegular() {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) > maxTargets {
		return nil, &flagError{fmt.Errorf("--target: %d files; at most %d are repaired together", len(out), maxTargets)}
	}
	if len(values) > 0 && len(out) == 0 {
		return nil, &flagError{fmt.Errorf("--target %s: no Python file to repair", strings.Join(values, ","))}
	}
	return out, nil
}

// parseTargets parses several target files as one joined program.
func parseTargets(targets []string, srcs [][]byte) (*program.Program, error) {
	paths := make([]string, len(targets))
	for i, t := range targets {
		if _, err := program.Parse(t, srcs[i]); err != nil {
			return nil, err
		}
		paths[i] = displayPath(t)
	}
	p, err := program.ParseFiles(paths, srcs)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	return p, nil
}

// withDonors re-parses the target with the donorsMax donors most similar
// to it; notes say which were used and which were skipped.
func withDonors(prog *program.Program, target string, paths []string, max int, suite string) (*program.Program, []string, error) {
	if max <= 0 {
		return nil, nil, &flagError{fmt.Errorf("--donors-max must be positive, got %d", max)}
	}
	skip := map[string]bool{}
	for _, p := range []string{target, suite} {
		if abs, err := filepath.Abs(p); err == nil {
			skip[abs] = true
		}
	}
	files, err := donors.Collect(paths, skip)
	if err != nil {
		return nil, nil, inputerr.New("--donors: %v", unwrap(err))
	}
	picked, skipped := donors.Pick(prog.Src, files, max)
	var notes []string
	for _, s := range skipped {
		notes = append(notes, "--donors: skipped "+s)
	}
	if len(picked) == 0 {
		notes = append(notes, "--donors: no donor parses; searching without")
		return prog, notes, nil
	}
	dp := make([]string, len(picked))
	ds := make([][]byte, len(picked))
	var names []string
	for i, d := range picked {
		dp[i], ds[i] = displayPath(d.Path), d.Src
		names = append(names, fmt.Sprintf("%s (%.2f)", dp[i], d.Similarity))
	}
	notes = append(notes, fmt.Sprintf("donors, most similar first: %s", strings.Join(names, ", ")))
	p, err := program.ParseWithDonors(displayPath(target), prog.Src, dp, ds)
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	return p, notes, nil
}
