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

	"repair/guard"
	"repair/localize"
	"repair/session"
)

// verbosity is what -v/--verbose and -q/--quiet asked for; the root
// command's flags, read by every command once they are parsed.
type verbosity struct {
	verbose, quiet bool
}

// log is where a command's notices go: w, or nowhere with -q.
func (v *verbosity) log(w io.Writer) io.Writer {
	if v != nil && v.quiet {
		return io.Discard
	}
	return w
}

// debug is where -v's details go: w with -v, else nowhere.
func (v *verbosity) debug(w io.Writer) io.Writer {
	if v != nil && v.verbose && !v.quiet {
		return w
	}
	return io.Discard
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
	exitSuspect:   "a fix was printed, but every fix found is suspect: it breaks an input next to the suite's, or a docstring example of the target, that the original handled, or it deletes a check of the code (a raise, an assert, an if) or leaves a branch no test runs",
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

// The flags several commands share, each defined once: its name, its
// meaning and its help text. Those that set a session's configuration
// are in configFlags, registered by name (registerConfig); the others
// are added by the add functions below, each command with its own
// default.
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

// configFlag is a flag that sets a field of session.Config.
type configFlag struct {
	usage string
	// bind adds the flag to fl, bound to c, with the default def where
	// the flag is a string (nil: the flag's own).
	bind func(fl *pflag.FlagSet, c *session.Config, name string, def *string, usage string)
}

func stringFlag(field func(*session.Config) *string, def string) func(*pflag.FlagSet, *session.Config, string, *string, string) {
	return func(fl *pflag.FlagSet, c *session.Config, name string, d *string, usage string) {
		v := def
		if d != nil {
			v = *d
		}
		fl.StringVar(field(c), name, v, usage)
	}
}

func sliceFlag(field func(*session.Config) *[]string) func(*pflag.FlagSet, *session.Config, string, *string, string) {
	return func(fl *pflag.FlagSet, c *session.Config, name string, _ *string, usage string) {
		fl.StringSliceVar(field(c), name, nil, usage)
	}
}

func arrayFlag(field func(*session.Config) *[]string) func(*pflag.FlagSet, *session.Config, string, *string, string) {
	return func(fl *pflag.FlagSet, c *session.Config, name string, _ *string, usage string) {
		fl.StringArrayVar(field(c), name, nil, usage)
	}
}

func boolFlag(field func(*session.Config) *bool) func(*pflag.FlagSet, *session.Config, string, *string, string) {
	return func(fl *pflag.FlagSet, c *session.Config, name string, _ *string, usage string) {
		fl.BoolVar(field(c), name, false, usage)
	}
}

func intFlag(field func(*session.Config) *int, def int) func(*pflag.FlagSet, *session.Config, string, *string, string) {
	return func(fl *pflag.FlagSet, c *session.Config, name string, _ *string, usage string) {
		fl.IntVar(field(c), name, def, usage)
	}
}

// configFlags are the flags of a session's configuration, by name.
var configFlags = map[string]configFlag{
	"target": {"the Python file under test (default: the suite's \"target\"); several files (repeat the flag, or F1,F2) or a directory are taken together",
		sliceFlag(func(c *session.Config) *[]string { return &c.Targets })},
	"tests":               {usageTests + " (required)", stringFlag(func(c *session.Config) *string { return &c.Tests }, "")},
	"engine":              {usageEngine, stringFlag(func(c *session.Config) *string { return &c.Engine }, "auto")},
	"workers":             {usageWorkers, intFlag(func(c *session.Config) *int { return &c.Workers }, 0)},
	"sandbox":             {usageSandbox, stringFlag(func(c *session.Config) *string { return &c.Isolation }, "auto")},
	"python":              {usagePython, stringFlag(func(c *session.Config) *string { return &c.Python }, "")},
	"executor":            {"evaluate candidates on these 'repair serve' servers (URL[,URL...]) instead of locally", sliceFlag(func(c *session.Config) *[]string { return &c.Executors })},
	"executor-token-file": {"bearer token file for the --executor servers", stringFlag(func(c *session.Config) *string { return &c.ExecutorToken }, "")},
	"env":                 {"set KEY=VALUE in the candidates' environment (repeatable; besides PATH, HOME, TMPDIR, LANG, LC_ALL, TZ, PYTHONHASHSEED)", arrayFlag(func(c *session.Config) *[]string { return &c.Env })},
	"pass-env":            {"pass the variable NAME of this environment to the candidates (repeatable)", arrayFlag(func(c *session.Config) *[]string { return &c.PassEnv })},
	"case-timeout": {"each test's limit of CPU time, e.g. 10s (default: the suite's \"timeout\", else 2s); a test that sleeps or waits stops at 5 times it and 1s of wall time, not counting time spent waiting for a CPU",
		func(fl *pflag.FlagSet, c *session.Config, name string, _ *string, usage string) {
			fl.DurationVar(&c.CaseTimeout, name, 0, usage)
		}},
	"donors":         {"Python files or directories whose code joins the ingredients of the search (e.g. a class's correct submissions)", sliceFlag(func(c *session.Config) *[]string { return &c.Donors })},
	"donors-max":     {"use the N donors most similar to the target", intFlag(func(c *session.Config) *int { return &c.DonorsMax }, 5)},
	"allow-mismatch": {"search even when the original's verdicts under the tool differ from plain pytest's (see docs/engines.md)", boolFlag(func(c *session.Config) *bool { return &c.AllowMismatch })},
	"guard-inputs":   {usageGuardInputs, intFlag(func(c *session.Config) *int { return &c.GuardInputs }, guard.DefaultInputs)},
	"lenient":        {"inject predicted values for missing names, modules and attributes instead of failing (LExecutor-style; cpython engine; see docs/lenient.md)", boolFlag(func(c *session.Config) *bool { return &c.Lenient })},
}

// inputFlags are the configuration flags of every command that runs a
// program on its target.
var inputFlags = []string{"target", "tests", "engine", "workers", "sandbox", "python", "executor", "executor-token-file", "env", "pass-env", "case-timeout"}

// registerConfig adds the named configuration flags to cmd, bound to c.
// A name may carry its own default (a string flag's) and a note after
// its help: "engine=| (default: the plan's)" is --engine with the default
// "" and that note.
func registerConfig(cmd *cobra.Command, c *session.Config, names ...string) {
	fl := cmd.Flags()
	for _, n := range names {
		name, rest, hasDef := strings.Cut(n, "=")
		d, more, _ := strings.Cut(rest, "|")
		var def *string
		if hasDef {
			def = &d
		}
		f, ok := configFlags[name]
		if !ok {
			panic("registerConfig: no flag " + name)
		}
		usage := f.usage
		if more != "" {
			usage += more
		}
		f.bind(fl, c, name, def, usage)
	}
	for _, n := range []string{"target", "tests", "executor-token-file"} {
		if fl.Lookup(n) != nil {
			_ = cmd.MarkFlagFilename(n, map[string][]string{"target": {"py"}, "tests": {"json", "jsonl", "py"}}[n]...)
		}
	}
}

// usageLocalization is --localization's help (repair, localize).
var usageLocalization = "fault localization formula: " + strings.Join(localize.Names(), ", ")

func addSeed(fl *pflag.FlagSet, p *uint64, def uint64) { fl.Uint64Var(p, "seed", def, usageSeed) }
func addEvaluations(fl *pflag.FlagSet, p *int)         { fl.IntVar(p, "evaluations", 0, usageEvaluations) }
func addTimeBudget(fl *pflag.FlagSet, p *time.Duration, def time.Duration, defNote string) {
	fl.DurationVar(p, "time-budget", def, usageTimeBudget+" ("+defNote+")")
}
func addReport(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "report", "", usageReport) }
func addFormat(fl *pflag.FlagSet, p *string) { fl.StringVar(p, "format", "markdown", usageFormat) }

// addJSON adds --json (run: the verdicts, an array; localize: the ranking).
func addJSON(fl *pflag.FlagSet, p *bool) {
	fl.BoolVar(p, "json", false, "print the result on stdout as JSON instead of a table")
}
