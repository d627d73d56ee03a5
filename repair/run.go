package repair

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"repair/fitness"
	"repair/guard"
	"repair/internal/inputerr"
	"repair/localize"
	"repair/mutate"
	"repair/program"
	"repair/reduce"
	"repair/sandbox"
)

// Runner evaluates one candidate source; engines' Run methods fit it.
type Runner func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error)

// Fix is a plausible patch: it passes every case.
type Fix struct {
	// Patch is the reduced patch (the edits that matter), in order.
	Patch program.Patch `json:"edits"`
	// Unreduced is the patch as the search found it (applied edits only).
	Unreduced program.Patch `json:"unreduced"`
	// Source is the repaired program and Diff its unified diff.
	Source []byte `json:"-"`
	Diff   string `json:"diff"`
	// Describe says each edit in words.
	Describe []string `json:"describe"`
	// Generation and Evaluations are when the search first found it.
	Generation  int `json:"generation"`
	Evaluations int `json:"evaluations"`
	// Injections are, with Options.Lenient, the values injected in the
	// validation run, per case (nil for a case without any).
	Injections [][]fitness.Injection `json:"injections,omitempty"`
	// Guard is what the overfitting guard saw of the fix: how often it
	// behaves differently from the original on generated inputs (nil
	// without Options.Guard).
	Guard *guard.Report `json:"guard,omitempty"`
}

// Generation is a summary of one generation, for reports.
type Generation struct {
	Generation  int     `json:"generation"`
	Best        float64 `json:"best"`
	Mean        float64 `json:"mean"`
	Evaluations int     `json:"evaluations"`
	Seconds     float64 `json:"seconds"`
}

// Result is what a repair run did.
type Result struct {
	// Fixes are the plausible patches found, the best first: with the
	// overfitting guard, ranked by how little they change behaviour on
	// generated inputs (guard.Less), then by size; else in the order they
	// were found. One unless Options.All or the guard found the first one
	// suspect.
	Fixes []Fix
	// Best is the fittest candidate when no fix was found.
	Best     program.Patch
	BestDiff string
	// BestFitness is the best fitness seen (1 when a fix was found).
	BestFitness float64
	// Flaky lists cases whose verdict changed when the fix was run again:
	// the fix is then not claimed (Fixes is empty).
	Flaky []int
	// Ranking is the fault localization of the original program.
	Ranking localize.Ranking
	// Original is the outcome of the original program.
	Original *fitness.Outcome
	// Counters.
	Evaluations int
	Generations int
	// Restarts counts the times half the population started over after
	// restartAfter generations without a better best candidate.
	Restarts int
	Cache    fitness.CacheStats
	History  []Generation
	// StopReason says why the search stopped: "found", "generations",
	// "evaluations", "time budget", "exhausted" (nothing new to try),
	// "interrupted".
	StopReason string
	// Durations of the stages.
	LocalizeTime, SearchTime, ReduceTime, GuardTime time.Duration
	// SearchTimeout is the cap of case timeouts during the search.
	SearchTimeout time.Duration
}

// MinSearchTimeout is the least calibrated cap of case timeouts during the
// search. The engine counts the cap in CPU time, so a candidate the machine
// starves is not cut short.
const MinSearchTimeout = 5 * time.Millisecond

// calibrate returns the search's cap of case timeouts: ten times the
// slowest case of the original program that did not time out, at least
// MinSearchTimeout. (A case's own timeout still applies when lower.)
func calibrate(orig *fitness.Outcome) time.Duration {
	slowest := 0.0
	for _, r := range orig.Results {
		if r.Verdict != fitness.TimeLimitExceeded {
			slowest = math.Max(slowest, r.Seconds)
		}
	}
	return max(time.Duration(10*slowest*float64(time.Second)), MinSearchTimeout)
}

// searchRun are the engine options of candidates during the search.
func (st *search) searchRun() sandbox.RunOptions {
	return sandbox.RunOptions{Timeout: st.result.SearchTimeout, AbandonAfterTimeout: true, Lenient: st.opts.Lenient}
}

// needOnly wraps run for lenient repair: a case that passes with an
// injection whose kind and name no case of the original program needed
// fails, so that a patch never passes by reaching for something missing
// that the program did not already miss.
func needOnly(run Runner, orig *fitness.Outcome) Runner {
	needed := map[[2]string]bool{}
	for _, r := range orig.Results {
		for _, in := range r.Injections {
			needed[[2]string{in.Kind, in.Name}] = true
		}
	}
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		o, err := run(ctx, src, opts)
		if err != nil || o == nil {
			return o, err
		}
		for i := range o.Results {
			r := &o.Results[i]
			if r.Verdict != fitness.Passed {
				continue
			}
			for _, in := range r.Injections {
				if !needed[[2]string{in.Kind, in.Name}] {
					r.Verdict = fitness.WrongAnswer
					r.Detail = fmt.Sprintf("passes only with a value injected for %s %s (line %d), which the original program did not need", in.Kind, in.Name, in.Line)
					break
				}
			}
		}
		return o, nil
	}
}

// individual is one candidate of the population.
type individual struct {
	patch program.Patch
	src   []byte
	key   fitness.Key
	fit   float64
	done  bool // evaluated
	// When a plausible candidate was found.
	gen, evals int
}

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
	stream []program.Edit       // first-order edits not yet tried, in order
	next   int                  // position in stream
	best   float64              // fitness of result.Best

	outer     context.Context      // the run's context, which outlives the time budget
	delivered map[fitness.Key]bool // fixes after reduction, by program
	stop      bool                 // a fix ended the search
	// After a suspect fix (guard.Report.Suspect) the search goes on until
	// graceEvals evaluations or graceTime from start.
	graceEvals  int
	graceTime   time.Duration
	guardReady  chan guardSetup // the guard's setup, started with the search
	guardWaited bool
	guard       *guard.Guard
}

// guardSetup is the overfitting guard once its engine is open and the
// original observed; g is nil when it cannot run (err says why).
type guardSetup struct {
	g     *guard.Guard
	close func()
	err   error
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
	if p.HasDonors() {
		// Donor files are ingredients: candidates run without them.
		inner := run
		run = func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			return inner(ctx, p.Strip(src), o)
		}
	}
	orig, err := runOriginal(ctx, run, p.Src, len(s.Cases), opts.Workers, sandbox.RunOptions{Coverage: true, Lenient: opts.Lenient})
	if err != nil {
		return nil, fmt.Errorf("run the original program: %w", err)
	}
	if opts.Lenient != nil {
		run = needOnly(run, orig)
	}
	if orig.CompileError != "" {
		return nil, inputerr.New("%s: does not compile: %s", p.Path, orig.CompileError)
	}
	if err := s.CheckRepairable(orig); err != nil {
		return nil, err
	}
	res.Original = orig
	res.SearchTimeout = opts.SearchTimeout
	if res.SearchTimeout == 0 {
		res.SearchTimeout = calibrate(orig)
	}
	res.Ranking = localize.Rank(p, orig, opts.Formula)
	if dl := p.DonorLine(); dl > 0 {
		// No edit targets a donor's statements.
		for i, st := range p.Stmts {
			if st.Line >= dl {
				res.Ranking.Weights[i] = 0
			}
		}
	}
	if res.Ranking.Uniform {
		if coverageWorks(orig) {
			// No edit of the target can change what no failing case runs:
			// the fault is elsewhere (an import in the test file, a test
			// that never imports the target, another module).
			return nil, inputerr.New("%s", notReached(p.Path, s, orig))
		}
		fmt.Fprintf(log, "repair: no statement of %s is executed by a failing case; mutating every statement alike\n", p.Path)
	}
	if !res.Ranking.Uniform && !callsInto(p, orig) {
		fmt.Fprintf(log, "repair: warning: %s\n", notCalled(p.Path, s, orig))
	}
	res.LocalizeTime = time.Since(t0)

	sc, err := fitness.NewScorer(s, orig, opts.Weights)
	if err != nil {
		return nil, err
	}
	st := &search{
		opts: opts, prog: p, suite: s, run: run, log: log,
		cache:  fitness.NewCache(sc, 0),
		mctx:   mutate.NewContext(p, res.Ranking.Weights),
		mut:    mutate.NewMutator(opts.Operators),
		seen:   map[fitness.Key]bool{},
		bred:   map[fitness.Key]bool{},
		fixes:  map[fitness.Key]bool{},
		result: res,
		outer:  ctx, delivered: map[fitness.Key]bool{},
	}
	if opts.Guard != nil && opts.Lenient == nil {
		// The guard's engine starts while the search runs: the first fix
		// does not wait for it.
		gctx, cancel := context.WithCancel(ctx)
		st.guardReady = make(chan guardSetup, 1)
		go func() { st.guardReady <- st.setupGuard(gctx) }()
		defer func() {
			cancel()
			if g := <-st.guardReady; g.close != nil {
				g.close()
			}
		}()
	}
	// The original is in the cache: candidates equal to it cost nothing.
	origKey := fitness.KeyOf(p.Src)
	if _, err := st.cache.EvalKey(ctx, origKey, func(context.Context) (*fitness.Outcome, error) { return orig, nil }); err != nil {
		return nil, err
	}
	st.seen[origKey] = true

	sctx := ctx
	if opts.TimeBudget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, opts.TimeBudget)
		defer cancel()
	}
	st.start = time.Now()
	if opts.Immigrants > 0 {
		st.stream = mutate.Neighbourhood(st.mctx, opts.Operators, st.rngFor(-1, -1), neighbourhoodLimit)
	}
	err = st.evolve(sctx)
	res.SearchTime = time.Since(st.start) - res.ReduceTime - res.GuardTime
	res.Evaluations = st.evals
	res.Cache = st.cache.Stats()
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		res.StopReason = "time budget"
	case ctx.Err() != nil:
		res.StopReason = "interrupted"
	default:
		return nil, err
	}
	if st.guard != nil || p.HasDonors() {
		// The best first: fewest generated inputs broken, then changed,
		// then no transplant, then fewest lines changed.
		sort.SliceStable(res.Fixes, func(i, j int) bool {
			fi, fj := &res.Fixes[i], &res.Fixes[j]
			a, b := fi.Guard, fj.Guard
			if guard.Less(a, b) || guard.Less(b, a) {
				return guard.Less(a, b)
			}
			if ti, tj := transplant(p, fi.Patch), transplant(p, fj.Patch); ti != tj {
				return tj
			}
			return changedLines(fi.Diff) < changedLines(fj.Diff)
		})
	}
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

// runOriginal runs the original program's n cases for localization, with
// opts. They run in order until one times out, as a candidate's do; the
// cases after it then run in ranges on the workers at once
// (sandbox.RunOptions.Cases), so that an original that loops on many cases
// costs about its share of their timeouts per worker, not all of them one
// after the other. The outcome is the one a run in order gives, but for
// what a case after a timed-out one may have read of an earlier case's
// process or files: each range starts afresh, as the engine's process
// after a timeout does.
func runOriginal(ctx context.Context, run Runner, src []byte, n, workers int, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	o := opts
	o.AbandonAfterTimeout = workers > 1
	out, err := run(ctx, src, o)
	if err != nil || !o.AbandonAfterTimeout || out.CompileError != "" {
		return out, err
	}
	if len(out.Results) != n {
		return nil, fmt.Errorf("%d results for %d cases", len(out.Results), n)
	}
	k := slices.IndexFunc(out.Results, func(r fitness.Result) bool { return r.Verdict == fitness.TimeLimitExceeded })
	if k < 0 || k == n-1 {
		return out, nil
	}
	// Four ranges per worker: a range whose cases loop does not hold up
	// the others.
	first, rest := k+1, n-k-1
	chunks := min(rest, 4*workers)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for c := range chunks {
		r := sandbox.CaseRange{First: first + c*rest/chunks, End: first + (c+1)*rest/chunks}
		g.Go(func() error {
			o := opts
			o.Cases = r
			got, err := run(gctx, src, o)
			if err != nil {
				return err
			}
			if len(got.Results) != n {
				return fmt.Errorf("%d results for %d cases", len(got.Results), n)
			}
			copy(out.Results[r.First:r.End], got.Results[r.First:r.End])
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

func caseNames(s *fitness.Suite, ids []int) []string {
	var out []string
	for _, i := range ids {
		out = append(out, s.Cases[i].Name)
	}
	return out
}

// rngFor derives the random source of candidate index of generation gen
// from the seed, so results do not depend on workers or timing.
func (st *search) rngFor(gen, index int) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix(st.opts.Seed^splitmix(uint64(gen)+0x9e37)), splitmix(uint64(index)+0x51ed)))
}

// splitmix is the SplitMix64 finalizer (Steele, Lea, Flood, "Fast
// Splittable Pseudorandom Number Generators", OOPSLA 2014).
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// mutant returns parent plus one mutation (or parent itself when no
// operator can change anything).
//
// The search spends its evaluations on programs it has not seen: a
// mutation whose result renders to an already evaluated program (or one
// bred earlier in this generation) is drawn again, a few times.
func (st *search) mutant(parent program.Patch, rng *rand.Rand) program.Patch {
	if len(parent) >= st.opts.MaxEdits {
		parent = parent[len(parent)-st.opts.MaxEdits+1:]
	}
	var child program.Patch
	for try := 0; try < freshTries; try++ {
		if i := refinable(parent, rng); i >= 0 && rng.Float64() < refineRate {
			// Edit the text an earlier insert put in.
			if e, ok := mutate.Refine(st.mctx, st.opts.Operators, parent[i], rng); ok {
				child = slices.Clone(parent)
				child[i] = e
				if k := fitness.KeyOf(st.prog.Render(child)); !st.seen[k] && !st.bred[k] {
					st.bred[k] = true
					break
				}
				continue
			}
		}
		e, _, ok := st.mut.Mutate(st.mctx, rng)
		if !ok {
			return parent
		}
		child = make(program.Patch, 0, len(parent)+1)
		child = append(append(child, parent...), e)
		k := fitness.KeyOf(st.prog.Render(child))
		if !st.seen[k] && !st.bred[k] {
			st.bred[k] = true
			break
		}
	}
	return child
}

// freshTries bounds the draws for a mutant not seen before.
const freshTries = 8

// refineRate is the share of mutations of a patch holding an unadapted
// copy (mutate.Refinable) that edit the copy instead of adding an edit:
// the second step of two-edit fixes such as "insert lo = mid, then make
// it lo = mid + 1".
const refineRate = 0.25

// refinable returns the index of one edit of p that mutate.Refine can
// edit, drawn uniformly, or -1.
func refinable(p program.Patch, rng *rand.Rand) int {
	n := 0
	for _, e := range p {
		if mutate.Refinable(e) {
			n++
		}
	}
	if n == 0 {
		return -1
	}
	k := rng.IntN(n)
	for i, e := range p {
		if mutate.Refinable(e) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}

// staleLimit is the number of generations in a row without a program not
// seen before after which the search gives up: the operators cannot reach
// anything new.
const staleLimit = 10

// neighbourhoodLimit bounds the first-order edits kept for immigrants.
const neighbourhoodLimit = 200_000

// immigrant returns the next first-order mutant of the original from the
// neighbourhood stream that renders to a program not seen yet, or false
// when the stream is exhausted.
func (st *search) immigrant() (program.Patch, bool) {
	for st.next < len(st.stream) {
		e := st.stream[st.next]
		st.next++
		pt := program.Patch{e}
		k := fitness.KeyOf(st.prog.Render(pt))
		if !st.seen[k] && !st.bred[k] {
			st.bred[k] = true
			return pt, true
		}
	}
	return nil, false
}

// evolve runs the generations and delivers the plausible candidates it
// finds (see deliver).
func (st *search) evolve(ctx context.Context) error {
	o := &st.opts
	// Generation 0: mutants of the original (GenProg).
	cands := make([]individual, o.Population)
	for i := range cands {
		if pt, ok := st.immigrant(); ok {
			cands[i].patch = pt
		} else {
			cands[i].patch = st.mutant(nil, st.rngFor(0, i))
		}
	}
	var pop []individual
	stale := 0            // generations in a row without a new program
	flat, best := 0, -1.0 // generations in a row without a better best
	for gen := 0; ; gen++ {
		before := st.evals
		n, budgetHit, err := st.evaluate(ctx, cands)
		if st.evals == before {
			stale++
		} else {
			stale = 0
		}
		st.result.Generations = gen + 1
		// Plausible candidates, in index order, among the evaluated prefix.
		for i := 0; i < n; i++ {
			if cands[i].fit == 1 && !st.fixes[cands[i].key] {
				st.fixes[cands[i].key] = true
				c := cands[i]
				c.patch = st.prog.Applied(c.patch)
				c.gen, c.evals = gen, st.evals
				stop, derr := st.deliver(c)
				if derr != nil {
					return derr
				}
				if stop {
					st.stop = true
					break
				}
			}
		}
		st.report(gen, cands[:n])
		switch {
		case err != nil:
			return err
		case st.stop:
			st.result.StopReason = "found"
			return nil
		case st.graceEvals > 0 && (st.evals >= st.graceEvals || time.Since(st.start) >= st.graceTime):
			st.result.StopReason = "found"
			return nil
		case budgetHit:
			st.result.StopReason = "evaluations"
			return nil
		case gen == o.Generations-1:
			st.result.StopReason = "generations"
			return nil
		case stale >= staleLimit:
			st.result.StopReason = "exhausted"
			return nil
		}
		// Survivors: the candidates themselves (generational), or the
		// fittest of parents and offspring together (truncation).
		if o.Selection == Truncation && pop != nil {
			all := append(append([]individual(nil), pop...), cands...)
			sort.SliceStable(all, func(a, b int) bool { return better(&all[a], &all[b]) })
			pop = all[:o.Population]
		} else {
			pop = cands
		}
		clear(st.bred)
		cands = st.breed(gen+1, pop)
		if st.best > best {
			best, flat = st.best, 0
		} else if flat++; flat >= restartAfter {
			// The population has converged on a plateau: half of the next
			// generation starts over from the original (fresh first-order
			// edits, then random mutants), the other half keeps the best.
			flat = 0
			st.result.Restarts++
			for i := len(cands) / 2; i < len(cands); i++ {
				if pt, ok := st.immigrant(); ok {
					cands[i] = individual{patch: pt}
				} else {
					cands[i] = individual{patch: st.mutant(nil, st.rngFor(gen+1, len(cands)+i))}
				}
			}
		}
	}
}

// restartAfter is the number of generations without a better best
// candidate after which half the population restarts from the original
// (a random restart; Luke, "Essentials of Metaheuristics", 2nd ed., 2013,
// section 2.2). A search bounded by time rather than generations would
// otherwise spend its budget breeding one plateau.
const restartAfter = 50

// evaluate renders and scores the population. Candidates are taken in
// index order; when the evaluation budget runs out only a prefix is
// evaluated. It returns the length of the fully evaluated prefix, whether
// the budget was hit, and an error when the context ended (the prefix is
// then the longest run of completed candidates from index 0) or the tool
// broke.
func (st *search) evaluate(ctx context.Context, pop []individual) (int, bool, error) {
	n := len(pop)
	budgetHit := false
	for i := range pop {
		ind := &pop[i]
		ind.done = false
		ind.src = st.prog.Render(ind.patch)
		ind.key = fitness.KeyOf(ind.src)
		if !st.seen[ind.key] {
			if st.opts.Evaluations > 0 && st.evals >= st.opts.Evaluations {
				n, budgetHit = i, true
				break
			}
			st.seen[ind.key] = true
			st.evals++
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(st.opts.Workers)
	var mu sync.Mutex
	for i := 0; i < n; i++ {
		ind := &pop[i]
		g.Go(func() error {
			e, err := st.cache.EvalKey(gctx, ind.key, func(c context.Context) (*fitness.Outcome, error) {
				return st.run(c, ind.src, st.searchRun())
			})
			if err != nil {
				return err
			}
			mu.Lock()
			ind.fit, ind.done = e.Score, true
			mu.Unlock()
			return nil
		})
	}
	err := g.Wait()
	if err != nil {
		// The completed prefix still counts.
		k := 0
		for k < n && pop[k].done {
			k++
		}
		n = k
	}
	return n, budgetHit, err
}

func (st *search) report(gen int, pop []individual) {
	best, sum := 0.0, 0.0
	for _, ind := range pop {
		best = math.Max(best, ind.fit)
		sum += ind.fit
	}
	mean := 0.0
	if len(pop) > 0 {
		mean = sum / float64(len(pop))
	}
	st.result.BestFitness = math.Max(st.result.BestFitness, best)
	if len(pop) > 0 {
		bi := 0
		for i := range pop {
			if better(&pop[i], &pop[bi]) {
				bi = i
			}
		}
		if st.result.Best == nil || pop[bi].fit > st.best {
			st.best = pop[bi].fit
			st.result.Best = st.prog.Applied(pop[bi].patch)
			st.result.BestDiff = st.prog.DiffTo(pop[bi].src)
		}
	}
	el := time.Since(st.start)
	st.result.History = append(st.result.History, Generation{Generation: gen, Best: best, Mean: mean, Evaluations: st.evals, Seconds: el.Seconds()})
	if st.opts.Progress != nil {
		st.opts.Progress(Progress{
			Generation: gen, Best: best, Mean: mean, Evaluations: st.evals,
			PerSecond: float64(st.evals) / math.Max(el.Seconds(), 1e-9),
			CacheHits: st.cache.Stats().Hits, Elapsed: el, Found: len(st.fixes),
		})
	}
}

// better orders candidates: fitter first, then smaller patches.
func better(a, b *individual) bool {
	if a.fit != b.fit {
		return a.fit > b.fit
	}
	return len(a.patch) < len(b.patch)
}

// breed makes generation gen from the evaluated population.
func (st *search) breed(gen int, pop []individual) []individual {
	o := &st.opts
	// Rank: fitter, then smaller, then earlier (a stable order).
	ranked := make([]int, len(pop))
	for i := range ranked {
		ranked[i] = i
	}
	sort.SliceStable(ranked, func(a, b int) bool { return better(&pop[ranked[a]], &pop[ranked[b]]) })
	sel := st.rngFor(gen, -1)
	next := make([]individual, 0, o.Population)

	if o.Selection == Truncation {
		// The Debugging Book's evolve(): offspring from parents drawn
		// uniformly; the caller keeps the fittest of parents and offspring.
		next = st.immigrants(next)
		for i := len(next); len(next) < o.Population; i += 2 {
			a := pop[sel.IntN(len(pop))].patch
			b := pop[sel.IntN(len(pop))].patch
			next = st.children(next, gen, i, a, b, sel)
		}
		return next
	}

	elite := int(math.Ceil(o.Elitism * float64(o.Population)))
	for _, i := range ranked[:min(elite, len(ranked))] {
		next = append(next, individual{patch: pop[i].patch})
	}
	next = st.immigrants(next)
	tournament := func() program.Patch {
		best := sel.IntN(len(pop))
		for k := 1; k < o.TournamentSize; k++ {
			c := sel.IntN(len(pop))
			if better(&pop[c], &pop[best]) {
				best = c
			}
		}
		return pop[best].patch
	}
	for i := len(next); len(next) < o.Population; i += 2 {
		next = st.children(next, gen, i, tournament(), tournament(), sel)
	}
	return next
}

// immigrants appends the generation's share of first-order mutants.
func (st *search) immigrants(next []individual) []individual {
	n := int(math.Round(st.opts.Immigrants * float64(st.opts.Population)))
	for k := 0; k < n && len(next) < st.opts.Population; k++ {
		pt, ok := st.immigrant()
		if !ok {
			break
		}
		next = append(next, individual{patch: pt})
	}
	return next
}

// children appends up to two children of parents a and b to next (not
// beyond the population size): crossed over with probability
// CrossoverRate, each mutated with probability MutationRate. Child i+k of
// generation gen mutates with its own random source.
func (st *search) children(next []individual, gen, i int, a, b program.Patch, sel *rand.Rand) []individual {
	o := &st.opts
	c1, c2 := a, b
	if sel.Float64() < o.CrossoverRate {
		c1, c2 = o.Crossover(a, b, sel)
	}
	for k, c := range []program.Patch{c1, c2} {
		if len(next) == o.Population {
			break
		}
		if sel.Float64() < o.MutationRate {
			c = st.mutant(c, st.rngFor(gen, i+k))
		}
		next = append(next, individual{patch: c})
	}
	return next
}

// deliver finishes a plausible candidate (reduce, validate again; with
// the run's context, not the search's: delivering a fix outlasts the time
// budget), checks it with the overfitting guard and adds it to the
// result's fixes. It reports whether the search may stop: at the first
// fix unless Options.All, or, when the guard finds that fix suspect, at
// the first one it does not.
func (st *search) deliver(c individual) (bool, error) {
	ctx, log, res := st.outer, st.log, st.result
	t0 := time.Now()
	fix, flaky, err := st.finish(ctx, c)
	res.ReduceTime += time.Since(t0)
	if err != nil {
		return true, err
	}
	if len(flaky) > 0 {
		res.Flaky = flaky
		fmt.Fprintf(log, "repair: cases %v changed verdict when the fix ran again: not claimed as plausible\n", caseNames(st.suite, flaky))
		return !st.opts.All && len(res.Fixes) == 0, nil
	}
	// Two fixes may reduce to the same program.
	k := fitness.KeyOf(fix.Source)
	if st.delivered[k] {
		return false, nil
	}
	st.delivered[k] = true
	t1 := time.Now()
	if err := st.check(ctx, fix); err != nil {
		return true, err
	}
	res.GuardTime += time.Since(t1)
	res.Fixes = append(res.Fixes, *fix)
	switch {
	case st.opts.All:
		return false, nil
	case !fix.Guard.Suspect() && !transplant(st.prog, fix.Patch):
		return true, nil
	case st.graceEvals == 0:
		st.graceEvals = 2*st.evals + 10*st.opts.Population
		st.graceTime = 2*time.Since(st.start) + time.Second
		if fix.Guard.Suspect() {
			fmt.Fprintf(log, "repair: the fix found first may overfit (%s); searching on for one that does not\n", fix.Guard)
		} else {
			fmt.Fprintf(log, "repair: the fix found first replaces a whole function by a donor's; searching on for a smaller one\n")
		}
	}
	return false, nil
}

// transplant reports whether a patch replaces a whole function by a
// donor's (mutate's replace-function): the last resort, which a smaller
// fix beats when one passes too.
func transplant(p *program.Program, pt program.Patch) bool {
	dl := p.DonorLine()
	if dl == 0 {
		return false
	}
	for _, e := range pt {
		if e.Op != program.Replace || e.Donor < 0 || e.Donor >= len(p.Stmts) || p.Stmts[e.Donor].Line < dl {
			continue
		}
		t := strings.TrimSpace(p.StmtText(e.Stmt))
		if strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "@") {
			return true
		}
	}
	return false
}

// changedLines is the size of a fix: the lines its diff removes and adds.
func changedLines(diff string) int {
	n := 0
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++ ") && !strings.HasPrefix(l, "--- ") {
			n++
		}
	}
	return n
}

// setupGuard opens the overfitting guard's engine for inputs generated
// from the suite and observes the original program on them.
func (st *search) setupGuard(ctx context.Context) guardSetup {
	o, p := &st.opts, st.prog
	n := o.GuardInputs
	if n == 0 {
		n = guard.DefaultInputs
	}
	ps, origin := guard.Probes(st.suite, n)
	var out guardSetup
	var run guard.Runner
	if ps != nil {
		r, closeFn, err := o.Guard(ctx, ps)
		if err != nil {
			out.err = err
			return out
		}
		out.close, run = closeFn, r
	}
	out.g, out.err = guard.New(ctx, st.suite, st.result.Original, p.Strip(p.Src), ps, origin, run, st.guardRun())
	return out
}

// check runs the overfitting guard on a fix (waiting for its setup the
// first time). A guard that cannot run is said once and skipped: the fix
// stands.
func (st *search) check(ctx context.Context, fix *Fix) error {
	if st.guardReady == nil {
		return nil
	}
	if !st.guardWaited {
		st.guardWaited = true
		select {
		case g := <-st.guardReady:
			st.guardReady <- g // for the deferred close
			st.guard = g.g
			if g.err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				fmt.Fprintf(st.log, "repair: warning: the overfitting guard cannot run: %v\n", g.err)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if st.guard == nil {
		return nil
	}
	rep, err := st.guard.Check(ctx, fix.Source)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		fmt.Fprintf(st.log, "repair: warning: %v\n", err)
		return nil
	}
	fix.Guard = rep
	return nil
}

// guardRun are the engine options of the guard's runs: a case cap of
// twice the search's, at least 20ms (generated inputs may make the
// original loop too; a few milliseconds more or less must not read as a
// change of behaviour).
func (st *search) guardRun() sandbox.RunOptions {
	return sandbox.RunOptions{Timeout: max(2*st.result.SearchTimeout, 20*time.Millisecond)}
}

// finish reduces a plausible candidate, re-validates it in a fresh run,
// and describes it. flaky lists the cases whose verdict changed.
func (st *search) finish(ctx context.Context, c individual) (*Fix, []int, error) {
	p := st.prog
	patch := c.patch
	if st.opts.Reduce && len(patch) > 1 {
		var err error
		patch, err = reduce.Minimize(ctx, patch, func(ctx context.Context, sub program.Patch) (bool, error) {
			src := p.Render(sub)
			e, err := st.cache.Eval(ctx, src, func(c context.Context) (*fitness.Outcome, error) {
				return st.run(c, src, st.searchRun())
			})
			return e.Passed(), err
		})
		if err != nil {
			return nil, nil, err
		}
	}
	src := p.Render(patch)
	// A fresh run with the suite's own timeouts, not from the cache: a fix
	// must pass twice.
	o, err := st.run(ctx, src, sandbox.RunOptions{Lenient: st.opts.Lenient})
	if err != nil {
		return nil, nil, err
	}
	var flaky []int
	for i, r := range o.Results {
		if r.Verdict != fitness.Passed {
			flaky = append(flaky, i)
		}
	}
	if o.CompileError != "" && len(flaky) == 0 {
		flaky = []int{0}
	}
	fix := &Fix{Patch: patch, Unreduced: c.patch, Source: p.Strip(src), Diff: p.DiffTo(src), Generation: c.gen, Evaluations: c.evals}
	if st.opts.Lenient != nil {
		fix.Injections = make([][]fitness.Injection, len(o.Results))
		for i, r := range o.Results {
			fix.Injections[i] = r.Injections
		}
	}
	for _, e := range patch {
		fix.Describe = append(fix.Describe, p.Describe(e))
	}
	return fix, flaky, nil
}

// callsInto reports whether a failing case runs a statement in a function
// of p, or p has no function (its module-level code is then all there is).
func callsInto(p *program.Program, o *fitness.Outcome) bool {
	funcs := false
	for _, sc := range p.Scopes {
		if sc.Kind == "function" {
			funcs = true
		}
	}
	if !funcs {
		return true
	}
	for _, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		ran := localize.Executed(p, r.Lines)
		for i, st := range p.Stmts {
			if ran[i] && p.Scopes[st.Scope].Kind == "function" {
				return true
			}
		}
	}
	return false
}

// notCalled is the warning of a suite whose failing cases import the
// target but call none of its functions.
func notCalled(path string, s *fitness.Suite, o *fitness.Outcome) string {
	msg := notReached(path, s, o)
	_, cases, _ := strings.Cut(msg, "; look at the files their tracebacks name: ")
	return fmt.Sprintf("%s: no failing case calls a function of it (only its module-level lines run), so the fault may be in another file: %s", path, cases)
}

// coverageWorks reports whether the engine reported executed lines for
// any case (engines without coverage report none).
func coverageWorks(o *fitness.Outcome) bool {
	for _, r := range o.Results {
		if len(r.Lines) > 0 {
			return true
		}
	}
	return false
}

// notReached is the one-line diagnosis of a suite whose failing cases run
// no line of the target: which cases, and why each failed (the detail
// names the file and line its traceback went through).
func notReached(path string, s *fitness.Suite, o *fitness.Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no failing case runs any line of it, so no change to it can fix them; look at the files their tracebacks name: ", path)
	n := 0
	for i, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		if n == 3 {
			fmt.Fprintf(&b, "; and %d more", countFailing(o)-n)
			break
		}
		if n > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", s.Cases[i].Name, r.Verdict)
		if d := strings.TrimSpace(strings.SplitN(r.Detail, "\n", 2)[0]); d != "" {
			fmt.Fprintf(&b, " (%s)", d)
		}
		n++
	}
	return b.String()
}

func countFailing(o *fitness.Outcome) int {
	n := 0
	for _, r := range o.Results {
		if r.Verdict != fitness.Passed {
			n++
		}
	}
	return n
}
