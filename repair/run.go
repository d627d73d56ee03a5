// Run: the stages of a repair, in order, and the state of its search.

package repair

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"repair/fitness"
	"repair/guard"
	"repair/localize"
	"repair/mutate"
	"repair/program"
	"repair/sandbox"
)

// Runner evaluates one candidate source; engines' Run methods fit it.
type Runner func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error)

// search is the state of one run.
type search struct {
	opts   Options
	prog   *program.Program
	suite  *fitness.Suite
	run    Runner
	cache  *fitness.Cache
	mctx   *mutate.Context
	mut    *mutate.Mutator
	log    io.Writer
	start  time.Time
	seen   map[fitness.Key]bool // distinct candidates evaluated
	evals  int
	result *Result
	fixes  map[fitness.Key]bool
	bred   map[fitness.Key]bool // mutants bred for the next generation
	keys   *fitness.Prefixed    // candidates' keys, the original's prefix hashed once (keyOf)
	stream *mutate.Stream       // first-order edits not yet tried, in order
	// streamLimit is the limit stream was drawn with (refill).
	streamLimit int
	sweep       *mutate.Stream // first-order edits at the top statements, in a fixed order
	turn        int            // immigrants taken: even turns take the sweep's next edit
	// twins are fixes with a literal changed alike at its other sites
	// (twins), which the next immigrants try first.
	twins []program.Patch
	best  float64 // fitness of result.Best

	// outer is the run's context, which outlives the time budget by
	// DeliveryGrace (the delivery of a fix found at the end of it);
	// budgetEnd is when the budget runs out (zero: no budget).
	outer     context.Context
	budgetEnd time.Time
	delivered map[fitness.Key]bool // fixes after reduction, by program
	stop      bool                 // a fix ended the search
	// judged are the outcomes of candidates whose validation failed twice
	// alike, which the search's runs of them return (the cache may evict
	// them).
	judged map[fitness.Key]*fitness.Outcome
	// rejected are the judgements of the generation being evaluated, which
	// take effect (judged, the cache) when it ends (search.judge).
	rejected []judgement
	// flaky marks the cases whose verdict changed on re-runs (a fix's
	// validation, the original's); origFlaky those whose verdict changed
	// on the original's runs (checkOriginal, once: origChecked), which no
	// fix need pass; leftOut is origFlaky as of the generation's start:
	// those cases count as passed for every candidate (neutral). Nil:
	// none.
	flaky, origFlaky, leftOut []bool
	origChecked               bool
	again                     *again                                  // the original's runs again, on the whole suite
	cut                       func(*fitness.Outcome) *fitness.Outcome // a whole suite's outcome on the search's
	// After a suspect fix (guard.Report.Suspect) the search goes on until
	// graceEvals evaluations or graceTime from start.
	graceEvals int
	graceTime  time.Duration
	// begun is when Run started.
	begun       time.Time
	guardEarly  *guardOpen      // the guard's engine, opened with the run (or nil)
	guardReady  chan guardSetup // the guard's setup, started with the search
	stopGuard   func()          // stops it (startGuard)
	guardWaited bool
	guard       *guard.Guard
	// The check of delivered fixes (verify.go), opened when the run starts.
	verifyReady  chan verifySetup
	verifyWrap   func(Runner) Runner // the suite's subset, when cases were left out
	verifyWaited bool
	// saidInProcess: the log said the check judged tests in-process.
	saidInProcess bool
	verifier      Runner
	verifiedOrig  *fitness.Outcome // the original under the check, once needed

	sel   *selector // test selection and partial re-execution (nil: every case runs, compiled whole)
	walls []float64 // the search's wall caps of the cases
	cpus  []float64 // the search's caps of the cases' CPU time, or nil (cpuCaps)

	casesRun, casesSkipped atomic.Int64
}

// Run repairs program p against suite s, evaluating candidates with run.
// It returns an error only when the input is unusable (the original does
// not compile, nothing to repair: inputerr errors) or the tool broke; no
// fix within the budget is a Result without Fixes. When ctx is canceled
// the result so far is returned with ctx.Err().
func Run(ctx context.Context, p *program.Program, s *fitness.Suite, run Runner, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Workers == 0 {
		opts.Workers = runtime.NumCPU()
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	res := &Result{}
	t0 := time.Now()
	var budgetEnd time.Time
	if opts.TimeBudget > 0 {
		start := opts.Start
		if start.IsZero() {
			start = t0
		}
		budgetEnd = start.Add(opts.TimeBudget)
	}
	early := openGuardEarly(ctx, &opts, s)
	defer early.release()
	verifyReady, stopVerify := openVerify(ctx, opts, s)
	defer stopVerify()
	var verifyWrap func(Runner) Runner
	if p.HasDonors() {
		// Donor files are ingredients: candidates run without them.
		run = withoutDonors(p, run)
	}

	// The operators' view of the program is the program's alone until it
	// is weighted: made while the original runs (on a large file, tens of
	// milliseconds of Go beside the original's run in Python).
	prepared := make(chan *mutate.Context, 1)
	go func() {
		if opts.Prepared != nil {
			if c := opts.Prepared(); c != nil {
				prepared <- c
				return
			}
		}
		prepared <- mutate.Prepare(p)
	}()

	// The original program, with coverage: within the time budget (on a
	// machine loaded enough, a large suite's run outlasts it; there is
	// then nothing to search with).
	octx, cancelOrig := ctx, context.CancelFunc(func() {})
	if !budgetEnd.IsZero() {
		octx, cancelOrig = context.WithDeadline(ctx, budgetEnd)
	}
	ag := &again{run: run, src: p.Src, n: len(s.Cases), workers: opts.Workers, lenient: opts.Lenient}
	opts.stage("original run")
	orig, sub, err := original(octx, p, s, run, opts, ag)
	budgetOut := err != nil && octx.Err() != nil && ctx.Err() == nil
	cancelOrig()
	if budgetOut {
		fmt.Fprintf(log, "repair: the time budget ran out before the original program's run ended\n")
		res.StopReason = "time budget"
		res.LocalizeTime = time.Since(t0)
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	if sub != nil {
		// From here on the suite is without the cases left out, and
		// every runner's outcomes are on it.
		s, run = sub.suite, sub.runner(run)
		res.FailingElsewhere = sub.elsewhere
		for _, name := range sub.out {
			if !slices.Contains(sub.elsewhere, name) {
				res.LeftOut = append(res.LeftOut, name)
			}
		}
		verifyWrap = sub.runner
		if early != nil {
			early.origin = sub.origin(early.origin)
		}
	}
	res.Suite = s
	if opts.Lenient != nil {
		run = needOnly(run, orig)
	}
	res.Original = orig
	if opts.Grow != nil && waits(orig) {
		// Candidates that mostly wait cost little CPU: more at once.
		if n, err := opts.Grow(ctx, WaitFactor*opts.Workers); n > opts.Workers {
			fmt.Fprintf(log, "repair: the cases mostly wait (sleep, I/O): %d candidates at once\n", n)
			opts.Workers = n
		} else if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	res.SearchTimeout = opts.SearchTimeout
	if res.SearchTimeout == 0 {
		res.SearchTimeout = calibrate(orig)
	}

	// Test selection's reach of each statement, beside the ranking (on a
	// large file each is a pass over the original's coverage).
	selected := make(chan *selector, 1)
	go func(o Options) { selected <- newSelector(p, orig, &o) }(opts)

	// Fault localization.
	opts.stage("localize")
	if res.Ranking, err = rank(p, s, orig, opts.Formula, log); err != nil {
		return nil, err
	}
	res.LocalizeTime = time.Since(t0)

	// The search. Each plausible candidate is reduced, validated again
	// and checked by the overfitting guard as soon as it is found
	// (search.deliver).
	st, err := newSearch(ctx, p, <-prepared, <-selected, s, run, opts, log, res)
	if err != nil {
		return nil, err
	}
	st.guardEarly = early
	st.begun = t0
	if !budgetEnd.IsZero() {
		var cancel context.CancelFunc
		st.outer, cancel = context.WithDeadline(ctx, budgetEnd.Add(deliveryGrace))
		defer cancel()
		st.budgetEnd = budgetEnd
	}
	st.verifyReady, st.verifyWrap = verifyReady, verifyWrap
	st.again, st.cut = ag, func(o *fitness.Outcome) *fitness.Outcome { return o }
	if sub != nil {
		st.cut = sub.outcome
	}
	if ag.got != nil {
		// The check of the original ran it again (a difference with
		// plain pytest): its flaky cases are out from the start.
		if err := st.checkOriginal(ctx); err != nil {
			return nil, err
		}
		st.leftOut = st.origFlaky
	}
	defer func() {
		if st.stopGuard != nil {
			st.stopGuard()
		}
	}()
	opts.stage("search")
	if err := st.explore(ctx); err != nil {
		return nil, err
	}

	// The fixes, the best first.
	res.Why = rankFixes(p, res.Fixes)
	if len(res.Fixes) > 0 {
		res.BestFitness = 1
		if res.StopReason == "" {
			res.StopReason = "found"
		}
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	return res, nil
}

// rank localizes the fault: it ranks the statements of p (none of a
// donor's) by the original's coverage, and refuses a suite whose failing
// cases run no line of p (or warns when they run none of its functions).
func rank(p *program.Program, s *fitness.Suite, orig *fitness.Outcome, formula localize.Formula, log io.Writer) (localize.Ranking, error) {
	r := localize.Rank(p, orig, formula)
	if dl := p.DonorLine(); dl > 0 {
		// No edit targets a donor's statements.
		for i, st := range p.Stmts {
			if st.Line >= dl {
				r.Weights[i] = 0
			}
		}
	}
	if r.Uniform {
		if coverageWorks(orig) {
			// No edit of the target can change what no failing case runs:
			// the fault is elsewhere (an import in the test file, a test
			// that never imports the target, another module).
			return r, unreached(notReached(p.Path, s, orig), s, orig)
		}
		fmt.Fprintf(log, "repair: no statement of %s is executed by a failing case; mutating every statement alike\n", p.Path)
	}
	if !r.Uniform && !callsInto(p, orig) {
		if onlyStructure(p, orig) {
			return r, unreached(notDefinitions(p.Path, s, orig), s, orig)
		}
		fmt.Fprintf(log, "repair: warning: %s\n", notCalled(p.Path, s, orig))
	}
	return r, nil
}

// newSearch is the state of the search of run, whose original and
// ranking are in res, with test selection's sel (newSelector).
func newSearch(ctx context.Context, p *program.Program, prepared *mutate.Context, sel *selector, s *fitness.Suite, run Runner, opts Options, log io.Writer, res *Result) (*search, error) {
	sc, err := fitness.NewScorer(s, res.Original, opts.Weights)
	if err != nil {
		return nil, err
	}
	var cpus []float64
	if opts.SearchTimeout == 0 {
		// The calibrated cap: each passing case's own below it.
		cpus = cpuCaps(res.Original, res.SearchTimeout)
	}
	return &search{
		opts: opts, prog: p, suite: s, run: run, log: log,
		cache:  fitness.NewCache(sc, 0),
		mctx:   newMutateContext(p, prepared, res),
		mut:    mutate.NewMutator(opts.Operators),
		seen:   map[fitness.Key]bool{},
		bred:   map[fitness.Key]bool{},
		keys:   fitness.NewPrefixed(p.Src),
		fixes:  map[fitness.Key]bool{},
		result: res,
		outer:  ctx, delivered: map[fitness.Key]bool{}, judged: map[fitness.Key]*fitness.Outcome{},
		sel:   sel,
		walls: wallCaps(res.Original),
		cpus:  cpus,
	}, nil
}

// newMutateContext is the operators' view of p (prepared by
// mutate.Prepare, or nil), weighted by the ranking, its ingredients
// scoped by what the original's run executed (mutate.Context.Scope).
func newMutateContext(p *program.Program, prepared *mutate.Context, res *Result) *mutate.Context {
	c := prepared
	if c == nil {
		c = mutate.Prepare(p)
	}
	c.Weigh(res.Ranking.Weights)
	c.SetCrashes(res.Ranking.Crashes)
	c.SetData(res.Ranking.Data)
	var stmts []int
	var names []string
	for _, u := range res.Ranking.Unbound {
		stmts, names = append(stmts, u.Stmt), append(names, u.Name)
	}
	c.SetUnbound(stmts, names)
	if coverageWorks(res.Original) {
		c.Scope(localize.ExecutedAny(p, res.Original))
	}
	return c
}
