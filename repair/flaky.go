// Flaky verdicts: a fix's validation whose verdicts change when it runs
// again, and the original program's cases whose verdicts change.

package repair

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// flakyRuns is how many times in all a program runs when its verdicts
// may change: a fix whose validation's verdicts changed, and the original
// (its first run counts) once something asks whether it is flaky.
const flakyRuns = 3

// judgeRuns judges a program on several runs of it on the same suite: a
// case passes only if it passed in every run, else it keeps the result of
// its first run that did not pass. changed lists the cases whose verdict
// was not the same in every run, in suite order. The cases ignore marks
// (nil, or one per case: the original's flaky cases) pass whatever they
// gave; they are listed in changed when they changed. A compile error in
// any run is the judged outcome's (a run that did not compile may list no
// results: its cases are COMPILATION_ERROR). Runs that compiled with
// different numbers of results are an error (a broken engine).
func judgeRuns(runs []*fitness.Outcome, ignore []bool) (judged *fitness.Outcome, changed []int, err error) {
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("judge: no run")
	}
	n := 0
	for _, o := range runs {
		n = max(n, len(o.Results))
	}
	for k, o := range runs {
		switch {
		case len(o.Results) == n:
		case o.CompileError != "":
			full := &fitness.Outcome{CompileError: o.CompileError, Results: slices.Clone(o.Results)}
			for len(full.Results) < n {
				full.Results = append(full.Results, fitness.Result{Verdict: fitness.CompilationError, Detail: o.CompileError})
			}
			runs = slices.Clone(runs)
			runs[k] = full
		default:
			return nil, nil, fmt.Errorf("judge: run %d has %d results, another %d", k+1, len(o.Results), n)
		}
	}
	if ignore != nil && len(ignore) != n {
		return nil, nil, fmt.Errorf("judge: %d cases to ignore or not for %d results", len(ignore), n)
	}
	judged = &fitness.Outcome{Results: make([]fitness.Result, n)}
	for _, o := range runs {
		if o.CompileError != "" {
			judged.CompileError = o.CompileError
			break
		}
	}
	for i := range n {
		first := runs[0].Results[i]
		r, failed := first, first.Verdict != fitness.Passed
		for _, o := range runs[1:] {
			got := o.Results[i]
			if got.Verdict != first.Verdict && (len(changed) == 0 || changed[len(changed)-1] != i) {
				changed = append(changed, i)
			}
			if !failed && got.Verdict != fitness.Passed {
				r, failed = got, true
			}
		}
		if ignore != nil && ignore[i] {
			r = fitness.Result{Verdict: fitness.Passed, Seconds: first.Seconds}
		}
		judged.Results[i] = r
	}
	return judged, changed, nil
}

// passes reports whether o passes every case but those ignore marks (nil:
// none).
func passes(o *fitness.Outcome, ignore []bool) bool {
	if o.CompileError != "" {
		return false
	}
	for i, r := range o.Results {
		if r.Verdict != fitness.Passed && (i >= len(ignore) || !ignore[i]) {
			return false
		}
	}
	return true
}

// passesVerdicts is passes for a cache entry's verdicts.
func passesVerdicts(e fitness.Entry, ignore []bool) bool {
	if e.Score == 1 {
		return true
	}
	if e.CompileError != "" || ignore == nil {
		return false
	}
	for i, v := range e.Verdicts {
		if v != fitness.Passed && (i >= len(ignore) || !ignore[i]) {
			return false
		}
	}
	return true
}

// validate runs a fix's source src once with vo, and, when it does not
// pass every case but the original's flaky ones, again: a second run that
// fails alike settles it; one whose verdicts changed is followed by a
// third, and the fix is judged on what held in every run (judgeRuns).
// When it fails a case, the original runs again (checkOriginal) to tell
// the original's flaky cases, which the fix need not pass. It returns the
// judged outcome (the first run's when that one passed), the number of
// runs, and an error when the tool broke or no case is left to repair.
func (st *search) validate(ctx context.Context, src []byte, vo sandbox.RunOptions) (*fitness.Outcome, int, error) {
	o, err := st.run(ctx, src, vo)
	if err != nil {
		return nil, 1, err
	}
	if passes(o, st.origFlaky) {
		return o, 1, nil
	}
	runs := []*fitness.Outcome{o}
	for len(runs) < flakyRuns {
		next, err := st.run(ctx, src, vo)
		if err != nil {
			return nil, len(runs), err
		}
		runs = append(runs, next)
		if len(runs) == 2 && sameVerdicts(o, next) {
			// Twice alike: not flaky (the validation's engine may judge
			// otherwise than the search's, --engine hybrid).
			break
		}
	}
	_, changed, err := judgeRuns(runs, nil)
	if err != nil {
		return nil, len(runs), err
	}
	st.markFlaky(changed)
	// Every case it fails passed in the search's run of it: is the case
	// flaky whatever the code?
	if err := st.checkOriginal(ctx); err != nil {
		return nil, len(runs), err
	}
	judged, _, err := judgeRuns(runs, st.origFlaky)
	return judged, len(runs), err
}

// markFlaky records cases whose verdict changed on re-runs (Result.Flaky).
func (st *search) markFlaky(cases []int) {
	if st.flaky == nil {
		st.flaky = make([]bool, len(st.suite.Cases))
	}
	for _, i := range cases {
		st.flaky[i] = true
	}
}

// checkOriginal runs the original again, once in a search, up to
// flakyRuns runs in all (its first run, with coverage, counts), with the
// validation's options (again): the cases whose verdict changed between
// them are the original's flaky cases (origFlaky). No fix need pass them,
// and from the next generation on they count as passed for every
// candidate (leftOut). When every case the original fails is one of
// them, nothing is left to repair: an inputerr error.
func (st *search) checkOriginal(ctx context.Context) error {
	if st.origChecked {
		return nil
	}
	whole, err := st.again.runs(ctx, nil)
	if err != nil {
		return err
	}
	runs := []*fitness.Outcome{st.result.Original}
	for _, o := range whole[1:] {
		runs = append(runs, st.cut(o))
	}
	st.origChecked = true
	judged, changed, err := judgeRuns(runs, nil)
	if err != nil {
		return err
	}
	if len(changed) == 0 {
		return nil
	}
	st.markFlaky(changed)
	st.origFlaky = make([]bool, len(st.suite.Cases))
	for _, i := range changed {
		st.origFlaky[i] = true
	}
	if passes(judged, st.origFlaky) {
		return inputerr.New("%s: every case the original fails gives different verdicts when it runs again (flaky: %s): nothing is left to repair",
			st.suite.Path, strings.Join(caseNames(st.suite, changed), ", "))
	}
	return nil
}

// neutral gives the cases left out (leftOut: the original's flaky cases,
// as of the generation's start) a pass in a candidate's outcome o: they
// count alike for every candidate.
func (st *search) neutral(o *fitness.Outcome) {
	if st.leftOut == nil || o == nil || o.CompileError != "" {
		return
	}
	for i := range o.Results {
		if i < len(st.leftOut) && st.leftOut[i] {
			o.Results[i] = fitness.Result{Verdict: fitness.Passed, Seconds: o.Results[i].Seconds}
		}
	}
}

// indices are the indices of the cases marks marks.
func indices(marks []bool) []int {
	var out []int
	for i, m := range marks {
		if m {
			out = append(out, i)
		}
	}
	return out
}

// sayFlaky records in the result the cases re-runs gave different
// verdicts (Result.Flaky, Result.FlakyOriginal) and, with say, says which
// once.
func (st *search) sayFlaky(say bool) {
	res := st.result
	res.Flaky, res.FlakyOriginal = indices(st.flaky), indices(st.origFlaky)
	if len(res.Flaky) == 0 || !say {
		return
	}
	line := fmt.Sprintf("repair: %s gave different verdicts on re-runs (flaky): %s; judged on what held every time",
		count(len(res.Flaky)), strings.Join(caseNames(st.suite, res.Flaky), ", "))
	if len(res.FlakyOriginal) > 0 {
		orig := caseNames(st.suite, res.FlakyOriginal)
		what := "its verdict changed on the original too: left out of the fitness and of the fixes' validation"
		if len(orig) > 1 {
			what = "their verdicts changed on the original too: left out of the fitness and of the fixes' validation"
		}
		if slices.Equal(res.FlakyOriginal, res.Flaky) {
			line += "; " + what
		} else {
			line += fmt.Sprintf("; %s: %s", strings.Join(orig, ", "), what)
		}
	}
	fmt.Fprintln(st.log, line)
}

// rescue delivers the search's best candidate when it fails only cases
// flaky on the original, for a search that found no fix (stalled, or out
// of budget): a flaky case the original failed in its first run, which no
// candidate's edits reach, keeps the original's verdict in every
// candidate's run (test selection), so none is ever plausible and no
// validation ever runs the original again. When the best candidate
// passes some case the original failed and fails none it passed, the
// original runs again (checkOriginal), and the best is delivered when
// what it fails is flaky there. It reports, as deliver does, whether the
// search may stop.
func (st *search) rescue(gen int) (bool, error) {
	res := st.result
	if len(res.Fixes) > 0 || res.Best == nil {
		return false, nil
	}
	src, ch := st.prog.RenderChange(res.Best)
	k := st.keyOf(src, &ch)
	e, ok := st.cache.Get(k)
	if !ok || st.fixes[k] || !progress(e, res.Original) {
		return false, nil
	}
	if err := st.checkOriginal(st.outer); err != nil {
		return true, err
	}
	if st.origFlaky == nil || !passesVerdicts(e, st.origFlaky) {
		return false, nil
	}
	st.leftOut = slices.Clone(st.origFlaky) // between generations: judge's
	st.fixes[k] = true
	return st.deliver(individual{patch: res.Best, src: src, change: ch, key: k, gen: gen, evals: st.evals})
}

// progress reports whether a candidate's entry e passes some case the
// original (orig) failed, and fails only cases it failed.
func progress(e fitness.Entry, orig *fitness.Outcome) bool {
	if e.CompileError != "" || len(e.Verdicts) != len(orig.Results) {
		return false
	}
	fixed := false
	for i, v := range e.Verdicts {
		origPassed := orig.Results[i].Verdict == fitness.Passed
		switch {
		case v != fitness.Passed && origPassed:
			return false
		case v == fitness.Passed && !origPassed:
			fixed = true
		}
	}
	return fixed
}
