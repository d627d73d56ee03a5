package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"repair/experiment"
	"repair/internal/inputerr"
	"repair/session"
)

func newExperimentCmd(io streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "experiment",
		Short: "Parameter sweeps over many bugs: run a plan, summarize its results",
		Long: withExitCodes(`experiment runs a plan: every bug of the plan with every combination of its
parameter grid and every seed, one repair trial each, and appends one JSON
line per finished trial to a results file. 'experiment report' merges results
files into tables and plots. The plan format is in docs/experiments.md.`,
			exitLine{exitFound, "the subcommand succeeded, or help was printed"}),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &flagError{fmt.Errorf("unknown command %q for %q (want run or report)", args[0], cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newExperimentRunCmd(io), newExperimentReportCmd(io))
	return cmd
}

// experimentRunFlags are the flags of 'experiment run'.
type experimentRunFlags struct {
	cfg    session.Config
	shard  string
	trials int
	out    string
	dryRun bool
}

func newExperimentRunCmd(io streams) *cobra.Command {
	var f experimentRunFlags
	cmd := &cobra.Command{
		Use:   "run PLAN",
		Short: "Run the unfinished trials of a plan (YAML or JSON), appending one JSON line per trial",
		Long: withExitCodes(`run runs every trial (bug × parameter combination × seed) of the plan that
has no line yet in the output directory's results files, several at a time on
one pool of worker processes, and appends one JSON line per finished trial to
results.jsonl (results-K-of-N.jsonl with --shard K/N). Running it again
resumes: finished trials are skipped, a trial killed mid-way runs again, and a
grown plan runs only its new trials.

--shard K/N runs the trials whose ID, as a number, is K-1 modulo N: a
deterministic slice that does not depend on the rest of the plan.`,
			exitLine{exitFound, "every trial of the shard ran (each trial's outcome, a fix or none, is in the results)"},
			exitLine{exitNotFound, "interrupted (Ctrl-C): run the plan again to resume"}),
		Example: `  repair experiment run examples/plan.yaml
  repair experiment run plan.yaml --shard $((SLURM_ARRAY_TASK_ID+1))/$SLURM_ARRAY_TASK_COUNT
  repair experiment run plan.yaml --dry-run`,
		Args: exactArgs(1, "a plan file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExperiment(cmd.Context(), args[0], &f, io)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.shard, "shard", "", "run shard K of N (K/N, 1 <= K <= N) of the trials")
	registerConfig(cmd, &f.cfg, "workers=|, shared by the trials (0: the plan's, else one per CPU)",
		"engine=| (default: the plan's)", "sandbox=| (default: the plan's)", "python=| (the plan's first)", "executor", "executor-token-file")
	fl.IntVar(&f.trials, "trials", 0, "trials run at once, sharing the workers (0: twice the workers; 1 for undisturbed timings)")
	fl.StringVar(&f.out, "out", "", "directory of the results files (default: the plan's \"output\")")
	fl.BoolVar(&f.dryRun, "dry-run", false, "list the trials that would run (id, bug, seed, varied parameters) and run nothing")
	_ = cmd.MarkFlagFilename("out")
	return cmd
}

// exactArgs is cobra.ExactArgs with a usage error that says what is missing.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return &flagError{fmt.Errorf("%s wants %s, got %d arguments (see '%s --help')", cmd.CommandPath(), what, len(args), cmd.CommandPath())}
		}
		return nil
	}
}

// parseShard reads --shard K/N.
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, &flagError{fmt.Errorf("--shard must be K/N with 1 <= K <= N, got %q", s)}
	}
	return k, n, nil
}

func runExperiment(ctx context.Context, path string, f *experimentRunFlags, io streams) error {
	k, n, err := parseShard(f.shard)
	if err != nil {
		return err
	}
	if f.cfg.Workers < 0 || f.cfg.Workers > 1024 {
		return &flagError{fmt.Errorf("--workers must be from 0 to 1024, got %d", f.cfg.Workers)}
	}
	if f.trials < 0 {
		return &flagError{fmt.Errorf("--trials must be >= 0, got %d", f.trials)}
	}
	if f.cfg.Isolation != "" {
		if _, err := experiment.ParseIsolation(f.cfg.Isolation); err != nil {
			return &flagError{fmt.Errorf("--sandbox %v", err)}
		}
	}
	if f.cfg.Engine != "" && !slices.Contains(session.Engines, f.cfg.Engine) {
		// Before anything runs or a results file is made.
		return &flagError{fmt.Errorf("--engine must be one of %s, got %q", strings.Join(session.Engines, ", "), f.cfg.Engine)}
	}
	plan, err := experiment.Load(path)
	if err != nil {
		return err
	}
	log := io.v.log(io.Err)
	opts := experiment.RunOptions{
		Shard: k, Shards: n, Workers: f.cfg.Workers, Trials: f.trials, Engine: f.cfg.Engine, Sandbox: f.cfg.Isolation,
		Python: f.cfg.Python, Output: f.out, Version: version, Stderr: log,
		Executors: f.cfg.Executors, ExecutorToken: f.cfg.ExecutorToken,
	}
	if f.dryRun {
		return experiment.DryRun(plan, opts, io.Out)
	}
	if len(f.cfg.Executors) > 0 {
		if _, err := session.RemoteOpener(f.cfg.Executors, f.cfg.ExecutorToken); err != nil {
			return err
		}
	}
	pending, total, err := experiment.Pending(plan, opts)
	if err != nil {
		return err
	}
	shard := ""
	if n > 1 {
		shard = fmt.Sprintf(" (shard %d/%d)", k, n)
	}
	fmt.Fprintf(log, "experiment: %s: %d bugs × %d configurations × %d seeds = %d trials; %d in this shard%s, %d finished already, %d to run\n",
		path, len(plan.Bugs), len(plan.Configs), len(plan.Seeds), len(plan.Bugs)*len(plan.Configs)*len(plan.Seeds),
		total, shard, total-len(pending), len(pending))
	if len(pending) == 0 {
		return nil
	}
	live := !io.v.quiet && session.IsTerminal(io.Err)
	if !io.v.quiet {
		opts.Progress = experiment.ProgressPrinter(log, live, io.v.verbose, plan.Varied)
	}
	sum, err := experiment.Run(ctx, plan, opts)
	if live {
		fmt.Fprint(log, "\r\033[K")
	}
	if sum != nil {
		fmt.Fprintf(log, "experiment: %d trials ran in %s on %d workers (%d trials at once): %d plausible, %d none, %d errors; results in %s\n",
			sum.Ran, sum.Elapsed.Round(time.Millisecond), sum.Workers, sum.AtOnce, sum.Plausible, sum.None, sum.Errors, sum.File)
	}
	if err != nil && errors.Is(err, context.Canceled) && sum != nil {
		fmt.Fprintln(log, "experiment: run the plan again to resume")
	}
	return err
}

// experimentReportFlags are the flags of 'experiment report'.
type experimentReportFlags struct {
	format string
	plots  string
	output string
}

func newExperimentReportCmd(io streams) *cobra.Command {
	var f experimentReportFlags
	cmd := &cobra.Command{
		Use:   "report RESULTS...",
		Short: "Summarize results files: success rates with 95% Wilson intervals, times, evaluations, plots",
		Long: withExitCodes(`report merges results files (a directory stands for its *.jsonl files; the
same trial in several files counts once) and prints, for all trials, per
value of each parameter that varies, per bug and per configuration: trials,
plausible patches, the success rate with its 95% Wilson score interval, the
median and interquartile range of the seconds and evaluations until the first
plausible patch, and the median patch size. --plots DIR draws the success rates
and the distributions of evaluations as PNG and SVG.`,
			exitLine{exitFound, "the tables (and plots) were written"}),
		Example: `  repair experiment report results/
  repair experiment report shard-*/results-*.jsonl --format csv > summary.csv
  repair experiment report results/ --plots plots/`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &flagError{fmt.Errorf("%s wants results files or directories (see '%s --help')", cmd.CommandPath(), cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExperimentReport(args, &f, io)
		},
	}
	fl := cmd.Flags()
	addFormat(fl, &f.format)
	fl.StringVar(&f.plots, "plots", "", "also draw the plots (PNG and SVG) into this directory")
	fl.StringVarP(&f.output, "output", "o", "", "write the table to this file instead of stdout")
	return cmd
}

func runExperimentReport(paths []string, f *experimentReportFlags, io streams) error {
	if f.format != "markdown" && f.format != "md" && f.format != "csv" {
		return &flagError{fmt.Errorf("--format must be markdown or csv, got %q", f.format)}
	}
	res, err := experiment.ReadResults(paths...)
	if err != nil {
		return err
	}
	for _, t := range res.Torn {
		fmt.Fprintf(io.v.log(io.Err), "experiment: %s: ignoring its last line, cut short (a run was killed while writing it)\n", t)
	}
	if len(res.Records) == 0 {
		return inputerr.New("%s: no results", strings.Join(paths, ", "))
	}
	rep := experiment.NewReport(res)
	var table bytes.Buffer
	if f.format == "csv" {
		err = rep.CSV(&table)
	} else {
		err = rep.Markdown(&table)
	}
	if err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	if f.output == "" {
		if _, err := io.Out.Write(table.Bytes()); err != nil {
			return fmt.Errorf("write the report: %w", err)
		}
	} else if err := os.WriteFile(f.output, table.Bytes(), 0o644); err != nil {
		return inputerr.New("--output %s: %v", f.output, session.Unwrap(err))
	}
	if f.plots != "" {
		files, err := rep.Plots(f.plots)
		if err != nil {
			return err
		}
		fmt.Fprintf(io.v.log(io.Err), "experiment: wrote %d plots to %s\n", len(files), f.plots)
	}
	return nil
}
