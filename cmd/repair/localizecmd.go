package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"repair/internal/inputerr"
	"repair/localize"
	"repair/sandbox"
	"repair/session"
)

func newLocalizeCmd(io streams) *cobra.Command {
	var f session.Config
	var formula string
	var top int
	var asJSON bool
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
			if err := f.CheckLenient(); err != nil {
				return err
			}
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
			eng, err := s.OpenPlain(cmd.Context(), log)
			if err != nil {
				return err
			}
			ro := sandbox.RunOptions{Coverage: true}
			if f.Lenient {
				if ro.Lenient, err = s.LenientPlan(); err != nil {
					return err
				}
			}
			o, err := eng.Run(cmd.Context(), l.Prog.Strip(l.Prog.Src), ro)
			if err != nil {
				return fmt.Errorf("run %s: %w", l.Prog.Path, err)
			}
			if f.Lenient {
				session.PrintNeeded(log, o)
			}
			if o.CompileError != "" {
				return inputerr.New("%s: does not compile: %s", l.Prog.Path, o.CompileError)
			}
			if err := l.Suite.CheckRepairable(o); err != nil {
				return err
			}
			rk := localize.Rank(l.Prog, o, fm)
			entries := session.FileLines(l.Prog, rk.Entries)
			if top > 0 && top < len(entries) {
				entries = entries[:top]
			}
			localize.Texts(l.Prog, entries)
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
			if len(l.Prog.Files) > 1 {
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
	registerConfig(cmd, &f, append(inputFlags, "lenient")...)
	cmd.Flags().StringVar(&formula, "localization", localize.Ochiai.Name, usageLocalization)
	cmd.Flags().IntVar(&top, "top", 0, "show only the N most suspicious statements (0: all)")
	addJSON(cmd.Flags(), &asJSON)
	return cmd
}
