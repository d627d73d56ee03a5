package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"repair/fitness"
	"repair/sandbox"
	"repair/session"
)

func newRunCmd(io streams) *cobra.Command {
	var f session.Config
	var asJSON bool
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
			if err := f.CheckLenient(); err != nil {
				return err
			}
			began := time.Now()
			l, err := f.Load()
			if err != nil {
				return err
			}
			log := io.v.log(io.Err)
			s, err := session.New(cmd.Context(), &f, l)
			if err != nil {
				return err
			}
			defer s.Close()
			eng, err := s.Open(cmd.Context(), log)
			if err != nil {
				return err
			}
			ro := sandbox.RunOptions{}
			if f.Lenient {
				if ro.Lenient, err = s.LenientPlan(); err != nil {
					return err
				}
			} else {
				s.StartParity(cmd.Context())
			}
			o, err := eng.Run(cmd.Context(), l.Prog.Strip(l.Prog.Src), ro)
			if err != nil {
				return fmt.Errorf("run %s: %w", l.Prog.Path, err)
			}
			// skipped are the tests plain pytest skips at run time: left
			// out of the counts, as out of repair's suite.
			skipped := map[int]bool{}
			if !f.Lenient && o.CompileError == "" {
				// What makes these verdicts differ from plain pytest's,
				// as notes: run shows the verdicts all the same.
				rep, err := s.ParityReport(cmd.Context(), o)
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
					rows[i] = row{Name: l.Suite.Cases[i].Name, Result: r, SkippedByPytest: skipped[i]}
				}
				data, _ := json.MarshalIndent(rows, "", "  ")
				fmt.Fprintf(io.Out, "%s\n", data)
			} else {
				if o.CompileError != "" {
					fmt.Fprintf(io.Out, "%s does not compile: %s\n", l.Prog.Path, o.CompileError)
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
					if skipped[i] {
						verdict = "SKIPPED"
					}
					fmt.Fprintf(io.Out, "%-*s  %-21s %7.3fs  %s\n", w, name, verdict, r.Seconds, session.OneLine(r.Detail))
					if len(r.Injections) == 0 {
						continue
					}
					injected++
					if prev >= 0 && slices.Equal(r.Injections, o.Results[prev].Injections) {
						fmt.Fprintf(io.Out, "%-*s  injected: as %s\n", w, "", l.Suite.Cases[prev].Name)
						continue
					}
					prev = i
					for _, in := range r.Injections {
						fmt.Fprintf(io.Out, "%-*s  injected: %s\n", w, "", session.DescribeInjection(in))
					}
				}
				switch {
				case f.Lenient:
					fmt.Fprintf(io.Out, "%d passed, %d failed; %d ran with injected values\n", pass, fail, injected)
				case len(skipped) > 0:
					fmt.Fprintf(io.Out, "%d passed, %d failed, %d skipped (by the tests themselves under plain pytest)\n", pass, fail, len(skipped))
				default:
					fmt.Fprintf(io.Out, "%d passed, %d failed\n", pass, fail)
				}
			}
			fmt.Fprintf(io.v.debug(io.Err), "repair: %s on engine %s: %s in %s\n", l.Prog.Path, session.Describe(eng), session.Plural(len(o.Results), "case"), session.Short(time.Since(began)))
			if fail > 0 {
				return &exitError{code: exitNotFound}
			}
			return nil
		},
	}
	registerConfig(cmd, &f, append(inputFlags, "lenient")...)
	addJSON(cmd.Flags(), &asJSON)
	return cmd
}
