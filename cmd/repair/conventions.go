// What every command shares: -v/--verbose and -q/--quiet, the exit codes
// in its help, and the flags two commands have in common, each defined
// once here so that it means the same and reads the same everywhere.

package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"repair/localize"
)

// verbosity is what -v/--verbose and -q/--quiet asked for; the root
// command's flags, read by every command once they are parsed.
type verbosity struct {
	verbose, quiet bool
}

// log is where a command's notices go: w, or nowhere with -q.
func (v *verbosity) log(w io.Writer) io.Writer {
	if v != nil && v.quiet {
		return discard{}
	}
	return w
}

// debug is where -v's details go: w with -v, else nowhere.
func (v *verbosity) debug(w io.Writer) io.Writer {
	if v != nil && v.verbose && !v.quiet {
		return w
	}
	return discard{}
}

// registerVerbosity adds -v/--verbose and -q/--quiet to root, for every
// command, and -V/--version to root alone.
func registerVerbosity(root *cobra.Command, v *verbosity) {
	pf := root.PersistentFlags()
	pf.BoolVarP(&v.verbose, "verbose", "v", false, "say what is being done: every stage with its time, the throughput, why a fast path is off")
	pf.BoolVarP(&v.quiet, "quiet", "q", false, "print nothing on stderr but errors and warnings that change the outcome")
	root.Flags().BoolP("version", "V", false, "print the version and exit")
	root.MarkFlagsMutuallyExclusive("verbose", "quiet")
}

// exitCode meanings, by code, as the help lists them.
var exitMeaning = map[int]string{
	exitFound:     "a fix was found and printed on stdout",
	exitNotFound:  "no fix within the budget, or interrupted (Ctrl-C)",
	exitInput:     "bad input or usage: one line names the file, the line or JSON path, or the flag",
	exitTool:      "the tool or the sandbox failed",
	exitSuspect:   "a fix was printed, but every fix found is suspect: it breaks an input next to the suite's that the original handled",
	exitNothing:   "nothing to repair: the target passes every test",
	exitUnreached: "the failing tests never reach the target (they run none of it, or only import it): the fault is elsewhere",
}

// exitLine is a code of a command and what it means for that command
// ("": exitMeaning's).
type exitLine struct {
	code int
	what string
}

// withExitCodes is a command's long help followed by its exit codes:
// its own, then bad input (2) and a failure of the tool (3).
func withExitCodes(long string, own ...exitLine) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(long, "\n"))
	b.WriteString("\n\nExit codes:\n")
	all := append(own, exitLine{exitInput, ""}, exitLine{exitTool, ""})
	sort.SliceStable(all, func(i, j int) bool { return all[i].code < all[j].code })
	for _, c := range all {
		what := c.what
		if what == "" {
			what = exitMeaning[c.code]
		}
		fmt.Fprintf(&b, "  %d  %s\n", c.code, what)
	}
	return strings.TrimRight(b.String(), "\n")
}

// The flags two commands share. Each is defined once: its name, its
// meaning and its help text; a command adds it with its own default.
const (
	usageTests       = "the test suite: JSON, JSON lines, a pytest file (test_*.py), doctest:FILE (the examples in FILE's docstrings), or the project's tests: a directory of test files or several files (F1,F2)"
	usageEngine      = "engine that runs candidates: auto, cpython, gpython or hybrid (gpython searches, CPython validates)"
	usageWorkers     = "candidates evaluated at once (0: one per CPU)"
	usageSandbox     = "isolation: auto (full where the kernel allows, else rlimits), strict (refuse without full isolation), none"
	usagePython      = "CPython interpreter to use (default: python3 on PATH)"
	usageSeed        = "random seed: the same seed gives the same result"
	usageEvaluations = "maximum number of distinct candidates evaluated per repair (0: no limit); unlike time, gives the same results on any machine"
	usageTimeBudget  = "maximum time of a repair, e.g. 30s, counted from its start: the search stops then, and a fix found by then is delivered within a few seconds more"
	usageGuardInputs = "inputs generated next to the suite's to check each fix for overfitting, ranking fixes by how little they change the original's behaviour there (0: no guard)"
	usageReport      = "write a report of the run to this file: Markdown when its name ends in .md, else JSON"
	usageFormat      = "table format on stdout: markdown or csv"
)

// usageLocalization is --localization's help (repair, localize).
var usageLocalization = "fault localization formula: " + strings.Join(localize.Names(), ", ")

func addTests(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "tests", "", usageTests+" (required)") }
func addEngine(fl *pflag.FlagSet, p *string, def string) {
	fl.StringVar(p, "engine", def, usageEngine)
}
func addWorkers(fl *pflag.FlagSet, p *int) { fl.IntVar(p, "workers", 0, usageWorkers) }
func addSandbox(fl *pflag.FlagSet, p *string, def string) {
	fl.StringVar(p, "sandbox", def, usageSandbox)
}
func addPython(fl *pflag.FlagSet, p *string)           { fl.StringVar(p, "python", "", usagePython) }
func addSeed(fl *pflag.FlagSet, p *uint64, def uint64) { fl.Uint64Var(p, "seed", def, usageSeed) }
func addEvaluations(fl *pflag.FlagSet, p *int)         { fl.IntVar(p, "evaluations", 0, usageEvaluations) }
func addTimeBudget(fl *pflag.FlagSet, p *time.Duration, def time.Duration, defNote string) {
	fl.DurationVar(p, "time-budget", def, usageTimeBudget+" ("+defNote+")")
}
func addGuardInputs(fl *pflag.FlagSet, p *int, def int) {
	fl.IntVar(p, "guard-inputs", def, usageGuardInputs)
}
func addReport(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "report", "", usageReport) }
func addFormat(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "format", "markdown", usageFormat) }

// markdownPath reports whether a --report path asks for Markdown.
func markdownPath(p string) bool {
	return strings.HasSuffix(strings.ToLower(p), ".md") || strings.HasSuffix(strings.ToLower(p), ".markdown")
}

// addJSON adds --json (run: the verdicts, an array; localize: the ranking).
func addJSON(fl *pflag.FlagSet, p *bool) {
	fl.BoolVar(p, "json", false, "print the result on stdout as JSON instead of a table")
}
