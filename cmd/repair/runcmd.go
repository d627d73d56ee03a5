package main

import (
	"github.com/spf13/cobra"

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
			v, err := session.RunOnce(cmd.Context(), &f, io.session())
			if err != nil {
				return err
			}
			if asJSON {
				err = v.WriteJSON(io.Out)
			} else {
				v.WriteTable(io.Out)
			}
			if v.Failed > 0 {
				return &exitError{code: exitNotFound}
			}
			return err
		},
	}
	registerConfig(cmd, &f, append(inputFlags, "lenient")...)
	addJSON(cmd.Flags(), &asJSON)
	return cmd
}
