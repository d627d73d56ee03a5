package session

import (
	"context"
	"fmt"
	"io"
	"os"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/repair"
	"repair/sandbox"
)

// parity checks the original's verdicts under the tool against plain
// pytest's (docs/engines.md, "Parity with plain pytest"): start starts
// plain pytest's run at once, beside the original's under the tool.
type parity struct {
	cases []fitness.Case
	done  chan plainResult // nil: no plain run (a data suite, gpython, executors)
	stop  context.CancelFunc
	got   *plainResult // what done gave, once received
}

type plainResult struct {
	run *sandbox.PlainRun
	err error
}

// startParity starts plain pytest on the original when eng runs a
// project's test file under the real pytest; call stop when done (it
// waits until plain pytest is gone).
func startParity(ctx context.Context, eng sandbox.Engine, suite *fitness.Suite) *parity {
	p := &parity{cases: suite.Cases, stop: func() {}}
	plain := plainPytest(eng)
	if plain == nil {
		return p
	}
	ctx, cancel := context.WithCancel(ctx)
	p.done = make(chan plainResult, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		run, err := plain(ctx)
		p.done <- plainResult{run, err}
	}()
	// Stopping kills plain pytest if it still runs, and waits for it:
	// nothing of it outlives the command.
	p.stop = func() {
		cancel()
		<-finished
	}
	return p
}

// report compares orig with plain pytest's run (waiting for it), or for
// other suites says which environment variables cases lacked. again are
// the original's runs again under the tool (repair.Parity).
func (p *parity) report(ctx context.Context, orig *fitness.Outcome, again ...*fitness.Outcome) (repair.ParityReport, error) {
	if p.done == nil {
		return repair.ParityReport{Lines: repair.EnvironNotes(p.cases, orig, os.LookupEnv)}, nil
	}
	if p.got == nil {
		select {
		case r := <-p.done:
			p.got = &r
		case <-ctx.Done():
			return repair.ParityReport{}, ctx.Err()
		}
	}
	r := *p.got
	if r.err != nil {
		if ctx.Err() != nil {
			return repair.ParityReport{}, ctx.Err()
		}
		lines := []string{fmt.Sprintf("the parity check with plain pytest did not run: %v", r.err)}
		return repair.ParityReport{Lines: append(lines, repair.EnvironNotes(p.cases, orig, os.LookupEnv)...)}, nil
	}
	if r.run == nil {
		return repair.ParityReport{Lines: repair.EnvironNotes(p.cases, orig, os.LookupEnv)}, nil
	}
	return repair.Parity(p.cases, orig, r.run, os.LookupEnv, again...), nil
}

// check is repair.Options.CheckOriginal: the lines on stderr (w), and
// before any search a mismatch is an input error (exit code 2) unless
// allow. The tests plain pytest skips at run time are left out of the
// suite (a line says which); when every test does, that is an input error
// of one line. When verdicts differ, the original runs again under the
// tool (again): a test whose verdict changes there is flaky, not a
// mismatch (the search leaves it out of the fitness).
func (p *parity) check(allow bool, w io.Writer) func(context.Context, *fitness.Outcome, func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
	return func(ctx context.Context, orig *fitness.Outcome, again func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
		rep, err := p.report(ctx, orig)
		if err != nil {
			return nil, err
		}
		if len(rep.Differ) > 0 && again != nil {
			runs, err := again(ctx)
			if err != nil {
				return nil, err
			}
			if rep, err = p.report(ctx, orig, runs[1:]...); err != nil {
				return nil, err
			}
		}
		for _, l := range rep.Lines {
			fmt.Fprintf(w, "repair: %s\n", l)
		}
		if rep.NoneLeft != "" {
			return nil, inputerr.New("%s", rep.NoneLeft)
		}
		if rep.Mismatch {
			if allow {
				fmt.Fprintln(w, "repair: --allow-mismatch: searching all the same; tests that cannot pass here count as failing")
				return rep.Skipped, nil
			}
			return nil, inputerr.New("the original's verdicts under the tool differ from plain pytest's (above): fix the cause, or pass --allow-mismatch to search anyway")
		}
		return rep.Skipped, nil
	}
}
