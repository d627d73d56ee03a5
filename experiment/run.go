package experiment

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"repair/guard"
	"repair/internal/buildinfo"
	"repair/internal/inputerr"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
	"repair/session"
)

// RunOptions configure Run. The zero value runs every trial of the plan
// with the plan's engine settings.
type RunOptions struct {
	// Shard and Shards select shard Shard of Shards (1-based); Shards <= 1
	// runs every trial.
	Shard, Shards int
	// Workers is the number of worker processes of the whole run, shared
	// by the trials that run at once; 0 takes the plan's, and if that is
	// 0 too, one per CPU.
	Workers int
	// Trials bounds the trials that run at once (0: twice Workers, so that
	// the workers stay busy while a trial breeds its next generation or
	// reduces a patch). 1 runs trials one by one, so that their times are
	// not inflated by other trials waiting for the same workers.
	Trials int
	// Engine, Sandbox and Python override the plan's when not empty.
	Engine, Sandbox, Python string
	// Output overrides the plan's output directory when not empty.
	Output string
	// Version is the tool's version, recorded in every line.
	Version string
	// Progress, if not nil, is called after each finished trial.
	Progress func(Progress)
	// Stderr receives the engines' one-time notices (degraded isolation).
	// Nil discards.
	Stderr io.Writer
	// Filter, if not nil, keeps only the trials it returns true for (the
	// shard's trials are filtered first).
	Filter func(Trial) bool
	// Executors, when not empty, are the `repair serve` servers that
	// evaluate the candidates instead of local engines (see package
	// sandbox/remote); ExecutorToken is their bearer token file.
	Executors     []string
	ExecutorToken string
}

// Progress is reported after each finished trial of a run.
type Progress struct {
	// Done of Total trials of this run are finished; Plausible and Errors
	// count their outcomes.
	Done, Total       int
	Plausible, Errors int
	Elapsed           time.Duration
	// ETA is the estimated time to finish the remaining trials.
	ETA time.Duration
	// Trial is the trial that just finished and Record its line.
	Trial  Trial
	Record *Record
}

// Summary says what a run did.
type Summary struct {
	// File is the results file written to.
	File string
	// Trials is the number of trials of the shard; Skipped of them were
	// already finished; Ran ran now.
	Trials, Skipped, Ran int
	// Plausible, None and Errors count the outcomes of the trials that ran.
	Plausible, None, Errors int
	// Workers is the number of worker processes used and AtOnce the
	// number of trials run at once.
	Workers, AtOnce int
	Elapsed         time.Duration
}

// ParseIsolation reads a --sandbox value.
func ParseIsolation(s string) (sandbox.Isolation, error) {
	switch s {
	case "auto", "":
		return sandbox.IsolationAuto, nil
	case "strict":
		return sandbox.IsolationStrict, nil
	case "none":
		return sandbox.IsolationNone, nil
	}
	return 0, fmt.Errorf("must be auto, strict or none, got %q", s)
}

// isolationName is the --sandbox value of iso.
func isolationName(iso sandbox.Isolation) string {
	switch iso {
	case sandbox.IsolationStrict:
		return "strict"
	case sandbox.IsolationNone:
		return "none"
	}
	return "auto"
}

// Pending returns the trials of the plan that a run with opts would run
// now (its shard's, minus those finished in the output directory), and
// the number of the shard's trials.
func Pending(plan *Plan, opts RunOptions) (pending []Trial, shard int, err error) {
	done, err := doneIDs(outputDir(plan, opts))
	if err != nil {
		return nil, 0, err
	}
	for _, t := range plan.Trials() {
		if !InShard(t.ID, opts.Shard, opts.Shards) || (opts.Filter != nil && !opts.Filter(t)) {
			continue
		}
		shard++
		if !done[t.ID] {
			pending = append(pending, t)
		}
	}
	return pending, shard, nil
}

func outputDir(plan *Plan, opts RunOptions) string {
	if opts.Output != "" {
		return opts.Output
	}
	return plan.Output
}

// Run runs the plan's unfinished trials of the selected shard and appends
// one line per finished trial to the shard's results file (ResultsFile) in
// the output directory. Trials already finished in any results file of
// that directory are skipped, so running a plan again resumes it.
//
// Bugs run one after another. Each gets one engine of opts.Workers worker
// processes, which up to opts.Trials of its trials share at once; the
// engine is closed when the bug's trials are done. Before its trials, the
// bug's original program runs once: one that does not compile or passes
// every case stops the run with an inputerr. A trial's result
// depends only on (bug, parameters, seed), not on the number of workers or
// on the other trials, as long as no time budget cuts it short.
//
// A trial that fails (the sandbox broke) is recorded with outcome Error
// and runs again next time; Run then returns an error after the other
// trials. When ctx is canceled, trials in flight are abandoned without a
// line and Run returns ctx.Err().
func Run(ctx context.Context, plan *Plan, opts RunOptions) (*Summary, error) {
	engine, isoName, python := plan.Engine, plan.Sandbox, plan.Python
	if opts.Engine != "" {
		engine = opts.Engine
	}
	if opts.Sandbox != "" {
		isoName = opts.Sandbox
	}
	if opts.Python != "" {
		python = opts.Python
	}
	iso, err := ParseIsolation(isoName)
	if err != nil {
		return nil, inputerr.New("--sandbox %v", err)
	}
	if len(opts.Executors) > 0 {
		if _, err := session.RemoteOpener(opts.Executors, opts.ExecutorToken); err != nil {
			return nil, err
		}
	}
	if opts.Shards > 1 && (opts.Shard < 1 || opts.Shard > opts.Shards) {
		return nil, inputerr.New("--shard %d/%d: K must be from 1 to N", opts.Shard, opts.Shards)
	}
	workers := opts.Workers
	if workers == 0 {
		workers = plan.Workers
	}
	workers = session.Workers(workers)
	trials := opts.Trials
	if trials <= 0 {
		trials = 2 * workers
	}
	out := outputDir(plan, opts)
	pending, total, err := Pending(plan, opts)
	if err != nil {
		return nil, err
	}
	sum := &Summary{File: filepath.Join(out, ResultsFile(opts.Shard, opts.Shards)), Trials: total,
		Skipped: total - len(pending), Workers: workers, AtOnce: trials}
	start := time.Now()
	if len(pending) == 0 {
		return sum, nil
	}
	app, err := openAppender(sum.File)
	if err != nil {
		return nil, err
	}
	defer app.close()

	host, _ := os.Hostname()
	r := &runner{
		plan: plan, opts: opts, app: app, engine: engine, python: python, iso: iso,
		workers: workers, host: host, total: len(pending), start: start, sum: sum,
	}
	// Group the pending trials by bug, in the canonical order.
	var groups [][]Trial
	for i, t := range pending {
		if i == 0 || t.Bug != pending[i-1].Bug {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], t)
	}
	for _, g := range groups {
		if err := r.runBug(ctx, g); err != nil {
			sum.Elapsed = time.Since(start)
			return sum, err
		}
	}
	sum.Elapsed = time.Since(start)
	if sum.Errors > 0 {
		return sum, fmt.Errorf("%d of %d trials failed (outcome %q in %s); running the plan again retries them", sum.Errors, sum.Ran, Error, sum.File)
	}
	return sum, nil
}

// runner is the state of one Run.
type runner struct {
	plan         *Plan
	opts         RunOptions
	app          *appender
	engine       string
	python, host string
	iso          sandbox.Isolation
	workers      int
	start        time.Time

	mu    sync.Mutex // guards the counters below and sum
	total int
	done  int
	sum   *Summary
}

// runBug runs trials of one bug on one session: its engine, and the
// overfitting guard's and the check's engines, shared by the trials.
func (r *runner) runBug(ctx context.Context, trials []Trial) error {
	bug := trials[0].Bug
	ses, err := session.NewShared(r.config(), &session.Input{Suite: bug.Suite, Path: bug.Target, Paths: []string{bug.Target}})
	if err != nil {
		return err
	}
	defer ses.Close()
	eng, err := ses.Open(ctx, r.opts.Stderr)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if inputerr.Is(err) {
			return err
		}
		return fmt.Errorf("%s: %w", bug.Name, err)
	}
	desc := session.Describe(eng)

	next := make(chan Trial)
	var wg sync.WaitGroup
	var fatal error
	var fatalOnce sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := checkRepairable(ctx, eng, bug); err != nil {
		return err
	}

	for range min(r.sum.AtOnce, len(trials)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				rec := r.trial(ctx, ses, desc, t)
				if rec == nil { // interrupted
					continue
				}
				if err := r.app.append(rec); err != nil {
					fatalOnce.Do(func() { fatal = err; cancel() })
					continue
				}
				r.finished(t, rec)
			}
		}()
	}
feed:
	for _, t := range trials {
		select {
		case next <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if fatal != nil {
		return fatal
	}
	return ctx.Err()
}

// checkRepairable runs the bug's original program once: a program that
// does not compile or passes every case is refused (as repair.Run would
// refuse it in every trial).
func checkRepairable(ctx context.Context, eng sandbox.Engine, bug *Bug) error {
	orig, err := eng.Run(ctx, bug.Src, sandbox.RunOptions{})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: run the original program: %w", bug.Name, err)
	}
	if orig.CompileError != "" {
		return inputerr.New("%s: %s does not compile: %s", bug.Name, bug.TargetRel, orig.CompileError)
	}
	if err := bug.Suite.CheckRepairable(orig); err != nil {
		return inputerr.New("%s: %v", bug.Name, err)
	}
	return nil
}

// trial runs one trial; nil means it was interrupted and leaves no line.
func (r *runner) trial(ctx context.Context, ses *session.Session, engine string, t Trial) *Record {
	if ctx.Err() != nil {
		return nil
	}
	rec := &Record{
		Schema: SchemaVersion,
		ID:     t.ID, Bug: t.Bug.Name, Target: t.Bug.TargetRel, Tests: t.Bug.TestsRel, Seed: t.Seed,
		Parameters: map[string]any{}, FirstFixGeneration: -1,
		Version: r.opts.Version, Commit: buildinfo.Commit(), Engine: engine, Host: r.host,
		Command: t.Command(r.engine, r.iso, r.plan.NoGuard), Dir: r.plan.Dir,
		Guard: Check{Ran: ses.Guarded()}, Check: Check{Ran: ses.Checked()},
	}
	for _, p := range Params {
		rec.Parameters[p.Name] = typed(p, t.Params[p.Name])
	}
	start := time.Now()
	res, err := r.search(ctx, ses, t)
	rec.Seconds = time.Since(start).Seconds()
	rec.Finished = time.Now().UTC().Format(time.RFC3339)
	if ctx.Err() != nil {
		return nil
	}
	if res != nil {
		rec.StopReason = res.StopReason
		rec.LocalizeSeconds = res.LocalizeTime.Seconds()
		rec.SearchSeconds = res.SearchTime.Seconds()
		rec.ReduceSeconds = res.ReduceTime.Seconds()
		rec.Evaluations = res.Evaluations
		rec.Generations = res.Generations
		rec.CacheHits = res.Cache.Hits
		rec.BestFitness = res.BestFitness
		rec.Fixes = len(res.Fixes)
		for _, i := range res.Flaky {
			rec.Flaky = append(rec.Flaky, t.Bug.Suite.Cases[i].Name)
		}
		rec.Check.Refused = res.Refused
	}
	switch {
	case err != nil:
		rec.Outcome = Error
		rec.Error = oneLine(err.Error())
	case len(res.Fixes) > 0:
		fix := res.Fixes[0]
		rec.Outcome = Plausible
		rec.FirstFixGeneration = fix.Generation
		rec.FirstFixEvaluations = fix.Evaluations
		rec.PatchEdits = len(fix.Patch)
		rec.Patch = fix.Diff
		rec.PatchLines = patchLines(fix.Diff)
		rec.Describe = fix.Describe
		rec.DeletesCheck = fix.Rank != nil && fix.Rank.DeletesCheck
		if rec.Guard.Ran && fix.Guard != nil {
			rec.Guard.Verdict, rec.Guard.Detail = GuardPassed, fix.Guard.String()
			if fix.Guard.Suspect() {
				rec.Guard.Verdict = GuardSuspect
			}
		}
		if rec.Check.Ran {
			rec.Check.Verdict = CheckPassed
		}
	default:
		rec.Outcome = None
		if len(rec.Check.Refused) > 0 {
			rec.Check.Verdict = CheckRefused
		}
	}
	return rec
}

// search parses the bug's target afresh (a Program is not shared between
// searches) and runs the search.
func (r *runner) search(ctx context.Context, ses *session.Session, t Trial) (*repair.Result, error) {
	prog, err := program.Parse(t.Bug.Target, t.Bug.Src)
	if err != nil {
		return nil, err
	}
	prog.Path = t.Bug.Path
	o := t.Options()
	o.Workers = r.workers
	ses.Hooks(ctx, &o, nil)
	return repair.Run(ctx, prog, t.Bug.Suite, ses.Engine.Run, o)
}

// config is the session of every bug: the plan's engine, with the
// overfitting guard and the check of delivered fixes unless the plan
// turns them off.
func (r *runner) config() *session.Config {
	c := &session.Config{
		Engine: r.engine, Isolation: isolationName(r.iso), Python: r.python, Workers: r.workers,
		Executors: r.opts.Executors, ExecutorToken: r.opts.ExecutorToken,
		GuardInputs: guard.DefaultInputs, NoCheck: r.plan.NoCheck,
	}
	if r.plan.NoGuard {
		c.GuardInputs = 0
	}
	return c
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// finished counts a finished trial and reports progress.
func (r *runner) finished(t Trial, rec *Record) {
	r.mu.Lock()
	r.done++
	r.sum.Ran++
	switch rec.Outcome {
	case Plausible:
		r.sum.Plausible++
	case None:
		r.sum.None++
	case Error:
		r.sum.Errors++
	}
	p := Progress{Done: r.done, Total: r.total, Plausible: r.sum.Plausible, Errors: r.sum.Errors,
		Elapsed: time.Since(r.start), Trial: t, Record: rec}
	p.ETA = time.Duration(float64(p.Elapsed) / float64(p.Done) * float64(p.Total-p.Done))
	if r.opts.Progress != nil {
		r.opts.Progress(p) // under r.mu: reports arrive in order
	}
	r.mu.Unlock()
}
