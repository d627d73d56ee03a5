// The original program's run: its cases in ranges after a timeout, the
// search's calibrated case cap, and the runners it leads to.

package repair

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/lenient"
	"repair/program"
	"repair/sandbox"
)

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

// original runs the original program's cases with coverage and checks
// that it compiles and that some case fails (an inputerr error if not).
// The cases Options.CheckOriginal leaves out, and in a suite of several
// files the tests that skip themselves and the failing tests no edit can
// reach (failingElsewhere), are left out of the outcome it returns, which
// is on sub's suite (nil: all of s). ag runs it again
// when the check asks (or later, the search: again).
func original(ctx context.Context, p *program.Program, s *fitness.Suite, run Runner, opts Options, ag *again) (orig *fitness.Outcome, sub *subset, err error) {
	// With a test file and the guard, the run records the calls the tests
	// make into the target: the guard's inputs.
	record := opts.Guard != nil && len(s.TestSource) > 0
	orig, err = runOriginal(ctx, run, p.Src, len(s.Cases), opts.Workers, sandbox.RunOptions{Coverage: true, Lenient: opts.Lenient, Record: record})
	if err != nil {
		return nil, nil, fmt.Errorf("run the original program: %w", err)
	}
	if orig.CompileError != "" {
		return nil, nil, inputerr.New("%s: does not compile: %s", p.Path, orig.CompileError)
	}
	if opts.CheckOriginal != nil {
		out, err := opts.CheckOriginal(ctx, orig, func(ctx context.Context) ([]*fitness.Outcome, error) { return ag.runs(ctx, orig) })
		if err != nil {
			return nil, nil, err
		}
		if len(out) > 0 {
			if sub, err = leaveOut(s, out); err != nil {
				return nil, nil, err
			}
			s, orig = sub.suite, sub.outcome(orig)
		}
	}
	if sub == nil && len(s.Parts) > 1 {
		// The project's suite, which no plain pytest run checks: a test
		// that skips itself at run time (importorskip, pytest.skip), or
		// fails for a reason of its own (a socket the sandbox refuses,
		// another module's bug), must not stand between a fix and the
		// failing tests it can reach.
		skips := skippedItself(orig)
		if len(skips) == countFailing(orig) {
			skips = nil
		}
		elsewhere := failingElsewhere(p, s, orig)
		if len(skips)+len(elsewhere) >= countFailing(orig) {
			// Then no failing test an edit reaches is left: the
			// localization says so (exit code 6, or a warning).
			elsewhere = nil
		}
		if out := slices.Concat(skips, elsewhere); len(out) > 0 {
			slices.Sort(out)
			if sub, err = leaveOut(s, out); err != nil {
				return nil, nil, err
			}
			for _, i := range elsewhere {
				sub.elsewhere = append(sub.elsewhere, s.Cases[i].Name)
			}
			if opts.Log != nil && len(skips) > 0 {
				fmt.Fprintf(opts.Log, "repair: %d %s under the tool (%s); left out of the suite\n",
					len(skips), pl(len(skips), "test skips itself", "tests skip themselves"), failedFew(s, orig, skips))
			}
			if opts.Log != nil && len(elsewhere) > 0 {
				n := len(elsewhere)
				fmt.Fprintf(opts.Log, "repair: %d failing %s never %s a line of %s that an edit could change (%s not name it), so no fix can make %s pass: left out of the suite (%s)\n",
					n, pl(n, "test", "tests"), pl(n, "runs", "run"), p.Path, pl(n, "its file does", "their files do"), pl(n, "it", "them"), failedFew(s, orig, elsewhere))
			}
			s, orig = sub.suite, sub.outcome(orig)
		}
	}
	if err := s.CheckRepairable(orig); err != nil {
		return nil, nil, err
	}
	return orig, sub, nil
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
	if _, err := runRanges(ctx, run, src, opts, out, k+1, min(n-k-1, 4*workers), workers); err != nil {
		return nil, err
	}
	return out, nil
}

// runRanges runs cases first.. of src's outcome out (whose Results are
// one per case) as chunks ranges, workers of them at once
// (sandbox.RunOptions.Cases), and copies each range's results into out.
// When a range does not compile, that range's outcome is returned (every
// range's would say the same).
func runRanges(ctx context.Context, run Runner, src []byte, opts sandbox.RunOptions, out *fitness.Outcome, first, chunks, workers int) (*fitness.Outcome, error) {
	n := len(out.Results)
	rest := n - first
	var mu sync.Mutex
	var bad *fitness.Outcome
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
			if got.CompileError != "" {
				mu.Lock()
				bad = got
				mu.Unlock()
			}
			copy(out.Results[r.First:r.End], got.Results[r.First:r.End])
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return bad, nil
}

// inRanges wraps run, for a suite of n cases that mostly wait (sleep,
// I/O), so that a run of every case runs as k ranges at once, each on a
// worker of its own: the overfitting guard's inputs of I/O-bound code
// take about a kth of their wall time.
func inRanges(run Runner, n, k int) Runner {
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if k < 2 || n < 2 || opts.Cases.End > 0 {
			return run(ctx, src, opts)
		}
		out := &fitness.Outcome{Results: make([]fitness.Result, n)}
		bad, err := runRanges(ctx, run, src, opts, out, 0, min(n, k), k)
		if bad != nil {
			return bad, err
		}
		return out, err
	}
}

// withoutDonors wraps run so that candidates run without p's donor files.
func withoutDonors(p *program.Program, run Runner) Runner {
	return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		return run(ctx, p.Strip(src), o)
	}
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

// again is the original's runs again (flaky cases, flaky.go): on the
// whole suite, with the validation's options, made once, when first
// asked for.
type again struct {
	run     Runner
	src     []byte
	n       int
	workers int
	lenient *lenient.Plan
	got     []*fitness.Outcome // the first run (with coverage) first
	err     error
}

// runs returns the original's flakyRuns runs, first (its run with
// coverage, or nil for a caller that has it) first, running the others
// the first time it is called.
func (a *again) runs(ctx context.Context, first *fitness.Outcome) ([]*fitness.Outcome, error) {
	if a.got != nil || a.err != nil {
		return a.got, a.err
	}
	got := []*fitness.Outcome{first}
	for len(got) < flakyRuns {
		o, err := runOriginal(ctx, a.run, a.src, a.n, a.workers, sandbox.RunOptions{Lenient: a.lenient, Validate: true})
		if err == nil && o.CompileError != "" {
			err = fmt.Errorf("it does not compile now: %s", o.CompileError)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err() // not kept: the run was cut short
			}
			a.err = fmt.Errorf("run the original program again: %w", err)
			return nil, a.err
		}
		got = append(got, o)
	}
	a.got = got
	return got, nil
}
