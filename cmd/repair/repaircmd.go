package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"repair/experiment"
	"repair/fitness"
	"repair/guard"
	"repair/mutate"
	"repair/repair"
	"repair/sandbox"
)

// repairFlags are the flags of the main job.
type repairFlags struct {
	in            inputFlags
	preset        string
	population    int
	generations   int
	evaluations   int
	timeBudget    time.Duration
	mutationRate  float64
	crossoverRate float64
	crossover     string
	selection     string
	tournament    int
	elitism       float64
	maxEdits      int
	immigrants    float64
	searchTimeout time.Duration
	seed          uint64
	all           bool
	alternatives  float64
	operators     string
	weightPass    float64
	weightFail    float64
	weighting     string
	localization  string
	noReduce      bool
	report        string
	write         bool
	lenient       bool
	guardInputs   int
}

func (f *repairFlags) register(cmd *cobra.Command) {
	f.in.register(cmd)
	f.in.registerDonors(cmd)
	d := repair.Defaults()
	fl := cmd.Flags()
	fl.BoolVar(&f.in.allowMismatch, "allow-mismatch", false, "search even when the original's verdicts under the tool differ from plain pytest's (see docs/engines.md)")
	fl.StringVar(&f.preset, "preset", "", "start from a preset: book (the Debugging Book's Repairer settings)")
	fl.IntVar(&f.population, "population", d.Population, "candidates per generation")
	fl.IntVar(&f.generations, "generations", d.Generations, "maximum number of generations")
	addEvaluations(fl, &f.evaluations)
	addTimeBudget(fl, &f.timeBudget, 0, "default: "+defaultBudget.String()+" unless --generations or --evaluations is given; 0: no limit")
	fl.Float64Var(&f.mutationRate, "mutation-rate", d.MutationRate, "probability that a child gets one more mutation")
	fl.Float64Var(&f.crossoverRate, "crossover-rate", d.CrossoverRate, "probability that two parents are crossed over")
	fl.StringVar(&f.crossover, "crossover", d.CrossoverName, "crossover of edit lists: one-point or uniform")
	fl.StringVar(&f.selection, "selection", d.Selection, "tournament (generational, with elitism) or truncation (the book's)")
	fl.IntVar(&f.tournament, "tournament-size", d.TournamentSize, "candidates per tournament")
	fl.Float64Var(&f.elitism, "elitism", d.Elitism, "fraction of the population kept unchanged (tournament selection)")
	fl.IntVar(&f.maxEdits, "max-edits", d.MaxEdits, "maximum number of edits of a candidate")
	fl.Float64Var(&f.immigrants, "immigrants", d.Immigrants, "fraction of each generation made of single-edit mutants not tried yet (0: off)")
	fl.DurationVar(&f.searchTimeout, "search-timeout", 0, "per-case time limit while searching (0: ten times the slowest case of the original, at least 5ms, counted in CPU time; fixes are checked with the suite's timeouts)")
	addSeed(fl, &f.seed, d.Seed)
	fl.BoolVar(&f.all, "all", false, "keep searching after the first fix and collect every distinct one (stdout gets the first; --report lists all)")
	fl.Float64Var(&f.alternatives, "alternatives", d.Alternatives, "after the first fix, search on for this share of the remaining budget (at most as many evaluations again as the first fix took, at least ten generations) and deliver the best fix found: guard, no check deleted, consistent names, fewest tokens (0: the first fix)")
	fl.StringVar(&f.operators, "operators", "default", "mutation operators and weights: default, all, or e.g. delete,insert=2,cmp-op=3 (see 'repair operators')")
	fl.Float64Var(&f.weightPass, "weight-passing", d.Weights.Passing, "fitness weight of the cases the original passes")
	fl.Float64Var(&f.weightFail, "weight-failing", d.Weights.Failing, "fitness weight of the cases the original fails")
	fl.StringVar(&f.weighting, "weighting", "relative", "fitness: relative (the book's fractions) or absolute (GenProg's counts)")
	fl.StringVar(&f.localization, "localization", d.Formula.Name, usageLocalization)
	fl.BoolVar(&f.noReduce, "no-reduce", false, "print the patch as found, without delta debugging")
	addReport(fl, &f.report)
	fl.BoolVar(&f.write, "write", false, "apply the patch to the target (keeping a .orig copy)")
	addGuardInputs(fl, &f.guardInputs, guard.DefaultInputs)
	registerLenient(cmd, &f.lenient)
}

// defaultBudget is the time budget of a run that sets none of
// --time-budget, --generations and --evaluations.
const defaultBudget = 5 * time.Minute

// options turns the flags into search options: the preset's settings, then
// every flag the user set. It goes through experiment.Options, so that a
// sweep's parameters mean exactly what the flags mean.
func (f *repairFlags) options(cmd *cobra.Command) (repair.Options, error) {
	v := experiment.Values{}
	for _, p := range experiment.Params {
		name := strings.TrimPrefix(p.Flag, "--")
		fl := cmd.Flags().Lookup(name)
		if fl == nil || !fl.Changed {
			continue
		}
		c, err := experiment.Canonical(p.Name, fl.Value.String())
		if err != nil {
			return repair.Options{}, &flagError{fmt.Errorf("%s: %v", p.Flag, err)}
		}
		v[p.Name] = c
	}
	o, err := experiment.Options(v)
	if err != nil {
		return o, err
	}
	o.Seed = f.seed
	o.Workers = f.in.workers
	if !changed(cmd, "time-budget", "generations", "evaluations") {
		o.TimeBudget = defaultBudget
	}
	return o, nil
}

// changed reports whether any of the named flags was set.
func changed(cmd *cobra.Command, names ...string) bool {
	for _, n := range names {
		if fl := cmd.Flags().Lookup(n); fl != nil && fl.Changed {
			return true
		}
	}
	return false
}

// budgetLine says the run's budget in the first line of its output.
func budgetLine(cmd *cobra.Command, o repair.Options) string {
	var parts []string
	if o.TimeBudget > 0 {
		parts = append(parts, "time budget "+short(o.TimeBudget))
	}
	if o.Evaluations > 0 {
		parts = append(parts, plural(o.Evaluations, "evaluation"))
	}
	if o.Generations < repair.MaxGenerations {
		parts = append(parts, plural(o.Generations, "generation"))
	}
	s := "no budget"
	if len(parts) > 0 {
		s = "stops after " + strings.Join(parts, " or ")
	}
	if !changed(cmd, "time-budget", "generations", "evaluations") {
		s += " (the default; --time-budget, --generations or --evaluations to change)"
	}
	return s
}

func runRepair(cmd *cobra.Command, f *repairFlags, io streams) (err error) {
	began := time.Now()
	defer startupGC(startupGCWindow)()
	ctx := cmd.Context()
	opts, err := f.options(cmd)
	if err != nil {
		return err
	}
	// --time-budget counts from here: the engines' start and the
	// original's run are part of the run the user waits for.
	opts.Start = began
	if f.report != "" {
		if err := checkWritable("--report", f.report); err != nil {
			return err
		}
	}
	if err := checkLenient(f.lenient, &f.in); err != nil {
		return err
	}
	if f.guardInputs < 0 || f.guardInputs > 100_000 {
		return &flagError{fmt.Errorf("--guard-inputs must be from 0 to 100000, got %d", f.guardInputs)}
	}
	l, parse, err := f.in.startLoad()
	if err != nil {
		return err
	}
	// From here on every outcome gets its --report: one that ends
	// without a search's result (nothing to repair, tests that never
	// reach the target, a target that does not compile) says why.
	var eng sandbox.Engine
	engineDesc := f.in.engine
	reported := false
	defer func() {
		if err != nil && f.report != "" && !reported {
			if rerr := writeReport(f.report, f, opts, l, engineDesc, eng, &repair.Result{}, time.Since(began), err); rerr != nil {
				fmt.Fprintf(io.Err, "repair: %v\n", rerr)
			}
		}
	}()
	// stderr, while the run lasts: the stages and the search's progress,
	// and the notices above them (-q: errors and the warnings that change
	// the outcome alone; -v: more).
	var plog *progressLog
	log, warn := io.v.log(io.Err), io.Err
	if !io.v.quiet {
		plog = newProgressLog(io.Err, isTerminal(io.Err), io.v.verbose, began, opts.TimeBudget)
		defer plog.Close()
		log, warn = plog, plog
		opts.Stage = plog.Stage
	}
	debug := io.v.debug(log)
	fmt.Fprintf(log, "repair: %s against %s; %s\n", strings.Join(l.paths, ", "), f.in.tests, budgetLine(cmd, opts))
	// The target is parsed while the engines start (they need only its
	// path and the suite); a parse error still comes first.
	parsed := make(chan error, 1)
	// Then the operators' view of it (repair.Options.Prepared), still
	// while the engines start when the parse ends first.
	prepared := make(chan *mutate.Context, 1)
	go func() {
		err := parse()
		parsed <- err
		if err != nil {
			close(prepared)
			return
		}
		prepared <- mutate.Prepare(l.prog)
	}()
	opts.Prepared = sync.OnceValue(func() *mutate.Context { return <-prepared })
	parseErr := func() error {
		if parsed == nil {
			return nil
		}
		err := <-parsed
		parsed = nil
		return err
	}
	defer parseErr()
	if f.write {
		for _, p := range l.paths {
			if err := checkTargetWritable(p); err != nil {
				return err
			}
		}
	}
	// The guard's engine closes beside the main one, before the process
	// ends.
	var closing sync.WaitGroup
	defer closing.Wait()
	openGuard := f.in.guardOpener(l, &closing)
	if f.guardInputs > 0 && !f.lenient {
		var cleanup func()
		openGuard, opts.GuardProbes, cleanup = f.in.prestartGuard(ctx, l, f.guardInputs, &closing)
		defer cleanup()
	}
	// What the engine says while the target is parsed waits for the
	// parse: an error in the target is the one line the user sees.
	engLog := &held{w: log}
	open := f.in.open
	if !f.lenient {
		open = f.in.openParity // startParity below
	}
	announce(opts, "engine start")
	eng, err = open(ctx, l, streams{Out: io.Out, Err: engLog})
	if perr := parseErr(); perr != nil {
		if err == nil {
			eng.Close()
			eng = nil
		}
		return perr
	}
	engLog.release()
	if err != nil {
		eng = nil
		return err
	}
	defer eng.Close()
	if plog != nil {
		// A valid run: what it said so far goes out.
		plog.release()
	}
	for _, n := range l.notes {
		fmt.Fprintf(log, "repair: %s\n", n)
	}
	engineDesc = sandbox.Describe(eng)
	if f.lenient {
		if opts.Lenient, err = lenientPlan(l, eng); err != nil {
			return err
		}
		engineDesc += ", lenient"
	}
	fmt.Fprintf(log, "repair: %s, engine %s, %d cases\n", l.prog.Path, engineDesc, len(l.suite.Cases))
	if !f.lenient {
		par := startParity(ctx, eng, l.suite)
		defer par.stop()
		check := par.check(f.in.allowMismatch, warn)
		opts.CheckOriginal = func(ctx context.Context, orig *fitness.Outcome, again func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
			announce(opts, "parity check")
			return check(ctx, orig, again)
		}
	}

	opts.Log = log
	if f.guardInputs > 0 {
		opts.Guard, opts.GuardInputs = openGuard, f.guardInputs
	}
	if feat := sandbox.FeaturesOf(eng); len(l.suite.TestSource) > 0 && feat.Verify {
		opts.Verify = f.in.verifyOpener(l, feat.RealPytest)
	}
	if c, ok := eng.(sandbox.Sizer); ok && opts.Workers == 0 {
		// Remote executors: keep as many candidates in flight as their
		// workers, not as this machine has CPUs.
		opts.Workers = min(max(c.Capacity(), 1), 1024)
	}
	if g, ok := eng.(sandbox.Grower); ok && f.in.workers == 0 {
		// A suite whose cases mostly wait gets more candidates at once
		// (the user did not choose how many).
		opts.Grow = g.Grow
	}
	if plog != nil {
		opts.Progress = plog.Progress
	}
	start := time.Now()
	res, runErr := repair.Run(ctx, l.prog, l.suite, eng.Run, opts)
	if plog != nil {
		plog.Close()
	}
	if runErr != nil && res == nil {
		return runErr
	}
	elapsed := time.Since(start)
	if f.lenient && res.Original != nil {
		printNeeded(log, res.Original)
	}
	// A report that cannot be written now (the disk filled up during the
	// search) does not cost the fix: it is printed all the same.
	var reportErr error
	if f.report != "" {
		reported = true
		reportErr = writeReport(f.report, f, opts, l, engineDesc, eng, res, elapsed, runErr)
	}
	summarize(log, l, res, elapsed)
	fastPath(debug, eng, res)
	if runErr != nil && errors.Is(runErr, context.Canceled) {
		// Ctrl-C exits 1 with nothing on stdout, even when --all (or the
		// guard) had fixes already: they are in the summary and the
		// report.
		fmt.Fprintln(log, "repair: interrupted")
		if reportErr != nil {
			return reportErr
		}
		return &exitError{code: exitNotFound}
	}
	if len(res.Fixes) == 0 {
		if reportErr != nil {
			return reportErr
		}
		return &exitError{code: exitNotFound}
	}
	fix := res.Fixes[0]
	fmt.Fprint(io.Out, fix.Diff)
	if f.write {
		if err := writeTargets(log, l, fix.Source); err != nil {
			return err
		}
	}
	if reportErr != nil {
		return reportErr
	}
	if fix.Guard.Suspect() {
		// Fixes are ranked by inputs broken: the first is the least
		// suspect, so every fix found is.
		fmt.Fprintf(io.Err, "repair: suspect fix: it breaks %d of %d generated inputs the original handled (e.g. %s); exit code %d\n",
			fix.Guard.Broken, fix.Guard.Inputs, fix.Guard.Example, exitSuspect)
		return &exitError{code: exitSuspect}
	}
	return nil
}

// announce announces a stage of the run (repair.Options.Stage).
func announce(o repair.Options, name string) {
	if o.Stage != nil {
		o.Stage(name)
	}
}

// fastPath says, with -v, how the candidates ran: test selection and the
// engine's fast paths, and why a fast path was off when it was.
func fastPath(w io.Writer, eng sandbox.Engine, res *repair.Result) {
	if res.Evaluations > 0 {
		fmt.Fprintf(w, "repair: stages: localize %s, search %s, reduce %s, check %s, guard %s\n",
			short(res.LocalizeTime), short(res.SearchTime), short(res.ReduceTime), short(res.VerifyTime), short(res.GuardTime))
		fmt.Fprintf(w, "repair: cases run %d, skipped by test selection %d\n", res.CasesRun, res.CasesSkipped)
	}
	st := sandbox.CountsOf(eng).FastPaths
	if st == nil {
		fmt.Fprintf(w, "repair: engine %s: the fast paths (reused children, partial re-execution) are CPython's\n", eng.Name())
		return
	}
	fmt.Fprintf(w, "repair: sandbox: %d candidates; %d reused a waiting child, %d compiled one changed definition at a time, %d ran only the cases their edits reach; %d fresh forks\n",
		st.Candidates, st.Reused, st.Partial, st.Selected, st.Forks)
	if why := forkReasons(st.FreshForks); why != "" {
		fmt.Fprintf(w, "repair: fresh forks by why no child could be reused: %s\n", why)
	}
}

type discard struct{}

// held keeps what is written to it until release, then writes through
// to w; what it kept is dropped if release is never called.
type held struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	open bool
}

func (h *held) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open {
		return h.w.Write(p)
	}
	h.buf = append(h.buf, p...)
	return len(p), nil
}

func (h *held) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.open && len(h.buf) > 0 {
		h.w.Write(h.buf)
	}
	h.open, h.buf = true, nil
}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func summarize(w io.Writer, l *loaded, res *repair.Result, elapsed time.Duration) {
	rate := float64(res.Evaluations) / max(res.SearchTime.Seconds(), 1e-9)
	hits := res.Cache.Hits
	if len(res.Fixes) == 0 {
		fmt.Fprintf(w, "repair: no plausible patch (stopped: %s) after %s, %s (%.0f/s, %d cache hits), %.2fs; best fitness %.4f\n",
			res.StopReason, plural(res.Generations, "generation"), plural(res.Evaluations, "evaluation"), rate, hits, elapsed.Seconds(), res.BestFitness)
		if res.BestFitness >= 1 {
			// A candidate passed every case in the search's runs: say why
			// it is not a fix.
			fmt.Fprintf(w, "repair: candidates passed every case in the search's runs, but none became a fix: %d failed their validation run (flaky or order-dependent tests), %d were refused by the check of delivered fixes, and a delivery cut short by the time budget is not claimed\n",
				res.Rejected, len(res.Refused))
		}
		if res.BestDiff != "" {
			fmt.Fprintf(w, "repair: the best candidate (not a fix):\n%s", indent(res.BestDiff))
		}
		return
	}
	fix := res.Fixes[0]
	fmt.Fprintf(w, "repair: plausible patch found in generation %d after %s; %s, %s in all (%.0f/s, %d cache hits), %.2fs\n",
		fix.Generation, plural(fix.Evaluations, "evaluation"), plural(res.Generations, "generation"), plural(res.Evaluations, "evaluation"), rate, hits, elapsed.Seconds())
	for _, d := range fix.Describe {
		fmt.Fprintf(w, "repair:   %s\n", d)
	}
	if fix.Guard != nil {
		fmt.Fprintf(w, "repair:   guard: %s\n", fix.Guard)
	}
	if n := len(res.Fixes); n > 1 {
		fmt.Fprintf(w, "repair: %d alternatives considered; %s\n", n, res.Why)
	} else {
		fmt.Fprintf(w, "repair: 1 alternative considered\n")
	}
	for i, other := range res.Fixes[1:] {
		fmt.Fprintf(w, "repair: fix %d of %d:\n", i+2, len(res.Fixes))
		for _, d := range other.Describe {
			fmt.Fprintf(w, "repair:   %s\n", d)
		}
		if other.Guard != nil {
			fmt.Fprintf(w, "repair:   guard: %s\n", other.Guard)
		}
	}
}

func indent(s string) string {
	var sb strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			sb.WriteString("    " + line)
		}
	}
	return sb.String()
}

// forkReasons lists the nonzero counts of fresh forks by reason.
func forkReasons(r sandbox.ForkReasons) string {
	var parts []string
	for _, c := range []struct {
		n    int64
		what string
	}{
		{r.First, "first of a server"}, {r.NoReuse, "the run or the server reuses no child (coverage, pytest, a package, several targets)"},
		{r.ImpureName, "not pure: a name reaching the interpreter"}, {r.ImpureImport, "not pure: an import"},
		{r.ImpureDunder, "not pure: a dunder"}, {r.ImpureString, "not pure: a mutable attribute's name"},
		{r.Impure, "not pure in its changed definitions"}, {r.AfterImpure, "after a candidate that kept no child"},
		{r.Guard, "the guard refused the child"}, {r.Served, "the child had served its candidates"},
		{r.Ended, "the child ended early"}, {r.Again, "again after an early end"},
	} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(parts, "; ")
}
