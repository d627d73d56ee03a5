// Cost that follows the change: per candidate, the cases that can reach
// what it changes (test selection), and the wall caps of the search.

package repair

import (
	"math"
	"time"

	"repair/fitness"
	"repair/localize"
	"repair/program"
	"repair/sandbox"
)

// selector chooses the cases a candidate must run and gives the others
// the original's verdicts (docs/architecture.md, "Cost that follows the
// change"). A nil selector selects nothing: every case runs.
type selector struct {
	orig  *fitness.Outcome
	reach *localize.Reach
	// tle is the first case the original timed out on, or -1: a
	// candidate that does not reach it times out there too, and the
	// search abandons it there (AbandonAfterTimeout).
	tle int
	// within are, per top-level statement, the statements of the
	// function bodies it holds: a changed definition's, whose cases a
	// candidate that changes a name's scope in it runs
	// (sandbox.RunOptions.SelectWide). Its header and a class body run at
	// import, in every case.
	within map[int][]int
}

// newSelector is the selector of p's candidates, or nil when selection
// cannot apply: no coverage of the original, lenient runs, several
// target files, or Options.NoSelection.
func newSelector(p *program.Program, orig *fitness.Outcome, opts *Options) *selector {
	if opts.NoSelection || opts.Lenient != nil || !coverageWorks(orig) || orig.CompileError != "" {
		return nil
	}
	targets := 0
	for _, f := range p.Files {
		if !f.Donor {
			targets++
		}
	}
	if targets > 1 {
		return nil
	}
	sl := &selector{orig: orig, reach: localize.NewReach(p, orig), tle: -1, within: map[int][]int{}}
	for s, st := range p.Stmts {
		if p.Scopes[st.Scope].Kind != "function" || localize.NoCode(&st) {
			continue // (a docstring counts as reached where its function's header is)
		}
		t := s
		for p.Stmts[t].Parent >= 0 {
			t = p.Stmts[t].Parent
		}
		sl.within[t] = append(sl.within[t], s)
	}
	for i, r := range orig.Results {
		if r.Verdict == fitness.TimeLimitExceeded {
			sl.tle = i
			break
		}
	}
	return sl
}

// options adds to o what a candidate with change ch needs for partial
// re-execution and test selection.
func (sl *selector) options(o sandbox.RunOptions, ch *program.Change) sandbox.RunOptions {
	if sl == nil || ch == nil || ch.Defs == nil {
		return o
	}
	o.Change = ch
	sel, wide := make([]bool, sl.reach.Cases()), make([]bool, sl.reach.Cases())
	sl.reached(ch, sel, wide)
	sl.abandoned(sel)
	sl.abandoned(wide)
	o.Select, o.SelectWide = sel, wide
	return o
}

// reached marks in sel the cases that reach a statement ch edits
// (Change.Reach) and in wide, which may be sel, those that reach any
// statement of a top-level definition it changes (Change.Defs): what the
// search's runs select (options) and the check of a delivered fix runs
// (checkSelect).
func (sl *selector) reached(ch *program.Change, sel, wide []bool) {
	sl.reach.Union(ch.Reach, sel)
	for _, d := range ch.Defs {
		sl.reach.Union(sl.within[d], wide)
	}
}

// abandoned leaves out of selection sel the cases after the first one the
// original timed out on, when sel does not hold that one: the candidate
// times out there too, and the search abandons it there.
func (sl *selector) abandoned(sel []bool) {
	if t := sl.tle; t >= 0 && !sel[t] {
		for i := t + 1; i < len(sel); i++ {
			sel[i] = false
		}
	}
}

// merge gives the cases the engine skipped the original's results; with
// abandon (the search's AbandonAfterTimeout), every case after the first
// timed-out one is timed out too, as a run of every case gives it.
func (sl *selector) merge(out *fitness.Outcome, abandon bool) {
	if sl == nil || out == nil || out.Skipped == nil {
		return
	}
	for i, skipped := range out.Skipped {
		if skipped {
			r := sl.orig.Results[i]
			r.Lines = nil
			out.Results[i] = r
		}
	}
	out.Skipped = nil
	if !abandon {
		return
	}
	for i, r := range out.Results {
		if r.Verdict == fitness.TimeLimitExceeded {
			for j := i + 1; j < len(out.Results); j++ {
				if out.Results[j].Verdict != fitness.TimeLimitExceeded {
					out.Results[j] = fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "not run: an earlier case timed out"}
				}
			}
			break
		}
	}
}

// WaitFactor is how much more wall time than CPU time the original's cases
// must take for the search to run WaitFactor times as many candidates at
// once (Options.Grow).
const WaitFactor = 4

// waits reports whether the original's cases mostly wait: with their CPU
// time measured (the cpython engine's coverage runs, which count the time
// a case waited for a CPU in it), more than 50 ms of wall time in all,
// WaitFactor times their CPU time.
func waits(orig *fitness.Outcome) bool {
	wall, cpu, measured := 0.0, 0.0, false
	for _, r := range orig.Results {
		if r.Verdict == fitness.TimeLimitExceeded {
			continue
		}
		wall += r.Seconds
		cpu += r.CPU
		measured = measured || r.CPU > 0
	}
	return measured && wall > 0.05 && wall > WaitFactor*cpu
}

// WallCapFactor and WallCapSlack make the search's wall cap of a case
// from the original's wall time for it: factor × time + slack. A case
// that sleeps or waits uses no CPU time, so the calibrated CPU cap alone
// lets a candidate that sleeps longer run to the suite's timeout; one that
// waits four times as long as the original is no fix worth the wait. The
// engine does not count the time a case waited for a CPU, so a loaded
// machine times no case out; for cases that do not wait, the CPU cap
// (ten times the slowest case, at least MinSearchTimeout) binds first.
const (
	WallCapFactor = 4
	WallCapSlack  = 0.25 // seconds
)

// wallCaps are the search's wall caps of the cases, from the original's
// run (0, none, for a case it timed out on).
func wallCaps(orig *fitness.Outcome) []float64 {
	caps := make([]float64, len(orig.Results))
	for i, r := range orig.Results {
		if r.Verdict != fitness.TimeLimitExceeded && r.Seconds >= 0 && !math.IsInf(r.Seconds, 0) {
			caps[i] = WallCapFactor*r.Seconds + WallCapSlack
		}
	}
	return caps
}

// CPUCapFactor and CPUCapFloor make the search's cap of the CPU time of a
// case the original passes from the original's time for it: factor ×
// time, at least the floor (a fix may do more than the original did, and
// a few milliseconds are noise), and never above the cap of every case
// (calibrate: ten times the slowest case). On a suite whose slowest test
// takes a second, a candidate that loops on a quick one stops after a
// tenth of a second, not ten seconds. A case the original fails keeps
// the cap of every case: its time says little of a fix's, which may
// compute where the original failed at once.
const (
	CPUCapFactor = 10
	CPUCapFloor  = 0.05 // seconds
)

// cpuCaps are the search's caps of the cases' CPU time
// (sandbox.RunOptions.CPUCaps) from the original's run orig, under the cap
// of every case, global; nil when none is below it.
func cpuCaps(orig *fitness.Outcome, global time.Duration) []float64 {
	g := global.Seconds()
	caps := make([]float64, len(orig.Results))
	below := false
	for i, r := range orig.Results {
		if r.Verdict != fitness.Passed || !(r.Seconds >= 0) || math.IsInf(r.Seconds, 0) {
			continue
		}
		if c := max(CPUCapFactor*r.Seconds, CPUCapFloor); c < g {
			caps[i], below = c, true
		}
	}
	if !below {
		return nil
	}
	return caps
}
