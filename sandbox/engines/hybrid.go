package engines

import (
	"context"
	"fmt"
	"io"
	"sync"

	"golang.org/x/sync/errgroup"

	"repair/fitness"
	"repair/sandbox"
)

// Hybrid is the engine of --engine hybrid: the search runs candidates on
// the embedded gpython engine, several times faster than a CPython fork
// server on small programs, and CPython stays the judge. The original's
// run with coverage (localization) runs on CPython, and on gpython too to
// check that the two agree on every case's verdict; a fix is validated on
// CPython before it is reported (RunOptions.Validate), and one CPython
// fails is not reported (the search's delivery scores it as CPython did
// and searches on). When the original's
// verdicts differ, every later run goes to CPython: the search would
// otherwise climb gpython's answers.
type Hybrid struct {
	search, truth sandbox.Engine
	stderr        io.Writer

	mu sync.Mutex
	// checked: the original's verdicts were compared; agree: they were
	// equal, so the search runs on gpython.
	checked, agree bool
	mismatch       string // the first case that differed, for the note
	// orig is the original's source (its coverage run's): its runs again
	// (repair's check of flaky cases) are no fix's validations.
	orig  fitness.Key
	stats sandbox.HybridStats
}

// NewHybrid combines a search engine (gpython) with a judge (cpython).
func NewHybrid(search, truth sandbox.Engine, stderr io.Writer) *Hybrid {
	if stderr == nil {
		stderr = io.Discard
	}
	return &Hybrid{search: search, truth: truth, stderr: stderr}
}

// Name is "hybrid". What its verdicts mean is its judge's: Features
// says what it honours.
func (h *Hybrid) Name() string { return "hybrid" }

// Describe says which engines run what, for the summary line.
func (h *Hybrid) Describe() string {
	return fmt.Sprintf("hybrid: gpython searches, %s validates", sandbox.Describe(h.truth))
}

// Stats returns the counts so far.
func (h *Hybrid) Stats() sandbox.HybridStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.stats
	s.Agree, s.Mismatch = h.agree, h.mismatch
	return s
}

// Counts are the counts so far (Stats).
func (h *Hybrid) Counts() sandbox.Counts {
	st := h.Stats()
	return sandbox.Counts{Hybrid: &st}
}

// Features are the judge's: its verdicts are the hybrid engine's, and
// what the search cannot do (inject, the environment) runs on the judge
// or makes the two disagree on the original, which sends every run there.
// A test file's cases run under the real pytest on the judge alone: not
// RealPytest.
func (h *Hybrid) Features() sandbox.Features {
	f := sandbox.FeaturesOf(h.truth)
	f.RealPytest = false
	return f
}

// Run runs a coverage run (the original's) on both engines and compares
// them, a validation on CPython, and a search run on gpython while the
// two agree.
func (h *Hybrid) Run(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	switch {
	case opts.Coverage:
		return h.original(ctx, src, opts)
	case opts.Validate || opts.Lenient != nil:
		return h.judge(ctx, src, opts)
	}
	h.mu.Lock()
	onSearch := h.checked && h.agree
	h.mu.Unlock()
	if !onSearch {
		h.count(&h.stats.Validated)
		return h.truth.Run(ctx, src, opts)
	}
	h.count(&h.stats.Search)
	return h.search.Run(ctx, src, opts)
}

func (h *Hybrid) count(n *int) {
	h.mu.Lock()
	*n++
	h.mu.Unlock()
}

// judge runs src on CPython, counting the validations it fails.
func (h *Hybrid) judge(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	h.count(&h.stats.Validated)
	o, err := h.truth.Run(ctx, src, opts)
	if err == nil && opts.Validate && !o.Passed() {
		h.mu.Lock()
		if fitness.KeyOf(src) != h.orig {
			h.stats.Rejected++
		}
		h.mu.Unlock()
	}
	return o, err
}

// original runs a coverage run on CPython and the same cases on gpython,
// and compares their verdicts case by case.
func (h *Hybrid) original(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	var truth, fast *fitness.Outcome
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		truth, err = h.truth.Run(gctx, src, opts)
		return err
	})
	g.Go(func() error {
		o := opts
		o.Coverage = false
		var err error
		if fast, err = h.search.Run(gctx, src, o); err != nil {
			// gpython broke on the original: the search runs on CPython.
			fast, err = nil, nil
		}
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	h.count(&h.stats.Validated)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.orig = fitness.KeyOf(src)
	first := !h.checked
	wasAgree := h.agree || first
	h.checked = true
	h.agree = wasAgree && fast != nil && h.same(truth, fast, opts)
	if !h.agree && wasAgree {
		why := h.mismatch
		if fast == nil {
			why = "gpython could not run it"
		}
		fmt.Fprintf(h.stderr, "repair: --engine hybrid: gpython and CPython disagree on the original (%s); searching on CPython\n", why)
	}
	return truth, nil
}

// same compares the verdicts of the cases opts runs, noting the first
// case that differs.
func (h *Hybrid) same(truth, fast *fitness.Outcome, opts sandbox.RunOptions) bool {
	if truth.CompileError != "" || fast.CompileError != "" {
		if (truth.CompileError == "") != (fast.CompileError == "") {
			h.mismatch = "one of them does not compile it"
			return false
		}
		return true
	}
	if len(truth.Results) != len(fast.Results) {
		h.mismatch = fmt.Sprintf("%d results against %d", len(truth.Results), len(fast.Results))
		return false
	}
	first, end := opts.Cases.Bounds(len(truth.Results))
	for i := first; i < end; i++ {
		a, b := truth.Results[i].Verdict, fast.Results[i].Verdict
		if a != b {
			h.mismatch = fmt.Sprintf("case %d: %s on CPython, %s on gpython", i, a, b)
			return false
		}
	}
	return true
}

// Close stops both engines.
func (h *Hybrid) Close() error {
	err1 := h.search.Close()
	err2 := h.truth.Close()
	if err1 != nil {
		return err1
	}
	return err2
}
