package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"repair/batch"
	"repair/fitness"
	"repair/internal/inputerr"
	"repair/repair"
	"repair/session"
)

// batchFlags are the flags of repair batch.
type batchFlags struct {
	cfg                 session.Config
	module              string
	budget              time.Duration
	seed                uint64
	evaluations         int
	donors              int
	showDonors          bool
	format, jsonl, repo string
}

func newBatchCmd(io streams) *cobra.Command {
	var f batchFlags
	cmd := &cobra.Command{
		Use:   "batch --tests T [flags] SUBMISSION... (files or directories)",
		Short: "Repair many submissions of one exercise against one suite (a class)",
		Long: withExitCodes(`batch repairs every submission against the suite, several at once on one
engine pool, each within its own time budget. A submission that already
passes, does not compile or lacks the function the suite calls is said so.
Every submission runs as the module the suite imports (--module), so a test
file that imports "solution" tests alice.py without renaming it. With a
pytest file, a submission passes only when it also passes with the tests in
a process apart from it, where it cannot reach their verdicts ("fails
apart" otherwise: never a donor).

The submissions that pass lend their code to the others' repairs (the
--donor-count most similar to each); a student's feedback names no
classmate's file unless --show-donors says so (an edit that copies code
says "classmate-1", "classmate-2": the donors by similarity). When a small
edit and a block copied from a donor both pass, the smaller is delivered.
A patch's size is counted as git diff --stat counts it: lines added and
removed.

stdout gets a table (Markdown, or CSV with --format csv); --jsonl writes one
JSON record per submission with its patch, --report a report with every
patch as a diff (Markdown for a .md file, else JSON).`,
			exitLine{exitFound, "every submission was classified or repaired (the table says which: a submission left unrepaired does not change the exit code)"},
			exitLine{exitNotFound, "interrupted (Ctrl-C)"}),
		Example: `  repair batch --tests tests.json submissions/
  repair batch --tests test_grade.py --time-budget 20s --report class.md --jsonl class.jsonl submissions/*.py`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if changed(cmd, "donors") {
				fmt.Fprintln(io.Err, "batch: --donors N is now --donor-count N (in 'repair --donors' names files); it works all the same")
			}
			return runBatch(cmd.Context(), &f, args, io)
		},
	}
	fl := cmd.Flags()
	registerConfig(cmd, &f.cfg, "tests", "guard-inputs", "engine", "workers=|; here also the submissions repaired at once", "sandbox", "python")
	fl.StringVar(&f.module, "module", "", "the module name submissions run as (default: the suite's target, or what its test file imports)")
	addTimeBudget(fl, &f.budget, 30*time.Second, "per submission")
	addSeed(fl, &f.seed, 1)
	addEvaluations(fl, &f.evaluations)
	fl.IntVar(&f.donors, "donor-count", 5, "the passing submissions most similar to a failing one lend it their code (0: none)")
	// The old name of --donor-count, kept working: runBatch says so.
	fl.IntVar(&f.donors, "donors", 5, "the old name of --donor-count")
	_ = fl.MarkHidden("donors")
	fl.BoolVar(&f.showDonors, "show-donors", false, "name the donors' files in the feedback (by default a student's feedback names no classmate's file)")
	addFormat(fl, &f.format)
	fl.StringVar(&f.jsonl, "jsonl", "", "write one JSON record per submission here")
	addReport(fl, &f.repo)
	return cmd
}

func runBatch(ctx context.Context, f *batchFlags, args []string, io streams) error {
	if f.cfg.Tests == "" {
		return &flagError{fmt.Errorf("--tests is required")}
	}
	if f.format != "markdown" && f.format != "csv" {
		return &flagError{fmt.Errorf("--format must be markdown or csv, got %q", f.format)}
	}
	if f.budget <= 0 {
		return &flagError{fmt.Errorf("--time-budget must be positive, got %v", f.budget)}
	}
	if _, err := f.cfg.IsolationLevel(); err != nil {
		return err
	}
	for _, p := range []struct{ flag, path string }{{"--jsonl", f.jsonl}, {"--report", f.repo}} {
		if p.path != "" {
			if err := session.CheckWritable(p.flag, p.path); err != nil {
				return err
			}
		}
	}
	suite, err := fitness.Load(f.cfg.Tests)
	if err != nil {
		return err
	}
	subs, err := batch.Submissions(args, f.cfg.Tests)
	if err != nil {
		return err
	}
	module := f.module
	if module == "" {
		if module, err = batch.SuiteModule(suite, f.cfg.Python); err != nil {
			return err
		}
	}
	if !batch.IsModuleName(module) {
		return &flagError{fmt.Errorf("--module: %q is not a Python module name", module)}
	}
	workers := min(session.Workers(f.cfg.Workers), max(len(subs), 1))
	o := repair.Defaults()
	o.Seed, o.TimeBudget, o.Evaluations = f.seed, f.budget, f.evaluations
	o.Generations = repair.MaxGenerations // the budget is time, or evaluations
	if f.evaluations < 0 {
		return &flagError{fmt.Errorf("--evaluations must be 0 or more, got %d", f.evaluations)}
	}
	if f.cfg.GuardInputs < 0 || f.cfg.GuardInputs > 100_000 {
		return &flagError{fmt.Errorf("--guard-inputs must be from 0 to 100000, got %d", f.cfg.GuardInputs)}
	}
	start := time.Now()
	results, err := batch.Run(ctx, subs, batch.Options{
		Suite: suite, Module: module, Repair: o, Workers: workers,
		Config: f.cfg, Stderr: io.Err,
		Path:        session.DisplayPath,
		Progress:    io.v.log(io.Err),
		Donors:      f.donors,
		ShowDonors:  f.showDonors,
		GuardInputs: f.cfg.GuardInputs,
	})
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if f.format == "csv" {
		if err := batch.WriteCSV(io.Out, results); err != nil {
			return err
		}
	} else {
		batch.WriteTable(io.Out, results)
	}
	if f.donors > 0 {
		n := 0
		for _, r := range results {
			if r.Status == batch.Passes {
				n++
			}
		}
		fmt.Fprintf(io.v.log(io.Err), "batch: %s lent code to the others' repairs (the %d most similar to each; --donor-count 0 for none)\n", session.Plural(n, "passing submission"), f.donors)
	}
	fmt.Fprintf(io.v.log(io.Err), "batch: %s in %.1fs on %s: %s\n", session.Plural(len(results), "submission"), elapsed.Seconds(), session.Plural(workers, "worker"), batch.Counts(results))
	if f.jsonl != "" {
		var b bytes.Buffer
		for _, r := range results {
			line, _ := json.Marshal(r)
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(f.jsonl, b.Bytes(), 0o644); err != nil {
			return inputerr.New("--jsonl: %v", session.Unwrap(err))
		}
	}
	if f.repo != "" {
		data := batch.MarkdownReport(f.cfg.Tests, results, elapsed, workers)
		if !session.MarkdownPath(f.repo) {
			data = batch.JSONReport(version, f.cfg.Tests, results, elapsed, workers)
		}
		if err := os.WriteFile(f.repo, data, 0o644); err != nil {
			return inputerr.New("--report: %v", session.Unwrap(err))
		}
	}
	return nil
}
