package sandbox

import (
	"context"
	"errors"

	"repair/fitness"
)

// Multi runs a suite of several test files (fitness.Suite.Parts): one
// engine per file, each opened for its file's suite, whose cases follow
// each other in the suite's order. A candidate runs only the files that
// hold a case RunOptions.Select or RunOptions.Cases asks for: each file
// runs in processes of its own, so a file left out cannot be reached by
// what another's cases leave behind, and its cases are reported skipped
// (Outcome.Skipped) for the caller to give them the original's verdicts.
type Multi struct {
	parts []Engine
	off   []int // off[k] is the index of part k's first case; off[len(parts)] the number of cases
}

// NewMulti joins engines, each opened for one file of a suite, with
// sizes[k] cases in parts[k]'s suite (as the engine collected them).
func NewMulti(parts []Engine, sizes []int) *Multi {
	m := &Multi{parts: parts, off: make([]int, len(parts)+1)}
	for k, n := range sizes {
		m.off[k+1] = m.off[k] + n
	}
	return m
}

// Name is the parts' engine name.
func (m *Multi) Name() string { return m.parts[0].Name() }

// Parts are the engines of the files, in order.
func (m *Multi) Parts() []Engine { return m.parts }

// Run runs src on the files that hold a case the options ask for.
func (m *Multi) Run(ctx context.Context, src []byte, opts RunOptions) (*fitness.Outcome, error) {
	n := m.off[len(m.parts)]
	out := &fitness.Outcome{Results: make([]fitness.Result, n)}
	first, end := opts.Cases.Bounds(n)
	skipped := false
	for k, eng := range m.parts {
		lo, hi := m.off[k], m.off[k+1]
		a, b := max(lo, first), min(hi, end)
		wanted := a < b
		if wanted && opts.Select != nil {
			wanted = false
			for i := a; i < b; i++ {
				wanted = wanted || opts.Select[i] || (opts.SelectWide != nil && opts.SelectWide[i])
			}
		}
		if !wanted {
			if opts.Select != nil {
				if out.Skipped == nil {
					out.Skipped = make([]bool, n)
				}
				for i := lo; i < hi; i++ {
					out.Skipped[i] = true
				}
				skipped = true
			}
			continue
		}
		o := opts
		o.Cases = CaseRange{}
		if opts.Cases.End > 0 {
			o.Cases = CaseRange{First: a - lo, End: b - lo}
		}
		o.Select = sub(opts.Select, lo, hi)
		o.SelectWide = sub(opts.SelectWide, lo, hi)
		o.WallCaps = sub(opts.WallCaps, lo, hi)
		o.CPUCaps = sub(opts.CPUCaps, lo, hi)
		po, err := eng.Run(ctx, src, o)
		if err != nil {
			return nil, err
		}
		if po == nil || len(po.Results) != hi-lo {
			return nil, errors.New("multi: an engine returned the wrong number of results")
		}
		if po.CompileError != "" {
			// The same program fails to compile for every file.
			res := make([]fitness.Result, n)
			for i := range res {
				res[i] = fitness.Result{Verdict: fitness.CompilationError, Detail: po.CompileError}
			}
			return &fitness.Outcome{Results: res, CompileError: po.CompileError}, nil
		}
		copy(out.Results[lo:hi], po.Results)
		if po.Skipped != nil {
			if out.Skipped == nil {
				out.Skipped = make([]bool, n)
			}
			copy(out.Skipped[lo:hi], po.Skipped)
			skipped = true
		}
	}
	if !skipped {
		out.Skipped = nil
	}
	return out, nil
}

// sub is s[lo:hi], or nil for a nil s.
func sub[T any](s []T, lo, hi int) []T {
	if s == nil {
		return nil
	}
	return s[lo:hi:hi]
}

// Features are what every part honours.
func (m *Multi) Features() Features {
	f := FeaturesOf(m.parts[0])
	for _, e := range m.parts[1:] {
		f = f.And(FeaturesOf(e))
	}
	return f
}

// Close closes every part.
func (m *Multi) Close() error {
	var errs []error
	for _, e := range m.parts {
		errs = append(errs, e.Close())
	}
	return errors.Join(errs...)
}
