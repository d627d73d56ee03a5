// Lenient runs (--lenient) and what a run on the original says.

package session

import (
	"fmt"
	"io"
	"strings"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/lenient"
	"repair/localize"
	"repair/program"
	"repair/sandbox"
)

// CheckLenient refuses --lenient where it cannot work, before anything
// starts.
func (f *Config) CheckLenient() error {
	switch {
	case !f.Lenient:
	case len(f.Executors) > 0:
		return inputerr.New("--lenient: the --executor servers do not run programs leniently; run locally with --engine cpython")
	case f.Engine == "gpython":
		return inputerr.New("--lenient: %s", gpythonNoLenient)
	}
	return nil
}

const gpythonNoLenient = "the gpython engine cannot inject values for what a program misses (it has no hook for missing names, modules and attributes); use --engine cpython with CPython 3.8 or newer"

// lenientPlan predicts the injected values of the target's missing names,
// modules and attributes (--lenient), once the engine is known to inject.
func lenientPlan(l *Input, eng sandbox.Engine) (*lenient.Plan, error) {
	if !injects(eng) {
		return nil, inputerr.New("--lenient: %s", strings.Replace(gpythonNoLenient, "the gpython engine", "the "+eng.Name()+" engine", 1))
	}
	plan, err := lenient.NewPlan(l.Prog.Src, lenient.Rules{})
	if err != nil {
		return nil, fmt.Errorf("--lenient: %w", err)
	}
	return plan, nil
}

// describeInjection says what was injected: "attribute numpy.array:
// callable (line 6)".
func DescribeInjection(in fitness.Injection) string {
	return fmt.Sprintf("%s %s: %s (line %d)", in.Kind, in.Name, in.Class, in.Line)
}

// neededInjections are the distinct (kind, name) injections of an outcome,
// the first of each, in the order of the cases.
func neededInjections(o *fitness.Outcome) []fitness.Injection {
	seen := map[[2]string]bool{}
	var out []fitness.Injection
	for _, r := range o.Results {
		for _, in := range r.Injections {
			if k := [2]string{in.Kind, in.Name}; !seen[k] {
				seen[k] = true
				out = append(out, in)
			}
		}
	}
	return out
}

func OneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// printNeeded says which injected values the cases of a lenient run
// needed.
func PrintNeeded(w io.Writer, o *fitness.Outcome) {
	need := neededInjections(o)
	if len(need) == 0 {
		fmt.Fprintln(w, "repair: --lenient: the program needed no injected value")
		return
	}
	fmt.Fprintf(w, "repair: --lenient: the program ran with %d injected values:\n", len(need))
	for _, in := range need {
		fmt.Fprintf(w, "repair:   %s\n", DescribeInjection(in))
	}
}

func countDonors(p *program.Program) int {
	n := 0
	for _, f := range p.Files {
		if f.Donor {
			n++
		}
	}
	return n
}

// withTexts returns entries with their statements' texts
// (localize.Texts).
func withTexts(p *program.Program, entries []localize.Entry) []localize.Entry {
	localize.Texts(p, entries)
	return entries
}

// FileLines maps the entries of a joined program (several targets) to
// their files and lines there; for one file it returns entries as they
// are.
func FileLines(p *program.Program, entries []localize.Entry) []localize.Entry {
	if len(p.Files) < 2 {
		return entries
	}
	out := make([]localize.Entry, 0, len(entries))
	donor := map[string]bool{}
	for _, f := range p.Files {
		donor[f.Path] = f.Donor
	}
	for _, e := range entries {
		e.File, e.Line = p.FileOfLine(e.Line)
		if donor[e.File] {
			continue // ingredients, never edited
		}
		if len(p.Files)-countDonors(p) < 2 {
			e.File = ""
		}
		out = append(out, e)
	}
	return out
}
