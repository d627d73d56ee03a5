// The check of a delivered fix against a test file: its test ids run
// again in servers of their own (sandbox.Options.Verify), where the code
// under test cannot reach the test machinery unseen.

package repair

import (
	"context"
	"fmt"
	"strings"
	"time"

	"repair/fitness"
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
	o    *fitness.Outcome // nil: no check
	err  error
	took time.Duration
}

// startCheck starts running src, a fix's stripped source, under the check;
// nil when the run has no check. The caller must wait for it before it
// touches the search's state again.
func (st *search) startCheck(ctx context.Context, src []byte) *checkRun {
	if st.verifyReady == nil {
		return nil
	}
	r := &checkRun{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		t := time.Now()
		r.o, r.err = st.checkSource(ctx, src)
		r.took = time.Since(t)
	}()
	return r
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
func (st *search) checkSource(ctx context.Context, src []byte) (*fitness.Outcome, error) {
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
	return st.verifier(ctx, src, sandbox.RunOptions{})
}

// verify says why fix is refused ("" when it is not), from its run under
// the check, o (nil: no check): a test that passes in the search's runs
// fails there, while the original's verdict of that test is the same in
// both (a program whose own code the check fails, one that inspects its
// frames say, is not held against its fixes), and the test is not one of
// the original's flaky ones (checkOriginal, run for it if it was not).
func (st *search) verify(ctx context.Context, o *fitness.Outcome) (string, error) {
	if o == nil {
		return "", nil
	}
	var err error
	for i, r := range o.Results {
		if r.Verdict == fitness.Passed {
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
		if st.verifiedOrig == nil {
			p := st.prog
			if st.verifiedOrig, err = st.verifier(ctx, p.Strip(p.Src), sandbox.RunOptions{}); err != nil {
				return "", err
			}
		}
		orig := st.result.Original.Results
		if i < len(st.verifiedOrig.Results) && i < len(orig) && st.verifiedOrig.Results[i].Verdict != orig[i].Verdict {
			continue // the check changes this test's verdict of the original too
		}
		detail, _, _ := strings.Cut(r.Detail, "\n")
		return fmt.Sprintf("%s: %v (%s)", st.suite.Cases[i].Name, r.Verdict, detail), nil
	}
	return "", nil
}

// SameCases wraps run, an engine's for suite got (a copy of want opened
// apart, whose cases the engine may have collected again), so that its
// outcomes list want's cases in want's order, by name; a case got does not
// have is a RUNTIME_ERROR.
func SameCases(want, got *fitness.Suite, run Runner) Runner {
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		o, err := run(ctx, src, opts)
		if err != nil || o == nil {
			return o, err
		}
		at := make(map[string]int, len(got.Cases))
		for i, c := range got.Cases {
			at[c.Name] = i
		}
		out := &fitness.Outcome{CompileError: o.CompileError, Results: make([]fitness.Result, len(want.Cases))}
		for i, c := range want.Cases {
			j, ok := at[c.Name]
			if !ok || j >= len(o.Results) {
				out.Results[i] = fitness.Result{Verdict: fitness.RuntimeError, Detail: "not collected under the check"}
				continue
			}
			out.Results[i] = o.Results[j]
		}
		return out, nil
	}
}
