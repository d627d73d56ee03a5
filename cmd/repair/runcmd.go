package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/lenient"
	"repair/sandbox"
)

func newRunCmd(io streams) *cobra.Command {
	var f inputFlags
	var asJSON, lenientRun bool
	cmd := &cobra.Command{
		Use:   "run --target FILE.py --tests TESTS",
		Short: "Run the test suite once on the target and print a verdict per case",
		Long: withExitCodes(`run executes every case of the suite on the unmodified target, in the same
sandbox the search uses, and prints a verdict per case: PASSED, WRONG_ANSWER,
TIME_LIMIT_EXCEEDED, RUNTIME_ERROR, COMPILATION_ERROR or MEMORY_LIMIT_EXCEEDED,
or SKIPPED for a test that skips itself under plain pytest (which repair
leaves out of the suite). It exits 0 when every other case passes, 1 when
some fail.

With --lenient, what the program misses (a module the sandbox lacks, a
name, an attribute defined elsewhere) gets an injected value predicted from
the code, and each case lists the values it ran with (see docs/lenient.md).`,
			exitLine{exitFound, "every case passes (a case plain pytest skips is not counted)"},
			exitLine{exitNotFound, "some case fails"}),
		Example: `  repair run --target examples/middle/middle.py --tests examples/middle/tests.json
  repair run --lenient --target examples/lenient/grades/grades.py --tests examples/lenient/grades/tests.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkLenient(lenientRun, &f); err != nil {
				return err
			}
			began := time.Now()
			l, err := f.load()
			if err != nil {
				return err
			}
			open := f.open
			if !lenientRun {
				open = f.openParity // startParity below
			}
			log := io.v.log(io.Err)
			eng, err := open(cmd.Context(), l, streams{In: io.In, Out: io.Out, Err: log})
			if err != nil {
				return err
			}
			defer eng.Close()
			ro := sandboxRun()
			var par *parity
			if lenientRun {
				if ro.Lenient, err = lenientPlan(l, eng); err != nil {
					return err
				}
			} else {
				par = startParity(cmd.Context(), eng, l.suite)
				defer par.stop()
			}
			o, err := eng.Run(cmd.Context(), l.prog.Strip(l.prog.Src), ro)
			if err != nil {
				return fmt.Errorf("run %s: %w", l.prog.Path, err)
			}
			// skipped are the tests plain pytest skips at run time: left
			// out of the counts, as out of repair's suite.
			skipped := map[int]bool{}
			if par != nil && o.CompileError == "" {
				// What makes these verdicts differ from plain pytest's,
				// as notes: run shows the verdicts all the same.
				rep, err := par.report(cmd.Context(), o)
				if err != nil {
					return err
				}
				for _, line := range rep.Lines {
					fmt.Fprintf(log, "repair: %s\n", line)
				}
				if rep.NoneLeft != "" {
					fmt.Fprintf(log, "repair: %s\n", rep.NoneLeft)
				}
				for _, i := range rep.Skipped {
					skipped[i] = true
				}
			}
			pass, fail := 0, 0
			for i, r := range o.Results {
				switch {
				case skipped[i]:
				case r.Verdict == fitness.Passed:
					pass++
				default:
					fail++
				}
			}
			if asJSON {
				type row struct {
					Name string `json:"name"`
					fitness.Result
					// SkippedByPytest: plain pytest skips the test at
					// run time; repair leaves it out of the suite.
					SkippedByPytest bool `json:"skipped_by_pytest,omitempty"`
				}
				rows := make([]row, len(o.Results))
				for i, r := range o.Results {
					rows[i] = row{Name: l.suite.Cases[i].Name, Result: r, SkippedByPytest: skipped[i]}
				}
				data, _ := json.MarshalIndent(rows, "", "  ")
				fmt.Fprintf(io.Out, "%s\n", data)
			} else {
				if o.CompileError != "" {
					fmt.Fprintf(io.Out, "%s does not compile: %s\n", l.prog.Path, o.CompileError)
				}
				w := 4
				for _, c := range l.suite.Cases {
					w = max(w, len(c.Name))
				}
				w = min(w, 40)
				injected, prev := 0, -1
				for i, r := range o.Results {
					name := l.suite.Cases[i].Name
					if len(name) > w {
						name = name[:w-3] + "..."
					}
					verdict := r.Verdict.String()
					if skipped[i] {
						verdict = "SKIPPED"
					}
					fmt.Fprintf(io.Out, "%-*s  %-21s %7.3fs  %s\n", w, name, verdict, r.Seconds, oneLine(r.Detail))
					if len(r.Injections) == 0 {
						continue
					}
					injected++
					if prev >= 0 && slices.Equal(r.Injections, o.Results[prev].Injections) {
						fmt.Fprintf(io.Out, "%-*s  injected: as %s\n", w, "", l.suite.Cases[prev].Name)
						continue
					}
					prev = i
					for _, in := range r.Injections {
						fmt.Fprintf(io.Out, "%-*s  injected: %s\n", w, "", describeInjection(in))
					}
				}
				switch {
				case lenientRun:
					fmt.Fprintf(io.Out, "%d passed, %d failed; %d ran with injected values\n", pass, fail, injected)
				case len(skipped) > 0:
					fmt.Fprintf(io.Out, "%d passed, %d failed, %d skipped (by the tests themselves under plain pytest)\n", pass, fail, len(skipped))
				default:
					fmt.Fprintf(io.Out, "%d passed, %d failed\n", pass, fail)
				}
			}
			fmt.Fprintf(io.v.debug(io.Err), "repair: %s on engine %s: %s in %s\n", l.prog.Path, sandbox.Describe(eng), plural(len(o.Results), "case"), short(time.Since(began)))
			if fail > 0 {
				return &exitError{code: exitNotFound}
			}
			return nil
		},
	}
	f.register(cmd)
	addJSON(cmd.Flags(), &asJSON)
	registerLenient(cmd, &lenientRun)
	return cmd
}

// registerLenient adds --lenient.
func registerLenient(cmd *cobra.Command, on *bool) {
	cmd.Flags().BoolVar(on, "lenient", false, "inject predicted values for missing names, modules and attributes instead of failing (LExecutor-style; cpython engine; see docs/lenient.md)")
}

// checkLenient refuses --lenient where it cannot work, before anything
// starts.
func checkLenient(on bool, f *inputFlags) error {
	switch {
	case !on:
	case len(f.executors) > 0:
		return &flagError{fmt.Errorf("--lenient: the --executor servers do not run programs leniently; run locally with --engine cpython")}
	case f.engine == "gpython":
		return &flagError{fmt.Errorf("--lenient: %s", gpythonNoLenient)}
	}
	return nil
}

const gpythonNoLenient = "the gpython engine cannot inject values for what a program misses (it has no hook for missing names, modules and attributes); use --engine cpython with CPython 3.8 or newer"

// lenientPlan predicts the injected values of the target's missing names,
// modules and attributes (--lenient), once the engine is known to inject.
func lenientPlan(l *loaded, eng sandbox.Engine) (*lenient.Plan, error) {
	if !sandbox.FeaturesOf(eng).Lenient {
		return nil, inputerr.New("--lenient: %s", strings.Replace(gpythonNoLenient, "the gpython engine", "the "+eng.Name()+" engine", 1))
	}
	plan, err := lenient.NewPlan(l.prog.Src, lenient.Rules{})
	if err != nil {
		return nil, fmt.Errorf("--lenient: %w", err)
	}
	return plan, nil
}

// describeInjection says what was injected: "attribute numpy.array:
// callable (line 6)".
func describeInjection(in fitness.Injection) string {
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

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
