// A whole repair as the repair command runs it: the session opened, the
// search run, its outcome said on stderr, in the report and on stdout.

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"repair/guard"
	"repair/mutate"
	"repair/repair"
	"repair/sandbox"
)

// Job is one repair: the search's options and what to do with its
// outcome.
type Job struct {
	Options repair.Options
	// Preset is --preset, as recorded in the report.
	Preset string
	// Report is the --report file ("": none); Write applies the fix to
	// the target files (--write).
	Report string
	Write  bool
	// DefaultBudget: the user set none of --time-budget, --generations
	// and --evaluations.
	DefaultBudget bool
	// Version is the tool's version, for the report.
	Version string
}

// Streams are where a repair writes: the patch on Out, the rest on Err
// (Quiet: errors and the warnings that change the outcome alone;
// Verbose: more; Live: Err is a terminal).
type Streams struct {
	Out, Err       io.Writer
	Quiet, Verbose bool
	Live           bool
}

// Log is where notices go: Err, or nowhere with Quiet.
func (s Streams) Log() io.Writer {
	if s.Quiet {
		return io.Discard
	}
	return s.Err
}

// Debug is where -v's details go: Err with Verbose, else nowhere.
func (s Streams) Debug() io.Writer {
	if s.Verbose && !s.Quiet {
		return s.Err
	}
	return io.Discard
}

// ErrNoFix is a repair's end without a fix to deliver (no fix within the
// budget, or interrupted): what it found is on stderr and in the report.
var ErrNoFix = errors.New("no fix")

// SuspectError is a repair's end with a fix printed of which every fix
// found is suspect (repair.Fix.Suspect): it breaks Guard.Broken of the
// inputs the original handled, or it deletes a check of the code.
type SuspectError struct {
	Guard *guard.Report
	// DeletesCheck says the guard saw nothing wrong: the fix deletes or
	// weakens a check of the code (repair.Rank.DeletesCheck).
	DeletesCheck bool
}

func (e *SuspectError) Error() string { return "suspect fix" }

// Repair runs a repair: it loads the target and its suite, opens the
// session, runs the search, says the outcome on stderr and in the
// report, prints the fix on stdout and writes it with Write. began is
// when the run began (the time budget counts from there).
func Repair(ctx context.Context, cfg *Config, job Job, st Streams, began time.Time) (err error) {
	defer startupGC(startupGCWindow)()
	opts := job.Options
	// --time-budget counts from here: the engines' start and the
	// original's run are part of the run the user waits for.
	opts.Start = began
	if job.Report != "" {
		if err := CheckWritable("--report", job.Report); err != nil {
			return err
		}
	}
	if err := cfg.CheckLenient(); err != nil {
		return err
	}
	if err := cfg.checkGuard(); err != nil {
		return err
	}
	l, parse, err := cfg.StartLoad()
	if err != nil {
		return err
	}
	// From here on every outcome gets its --report: one that ends
	// without a search's result (nothing to repair, tests that never
	// reach the target, a target that does not compile) says why.
	var eng sandbox.Engine
	engineDesc := cfg.Engine
	reported := false
	defer func() {
		if err != nil && job.Report != "" && !reported {
			if rerr := writeReport(job, cfg, opts, l, engineDesc, eng, &repair.Result{}, time.Since(began), err); rerr != nil {
				fmt.Fprintf(st.Err, "repair: %v\n", rerr)
			}
		}
	}()
	// stderr, while the run lasts: the stages and the search's progress,
	// and the notices above them (-q: errors and the warnings that change
	// the outcome alone; -v: more).
	var plog *progressLog
	log, warn := st.Log(), st.Err
	if !st.Quiet {
		plog = newProgressLog(st.Err, st.Live, st.Verbose, began, opts.TimeBudget)
		defer plog.Close()
		log, warn = plog, plog
		opts.Stage = plog.Stage
	}
	debug := io.Discard
	if st.Verbose && !st.Quiet {
		debug = log
	}
	fmt.Fprintf(log, "repair: %s against %s; %s\n", strings.Join(l.Paths, ", "), cfg.Tests, budgetLine(opts, job.DefaultBudget))
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
		prepared <- mutate.Prepare(l.Prog)
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
	if job.Write {
		for _, p := range l.Paths {
			if err := checkTargetWritable(p); err != nil {
				return err
			}
		}
	}
	// The guard's engine starts beside the main one; everything closes
	// before the process ends.
	s, err := New(ctx, cfg, l)
	if err != nil {
		return err
	}
	defer s.Close()
	// What the engine says while the target is parsed waits for the
	// parse: an error in the target is the one line the user sees.
	engLog := &held{w: log}
	announce(opts, "engine start")
	eng, err = s.Open(ctx, engLog)
	if perr := parseErr(); perr != nil {
		eng = nil
		return perr
	}
	engLog.release()
	if err != nil {
		eng = nil
		return err
	}
	if plog != nil {
		// A valid run: what it said so far goes out.
		plog.release()
	}
	for _, n := range l.Notes {
		fmt.Fprintf(log, "repair: %s\n", n)
	}
	engineDesc = Describe(eng)
	if cfg.Lenient {
		if opts.Lenient, err = lenientPlan(l, eng); err != nil {
			return err
		}
		engineDesc += ", lenient"
	}
	fmt.Fprintf(log, "repair: %s, engine %s, %d cases\n", l.Prog.Path, engineDesc, len(l.Suite.Cases))
	s.Hooks(ctx, &opts, warn)
	opts.Log = log
	if plog != nil {
		opts.Progress = plog.Progress
	}
	start := time.Now()
	res, runErr := repair.Run(ctx, l.Prog, l.Suite, eng.Run, opts)
	if plog != nil {
		plog.Close()
	}
	if runErr != nil && res == nil {
		return runErr
	}
	elapsed := time.Since(start)
	if cfg.Lenient && res.Original != nil {
		PrintNeeded(log, res.Original)
	}
	// A report that cannot be written now (the disk filled up during the
	// search) does not cost the fix: it is printed all the same.
	var reportErr error
	if job.Report != "" {
		reported = true
		reportErr = writeReport(job, cfg, opts, l, engineDesc, eng, res, elapsed, runErr)
	}
	summarize(log, res, elapsed)
	fastPath(debug, eng, res)
	if runErr != nil && errors.Is(runErr, context.Canceled) {
		// Ctrl-C exits 1 with nothing on stdout, even when --all (or the
		// guard) had fixes already: they are in the summary and the
		// report.
		fmt.Fprintln(log, "repair: interrupted")
		if reportErr != nil {
			return reportErr
		}
		return ErrNoFix
	}
	if len(res.Fixes) == 0 {
		if reportErr != nil {
			return reportErr
		}
		return ErrNoFix
	}
	fix := res.Fixes[0]
	fmt.Fprint(st.Out, fix.Diff)
	if job.Write {
		if err := writeTargets(log, l, fix.Source); err != nil {
			return err
		}
	}
	if reportErr != nil {
		return reportErr
	}
	if fix.Suspect() {
		// Fixes are ranked by inputs broken, then by the checks they
		// keep: the first is the least suspect, so every fix found is.
		return &SuspectError{Guard: fix.Guard, DeletesCheck: !fix.Guard.Suspect()}
	}
	return nil
}

// budgetLine says the run's budget in the first line of its output.
func budgetLine(o repair.Options, byDefault bool) string {
	var parts []string
	if o.TimeBudget > 0 {
		parts = append(parts, "time budget "+Short(o.TimeBudget))
	}
	if o.Evaluations > 0 {
		parts = append(parts, Plural(o.Evaluations, "evaluation"))
	}
	if o.Generations < repair.MaxGenerations {
		parts = append(parts, Plural(o.Generations, "generation"))
	}
	s := "no budget"
	if len(parts) > 0 {
		s = "stops after " + strings.Join(parts, " or ")
	}
	if byDefault {
		s += " (the default; --time-budget, --generations or --evaluations to change)"
	}
	return s
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
			Short(res.LocalizeTime), Short(res.SearchTime), Short(res.ReduceTime), Short(res.VerifyTime), Short(res.GuardTime))
		fmt.Fprintf(w, "repair: cases run %d, skipped by test selection %d\n", res.CasesRun, res.CasesSkipped)
	}
	st := sandboxStats(eng)
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
