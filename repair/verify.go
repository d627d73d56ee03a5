// The check of a delivered fix against a test file: its test ids run
// again in servers of their own (sandbox.Options.Verify), where the code
// under test cannot reach the test machinery unseen.

package repair

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// verifySetup is the check's engine once open; run is nil when it cannot
// run (err says why).
type verifySetup struct {
	run   Runner
	close func()
	err   error
}

// openVerify starts opening the check's engine, for a test-file suite
// when the options ask for the check, at once: it collects the tests and
// starts servers of its own (a few tenths of a second with pytest), which
// overlaps the original's run and the search instead of delaying the
// first fix. The setup arrives on ready; the caller must call stop when
// the run ends.
func openVerify(ctx context.Context, opts Options, s *fitness.Suite) (ready chan verifySetup, stop func()) {
	if opts.Verify == nil || len(s.TestSource) == 0 || opts.Lenient != nil {
		return nil, func() {}
	}
	vctx, cancel := context.WithCancel(ctx)
	ready = make(chan verifySetup, 1)
	go func() {
		run, closeFn, err := opts.Verify(vctx)
		ready <- verifySetup{run: run, close: closeFn, err: err}
	}()
	return ready, func() {
		cancel()
		if v := <-ready; v.close != nil {
			v.close()
		}
	}
}

// checkRun is a run of a fix under the check, started beside its
// validation (startCheck): the two run on engines of their own, while the
// search waits for both.
type checkRun struct {
	done chan struct{}
	sel  []bool           // the cases it runs (nil: all)
	o    *fitness.Outcome // nil: no check
	err  error
	took time.Duration
}

// startCheck starts running src, a fix's stripped source, under the check;
// nil when the run has no check. The caller must wait for it before it
// touches the search's state again.
//
// sel, when not nil, are the cases to run (checkSelect); the others are
// not run (fitness.Outcome.Skipped).
func (st *search) startCheck(ctx context.Context, src []byte, sel []bool) *checkRun {
	if st.verifyReady == nil {
		return nil
	}
	r := &checkRun{done: make(chan struct{}), sel: sel}
	go func() {
		defer close(r.done)
		t := time.Now()
		r.o, r.err = st.checkSource(ctx, src, sel)
		r.took = time.Since(t)
	}()
	return r
}

// checkSelect are the cases the check of a fix with change ch runs: those
// that reach a statement of the change or of the top-level definitions it
// changes, and those the original does not pass; nil (every case) when
// the selector cannot tell. The validation ran every case on the fix, so
// what the check leaves out are the cases that run the original's code
// alone and that it passes: the code under test cannot have made them
// pass, which is what the check looks for. On a test file of hundreds of
// tests whose calls cross between its processes (tens of microseconds a
// crossing), the check of every test takes a minute.
func (sl *selector) checkSelect(ch *program.Change) []bool {
	if sl == nil || ch == nil || ch.Defs == nil {
		return nil
	}
	sel := make([]bool, sl.reach.Cases())
	sl.reached(ch, sel, sel)
	for i, r := range sl.orig.Results {
		if i < len(sel) && r.Verdict != fitness.Passed {
			sel[i] = true
		}
	}
	return sel
}

// wait waits for the run and returns it (r may be nil).
func (r *checkRun) wait() *checkRun {
	if r != nil {
		<-r.done
	}
	return r
}

// checkSource runs src under the check, waiting for its engine the first
// time; a nil outcome when the check cannot run (said once).
func (st *search) checkSource(ctx context.Context, src []byte, sel []bool) (*fitness.Outcome, error) {
	if !st.verifyWaited {
		st.verifyWaited = true
		select {
		case v := <-st.verifyReady:
			st.verifyReady <- v // for the deferred close
			st.verifier = v.run
			if v.run != nil && st.verifyWrap != nil {
				st.verifier = st.verifyWrap(v.run)
			}
			if v.err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				fmt.Fprintf(st.log, "repair: warning: the check of delivered fixes cannot run: %v\n", v.err)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if st.verifier == nil {
		return nil, nil
	}
	return st.verifier(ctx, src, sandbox.RunOptions{Select: sel})
}

// verify says why fix is refused ("" when it is not), from its run under
// the check, o (nil: no check): a test that passes in the search's runs
// fails there, while the original's verdict of that test is the same in
// both (a program whose own code the check fails, one that inspects its
// frames say, is not held against its fixes), and the test is not one of
// the original's flaky ones (checkOriginal, run for it if it was not).
func (st *search) verify(ctx context.Context, o *fitness.Outcome, sel []bool) (string, error) {
	if o == nil {
		return "", nil
	}
	for i, r := range o.Results {
		if r.Verdict == fitness.Passed || i < len(o.Skipped) && o.Skipped[i] {
			continue
		}
		// The fix passed this test in its validation: is it flaky
		// whatever the code?
		if err := st.checkOriginal(ctx); err != nil {
			return "", err
		}
		if i < len(st.origFlaky) && st.origFlaky[i] {
			continue
		}
		vo, err := st.originalChecked(ctx, i, sel)
		if err != nil {
			return "", err
		}
		orig := st.result.Original.Results
		if vo != nil && i < len(orig) && vo.Verdict != orig[i].Verdict {
			continue // the check changes this test's verdict of the original too
		}
		detail, _, _ := strings.Cut(r.Detail, "\n")
		return fmt.Sprintf("%s: %v (%s)", st.suite.Cases[i].Name, r.Verdict, detail), nil
	}
	return "", nil
}

// originalChecked is the original's result of case i under the check
// (nil when the check gave none), from its run of the cases of sel (nil:
// every case), made when a fix first needs it; a case that run did not
// cover runs the original again.
func (st *search) originalChecked(ctx context.Context, i int, sel []bool) (*fitness.Result, error) {
	if st.verifiedOrig == nil || i < len(st.verifiedOrig.Skipped) && st.verifiedOrig.Skipped[i] {
		p := st.prog
		o, err := st.verifier(ctx, p.Strip(p.Src), sandbox.RunOptions{Select: sel})
		if err != nil {
			return nil, err
		}
		st.verifiedOrig = mergeChecked(st.verifiedOrig, o)
	}
	if i >= len(st.verifiedOrig.Results) || i < len(st.verifiedOrig.Skipped) && st.verifiedOrig.Skipped[i] {
		return nil, nil
	}
	return &st.verifiedOrig.Results[i], nil
}

// mergeChecked is the outcome of the cases either of two runs under the
// check ran (old may be nil); b's where both did.
func mergeChecked(a, b *fitness.Outcome) *fitness.Outcome {
	if a == nil || len(a.Results) != len(b.Results) || b.Skipped == nil {
		return b
	}
	out := &fitness.Outcome{CompileError: b.CompileError, Results: slices.Clone(b.Results), Skipped: slices.Clone(b.Skipped)}
	for i := range out.Results {
		if out.Skipped[i] && !(i < len(a.Skipped) && a.Skipped[i]) {
			out.Results[i], out.Skipped[i] = a.Results[i], false
		}
	}
	return out
}

// SameCases wraps run, an engine's for suite got (a copy of want opened
// apart, whose cases the engine may have collected again), so that its
// outcomes list want's cases in want's order, by name; a case got does not
// have is a RUNTIME_ERROR.
func SameCases(want, got *fitness.Suite, run Runner) Runner {
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		at := make(map[string]int, len(got.Cases))
		for i, c := range got.Cases {
			at[c.Name] = i
		}
		if opts.Select != nil {
			// The selection by name: a case of got's that want does not
			// have runs.
			sel := make([]bool, len(got.Cases))
			for j := range sel {
				sel[j] = true
			}
			for i, c := range want.Cases {
				if j, ok := at[c.Name]; ok && i < len(opts.Select) {
					sel[j] = opts.Select[i]
				}
			}
			opts.Select, opts.SelectWide = sel, nil
		}
		o, err := run(ctx, src, opts)
		if err != nil || o == nil {
			return o, err
		}
		out := &fitness.Outcome{CompileError: o.CompileError, Results: make([]fitness.Result, len(want.Cases))}
		for i, c := range want.Cases {
			j, ok := at[c.Name]
			if !ok || j >= len(o.Results) {
				out.Results[i] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "not collected under the check"}
				continue
			}
			out.Results[i] = o.Results[j]
			if j < len(o.Skipped) && o.Skipped[j] {
				if out.Skipped == nil {
					out.Skipped = make([]bool, len(want.Cases))
				}
				out.Skipped[i] = true
			}
		}
		return out, nil
	}
}
