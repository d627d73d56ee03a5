package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"repair/experiment"
	"repair/repair"
	"repair/session"
)

// repairFlags are the flags of the main job that its run reads; the
// search's flags are read by name (options), as experiment.Params
// lists them.
type repairFlags struct {
	cfg    session.Config
	preset string
	seed   uint64
	report string
	write  bool
}

func (f *repairFlags) register(cmd *cobra.Command) {
	registerConfig(cmd, &f.cfg, append(inputFlags, "donors", "donors-max", "allow-mismatch", "guard-inputs", "lenient")...)
	d := repair.Defaults()
	fl := cmd.Flags()
	fl.StringVar(&f.preset, "preset", "", "start from a preset: book (the Debugging Book's Repairer settings)")
	fl.Int("population", d.Population, "candidates per generation")
	fl.Int("generations", d.Generations, "maximum number of generations")
	fl.Int("evaluations", 0, usageEvaluations)
	fl.Duration("time-budget", 0, usageTimeBudget+" (default: "+defaultBudget.String()+" unless --generations or --evaluations is given; 0: no limit)")
	fl.Float64("mutation-rate", d.MutationRate, "probability that a child gets one more mutation")
	fl.Float64("crossover-rate", d.CrossoverRate, "probability that two parents are crossed over")
	fl.String("crossover", d.CrossoverName, "crossover of edit lists: one-point or uniform")
	fl.String("selection", d.Selection, "tournament (generational, with elitism) or truncation (the book's)")
	fl.Int("tournament-size", d.TournamentSize, "candidates per tournament")
	fl.Float64("elitism", d.Elitism, "fraction of the population kept unchanged (tournament selection)")
	fl.Int("max-edits", d.MaxEdits, "maximum number of edits of a candidate")
	fl.Float64("immigrants", d.Immigrants, "fraction of each generation made of single-edit mutants not tried yet (0: off)")
	fl.Duration("search-timeout", 0, "per-case time limit while searching (0: ten times the slowest case of the original, at least 5ms, counted in CPU time; fixes are checked with the suite's timeouts)")
	addSeed(fl, &f.seed, d.Seed)
	fl.Bool("all", false, "keep searching after the first fix and collect every distinct one (stdout gets the first; --report lists all)")
	fl.Float64("alternatives", d.Alternatives, "after the first fix, search on for this share of the remaining budget (at most as many evaluations again as the first fix took, at least ten generations) and deliver the best fix found: guard, no check deleted, consistent names, fewest tokens (0: the first fix)")
	fl.String("operators", "default", "mutation operators and weights: default, all, or e.g. delete,insert=2,cmp-op=3 (see 'repair operators')")
	fl.Float64("weight-passing", d.Weights.Passing, "fitness weight of the cases the original passes")
	fl.Float64("weight-failing", d.Weights.Failing, "fitness weight of the cases the original fails")
	fl.String("weighting", "relative", "fitness: relative (the book's fractions) or absolute (GenProg's counts)")
	fl.String("localization", d.Formula.Name, usageLocalization)
	fl.Bool("no-reduce", false, "print the patch as found, without delta debugging")
	addReport(fl, &f.report)
	fl.BoolVar(&f.write, "write", false, "apply the patch to the target (keeping a .orig copy)")
}

// defaultBudget is the time budget of a run that sets none of
// --time-budget, --generations and --evaluations.
const defaultBudget = 5 * time.Minute

// options turns the flags into search options: the preset's settings, then
// every flag the user set. It goes through experiment.Options, so that a
// sweep's parameters mean exactly what the flags mean.
func (f *repairFlags) options(cmd *cobra.Command) (repair.Options, error) {
	v := experiment.Values{}
	for _, p := range experiment.Params {
		name := strings.TrimPrefix(p.Flag, "--")
		fl := cmd.Flags().Lookup(name)
		if fl == nil || !fl.Changed {
			continue
		}
		c, err := experiment.Canonical(p.Name, fl.Value.String())
		if err != nil {
			return repair.Options{}, &flagError{fmt.Errorf("%s: %v", p.Flag, err)}
		}
		v[p.Name] = c
	}
	o, err := experiment.Options(v)
	if err != nil {
		return o, err
	}
	o.Seed = f.seed
	o.Workers = f.cfg.Workers
	if !changed(cmd, "time-budget", "generations", "evaluations") {
		o.TimeBudget = defaultBudget
	}
	return o, nil
}

// changed reports whether any of the named flags was set.
func changed(cmd *cobra.Command, names ...string) bool {
	for _, n := range names {
		if fl := cmd.Flags().Lookup(n); fl != nil && fl.Changed {
			return true
		}
	}
	return false
}

func runRepair(cmd *cobra.Command, f *repairFlags, io streams) error {
	began := time.Now()
	opts, err := f.options(cmd)
	if err != nil {
		return err
	}
	job := session.Job{Options: opts, Preset: f.preset, Report: f.report, Write: f.write,
		DefaultBudget: !changed(cmd, "time-budget", "generations", "evaluations"), Version: version}
	err = session.Repair(cmd.Context(), &f.cfg, job, io.session(), began)
	var suspect *session.SuspectError
	switch {
	case errors.Is(err, session.ErrNoFix):
		return &exitError{code: exitNotFound}
	case errors.As(err, &suspect) && suspect.DeletesCheck:
		fmt.Fprintf(io.Err, "repair: suspect fix: it deletes or weakens a check of the code (a raise, an assert, an if or a checking call) or leaves a branch no test runs, and so does every fix found; exit code %d\n", exitSuspect)
		return &exitError{code: exitSuspect}
	case errors.As(err, &suspect):
		g := suspect.Guard
		var what []string
		if b := g.Broken - g.ExamplesFailed; b > 0 {
			what = append(what, fmt.Sprintf("%d of %d generated inputs the original handled", b, g.Inputs))
		}
		if g.ExamplesFailed > 0 {
			what = append(what, fmt.Sprintf("%d of the target's %d docstring examples the original passes", g.ExamplesFailed, g.Examples))
		}
		fmt.Fprintf(io.Err, "repair: suspect fix: it breaks %s (e.g. %s); exit code %d\n",
			strings.Join(what, " and "), g.Example, exitSuspect)
		return &exitError{code: exitSuspect}
	}
	return err
}
