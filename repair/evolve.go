// The generational loop: evaluation, selection, breeding, immigrants,
// refinement, restarts, and each candidate's random source.

package repair

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"repair/fitness"
	"repair/mutate"
	"repair/program"
	"repair/sandbox"
)

// individual is one candidate of the population.
type individual struct {
	patch  program.Patch
	src    []byte
	change program.Change // what patch changes of the original (program.RenderChange)
	key    fitness.Key
	fit    float64
	done   bool // evaluated
	held   bool // scored plausible: holds evaluate's pause until found saw it
	// whole: a fix's literal changed at its other sites too (twins),
	// delivered unreduced: a reduction would drop the copies no test
	// needs, which are the point.
	whole bool
	// When a plausible candidate was found.
	gen, evals int
}

// explore runs the search from the original (which it puts in the cache)
// within the time budget, and says in the result why it stopped. It
// returns an error only when the tool broke, not when the time budget
// ran out or ctx ended.
func (st *search) explore(ctx context.Context) error {
	o, res := &st.opts, st.result
	// The original is in the cache: candidates equal to it cost nothing.
	origKey := fitness.KeyOf(st.prog.Src)
	if _, err := st.cache.EvalKey(ctx, origKey, func(context.Context) (*fitness.Outcome, error) { return res.Original, nil }); err != nil {
		return err
	}
	st.seen[origKey] = true

	sctx := ctx
	if !st.budgetEnd.IsZero() {
		var cancel context.CancelFunc
		sctx, cancel = context.WithDeadline(ctx, st.budgetEnd)
		defer cancel()
	}
	st.start = time.Now()
	if o.Immigrants > 0 {
		st.streamLimit = min(firstStreamLimit, neighbourhoodLimit)
		st.stream, st.sweep = mutate.NewStreams(st.mctx, o.Operators, st.rngFor(-1, -1), st.streamLimit, sweepLimit)
	}
	// The guard's setup (its engine's run of the original on its inputs)
	// starts with the first candidates, not beside the streams' draw: the
	// Go side then has a CPU of its own while the server runs a candidate
	// on the other.
	st.stopGuard = st.startGuard(ctx)
	err := st.evolve(sctx)
	if len(res.Fixes) == 0 && ctx.Err() == nil && (err == nil || errors.Is(err, context.DeadlineExceeded)) {
		// No fix within the budget: its best may fail only the original's
		// flaky cases (delivering it outlasts the time budget).
		if _, rerr := st.rescue(res.Generations - 1); rerr != nil {
			if !st.pastGrace(st.outer) {
				return rerr
			}
			// The original's runs again (whose flaky tests the best
			// candidate may fail alone), or the delivery, outlasted the
			// grace: the budget's end, not the tool's failure.
			fmt.Fprintf(st.log, "repair: the time budget ran out while the best candidate was checked against the original's flaky tests: not claimed\n")
		}
	}
	st.sayFlaky(err == nil || ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded))
	res.SearchTime = time.Since(st.start) - res.ReduceTime - res.GuardTime
	res.Evaluations = st.evals
	res.Cache = st.cache.Stats()
	res.CasesRun, res.CasesSkipped = st.casesRun.Load(), st.casesSkipped.Load()
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		res.StopReason = "time budget"
	case ctx.Err() != nil:
		res.StopReason = "interrupted"
	default:
		return err
	}
	return nil
}

// evolve runs the generations and delivers the plausible candidates it
// finds (see deliver).
func (st *search) evolve(ctx context.Context) error {
	o := &st.opts
	// Generation 0: mutants of the original (GenProg), made as they are
	// launched (evaluate).
	cands := make([]individual, o.Population)
	next := func(i int) individual {
		if ind, ok := st.immigrant(); ok {
			return ind
		}
		return st.mutant(nil, st.rngFor(0, i))
	}
	var pop []individual
	stale := 0            // generations in a row without a new program
	flat, best := 0, -1.0 // generations in a row without a better best
	for gen := 0; ; gen++ {
		before := st.evals
		// Plausible candidates are delivered in index order as soon as
		// they and the candidates before them are scored.
		n, budgetHit, err := st.evaluate(ctx, cands, next, func(i int) (bool, error) {
			if cands[i].fit != 1 || st.fixes[cands[i].key] {
				return false, nil
			}
			st.fixes[cands[i].key] = true
			c := cands[i]
			c.patch = st.prog.Applied(c.patch)
			c.gen = gen
			stop, err := st.deliver(c)
			st.stop = stop && err == nil
			if !stop && err == nil {
				st.opts.stage("search")
				if tw := twins(st.prog, c.patch); tw != nil {
					st.twins = append(st.twins, tw)
				}
			}
			return stop, err
		})
		next = nil // the next generations are bred whole
		if jerr := st.judge(); jerr != nil {
			return jerr
		}
		if st.evals == before {
			stale++
		} else {
			stale = 0
		}
		st.result.Generations = gen + 1
		st.report(gen, cands[:n])
		switch {
		case err != nil:
			return err
		case st.stop:
			st.result.StopReason = "found"
			return nil
		case st.graceEvals > 0 && (st.evals >= st.graceEvals || st.graceTime > 0 && time.Since(st.start) >= st.graceTime):
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
			if st.result.Restarts == 1 {
				// Stalled: its best may fail only the original's flaky
				// cases.
				stop, err := st.rescue(gen)
				if err != nil {
					return err
				}
				if stop {
					st.result.StopReason = "found"
					return nil
				}
			}
			for i := len(cands) / 2; i < len(cands); i++ {
				if ind, ok := st.immigrant(); ok {
					cands[i] = ind
				} else {
					cands[i] = st.mutant(nil, st.rngFor(gen+1, len(cands)+i))
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

// staleLimit is the number of generations in a row without a program not
// seen before after which the search gives up: the operators cannot reach
// anything new.
const staleLimit = 10

// evaluate renders and scores the population. Candidates are taken in
// index order; when the evaluation budget runs out only a prefix is
// evaluated. found is called, on the caller's goroutine and in index
// order, with each candidate as soon as it and every candidate before it
// are scored, while the later ones are still running: a fix is
// delivered without waiting for the rest of its generation. When found
// says stop, the candidates after it are abandoned: the generation ends
// at it, and the evaluations count only the candidates up to it, so
// that the count does not depend on how far the others got. evaluate
// returns the length of the fully scored prefix, whether the budget was
// hit, and an error when the context ended (the prefix is then the
// longest run of completed candidates from index 0), the tool broke or
// found failed.
func (st *search) evaluate(ctx context.Context, pop []individual, next func(i int) individual, found func(i int) (stop bool, err error)) (int, bool, error) {
	if next == nil {
		st.render(pop)
	}
	// n becomes the number of candidates counted (below the budget), once
	// they are all made and launched; budgetHit too.
	n := len(pop)
	budgetHit := false
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(cctx)
	g.SetLimit(st.opts.Workers)
	scored := make(chan int, len(pop)) // indexes, as their candidates are scored
	finished := make(chan error, 1)
	// No candidate starts from the moment a plausible one is scored
	// until found has delivered it: the fix's validation and checks get
	// the CPUs (those running finish).
	pause := newGate()
	// Once the generation ends (a fix stopped it, an error, ctx), nothing
	// waits: the candidates still held return gctx's error.
	defer context.AfterFunc(gctx, pause.open)()
	// The candidates are made (by next, when not nil), counted and
	// launched in index order: the first runs while the next are made
	// and rendered (at 5,000 lines, 40 renders and hashes of the file).
	go func() {
		for i := range pop {
			ind := &pop[i]
			if next != nil {
				*ind = next(i)
				if ind.src == nil {
					st.renderOne(ind)
				}
			}
			if !st.seen[ind.key] {
				if st.opts.Evaluations > 0 && st.evals >= st.opts.Evaluations {
					n, budgetHit = i, true
					break
				}
				st.seen[ind.key] = true
				st.evals++
			}
			ind.evals = st.evals
			pause.wait(i)
			if gctx.Err() != nil {
				break // a fix ended the search while this one waited
			}
			g.Go(func() error {
				// It may have waited for a worker meanwhile.
				pause.wait(i)
				if err := gctx.Err(); err != nil {
					return err
				}
				e, err := st.cache.EvalKey(gctx, ind.key, func(c context.Context) (*fitness.Outcome, error) {
					if o := st.judged[ind.key]; o != nil {
						return o, nil
					}
					return st.runCandidate(c, ind.src, &ind.change)
				})
				if err != nil {
					return err
				}
				ind.fit = e.Score
				if ind.fit < 1 && passesVerdicts(e, st.leftOut) {
					// It fails only cases left out since it ran.
					ind.fit = 1
				}
				if found != nil && ind.fit == 1 {
					ind.held = true
					pause.hold(i)
				}
				scored <- i
				return nil
			})
		}
		finished <- g.Wait()
	}()
	// The scored prefix (pop[:k]) grows as candidates finish; found sees
	// it in order. done is the consumer's own: pop[i] may still be in the
	// making.
	done := make([]bool, len(pop))
	k := 0
	running := true
	var err error
	for {
		select {
		case i := <-scored:
			done[i] = true
		case err = <-finished:
			running = false
			for len(scored) > 0 {
				done[<-scored] = true
			}
		}
		for ; k < len(pop) && done[k]; k++ {
			if found == nil {
				continue
			}
			pause.hold(k)
			stop, ferr := found(k)
			if ferr != nil || stop {
				// The rest of the generation is abandoned: no candidate
				// starts once the fix is delivered.
				cancel()
			}
			if pop[k].held {
				pop[k].held = false
				pause.release(k)
			}
			pause.release(k)
			if ferr != nil || stop {
				if running {
					<-finished
				}
				if ferr != nil {
					return k, budgetHit, ferr
				}
				st.evals = pop[k].evals
				return k + 1, budgetHit, nil
			}
		}
		if !running {
			break
		}
	}
	// The launcher is done: n and budgetHit are final.
	if err == nil && k < n {
		// Candidates were left out when ctx ended.
		err = ctx.Err()
	}
	return k, budgetHit, err
}

// render renders the candidates of pop not rendered yet and computes
// their keys. A large program's are rendered on every CPU at once: at
// 5,000 lines each is a 150 KB copy and its hash, and the engine waits
// for the first.
func (st *search) render(pop []individual) {
	var todo []*individual
	for i := range pop {
		if pop[i].src == nil {
			todo = append(todo, &pop[i])
		}
	}
	procs := min(runtime.GOMAXPROCS(0), len(todo))
	if procs < 2 || len(st.prog.Src)*len(todo) < 1<<20 {
		for _, ind := range todo {
			st.renderOne(ind)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range procs {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(todo); i = int(next.Add(1)) - 1 {
				st.renderOne(todo[i])
			}
		})
	}
	wg.Wait()
}

// renderOne renders ind and computes its key.
func (st *search) renderOne(ind *individual) {
	ind.src, ind.change = st.prog.RenderChange(ind.patch)
	ind.key = st.keyOf(ind.src, &ind.change)
}

// keyOf is fitness.KeyOf of a candidate's source src, rendered with
// change ch: the text before its first changed definition is the
// original's, whose hash is kept (fitness.Prefixed).
func (st *search) keyOf(src []byte, ch *program.Change) fitness.Key {
	if st.keys != nil && len(ch.Cand) > 0 && len(ch.Orig) > 0 && ch.Cand[0].Start == ch.Orig[0].Start {
		return st.keys.KeyOf(src, ch.Cand[0].Start)
	}
	return fitness.KeyOf(src)
}

// gate pauses evaluate's start of the candidates after a held index
// until it is released, or until the gate is opened for good. A
// candidate before a held one never waits: found needs it scored.
type gate struct {
	mu     sync.Mutex
	cond   sync.Cond
	held   map[int]int // index -> holds
	opened bool
}

func newGate() *gate {
	g := &gate{held: map[int]int{}}
	g.cond.L = &g.mu
	return g
}

func (g *gate) hold(i int) {
	g.mu.Lock()
	g.held[i]++
	g.mu.Unlock()
}

func (g *gate) release(i int) {
	g.mu.Lock()
	if g.held[i]--; g.held[i] <= 0 {
		delete(g.held, i)
		g.cond.Broadcast()
	}
	g.mu.Unlock()
}

// open lets every waiter go, now and later (evaluate's generation
// ended).
func (g *gate) open() {
	g.mu.Lock()
	g.opened = true
	g.cond.Broadcast()
	g.mu.Unlock()
}

// wait waits while an index before i is held.
func (g *gate) wait(i int) {
	g.mu.Lock()
	for !g.opened && g.before(i) {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

func (g *gate) before(i int) bool {
	for k := range g.held {
		if k < i {
			return true
		}
	}
	return false
}

// judgement is the outcome a candidate's validation gave it.
type judgement struct {
	key fitness.Key
	o   *fitness.Outcome
}

// judge gives the candidates whose validation failed in the generation
// just evaluated what their validation saw: in judged (which the search's
// runs of them return) and in the cache. The original's flaky cases found
// meanwhile are left out from the next generation on (leftOut).
func (st *search) judge() error {
	for _, j := range st.rejected {
		st.judged[j.key] = j.o
		if err := st.cache.Put(j.key, j.o); err != nil {
			return err
		}
	}
	st.rejected = st.rejected[:0]
	if st.origFlaky != nil && !slices.Equal(st.leftOut, st.origFlaky) {
		st.leftOut = slices.Clone(st.origFlaky)
		// A candidate its validation failed only on those cases may be
		// delivered now (one delivered already is not: finish).
		clear(st.fixes)
	}
	return nil
}

// searchRun are the engine options of candidates during the search.
func (st *search) searchRun() sandbox.RunOptions {
	return sandbox.RunOptions{Timeout: st.result.SearchTimeout, AbandonAfterTimeout: true, Lenient: st.opts.Lenient,
		WallCaps: st.walls, CPUCaps: st.cpus}
}

// runCandidate runs a candidate of the search, src with change ch: only
// the cases that can reach what it changes, compiled one changed
// definition at a time where the engine can (selector).
func (st *search) runCandidate(ctx context.Context, src []byte, ch *program.Change) (*fitness.Outcome, error) {
	o := st.sel.options(st.searchRun(), ch)
	out, err := st.run(ctx, src, o)
	if err == nil && out != nil {
		skipped := 0
		for _, s := range out.Skipped {
			if s {
				skipped++
			}
		}
		st.casesRun.Add(int64(len(out.Results) - skipped))
		st.casesSkipped.Add(int64(skipped))
		st.sel.merge(out, o.AbandonAfterTimeout)
		st.neutral(out)
	}
	return out, err
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
		ind, ok := st.immigrant()
		if !ok {
			break
		}
		next = append(next, ind)
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
		ind := individual{patch: c}
		if sel.Float64() < o.MutationRate {
			ind = st.mutant(c, st.rngFor(gen, i+k))
		}
		next = append(next, ind)
	}
	return next
}

// immigrant returns the next first-order mutant of the original that
// renders to a program not seen yet, or false when both streams are
// exhausted. Immigrants take turns: the sweep's next edit (the top
// statements' edits in a fixed order), then the neighbourhood stream's
// (every edit, in a weighted random order). While the sweep's head lasts
// (every edit at the top-ranked statements, mutate.Stream.Head), two
// immigrants in three are the sweep's, where taking turns gave it a
// quarter of the evaluations and a one-edit fix at the first or second
// line waited for a thousand; the third keeps the stream's cheap edits
// of the other lines coming (an off-by-one constant at the third line is
// found within a generation), and half of each generation after the
// first still recombines, which multi-edit fixes need.
func (st *search) immigrant() (individual, bool) {
	for len(st.twins) > 0 {
		pt := st.twins[0]
		st.twins = st.twins[1:]
		if ind, ok := st.novel(pt); ok {
			ind.whole = true
			return ind, true
		}
	}
	st.turn++
	first, second := st.stream, st.sweep
	sweepFirst := st.turn%2 == 1
	if st.sweep != nil && st.sweep.Head() > 0 {
		sweepFirst = st.turn%3 != 0
	}
	if sweepFirst {
		first, second = second, first
	}
	if ind, ok := st.fresh(first); ok {
		return ind, true
	}
	return st.fresh(second)
}

// twins returns fix pt with each string literal it replaces replaced
// alike at the other sites of the same scope that hold the same text,
// or nil when there are none: the other branch's r'\d+\.\d+' of a fix
// the failing test reaches in one branch. The ranking counts a literal
// changed at some of its sites in a function against a fix (Rank's
// partialLiterals); the search tries the whole change first among the
// next immigrants, as an alternative.
func twins(p *program.Program, pt program.Patch) program.Patch {
	edited := map[int]bool{}
	for _, e := range pt {
		if e.Op == program.ReplaceText {
			edited[e.Site] = true
		}
	}
	var out program.Patch
	for _, e := range pt {
		if e.Op != program.ReplaceText || e.Site < 0 || e.Site >= len(p.Sites) {
			continue
		}
		s := &p.Sites[e.Site]
		lit := p.SiteText(e.Site)
		if s.Kind != program.SiteLiteral || s.Node != "string" || len(strings.TrimLeft(lit, "rRbBuUfF")) < 5 {
			continue
		}
		scope := p.Stmts[s.Stmt].Scope
		for j := range p.Sites {
			o := &p.Sites[j]
			if j == e.Site || edited[j] || o.Kind != program.SiteLiteral || o.InString != s.InString ||
				p.Stmts[o.Stmt].Scope != scope || p.SiteText(j) != lit {
				continue
			}
			if out == nil {
				out = slices.Clone(pt)
			}
			edited[j] = true
			out = append(out, program.Edit{Op: program.ReplaceText, Site: j, Text: e.Text})
		}
	}
	return out
}

// fresh returns the next edit of s that renders to a program not seen
// yet, or false when s is exhausted (or nil).
// The individual keeps its rendering, which its evaluation takes.
func (st *search) fresh(s *mutate.Stream) (individual, bool) {
	for s != nil {
		e, ok := s.Next()
		if !ok && s == st.stream && st.refill() {
			s = st.stream
			continue
		}
		if !ok {
			break
		}
		if ind, ok := st.novel(program.Patch{e}); ok {
			return ind, true
		}
	}
	return individual{}, false
}

// refill replaces the neighbourhood stream, once its edits are all
// taken, by the same order drawn again with a limit eight times larger
// (up to neighbourhoodLimit), past the edits already taken. It reports
// whether there is a new stream.
func (st *search) refill() bool {
	if !st.stream.More() || st.streamLimit >= neighbourhoodLimit {
		return false
	}
	limit := min(8*st.streamLimit, neighbourhoodLimit)
	s := mutate.NewStream(st.mctx, st.opts.Operators, st.rngFor(-1, -1), limit)
	for range st.stream.Taken() {
		s.Next()
	}
	st.stream, st.streamLimit = s, limit
	return true
}

// sweepLimit bounds the sweep: the first edits of its order, about the
// candidates of a minute's search of a project's test file.
const sweepLimit = 2_000

// firstStreamLimit bounds the first draw of the neighbourhood stream:
// short searches take fewer immigrants from it (Population × Immigrants
// / 2 a generation: 512 in about a hundred generations), and a large
// file's edits are drawn faster when few are kept (NewStreams skips the
// logarithm of the edits its limit leaves out, and trims fewer): at
// 5,000 lines 3.9 ms with 4,096, 3.0 with 512. A search that takes them
// all draws the stream again with a limit eight times larger (refill):
// the same order, a draw's cost more in a search that long.
const firstStreamLimit = 512

// neighbourhoodLimit bounds the first-order edits kept for immigrants:
// the first of the neighbourhood's order (a search takes at most
// Population × Immigrants a generation; past the limit immigrants are
// random mutants). The stream's memory and start-up time follow it
// (about 150 bytes an edit drawn, up to twice the limit at once).
const neighbourhoodLimit = 50_000

// mutant returns parent plus one mutation (or parent itself when no
// operator can change anything).
//
// The search spends its evaluations on programs it has not seen: a
// mutation whose result renders to an already evaluated program (or one
// bred earlier in this generation) is drawn again, a few times.
func (st *search) mutant(parent program.Patch, rng *rand.Rand) individual {
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
				if ind, ok := st.novel(child); ok {
					return ind
				}
				continue
			}
		}
		e, _, ok := st.mut.Mutate(st.mctx, rng)
		if !ok {
			return individual{patch: parent}
		}
		child = make(program.Patch, 0, len(parent)+1)
		child = append(append(child, parent...), e)
		if ind, ok := st.novel(child); ok {
			return ind
		}
	}
	return individual{patch: child}
}

// novel reports whether patch pt renders to a program neither evaluated
// nor bred yet, and then marks it bred; the individual keeps its
// rendering, which its evaluation takes.
func (st *search) novel(pt program.Patch) (individual, bool) {
	src, ch := st.prog.RenderChange(pt)
	k := st.keyOf(src, &ch)
	if st.seen[k] || st.bred[k] {
		return individual{}, false
	}
	st.bred[k] = true
	return individual{patch: pt, src: src, change: ch, key: k}, true
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
