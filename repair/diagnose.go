// Diagnoses of a suite whose failing cases do not reach the target.

package repair

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/localize"
	"repair/program"
)

// callsInto reports whether a failing case runs a statement in a function
// of p, or p has no function (its module-level code is then all there is).
func callsInto(p *program.Program, o *fitness.Outcome) bool {
	funcs := false
	for _, sc := range p.Scopes {
		if sc.Kind == "function" {
			funcs = true
		}
	}
	if !funcs {
		return true
	}
	for _, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		ran := localize.Executed(p, r.Lines)
		for i, st := range p.Stmts {
			if ran[i] && p.Scopes[st.Scope].Kind == "function" {
				return true
			}
		}
	}
	return false
}

// Unreached is the error of a suite whose failing cases never reach the
// target in a way an edit of it could change: they run none of its
// lines, or only its imports and definitions. A command tells it apart
// from bad input (its own exit code).
type Unreached struct {
	Msg string
	// Why is the first failing case's first line of detail (its error),
	// or its verdict.
	Why string
}

func (e *Unreached) Error() string { return e.Msg }

// structural are the kinds of statements whose run at import time no
// mutation turns into a fix of a case that calls no function: imports
// and definitions (a docstring is checked apart).
var structural = map[string]bool{
	"import_statement": true, "import_from_statement": true, "future_import_statement": true,
	"function_definition": true, "class_definition": true, "decorated_definition": true,
}

// onlyStructure reports whether every statement of p's own files that a
// failing case runs outside a function is an import, a definition or a
// docstring: then a case that calls none of p's functions cannot be
// fixed in p. A module-level assignment (a constant a test reads) can.
func onlyStructure(p *program.Program, o *fitness.Outcome) bool {
	dl := p.DonorLine()
	for _, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		if inTarget.MatchString(strings.SplitN(r.Detail, "\n", 2)[0]) {
			// Its error went through the target (an import there
			// failed): the fault may be there.
			return false
		}
		ran := localize.Executed(p, r.Lines)
		for i, st := range p.Stmts {
			if !ran[i] || p.Scopes[st.Scope].Kind == "function" || (dl > 0 && st.Line >= dl) || structural[st.Kind] {
				continue
			}
			t := strings.TrimSpace(p.StmtText(i))
			if st.Kind == "expression_statement" && (strings.HasPrefix(t, `"`) || strings.HasPrefix(t, "'")) {
				continue
			}
			return false
		}
	}
	return true
}

// inTarget matches a detail whose error's traceback went through the
// target: the engines end it with " (line N)" then (another file's line
// is " (FILE line N)").
var inTarget = regexp.MustCompile(`\(line \d+\)$`)

// notDefinitions is the error of a suite whose failing cases import the
// target, calling none of its functions, and run nothing of it but
// imports and definitions.
func notDefinitions(path string, s *fitness.Suite, o *fitness.Outcome) string {
	msg := notReached(path, s, o)
	_, cases, _ := strings.Cut(msg, "; look at the files their tracebacks name: ")
	return fmt.Sprintf("%s: no failing case calls a function of it (they only import it), so no change to it can fix them; look at the files their tracebacks name: %s", path, cases)
}

// notCalled is the warning of a suite whose failing cases import the
// target but call none of its functions.
func notCalled(path string, s *fitness.Suite, o *fitness.Outcome) string {
	msg := notReached(path, s, o)
	_, cases, _ := strings.Cut(msg, "; look at the files their tracebacks name: ")
	return fmt.Sprintf("%s: no failing case calls a function of it (only its module-level lines run), so the fault may be in another file: %s", path, cases)
}

// coverageWorks reports whether the engine reported executed lines for
// any case (engines without coverage report none).
func coverageWorks(o *fitness.Outcome) bool {
	for _, r := range o.Results {
		if len(r.Lines) > 0 {
			return true
		}
	}
	return false
}

// notReached is the one-line diagnosis of a suite whose failing cases run
// no line of the target: which cases, and why each failed (the detail
// names the file and line its traceback went through).
func notReached(path string, s *fitness.Suite, o *fitness.Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no failing case runs any line of it, so no change to it can fix them; look at the files their tracebacks name: ", path)
	n := 0
	for i, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		if n == 3 {
			fmt.Fprintf(&b, "; and %d more", countFailing(o)-n)
			break
		}
		if n > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", s.Cases[i].Name, r.Verdict)
		if d := strings.TrimSpace(strings.SplitN(r.Detail, "\n", 2)[0]); d != "" {
			fmt.Fprintf(&b, " (%s)", d)
		}
		n++
	}
	return b.String()
}

func countFailing(o *fitness.Outcome) int {
	n := 0
	for _, r := range o.Results {
		if r.Verdict != fitness.Passed {
			n++
		}
	}
	return n
}

func caseNames(s *fitness.Suite, ids []int) []string {
	var out []string
	for _, i := range ids {
		out = append(out, s.Cases[i].Name)
	}
	return out
}

// unreached is the Unreached error of msg, for suite s and outcome o.
func unreached(msg string, s *fitness.Suite, o *fitness.Outcome) error {
	why := "no case"
	for i, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		why = fmt.Sprintf("%s: %s", s.Cases[i].Name, r.Verdict)
		if d := strings.TrimSpace(strings.SplitN(r.Detail, "\n", 2)[0]); d != "" {
			why = d
		}
		break
	}
	return inputerr.Wrap(&Unreached{Msg: msg, Why: why})
}

// failingElsewhere are the failing cases of o (not skips), on suite s of several
// test files, that no edit of p can make pass: their error did not go
// through p, their file never names p's module, and they run no line of
// p's functions and, at module level, nothing but what every case runs
// (its import, which the engine counts in each case's lines), imports
// and definitions. None when the engine reports no coverage. (A
// function the import calls counts as reached: a failing case that runs
// it stays.)
func failingElsewhere(p *program.Program, s *fitness.Suite, o *fitness.Outcome) []int {
	if !coverageWorks(o) || len(s.Parts) < 2 {
		return nil
	}
	// What every case runs: the import's footprint, which the harness
	// counts in each case's lines.
	var common []bool
	for _, r := range o.Results {
		ran := localize.Executed(p, r.Lines)
		if common == nil {
			common = ran
			continue
		}
		for k := range common {
			common[k] = common[k] && ran[k]
		}
	}
	mod := moduleName(p.Path)
	if mod == "" {
		return nil
	}
	names := regexp.MustCompile(`\b` + regexp.QuoteMeta(mod) + `\b`)
	dl := p.DonorLine()
	var out []int
	part, first := 0, 0
	for i, r := range o.Results {
		for part < len(s.Parts) && i >= first+len(s.Parts[part].Cases) {
			first += len(s.Parts[part].Cases)
			part++
		}
		if r.Verdict == fitness.Passed || skipped(r) || inTarget.MatchString(strings.SplitN(r.Detail, "\n", 2)[0]) {
			continue
		}
		if part >= len(s.Parts) || names.Match(s.Parts[part].TestSource) {
			continue
		}
		ran := localize.Executed(p, r.Lines)
		reaches := false
		for k, st := range p.Stmts {
			if !ran[k] || (dl > 0 && st.Line >= dl) {
				continue
			}
			if p.Scopes[st.Scope].Kind == "function" || (!common[k] && !structural[st.Kind]) {
				reaches = true
				break
			}
		}
		if !reaches {
			out = append(out, i)
		}
	}
	return out
}

// moduleName is the name a file at path is imported by: its base name
// without .py, its directory's for a package's __init__.py.
func moduleName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".py")
	if base == "__init__" {
		base = filepath.Base(filepath.Dir(path))
	}
	if base == "." || base == string(filepath.Separator) {
		return ""
	}
	return base
}

// failedFew names the first few of cases ids of s, each with the first
// line of its error in o, or its skip's reason.
func failedFew(s *fitness.Suite, o *fitness.Outcome, ids []int) string {
	var items []string
	for _, i := range ids {
		r := o.Results[i]
		d := strings.TrimSpace(strings.SplitN(r.Detail, "\n", 2)[0])
		if skipped(r) {
			d = skipReason(strings.TrimPrefix(strings.TrimPrefix(r.Detail, "skipped"), ": "))
		} else if d == "" {
			d = r.Verdict.String()
		}
		if d == "" {
			items = append(items, s.Cases[i].Name)
			continue
		}
		items = append(items, s.Cases[i].Name+": "+d)
	}
	return fewOf(items)
}

// skippedItself are the cases of o that skipped themselves at run time
// (pytest.skip, importorskip): the engines fail a skip, so that no
// candidate passes by skipping, and none could pass these.
func skippedItself(o *fitness.Outcome) []int {
	var out []int
	for i, r := range o.Results {
		if skipped(r) {
			out = append(out, i)
		}
	}
	return out
}

// skipped reports whether r is a test's skip at run time.
func skipped(r fitness.Result) bool {
	return r.Verdict == fitness.WrongAnswer && (r.Detail == "skipped" || strings.HasPrefix(r.Detail, "skipped: "))
}
