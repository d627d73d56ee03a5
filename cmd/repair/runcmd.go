package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"repair/fitness"
)

func newRunCmd(io streams) *cobra.Command {
	var f inputFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "run --target FILE.py --tests TESTS",
		Short: "Run the test suite once on the target and print a verdict per case",
		Long: `run executes every case of the suite on the unmodified target, in the same
sandbox the search uses, and prints a verdict per case: PASSED, WRONG_ANSWER,
TIME_LIMIT_EXCEEDED, RUNTIME_ERROR, COMPILATION_ERROR or MEMORY_LIMIT_EXCEEDED.
It exits 0 when every case passes, 1 when some fail.`,
		Example: "  repair run --target examples/middle/middle.py --tests examples/middle/tests.json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := f.load()
			if err != nil {
				return err
			}
			eng, err := f.open(cmd.Context(), l, io)
			if err != nil {
				return err
			}
			defer eng.Close()
			o, err := eng.Run(cmd.Context(), l.prog.Src, sandboxRun())
			if err != nil {
				return fmt.Errorf("run %s: %w", l.prog.Path, err)
			}
			pass, fail := o.Counts()
			if asJSON {
				type row struct {
					Name string `json:"name"`
					fitness.Result
				}
				rows := make([]row, len(o.Results))
				for i, r := range o.Results {
					rows[i] = row{Name: l.suite.Cases[i].Name, Result: r}
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
				for i, r := range o.Results {
					name := l.suite.Cases[i].Name
					if len(name) > w {
						name = name[:w-3] + "..."
					}
					fmt.Fprintf(io.Out, "%-*s  %-21s %7.3fs  %s\n", w, name, r.Verdict, r.Seconds, oneLine(r.Detail))
				}
				fmt.Fprintf(io.Out, "%d passed, %d failed\n", pass, fail)
			}
			if fail > 0 {
				return &exitError{code: exitNotFound}
			}
			return nil
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdicts as a JSON array")
	return cmd
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
