package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/repair"
	"repair/sandbox"
	"repair/sandbox/gpython"
	"repair/session"
)

// Exit codes, listed in every command's help (exitCodesHelp) and in
// docs/design.md §8.
const (
	exitFound    = 0 // a patch was found and printed (or: the command succeeded)
	exitNotFound = 1 // no patch within the budget (or: some cases fail)
	exitInput    = 2 // bad input or usage
	exitTool     = 3 // the tool or the sandbox failed
	// exitSuspect: a patch was printed, but every fix found is suspect:
	// the overfitting guard saw it break an input the original handled,
	// or it deletes a check of the code (repair.Fix.Suspect).
	exitSuspect = 4
	// exitNothing: the original passes every case; nothing to repair.
	exitNothing = 5
	// exitUnreached: the failing cases never reach the target, so no
	// edit of it can fix them.
	exitUnreached = 6
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// exitError carries an exit code that is not an error of the tool, such as
// "some cases failed" (1). Its message, if any, has already been printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// streams are the command's standard streams, replaceable in tests.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
	// v is what -v and -q asked for, once the flags are parsed.
	v *verbosity
}

// session is where a repair writes, as -v and -q asked.
func (s streams) session() session.Streams {
	return session.Streams{Out: s.Out, Err: s.Err, Quiet: s.v.quiet, Verbose: s.v.verbose, Live: session.IsTerminal(s.Err)}
}

func run(args []string) int {
	sandbox.Init()
	gpython.Init()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	io := streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, v: &verbosity{}}
	defer startProfiles(io.Err)()
	root := newRootCmd(io)
	usageArgs(root)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return exitCode(io.Err, err)
}

// exitCode maps an error to the process exit code and prints it: the one
// place where that happens.
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return exitFound
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var fe *flagError
	var nothing *fitness.NothingToRepair
	var unreached *repair.Unreached
	switch {
	case errors.As(err, &nothing):
		fmt.Fprintf(stderr, "repair: %v\n", err)
		return exitNothing
	case errors.As(err, &unreached):
		fmt.Fprintf(stderr, "repair: %v\n", err)
		return exitUnreached
	case errors.As(err, &fe), inputerr.Is(err):
		fmt.Fprintf(stderr, "repair: %v\n", err)
		return exitInput
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "repair: interrupted")
		return exitNotFound
	default:
		fmt.Fprintf(stderr, "repair: %v\n", err)
		return exitTool
	}
}

// usageArgs makes the argument checks of every command report usage errors
// (exit code 2) instead of plain errors.
func usageArgs(c *cobra.Command) {
	if orig := c.Args; orig != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := orig(cmd, args); err != nil {
				var fe *flagError
				if errors.As(err, &fe) {
					return err
				}
				return &flagError{fmt.Errorf("%w (see '%s --help')", err, cmd.CommandPath())}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// flagError is a usage error: a bad flag, a missing or extra argument.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

func newRootCmd(io streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "repair --target FILE.py --tests TESTS [flags]",
		Short: "Automated program repair for Python: find a patch that makes the tests pass",
		Long: `repair finds where a Python program is probably wrong (spectrum-based fault
localization), evolves candidate patches (statement, condition, operator,
value and identifier mutations plus crossover), runs every candidate against
the tests in a sandbox, shrinks the best patch with delta debugging, and
prints it as a unified diff.

Unless --time-budget, --generations or --evaluations says otherwise, a run
stops after ` + defaultBudget.String() + ` (a fix found by then is still delivered).`,
		Example: `  repair --target examples/middle/middle.py --tests examples/middle/tests.json > fix.patch
  repair --target middle.py --tests tests.json --seed 7 --report run.json --write
  repair --preset book --target middle.py --tests tests.json`,
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &flagError{fmt.Errorf("unknown command %q (see '%s --help')", args[0], cmd.CommandPath())}
			}
			return nil
		},
	}
	root.Long = withExitCodes(root.Long,
		exitLine{exitFound, ""}, exitLine{exitNotFound, ""}, exitLine{exitSuspect, ""},
		exitLine{exitNothing, ""}, exitLine{exitUnreached, ""})
	if io.v == nil {
		io.v = &verbosity{}
	}
	registerVerbosity(root, io.v)
	var rf repairFlags
	rf.register(root)
	root.RunE = func(cmd *cobra.Command, args []string) error {
		set := 0
		cmd.Flags().Visit(func(f *pflag.Flag) {
			if f.Name != "verbose" && f.Name != "quiet" {
				set++
			}
		})
		if set == 0 {
			return cmd.Help()
		}
		return runRepair(cmd, &rf, io)
	}
	root.AddCommand(newRunCmd(io), newLocalizeCmd(io), newOperatorsCmd(io))
	root.AddCommand(newExperimentCmd(io))
	root.AddCommand(newServeCmd(io))
	root.AddCommand(newBatchCmd(io))
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetIn(io.In)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &flagError{err: fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	return root
}
