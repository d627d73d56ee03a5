package guard

import (
	"context"
	"fmt"
	"strings"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// The target's docstring examples ("doctest:FILE", read from the original
// file) are inputs the developer wrote down together with the answer
// they expect: for a test file's suite they are judged beside the
// generated inputs. An example the original passes, twice, that a
// patched program fails (twice) counts as an input broken: a patch that
// passes the test file and breaks pluralize's own `>>> pluralize('word')`
// is not a fix a developer would accept.

// examples is the state of the docstring examples for one Guard.
type examples struct {
	suite *fitness.Suite
	run   Runner
	pass  []bool        // the original passes example i, in both runs
	n     int           // how many it passes
	cap   time.Duration // CPU time per example of a patched program's first run
	full  time.Duration // the suite's own cap, for a run again
}

// minExampleCap is the least CPU cap of an example's first run on a
// patched program; the cap is otherwise examplesFactor times the
// original's slowest example.
const (
	minExampleCap  = 200 * time.Millisecond
	examplesFactor = 20
)

// AddExamples makes the docstring examples of the target (s, a doctest
// suite of the original file, as fitness.Load("doctest:FILE") makes it;
// run an engine opened for it) inputs of the guard: the original src
// runs them twice, and the examples it passes both times are judged on
// every patched program. It returns how many.
func (g *Guard) AddExamples(ctx context.Context, s *fitness.Suite, src []byte, run Runner) (int, error) {
	full := time.Duration(fitness.DefaultTimeout * float64(time.Second))
	for _, c := range s.Cases {
		if c.Timeout > 0 {
			full = max(full, time.Duration(c.Timeout*float64(time.Second)))
		}
	}
	ex := &examples{suite: s, run: run, pass: make([]bool, len(s.Cases)), full: full}
	slowest := 0.0
	for k := range 2 {
		o, err := run(ctx, src, sandbox.RunOptions{Timeout: full})
		if err != nil {
			return 0, fmt.Errorf("guard: run the original program's docstring examples: %w", err)
		}
		if o.CompileError != "" || len(o.Results) != len(s.Cases) {
			return 0, nil
		}
		for i, r := range o.Results {
			ok := r.Verdict == fitness.Passed
			if k == 0 {
				ex.pass[i] = ok
			} else {
				ex.pass[i] = ex.pass[i] && ok
			}
			slowest = max(slowest, r.CPU, r.Seconds*boolf(r.CPU == 0))
		}
	}
	for _, p := range ex.pass {
		if p {
			ex.n++
		}
	}
	if ex.n == 0 {
		return 0, nil
	}
	ex.cap = min(full, max(minExampleCap, time.Duration(examplesFactor*slowest*float64(time.Second))))
	g.examples = ex
	return ex.n, nil
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// checkExamples runs a patched program (src, ch its change or nil) on the
// docstring examples and adds to r those the original passes that it
// fails: first under a cap from the original's slowest example, then the
// failed ones again under the suite's own cap, where they must fail
// again to count.
func (g *Guard) checkExamples(ctx context.Context, src []byte, ch *program.Change, r *Report) error {
	ex := g.examples
	if ex == nil {
		return nil
	}
	r.Examples = ex.n
	o, err := ex.run(ctx, src, sandbox.RunOptions{Timeout: ex.cap, Change: ch})
	if err != nil {
		return fmt.Errorf("guard: docstring examples: %w", err)
	}
	if o.CompileError != "" || len(o.Results) != len(ex.pass) {
		r.ExamplesFailed = ex.n
		r.Changed += ex.n
		r.Broken += ex.n
		if r.Example == "" {
			r.Example = "the patched program does not run its docstring examples: " + firstLine(o.CompileError)
		}
		return nil
	}
	lo, hi := -1, -1
	for i, res := range o.Results {
		if ex.pass[i] && res.Verdict != fitness.Passed {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	if lo < 0 {
		return nil
	}
	again, err := ex.run(ctx, src, sandbox.RunOptions{Timeout: ex.full, Change: ch, Cases: sandbox.CaseRange{First: lo, End: hi}})
	if err != nil {
		return fmt.Errorf("guard: docstring examples: %w", err)
	}
	if again.CompileError != "" || len(again.Results) != len(ex.pass) {
		return nil
	}
	for i := lo; i < hi; i++ {
		res := again.Results[i]
		if !ex.pass[i] || o.Results[i].Verdict == fitness.Passed || res.Verdict == fitness.Passed {
			continue
		}
		r.ExamplesFailed++
		r.Changed++
		r.Broken++
		if r.Example == "" {
			name := strings.TrimPrefix(ex.suite.Cases[i].Name, fitness.DoctestPrefix)
			what := res.Verdict.String()
			if res.Detail != "" {
				what = strings.TrimPrefix(firstLine(res.Detail), "AssertionError: ")
			}
			r.Example = fmt.Sprintf("the docstring example of %s, %s", name, what)
		}
	}
	return nil
}
