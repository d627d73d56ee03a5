package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/localize"
	"repair/program"
	"repair/sandbox"
)

func sandboxRun() sandbox.RunOptions { return sandbox.RunOptions{} }

func newLocalizeCmd(io streams) *cobra.Command {
	var f inputFlags
	var formula string
	var top int
	var asJSON, lenientRun bool
	cmd := &cobra.Command{
		Use:   "localize --target FILE.py --tests TESTS",
		Short: "Rank the statements of the target by suspiciousness",
		Long: withExitCodes(`localize runs the suite on the target with line coverage and ranks its
statements by how suspicious they are (spectrum-based fault localization):
statements that failing cases execute and passing cases do not come first.
With --lenient, the program runs with injected values for what it misses
(see 'repair run --help').`,
			exitLine{exitFound, "the ranking was printed"}, exitLine{exitNothing, ""}),
		Example: "  repair localize --target examples/middle/middle.py --tests examples/middle/tests.json --top 5",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fm, ok := localize.ByName(formula)
			if !ok {
				return &flagError{fmt.Errorf("--localization must be one of %s, got %q", strings.Join(localize.Names(), ", "), formula)}
			}
			if top < 0 {
				return &flagError{fmt.Errorf("--top must be >= 0, got %d", top)}
			}
			if err := checkLenient(lenientRun, &f); err != nil {
				return err
			}
			l, err := f.load()
			if err != nil {
				return err
			}
			log := io.v.log(io.Err)
			eng, err := f.open(cmd.Context(), l, streams{In: io.In, Out: io.Out, Err: log})
			if err != nil {
				return err
			}
			defer eng.Close()
			ro := sandbox.RunOptions{Coverage: true}
			if lenientRun {
				if ro.Lenient, err = lenientPlan(l, eng); err != nil {
					return err
				}
			}
			o, err := eng.Run(cmd.Context(), l.prog.Strip(l.prog.Src), ro)
			if err != nil {
				return fmt.Errorf("run %s: %w", l.prog.Path, err)
			}
			if lenientRun {
				printNeeded(log, o)
			}
			if o.CompileError != "" {
				return inputerr.New("%s: does not compile: %s", l.prog.Path, o.CompileError)
			}
			if err := l.suite.CheckRepairable(o); err != nil {
				return err
			}
			rk := localize.Rank(l.prog, o, fm)
			entries := fileLines(l.prog, rk.Entries)
			if top > 0 && top < len(entries) {
				entries = entries[:top]
			}
			localize.Texts(l.prog, entries)
			if asJSON {
				out := rk
				out.Entries = entries
				data, _ := json.MarshalIndent(out, "", "  ")
				fmt.Fprintf(io.Out, "%s\n", data)
				return nil
			}
			if rk.Uniform {
				fmt.Fprintln(log, "repair: no statement is executed by a failing case: the search would mutate every statement alike")
			}
			if len(l.prog.Files) > 1 {
				fmt.Fprintf(io.Out, "%4s  %-24s  %-8s  %5s  %5s  %s\n", "rank", "file:line", fm.Name, "ef", "ep", "statement")
			} else {
				fmt.Fprintf(io.Out, "%4s  %5s  %-8s  %5s  %5s  %s\n", "rank", "line", fm.Name, "ef", "ep", "statement")
			}
			for i, e := range entries {
				if e.File != "" {
					fmt.Fprintf(io.Out, "%4d  %-24s  %8.4f  %5d  %5d  %s\n", i+1, fmt.Sprintf("%s:%d", e.File, e.Line), e.Score, e.EF, e.EP, e.Text)
					continue
				}
				fmt.Fprintf(io.Out, "%4d  %5d  %8.4f  %5d  %5d  %s\n", i+1, e.Line, e.Score, e.EF, e.EP, e.Text)
			}
			fmt.Fprintf(io.Out, "%d failing and %d passing cases\n", rk.Failing, rk.Passing)
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&formula, "localization", localize.Ochiai.Name, usageLocalization)
	cmd.Flags().IntVar(&top, "top", 0, "show only the N most suspicious statements (0: all)")
	addJSON(cmd.Flags(), &asJSON)
	registerLenient(cmd, &lenientRun)
	return cmd
}

// printNeeded says which injected values the cases of a lenient run
// needed.
func printNeeded(w io.Writer, o *fitness.Outcome) {
	need := neededInjections(o)
	if len(need) == 0 {
		fmt.Fprintln(w, "repair: --lenient: the program needed no injected value")
		return
	}
	fmt.Fprintf(w, "repair: --lenient: the program ran with %d injected values:\n", len(need))
	for _, in := range need {
		fmt.Fprintf(w, "repair:   %s\n", describeInjection(in))
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

// fileLines maps the entries of a joined program (several targets) to
// their files and lines there; for one file it returns entries as they
// are.
func fileLines(p *program.Program, entries []localize.Entry) []localize.Entry {
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
