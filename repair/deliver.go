// Delivery of a plausible candidate: reduction, validation without the
// cache, the overfitting guard (started with the search), and the order
// of the fixes.

package repair

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"repair/fitness"
	"repair/guard"
	"repair/program"
	"repair/reduce"
	"repair/sandbox"
)

// deliver finishes a plausible candidate (reduce, validate again; with
// the run's context, not the search's: delivering a fix outlasts the time
// budget), checks it with the overfitting guard and adds it to the
// result's fixes. It reports whether the search may stop: at the first
// fix unless Options.All, or, when the guard finds that fix suspect, at
// the first one it does not.
func (st *search) deliver(c individual) (stop bool, err error) {
	ctx, log, res := st.outer, st.log, st.result
	defer func() {
		if err != nil && st.pastGrace(ctx) {
			fmt.Fprintf(log, "repair: the time budget ran out while a plausible candidate was validated: not claimed (a larger --time-budget may deliver it)\n")
		}
	}()
	t0 := time.Now()
	fix, side, err := st.finish(ctx, c)
	res.ReduceTime += time.Since(t0)
	defer side.stop() // nothing of it outlives the delivery
	if errors.Is(err, errDelivered) {
		return false, nil
	}
	var rej *rejection
	if errors.As(err, &rej) {
		// The search's runs passed it, the validation's fail it (twice
		// alike, or on what held in every run when its verdicts
		// changed): the candidate and its reduction score what the
		// validation saw from the next generation on (the rest of this
		// one may still be running: its candidates score as the search's
		// runs did, whatever the timing), and the search goes on.
		res.Rejected++
		for _, k := range []fitness.Key{c.key, fitness.KeyOf(rej.src)} {
			st.rejected = append(st.rejected, judgement{k, rej.o})
		}
		if res.Rejected == 1 {
			how := "its validation"
			if rej.runs > 2 {
				how = fmt.Sprintf("its validation on what held in all %d of its runs", rej.runs)
			}
			fmt.Fprintf(log, "repair: a candidate that passed the search's runs fails %s (%s); searching on\n", how, firstFailure(st.suite, rej.o))
		}
		return false, nil
	}
	if err != nil {
		return true, err
	}
	st.delivered[fitness.KeyOf(fix.Source)] = true
	var why string
	r := side.check.wait()
	if r != nil {
		// The check's time is its run's, most of it beside the validation.
		if r.err != nil {
			return true, r.err
		}
		if r.o != nil {
			inproc, why := 0, ""
			for i, x := range r.o.Results {
				if x.Via == "" {
					continue
				}
				if res.CheckedVia == nil {
					res.CheckedVia = map[string]int{}
				}
				res.CheckedVia[x.Via]++
				if w, ok := strings.CutPrefix(x.Via, sandbox.ViaInProcess); ok {
					if inproc++; why == "" {
						why = fmt.Sprintf("%s: %s", st.suite.Cases[i].Name, w)
					}
				}
			}
			if inproc > 0 && !st.saidInProcess {
				st.saidInProcess = true
				fmt.Fprintf(log, "repair: the check of delivered fixes judged %d %s beside the code under test, in-process (%s)\n", inproc, plural(inproc, "test", "tests"), why)
			}
		}
		t1 := time.Now()
		why, err = st.verify(ctx, r.o, r.sel)
		res.VerifyTime += r.took + time.Since(t1)
		if err != nil {
			return true, err
		}
	}
	if why != "" {
		res.Refused = append(res.Refused, why)
		fmt.Fprintf(log, "repair: a fix passes its tests here but not in the check of delivered fixes (%s): refused\n", why)
		// From the next generation on the candidate and its reduction
		// score what the check saw, as a failed validation does: kept at
		// the best fitness, its copies filled semver-2's population for
		// the rest of the budget.
		for _, k := range []fitness.Key{c.key, fitness.KeyOf(fix.Source)} {
			st.rejected = append(st.rejected, judgement{k, r.o})
		}
		return false, nil
	}
	t1 := time.Now()
	if err := side.guard(fix); err != nil {
		return true, err
	}
	if err := st.liveBranch(ctx, fix, side); err != nil {
		return true, err
	}
	res.GuardTime += time.Since(t1)
	fix.Seconds = time.Since(st.begun).Seconds()
	if len(res.Fixes) == 0 {
		res.FirstFix = time.Since(st.begun)
	}
	res.Fixes = append(res.Fixes, *fix)
	if st.opts.All {
		return false, nil
	}
	if len(res.Fixes) == 1 {
		st.openWindow(c, fix)
	}
	switch {
	case len(res.Fixes) > MaxAlternatives && (!st.allDeleteChecks() || len(res.Fixes) > maxCheckless):
		// While every fix found deletes a check, more of them do not
		// end the search: the window does (openWindow), or a fix that
		// keeps the code's checks.
		return true, nil
	case st.opts.Alternatives == 0 && !fix.Guard.Suspect() && !fromDonor(st.prog, fix.Patch) && st.discards(fix) == "":
		// No alternatives asked for: the first fix that is not suspect
		// ends the search.
		return true, nil
	case st.graceEvals == 0:
		return true, nil
	}
	return false, nil
}

// openWindow sets how long the search goes on after its first plausible
// fix c (graceEvals, graceTime): for Options.Alternatives of the
// remaining budget of evaluations (when Evaluations bounds them) and of
// time (with a TimeBudget), and for at most as many evaluations again
// as the first fix took, at least ten generations' worth (an easy bug's
// fix, found at once, leaves a short search for its alternatives).
// Without a time budget the window is evaluations alone, so that a seed
// gives the same fixes at any speed. When the guard finds the fix
// suspect, it copies code from a donor, assigns a parameter before the
// function reads it or deletes a check (Rank.DeletesCheck), the search
// goes on for twice as long as the fix took whatever the share.
func (st *search) openWindow(c individual, fix *Fix) {
	o, log := &st.opts, st.log
	took := time.Since(st.start)
	if share := o.Alternatives; share > 0 {
		evals := max(c.evals, 10*o.Population)
		if o.Evaluations > 0 {
			evals = min(evals, int(share*float64(max(o.Evaluations-c.evals, 0))))
		}
		wait := time.Duration(0)
		if !st.budgetEnd.IsZero() {
			wait = time.Duration(share * float64(max(time.Until(st.budgetEnd), 0)))
		}
		if evals > 0 && (wait > 0 || st.budgetEnd.IsZero()) {
			// From the fix's own count: the generation's later candidates
			// may still be in the making (evaluate).
			st.graceEvals = c.evals + evals
			if wait > 0 {
				st.graceTime = took + wait
			}
		}
	}
	// A deleted check lengthens the window for alternatives; with none
	// asked for (--alternatives 0) the first fix is delivered.
	suspect, whole, discards := fix.Guard.Suspect(), fromDonor(st.prog, fix.Patch), st.discards(fix)
	deletes := o.Alternatives > 0 && st.deletesCheck(fix)
	if !suspect && !whole && discards == "" && !deletes {
		return
	}
	st.graceEvals = max(st.graceEvals, 2*c.evals+10*o.Population)
	st.graceTime = max(st.graceTime, 2*took+time.Second)
	switch {
	case suspect:
		fmt.Fprintf(log, "repair: the fix found first may overfit (%s); searching on for one that does not\n", fix.Guard)
	case discards != "":
		fmt.Fprintf(log, "repair: the fix found first assigns the argument %s before the function reads it; searching on for one that does not\n", discards)
	case deletes && fix.Rank.DeadBranch != "":
		fmt.Fprintf(log, "repair: the fix found first keeps a branch from running: %s; searching on for one that does not\n", fix.Rank.DeadBranch)
	case deletes:
		fmt.Fprintf(log, "repair: the fix found first deletes a check of the code, or puts a raise under a new condition; searching on for one that keeps it\n")
	default:
		fmt.Fprintf(log, "repair: the fix found first copies code from a donor; searching on for a smaller one\n")
	}
}

// maxCheckless bounds the fixes collected while every one of them
// deletes a check (allDeleteChecks).
const maxCheckless = 4 * MaxAlternatives

// allDeleteChecks reports whether every fix found so far deletes or
// weakens a check of the code (false when no alternatives are asked
// for: the search ranks none).
func (st *search) allDeleteChecks() bool {
	if st.opts.Alternatives <= 0 {
		return false
	}
	for i := range st.result.Fixes {
		if !st.deletesCheck(&st.result.Fixes[i]) {
			return false
		}
	}
	return true
}

// deletesCheck reports whether fix deletes or weakens a check of the
// code (Rank.DeletesCheck).
func (st *search) deletesCheck(fix *Fix) bool {
	st.discards(fix) // ranks it
	return fix.Rank.DeletesCheck
}

// discards is the parameter fix assigns before its function reads it
// (Rank.Discards), "" when none; it ranks the fix for sortFixes too.
func (st *search) discards(fix *Fix) string {
	if fix.Rank == nil {
		p := st.prog
		fix.Rank = rankFix(p.Strip(p.Src), fix.Source)
	}
	return fix.Rank.Discards
}

// finish reduces a plausible candidate, re-validates it in a fresh run
// (more when its verdicts change: validate), and describes it; a
// *rejection when the validation fails it. Its run
// under the check of delivered fixes and the overfitting guard's check
// start beside the validation (side): the caller waits for them, or
// stops them.
func (st *search) finish(ctx context.Context, c individual) (fix *Fix, side *beside, err error) {
	p := st.prog
	patch := c.patch
	if st.opts.Reduce && len(patch) > 1 && !c.whole {
		st.opts.stage("reduce")
		rctx, cancel := st.graceContext(ctx, reduceShare)
		reduced, err := reduce.Minimize(rctx, patch, func(ctx context.Context, sub program.Patch) (bool, error) {
			ok, _, err := st.passesAs(ctx, sub)
			return ok, err
		})
		cancel()
		switch {
		case err == nil:
			patch = reduced
		case ctx.Err() == nil && rctx.Err() != nil:
			// The budget's share for the reduction ran out: the fix is
			// delivered as found (it passed the search's runs whole).
			fmt.Fprintln(st.log, "repair: the time budget ran out during the reduction: the fix is delivered unreduced")
		default:
			return nil, nil, err
		}
	}
	src, ch := p.RenderChange(patch)
	stripped := p.Strip(src)
	if st.delivered[fitness.KeyOf(stripped)] {
		// It reduces to a fix already delivered (validated, checked): not
		// validated again.
		return nil, nil, errDelivered
	}
	// A fix whose changed definitions keep their line counts may run over
	// the original's code: that is then exactly the whole fix compiled
	// (program.Change.KeepsLines), without the compile of the whole file
	// (30 ms at 5,000 lines).
	var whole *program.Change
	if ch.KeepsLines(p.Src, src) {
		whole = &ch
	}
	side = &beside{check: st.startCheck(ctx, stripped, st.sel.checkSelect(&ch)), guard: st.checkLater(ctx, stripped, whole)}
	// A fresh run of every case with the suite's own timeouts, not from
	// the cache: a fix must pass twice. One whose verdicts change runs
	// again (validate).
	vo := sandbox.RunOptions{Lenient: st.opts.Lenient, Validate: true, Change: whole}
	st.opts.stage("check")
	o, runs, err := st.validate(ctx, src, vo)
	if err != nil {
		return nil, side, err
	}
	if !passes(o, st.origFlaky) {
		return nil, side, &rejection{o: o, src: src, runs: runs}
	}
	fix = &Fix{Patch: patch, Unreduced: c.patch, Source: stripped, Diff: p.DiffTo(src), Generation: c.gen, Evaluations: c.evals}
	fix.SuitePassed, _ = o.Counts()
	if st.opts.Lenient != nil {
		fix.Injections = make([][]fitness.Injection, len(o.Results))
		for i, r := range o.Results {
			fix.Injections[i] = r.Injections
		}
	}
	for _, e := range patch {
		fix.Describe = append(fix.Describe, p.Describe(e))
	}
	if st.opts.Alternatives > 0 {
		// Ranked among alternatives only (allDeleteChecks).
		dead, variant, err := st.deadBranch(ctx, patch)
		if err != nil {
			return nil, side, err
		}
		if dead != "" {
			fix.Rank = rankFix(p.Strip(p.Src), fix.Source)
			side.checkDeleted, side.deadVariant = fix.Rank.DeletesCheck, p.Strip(variant)
			fix.Rank.DeletesCheck, fix.Rank.DeadBranch = true, dead
		}
	}
	return fix, side, nil
}

// passesAs reports whether patch pt, rendered, passes the verdicts a fix
// must (the search's runs, through the cache), and returns its source: a
// reduction's subset, deadBranch's variant.
func (st *search) passesAs(ctx context.Context, pt program.Patch) (bool, []byte, error) {
	src, ch := st.prog.RenderChange(pt)
	e, err := st.cache.Eval(ctx, src, func(c context.Context) (*fitness.Outcome, error) {
		return st.runCandidate(c, src, &ch)
	})
	return passesVerdicts(e, st.leftOut), src, err
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

// fromDonor reports whether a patch copies a donor's statement (insert,
// replace): such a fix can be a pasted block where a one-token edit of
// the target passes too, so the search goes on a while for a smaller one
// (sortFixes then ranks them by size).
func fromDonor(p *program.Program, pt program.Patch) bool {
	dl := p.DonorLine()
	if dl == 0 {
		return false
	}
	for _, e := range pt {
		switch e.Op {
		case program.InsertBefore, program.InsertAfter, program.Replace:
			if e.Donor >= 0 && e.Donor < len(p.Stmts) && p.Stmts[e.Donor].Line >= dl {
				return true
			}
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

// guardSetup is the overfitting guard once its engine is open and the
// original observed; g is nil when it cannot run (err says why).
type guardSetup struct {
	g     *guard.Guard
	close func()
	err   error
}

// startGuard starts opening the overfitting guard's engine, when the
// options ask for the guard, while the search runs: the first fix does
// not wait for it. The caller must call the function it returns, which
// stops the setup and closes the engine, when the run ends.
func (st *search) startGuard(ctx context.Context) func() {
	if st.opts.Guard == nil || st.opts.Lenient != nil {
		return func() {}
	}
	gctx, cancel := context.WithCancel(ctx)
	st.guardReady = make(chan guardSetup, 1)
	go func() { st.guardReady <- st.setupGuard(gctx) }()
	return func() {
		cancel()
		if g := <-st.guardReady; g.close != nil {
			g.close()
		}
	}
}

// guardOpen is the guard's engine being opened from the start of the run,
// for a suite whose generated inputs the suite alone decides (not a test
// file's, which its original's run records): most of the guard's cost is
// its engine's start, which then overlaps the original's run and the
// search.
type guardOpen struct {
	ps     *fitness.Suite
	origin []int
	done   chan struct{} // closed once run, close and err are set
	run    guard.Runner
	close  func()
	err    error
	cancel func()
	taken  bool // setupGuard took the engine: it closes it
}

// openGuardEarly starts opening the guard's engine for s, or returns nil
// when the options ask for no guard, or s's inputs depend on the
// original's run.
func openGuardEarly(ctx context.Context, opts *Options, s *fitness.Suite) *guardOpen {
	if opts.Guard == nil || opts.Lenient != nil || len(s.TestSource) > 0 {
		return nil
	}
	var ps *fitness.Suite
	var origin []int
	if opts.GuardProbes != nil {
		ps, origin = opts.GuardProbes()
	} else {
		ps, origin = guard.Probes(s, nil, guardInputs(opts))
	}
	gctx, cancel := context.WithCancel(ctx)
	g := &guardOpen{ps: ps, origin: origin, done: make(chan struct{}), cancel: cancel}
	if ps == nil {
		close(g.done)
		return g
	}
	go func() {
		g.run, g.close, g.err = opts.Guard(gctx, ps)
		close(g.done)
	}()
	return g
}

// release closes the early engine unless setupGuard took it. The run's
// last step.
func (g *guardOpen) release() {
	if g == nil {
		return
	}
	if !g.taken {
		g.cancel()
		<-g.done
		if g.close != nil {
			g.close()
		}
	}
	g.cancel()
}

func guardInputs(o *Options) int {
	if o.GuardInputs == 0 {
		return guard.DefaultInputs
	}
	return o.GuardInputs
}

// setupGuard opens the overfitting guard's engine for inputs generated
// from the suite (or takes the one opened early) and observes the
// original program on them.
func (st *search) setupGuard(ctx context.Context) guardSetup {
	o, p := &st.opts, st.prog
	var out guardSetup
	var run guard.Runner
	var ps *fitness.Suite
	var origin []int
	if e := st.guardEarly; e != nil {
		select {
		case <-e.done:
		case <-ctx.Done():
			out.err = ctx.Err()
			return out
		}
		e.taken = true
		ps, origin, run, out.close = e.ps, e.origin, e.run, e.close
		if e.err != nil {
			out.err = e.err
			return out
		}
	} else if ps, origin = guard.Probes(st.suite, st.result.Original, guardInputs(o)); ps != nil {
		r, closeFn, err := o.Guard(ctx, ps)
		if err != nil {
			out.err = err
			return out
		}
		out.close, run = closeFn, r
	}
	if ps != nil && st.opts.Grow != nil && waits(st.result.Original) {
		// The original's cases mostly wait: so do the inputs made from
		// them, which run in ranges at once, as many as the search's
		// candidates (the guard's engine starts more servers while
		// ranges wait for one).
		run = guard.Runner(inRanges(Runner(run), len(ps.Cases), st.opts.Workers))
	}
	out.g, out.err = guard.New(ctx, st.suite, st.result.Original, p.Strip(p.Src), ps, origin, run, st.guardRun())
	if out.g != nil && o.GuardExamples != nil {
		out.close = st.addExamples(ctx, out.g, out.close)
	}
	return out
}

// addExamples opens an engine for the target's docstring examples
// (Options.GuardExamples) and adds them to g's inputs; it returns what
// closes both engines, closeProbes the generated inputs' (or nil). The
// examples are left out, with one line that says why, when they cannot
// run: the guard goes on with its generated inputs.
func (st *search) addExamples(ctx context.Context, g *guard.Guard, closeProbes func()) func() {
	p, ex := st.prog, st.opts.GuardExamples
	run, closeFn, err := st.opts.Guard(ctx, ex)
	if err == nil {
		_, err = g.AddExamples(ctx, ex, p.Strip(p.Src), run)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(st.log, "repair: the target's docstring examples are left out of the overfitting guard: %v\n", err)
	}
	return func() {
		if closeFn != nil {
			closeFn()
		}
		if closeProbes != nil {
			closeProbes()
		}
	}
}

// checkLater starts the overfitting guard's check of a fix's source src
// (Fix.Source; ch its change when the fix keeps its lines, else nil) in
// the background; wait(fix) waits for it and sets
// fix.Guard, wait(nil) stops it (and does nothing after wait(fix)). The
// guard's warnings are said when it is waited for.
func (st *search) checkLater(ctx context.Context, src []byte, ch *program.Change) (wait func(fix *Fix) error) {
	if st.guardReady == nil {
		return func(*Fix) error { return nil }
	}
	gctx, cancel := st.graceContext(ctx, guardShare)
	done := make(chan struct{})
	var rep *guard.Report
	var warn string
	var err error
	go func() {
		defer close(done)
		rep, warn, err = st.check(gctx, src, ch)
	}()
	return func(fix *Fix) error {
		if fix == nil {
			cancel()
			<-done
			return nil
		}
		<-done
		cancel()
		if warn != "" {
			fmt.Fprintln(st.log, warn)
		}
		switch {
		case err == nil:
			fix.Guard = rep
		case ctx.Err() != nil:
			return ctx.Err()
		case gctx.Err() != nil:
			// The budget's share for the guard ran out: the fix is
			// delivered without its report (as when the guard cannot run).
			fmt.Fprintln(st.log, "repair: warning: the time budget ran out during the overfitting guard's check: the fix is delivered unchecked")
			return nil
		}
		return err
	}
}

// deliveryGrace is how long past the time budget the delivery of a
// plausible candidate found within it may take (reduction, validation,
// the check of delivered fixes, the guard): Options.TimeBudget. Past it
// the candidate is not claimed and the run ends. The reduction stops at
// reduceShare of it (the fix is then delivered as found), the guard at
// guardShare (the fix is then delivered without the guard's report), so
// that the validation, which a fix cannot do without, has the rest.
var deliveryGrace = 5 * time.Second

const (
	reduceShare = 0.4
	guardShare  = 0.8
)

// graceContext is ctx (a delivery's) ending at share of deliveryGrace
// past the time budget, or ctx itself (cancelable) when there is none.
func (st *search) graceContext(ctx context.Context, share float64) (context.Context, context.CancelFunc) {
	if st.budgetEnd.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, st.budgetEnd.Add(time.Duration(share*float64(deliveryGrace))))
}

// pastGrace reports whether ctx, a delivery's, ended because the time
// budget and its grace ran out (not because the run was canceled).
func (st *search) pastGrace(ctx context.Context) bool {
	return !st.budgetEnd.IsZero() && errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// check runs the overfitting guard on a fix's source, once its engine is
// ready: the report, or a warning when the guard cannot run (the fix is
// then delivered without one), or ctx's error.
func (st *search) check(ctx context.Context, src []byte, ch *program.Change) (*guard.Report, string, error) {
	var warn string
	if !st.guardWaited {
		st.guardWaited = true
		select {
		case g := <-st.guardReady:
			st.guardReady <- g // for the deferred close
			st.guard = g.g
			if g.err != nil {
				if ctx.Err() != nil {
					return nil, "", ctx.Err()
				}
				warn = fmt.Sprintf("repair: warning: the overfitting guard cannot run: %v", g.err)
			}
		case <-ctx.Done():
			st.guardWaited = false
			return nil, "", ctx.Err()
		}
	}
	if st.guard == nil {
		return nil, warn, nil
	}
	rep, err := st.guard.Check(ctx, src, ch)
	if err != nil {
		if ctx.Err() != nil {
			return nil, warn, ctx.Err()
		}
		if warn != "" {
			warn += "\n"
		}
		return nil, warn + fmt.Sprintf("repair: warning: %v", err), nil
	}
	return rep, warn, nil
}

// guardRun are the engine options of the guard's runs: a case cap of
// twice the search's, at least 20ms (generated inputs may make the
// original loop too; a few milliseconds more or less must not read as a
// change of behaviour).
func (st *search) guardRun() sandbox.RunOptions {
	return sandbox.RunOptions{Timeout: max(2*st.result.SearchTimeout, 20*time.Millisecond)}
}

// beside is what runs beside a fix's validation (finish), each on an
// engine of its own: its run under the check of delivered fixes and the
// overfitting guard's check (checkLater's wait).
type beside struct {
	check *checkRun
	guard func(*Fix) error
	// deadVariant is the fix with the condition of its Rank.DeadBranch
	// set to False, which liveBranch has the guard compare with it;
	// checkDeleted is its Rank.DeletesCheck without the dead branch.
	deadVariant  []byte
	checkDeleted bool
}

// stop stops what still runs and waits for it (nothing once both were
// waited for); b may be nil.
func (b *beside) stop() {
	if b == nil {
		return
	}
	b.check.wait()
	b.guard(nil)
}

// errDelivered: a plausible candidate reduces to a fix already delivered.
var errDelivered = errors.New("a fix already delivered")

// rejection is the validation's outcome of a fix it failed: twice alike,
// or on what held in every run (judgeRuns) when its verdicts changed.
type rejection struct {
	o    *fitness.Outcome
	src  []byte
	runs int // the validation's runs of it
}

func (r *rejection) Error() string { return "the judge failed the fix" }

func sameVerdicts(a, b *fitness.Outcome) bool {
	if a.CompileError != b.CompileError || len(a.Results) != len(b.Results) {
		return false
	}
	for i := range a.Results {
		if a.Results[i].Verdict != b.Results[i].Verdict {
			return false
		}
	}
	return true
}

func allPassed(o *fitness.Outcome) bool {
	for _, r := range o.Results {
		if r.Verdict != fitness.Passed {
			return false
		}
	}
	return true
}

// firstFailure names the first case o fails and how.
func firstFailure(s *fitness.Suite, o *fitness.Outcome) string {
	if o.CompileError != "" {
		return "it does not compile: " + o.CompileError
	}
	for i, r := range o.Results {
		if r.Verdict != fitness.Passed {
			return fmt.Sprintf("%s: %s", caseNames(s, []int{i})[0], r.Verdict)
		}
	}
	return "no case"
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
