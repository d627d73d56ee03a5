// A run of the suite on the unmodified target (repair run): the verdicts,
// with what plain pytest skips and what a lenient run injected.

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// Verdicts are the outcome of a run of the suite on the original.
type Verdicts struct {
	In      *Input
	Outcome *fitness.Outcome
	// Skipped are the tests plain pytest skips at run time: left out of
	// the counts, as out of repair's suite.
	Skipped map[int]bool
	// Passed and Failed count the other cases.
	Passed, Failed int
	// Lenient: the run injected values for what the program misses.
	Lenient bool
}

// RunOnce loads the target and its suite and runs every case once on the
// unmodified target, in the sandbox the search uses; with cfg.Lenient,
// with injected values. Notices go to st's log.
func RunOnce(ctx context.Context, cfg *Config, st Streams) (*Verdicts, error) {
	if err := cfg.CheckLenient(); err != nil {
		return nil, err
	}
	began := time.Now()
	l, err := cfg.Load()
	if err != nil {
		return nil, err
	}
	log := st.Log()
	s, err := New(ctx, cfg, l)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	eng, err := s.Open(ctx, log)
	if err != nil {
		return nil, err
	}
	ro := sandbox.RunOptions{}
	if cfg.Lenient {
		if ro.Lenient, err = s.LenientPlan(); err != nil {
			return nil, err
		}
	} else {
		s.StartParity(ctx)
	}
	o, err := eng.Run(ctx, l.Prog.Strip(l.Prog.Src), ro)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", l.Prog.Path, err)
	}
	v := &Verdicts{In: l, Outcome: o, Skipped: map[int]bool{}, Lenient: cfg.Lenient}
	if !cfg.Lenient && o.CompileError == "" {
		// What makes these verdicts differ from plain pytest's, as
		// notes: run shows the verdicts all the same.
		rep, err := s.ParityReport(ctx, o)
		if err != nil {
			return nil, err
		}
		for _, line := range rep.Lines {
			fmt.Fprintf(log, "repair: %s\n", line)
		}
		if rep.NoneLeft != "" {
			fmt.Fprintf(log, "repair: %s\n", rep.NoneLeft)
		}
		for _, i := range rep.Skipped {
			v.Skipped[i] = true
		}
	}
	for i, r := range o.Results {
		switch {
		case v.Skipped[i]:
		case r.Verdict == fitness.Passed:
			v.Passed++
		default:
			v.Failed++
		}
	}
	fmt.Fprintf(st.Debug(), "repair: %s on engine %s: %s in %s\n", l.Prog.Path, Describe(eng), Plural(len(o.Results), "case"), Short(time.Since(began)))
	return v, nil
}

// WriteJSON writes the verdicts as a JSON array, a case an element.
func (v *Verdicts) WriteJSON(w io.Writer) error {
	type row struct {
		Name string `json:"name"`
		fitness.Result
		// SkippedByPytest: plain pytest skips the test at run time;
		// repair leaves it out of the suite.
		SkippedByPytest bool `json:"skipped_by_pytest,omitempty"`
	}
	rows := make([]row, len(v.Outcome.Results))
	for i, r := range v.Outcome.Results {
		rows[i] = row{Name: v.In.Suite.Cases[i].Name, Result: r, SkippedByPytest: v.Skipped[i]}
	}
	data, _ := json.MarshalIndent(rows, "", "  ")
	_, err := fmt.Fprintf(w, "%s\n", data)
	return err
}

// WriteTable writes a verdict per case, the values each injected, and
// the counts.
func (v *Verdicts) WriteTable(out io.Writer) {
	l, o := v.In, v.Outcome
	if o.CompileError != "" {
		fmt.Fprintf(out, "%s does not compile: %s\n", l.Prog.Path, o.CompileError)
	}
	w := 4
	for _, c := range l.Suite.Cases {
		w = max(w, len(c.Name))
	}
	w = min(w, 40)
	injected, prev := 0, -1
	for i, r := range o.Results {
		name := l.Suite.Cases[i].Name
		if len(name) > w {
			name = name[:w-3] + "..."
		}
		verdict := r.Verdict.String()
		if v.Skipped[i] {
			verdict = "SKIPPED"
		}
		fmt.Fprintf(out, "%-*s  %-21s %7.3fs  %s\n", w, name, verdict, r.Seconds, OneLine(r.Detail))
		if len(r.Injections) == 0 {
			continue
		}
		injected++
		if prev >= 0 && slices.Equal(r.Injections, o.Results[prev].Injections) {
			fmt.Fprintf(out, "%-*s  injected: as %s\n", w, "", l.Suite.Cases[prev].Name)
			continue
		}
		prev = i
		for _, in := range r.Injections {
			fmt.Fprintf(out, "%-*s  injected: %s\n", w, "", DescribeInjection(in))
		}
	}
	switch {
	case v.Lenient:
		fmt.Fprintf(out, "%d passed, %d failed; %d ran with injected values\n", v.Passed, v.Failed, injected)
	case len(v.Skipped) > 0:
		fmt.Fprintf(out, "%d passed, %d failed, %d skipped (by the tests themselves under plain pytest)\n", v.Passed, v.Failed, len(v.Skipped))
	default:
		fmt.Fprintf(out, "%d passed, %d failed\n", v.Passed, v.Failed)
	}
}
