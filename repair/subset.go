// The suite the search runs when Options.CheckOriginal leaves cases out
// (tests that plain pytest skips at run time): a filtered copy of the
// suite, and runners whose outcomes are on it.

package repair

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// subset is a suite without some of its cases. The engine still runs the
// whole suite (it was opened for it, and a test file runs as a whole);
// outcomes are cut down to the kept cases, so that every stage after the
// original's run (localization, fitness, validation, the guard, the check
// of delivered fixes, the report) indexes cases in suite alike.
type subset struct {
	suite *fitness.Suite
	full  int   // the number of cases of the whole suite
	kept  []int // kept[j] is the index in the whole suite of suite's case j
	out   []string
	// elsewhere are those of out that are failing tests no edit of the
	// target can reach (failingElsewhere); the others skip themselves.
	elsewhere []string
}

// leaveOut is s without the cases at indices out; an inputerr error when
// none is left.
func leaveOut(s *fitness.Suite, out []int) (*subset, error) {
	drop := make([]bool, len(s.Cases))
	for _, i := range out {
		if i < 0 || i >= len(s.Cases) {
			return nil, fmt.Errorf("leave out case %d of %d", i, len(s.Cases))
		}
		drop[i] = true
	}
	sub := &subset{full: len(s.Cases)}
	cp := *s
	cp.Cases = nil
	for i, c := range s.Cases {
		if drop[i] {
			sub.out = append(sub.out, c.Name)
			continue
		}
		sub.kept = append(sub.kept, i)
		cp.Cases = append(cp.Cases, c)
	}
	if len(cp.Cases) == 0 {
		return nil, inputerr.New("%s: every case is left out of the suite: nothing to repair", s.Path)
	}
	sub.suite = &cp
	return sub, nil
}

// outcome is o (on the whole suite) on the kept cases.
func (sub *subset) outcome(o *fitness.Outcome) *fitness.Outcome {
	if o == nil {
		return nil
	}
	out := &fitness.Outcome{CompileError: o.CompileError, Results: make([]fitness.Result, len(sub.kept))}
	for j, i := range sub.kept {
		switch {
		case i < len(o.Results):
			out.Results[j] = o.Results[i]
			if i < len(o.Skipped) && o.Skipped[i] {
				if out.Skipped == nil {
					out.Skipped = make([]bool, len(sub.kept))
				}
				out.Skipped[j] = true
			}
		case o.CompileError != "":
			out.Results[j] = fitness.Result{Verdict: fitness.CompilationError, Detail: o.CompileError}
		}
	}
	return out
}

// runner wraps run, an engine's for the whole suite, so that its outcomes
// are on the kept cases. A range of cases (sandbox.RunOptions.Cases) is
// one of the kept cases: it runs the whole suite's cases from the first
// to the last of them.
func (sub *subset) runner(run Runner) Runner {
	if run == nil {
		return nil
	}
	var walls, cpus capsMemo
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if opts.Cases.End > 0 {
			first, end := opts.Cases.Bounds(len(sub.kept))
			if first < end {
				opts.Cases = sandbox.CaseRange{First: sub.kept[first], End: sub.kept[end-1] + 1}
			} else {
				opts.Cases = sandbox.CaseRange{First: sub.full, End: sub.full}
			}
		}
		opts.Select, opts.SelectWide = spread(sub, opts.Select), spread(sub, opts.SelectWide)
		opts.WallCaps, opts.CPUCaps = walls.spread(sub, opts.WallCaps), cpus.spread(sub, opts.CPUCaps)
		o, err := run(ctx, src, opts)
		if err != nil || o == nil {
			return o, err
		}
		if len(o.Results) != sub.full && o.CompileError == "" {
			return nil, fmt.Errorf("%d results for %d cases", len(o.Results), sub.full)
		}
		return sub.outcome(o), nil
	}
}

// capsMemo keeps the last caps spread (the search passes the same slice
// for every candidate): the engine sends a server its caps again only
// when they are another slice, and spreading them again would allocate.
type capsMemo struct {
	mu       sync.Mutex
	in, outs []float64
}

// spread is spread(sub, v), the same slice as last time for the same v.
func (m *capsMemo) spread(sub *subset, v []float64) []float64 {
	if len(v) == 0 {
		return spread(sub, v)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.in) == len(v) && &m.in[0] == &v[0] {
		return m.outs
	}
	m.in, m.outs = v, spread(sub, v)
	return m.outs
}

// spread is v, one entry per kept case (a selection or the caps of
// sandbox.RunOptions), on the whole suite: a case left out gets the zero
// value (not selected, no cap). Nil when v is not one entry per kept case.
func spread[T any](sub *subset, v []T) []T {
	if len(v) != len(sub.kept) {
		return nil
	}
	out := make([]T, sub.full)
	for j, i := range sub.kept {
		out[i] = v[j]
	}
	return out
}

// origin maps indices of the whole suite's cases (the overfitting guard's
// origins of its inputs) to the kept cases' indices; an input next to a
// case left out gets one past the last (next to no case).
func (sub *subset) origin(idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		j, ok := slices.BinarySearch(sub.kept, i)
		if !ok {
			j = len(sub.kept)
		}
		out[k] = j
	}
	return out
}
