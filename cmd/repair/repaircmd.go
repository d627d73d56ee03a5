package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"repair/experiment"
	"repair/fitness"
	"repair/guard"
	"repair/internal/buildinfo"
	"repair/internal/inputerr"
	"repair/localize"
	"repair/program"
	"repair/repair"
)

// repairFlags are the flags of the main job.
type repairFlags struct {
	in            inputFlags
	preset        string
	population    int
	generations   int
	evaluations   int
	timeBudget    time.Duration
	mutationRate  float64
	crossoverRate float64
	crossover     string
	selection     string
	tournament    int
	elitism       float64
	maxEdits      int
	immigrants    float64
	searchTimeout time.Duration
	seed          uint64
	all           bool
	operators     string
	weightPass    float64
	weightFail    float64
	weighting     string
	localization  string
	noReduce      bool
	report        string
	write         bool
	quiet         bool
	lenient       bool
	guardInputs   int
}

func (f *repairFlags) register(cmd *cobra.Command) {
	f.in.register(cmd)
	d := repair.Defaults()
	fl := cmd.Flags()
	fl.StringVar(&f.preset, "preset", "", "start from a preset: book (the Debugging Book's Repairer settings)")
	fl.IntVar(&f.population, "population", d.Population, "candidates per generation")
	fl.IntVar(&f.generations, "generations", d.Generations, "maximum number of generations")
	fl.IntVar(&f.evaluations, "evaluations", 0, "maximum number of distinct candidates evaluated (0: no limit)")
	fl.DurationVar(&f.timeBudget, "time-budget", 0, "maximum search time, e.g. 30s (0: no limit)")
	fl.Float64Var(&f.mutationRate, "mutation-rate", d.MutationRate, "probability that a child gets one more mutation")
	fl.Float64Var(&f.crossoverRate, "crossover-rate", d.CrossoverRate, "probability that two parents are crossed over")
	fl.StringVar(&f.crossover, "crossover", d.CrossoverName, "crossover of edit lists: one-point or uniform")
	fl.StringVar(&f.selection, "selection", d.Selection, "tournament (generational, with elitism) or truncation (the book's)")
	fl.IntVar(&f.tournament, "tournament-size", d.TournamentSize, "candidates per tournament")
	fl.Float64Var(&f.elitism, "elitism", d.Elitism, "fraction of the population kept unchanged (tournament selection)")
	fl.IntVar(&f.maxEdits, "max-edits", d.MaxEdits, "maximum number of edits of a candidate")
	fl.Float64Var(&f.immigrants, "immigrants", d.Immigrants, "fraction of each generation made of single-edit mutants not tried yet (0: off)")
	fl.DurationVar(&f.searchTimeout, "search-timeout", 0, "per-case time limit while searching (0: ten times the slowest case of the original, at least 5ms, counted in CPU time; fixes are checked with the suite's timeouts)")
	fl.Uint64Var(&f.seed, "seed", d.Seed, "random seed: the same seed gives the same result")
	fl.BoolVar(&f.all, "all", false, "keep searching after the first fix and collect every distinct one (stdout gets the first; --report lists all)")
	fl.StringVar(&f.operators, "operators", "default", "mutation operators and weights: default, all, or e.g. delete,insert=2,cmp-op=3 (see 'repair operators')")
	fl.Float64Var(&f.weightPass, "weight-passing", d.Weights.Passing, "fitness weight of the cases the original passes")
	fl.Float64Var(&f.weightFail, "weight-failing", d.Weights.Failing, "fitness weight of the cases the original fails")
	fl.StringVar(&f.weighting, "weighting", "relative", "fitness: relative (the book's fractions) or absolute (GenProg's counts)")
	fl.StringVar(&f.localization, "localization", d.Formula.Name, "fault localization formula: "+strings.Join(localize.Names(), ", "))
	fl.BoolVar(&f.noReduce, "no-reduce", false, "print the patch as found, without delta debugging")
	fl.StringVar(&f.report, "report", "", "write a JSON report of the run to this file")
	fl.BoolVar(&f.write, "write", false, "apply the patch to the target (keeping a .orig copy)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing on stderr but errors")
	fl.IntVar(&f.guardInputs, "guard-inputs", guard.DefaultInputs, "inputs generated next to the suite's to check each fix for overfitting, ranking fixes by how little they change the original's behaviour there (0: no guard)")
	registerLenient(cmd, &f.lenient)
}

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
	o.Workers = f.in.workers
	return o, nil
}

func runRepair(cmd *cobra.Command, f *repairFlags, io streams) error {
	ctx := cmd.Context()
	opts, err := f.options(cmd)
	if err != nil {
		return err
	}
	if f.report != "" {
		if err := checkWritable("--report", f.report); err != nil {
			return err
		}
	}
	if err := checkLenient(f.lenient, &f.in); err != nil {
		return err
	}
	l, err := f.in.load()
	if err != nil {
		return err
	}
	if f.write {
		for _, p := range l.paths {
			if err := checkTargetWritable(p); err != nil {
				return err
			}
		}
	}
	log := io.Err
	if f.quiet {
		log = discard{}
	}
	for _, n := range l.notes {
		fmt.Fprintf(log, "repair: %s\n", n)
	}
	eng, err := f.in.open(ctx, l, streams{Out: io.Out, Err: log})
	if err != nil {
		return err
	}
	defer eng.Close()
	engineDesc := repair.Describe(eng)
	if f.lenient {
		if opts.Lenient, err = lenientPlan(l, eng); err != nil {
			return err
		}
		engineDesc += ", lenient"
	}
	fmt.Fprintf(log, "repair: %s, engine %s, %d cases\n", l.prog.Path, engineDesc, len(l.suite.Cases))

	opts.Log = log
	if f.guardInputs < 0 || f.guardInputs > 100_000 {
		return &flagError{fmt.Errorf("--guard-inputs must be from 0 to 100000, got %d", f.guardInputs)}
	}
	if f.guardInputs > 0 {
		opts.Guard, opts.GuardInputs = f.in.guardOpener(l), f.guardInputs
	}
	if c, ok := eng.(interface{ Capacity() int }); ok && opts.Workers == 0 {
		// Remote executors: keep as many candidates in flight as their
		// workers, not as this machine has CPUs.
		opts.Workers = min(max(c.Capacity(), 1), 1024)
	}
	live := !f.quiet && isTerminal(io.Err)
	if !f.quiet {
		opts.Progress = progressPrinter(log, live)
	}
	start := time.Now()
	res, runErr := repair.Run(ctx, l.prog, l.suite, eng.Run, opts)
	if live {
		fmt.Fprint(log, "\r\033[K")
	}
	if runErr != nil && res == nil {
		return runErr
	}
	elapsed := time.Since(start)
	if f.lenient && res.Original != nil {
		printNeeded(log, res.Original)
	}
	// A report that cannot be written now (the disk filled up during the
	// search) does not cost the fix: it is printed all the same.
	var reportErr error
	if f.report != "" {
		reportErr = writeReport(f.report, f, opts, l, engineDesc, res, elapsed)
	}
	summarize(log, l, res, elapsed)
	if runErr != nil && errors.Is(runErr, context.Canceled) {
		// Ctrl-C exits 1 with nothing on stdout, even when --all (or the
		// guard) had fixes already: they are in the summary and the
		// report.
		fmt.Fprintln(log, "repair: interrupted")
		if reportErr != nil {
			return reportErr
		}
		return &exitError{code: exitNotFound}
	}
	if len(res.Fixes) == 0 {
		if reportErr != nil {
			return reportErr
		}
		return &exitError{code: exitNotFound}
	}
	fix := res.Fixes[0]
	fmt.Fprint(io.Out, fix.Diff)
	if f.write {
		if err := writeTargets(log, l, fix.Source); err != nil {
			return err
		}
	}
	return reportErr
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressPrinter prints one line per generation, or rewrites one live
// line on a terminal.
func progressPrinter(w io.Writer, live bool) func(repair.Progress) {
	return func(p repair.Progress) {
		line := fmt.Sprintf("generation %d: best fitness %.4f, mean %.4f, %d evaluations (%.0f/s), %d cache hits",
			p.Generation, p.Best, p.Mean, p.Evaluations, p.PerSecond, p.CacheHits)
		if live {
			fmt.Fprintf(w, "\r\033[K%s", line)
		} else {
			fmt.Fprintln(w, "repair: "+line)
		}
	}
}

func summarize(w io.Writer, l *loaded, res *repair.Result, elapsed time.Duration) {
	rate := float64(res.Evaluations) / max(res.SearchTime.Seconds(), 1e-9)
	hits := res.Cache.Hits
	if len(res.Fixes) == 0 {
		fmt.Fprintf(w, "repair: no plausible patch (stopped: %s) after %d generations, %d evaluations (%.0f/s, %d cache hits), %.2fs; best fitness %.4f\n",
			res.StopReason, res.Generations, res.Evaluations, rate, hits, elapsed.Seconds(), res.BestFitness)
		if res.BestDiff != "" {
			fmt.Fprintf(w, "repair: the best candidate (not a fix):\n%s", indent(res.BestDiff))
		}
		return
	}
	fix := res.Fixes[0]
	fmt.Fprintf(w, "repair: plausible patch found in generation %d after %d evaluations; %d generations, %d evaluations in all (%.0f/s, %d cache hits), %.2fs\n",
		fix.Generation, fix.Evaluations, res.Generations, res.Evaluations, rate, hits, elapsed.Seconds())
	for _, d := range fix.Describe {
		fmt.Fprintf(w, "repair:   %s\n", d)
	}
	if fix.Guard != nil {
		fmt.Fprintf(w, "repair:   guard: %s\n", fix.Guard)
	}
	for i, other := range res.Fixes[1:] {
		fmt.Fprintf(w, "repair: fix %d of %d:\n", i+2, len(res.Fixes))
		for _, d := range other.Describe {
			fmt.Fprintf(w, "repair:   %s\n", d)
		}
		if other.Guard != nil {
			fmt.Fprintf(w, "repair:   guard: %s\n", other.Guard)
		}
	}
}

func indent(s string) string {
	var sb strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			sb.WriteString("    " + line)
		}
	}
	return sb.String()
}

// checkWritable fails early, before any search, when flag's file (the
// report, the .orig copy of --write) cannot be written.
func checkWritable(flag, path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return inputerr.New("%s %s: directory %s does not exist", flag, path, dir)
	}
	if !fi.IsDir() {
		return inputerr.New("%s %s: %s is not a directory", flag, path, dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return inputerr.New("%s %s: is a directory", flag, path)
	}
	f, err := os.CreateTemp(dir, ".repair-check-*")
	if err != nil {
		return inputerr.New("%s %s: cannot write in %s: %v", flag, path, dir, unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// checkTargetWritable refuses --write on a file nobody may write (its mode
// has no write bit: even root, who could, is not meant to), that cannot
// be opened for writing, or whose directories (of the .orig copy, next to
// the path given, and of the file it names through symbolic links, where
// the new contents are written and renamed) are not writable.
func checkTargetWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o222 == 0 {
		return inputerr.New("--write: %s is read-only", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return inputerr.New("--write: cannot write %s: %v", path, unwrap(err))
	}
	f.Close()
	if err := checkWritable("--write", path+".orig"); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return inputerr.New("--write: %s: %v", path, unwrap(err))
	}
	if real != path {
		return checkWritable("--write", real)
	}
	return nil
}

func unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeTargets writes the repaired source over the target, or over each
// target file it changes when several are repaired together.
func writeTargets(log io.Writer, l *loaded, fixed []byte) error {
	paths, olds, news := []string{l.path}, [][]byte{l.prog.Src}, [][]byte{fixed}
	if len(l.paths) > 1 {
		var ok bool
		olds, _ = l.prog.SplitFiles(l.prog.Src)
		if news, ok = l.prog.SplitFiles(fixed); !ok {
			return fmt.Errorf("--write: the repaired source lost a file boundary")
		}
		paths = l.paths
	}
	for i, p := range paths {
		if string(olds[i]) == string(news[i]) {
			continue
		}
		if err := writeTarget(p, olds[i], news[i]); err != nil {
			return err
		}
		fmt.Fprintf(log, "repair: wrote %s (the original is in %s.orig)\n", p, p)
	}
	return nil
}

// writeTarget keeps the original in PATH.orig and replaces the file PATH
// names with the repaired source atomically (a new file renamed over it),
// keeping its mode. Through a symbolic link it replaces the file the link
// leads to, and the link stays a link.
func writeTarget(path string, orig, fixed []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return inputerr.New("--write: %s: %v", path, unwrap(err))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return inputerr.New("--write: %s: %v", path, unwrap(err))
	}
	if err := os.WriteFile(path+".orig", orig, fi.Mode().Perm()); err != nil {
		return inputerr.New("--write: %s.orig: %v", path, unwrap(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".*")
	if err != nil {
		return inputerr.New("--write: %s: %v", real, unwrap(err))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(fixed); err != nil {
		tmp.Close()
		return fmt.Errorf("--write: %s: %w", real, err)
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("--write: %s: %w", real, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--write: %s: %w", real, err)
	}
	return os.Rename(tmp.Name(), real)
}

// report is the JSON record of a run (--report).
type report struct {
	Schema      int                 `json:"schema"`
	Tool        string              `json:"tool"`
	Version     string              `json:"version"`
	Commit      string              `json:"commit,omitempty"`
	Rerun       []string            `json:"rerun"`
	Dir         string              `json:"dir"`
	GoVersion   string              `json:"go_version"`
	Command     []string            `json:"command"`
	Target      string              `json:"target"`
	Tests       string              `json:"tests"`
	Engine      string              `json:"engine"`
	Cases       int                 `json:"cases"`
	Failing     int                 `json:"failing"`
	Parameters  map[string]any      `json:"parameters"`
	Outcome     string              `json:"outcome"` // plausible, none, interrupted
	StopReason  string              `json:"stop_reason"`
	Seconds     float64             `json:"seconds"`
	Stages      map[string]float64  `json:"stage_seconds"`
	Evaluations int                 `json:"evaluations"`
	Generations int                 `json:"generations"`
	Restarts    int                 `json:"restarts"`
	CacheHits   int64               `json:"cache_hits"`
	CacheMisses int64               `json:"cache_misses"`
	BestFitness float64             `json:"best_fitness"`
	History     []repair.Generation `json:"fitness_per_generation"`
	Ranking     []localize.Entry    `json:"localization"`
	Uniform     bool                `json:"localization_uniform"`
	Fixes       []repair.Fix        `json:"fixes"`
	Flaky       []string            `json:"flaky_cases,omitempty"`
	Best        program.Patch       `json:"best_candidate,omitempty"`
	BestDiff    string              `json:"best_candidate_diff,omitempty"`
	// Lenient is, with --lenient, what the original program ran with.
	Lenient *lenientReport `json:"lenient,omitempty"`
}

// lenientReport lists the values injected in the original program's run
// (--lenient): the verdicts of the cases rest on them. Each fix lists
// those of its validation run.
type lenientReport struct {
	// Needed are the distinct injections (kind and name, at their first
	// line) of every case.
	Needed []fitness.Injection `json:"needed"`
	// Cases are the injections of each case of the original.
	Cases []caseInjections `json:"cases"`
}

type caseInjections struct {
	Case       string              `json:"case"`
	Verdict    fitness.Verdict     `json:"verdict"`
	Injections []fitness.Injection `json:"injections"`
}

func writeReport(path string, f *repairFlags, o repair.Options, l *loaded, engine string, res *repair.Result, elapsed time.Duration) error {
	ops := map[string]float64{}
	for _, w := range o.Operators {
		ops[w.Op.Name] = w.Weight
	}
	r := report{
		Schema: reportSchema, Tool: "repair", Version: version, Commit: buildinfo.Commit(), GoVersion: runtime.Version(), Command: os.Args,
		Rerun: rerunCommand(os.Args, o.Seed), Dir: workingDir(),
		Target: l.prog.Path, Tests: f.in.tests, Engine: engine, Cases: len(l.suite.Cases),
		Failing: res.Ranking.Failing,
		Parameters: map[string]any{
			"preset": f.preset, "population": o.Population, "generations": o.Generations,
			"evaluations": o.Evaluations, "time_budget_seconds": o.TimeBudget.Seconds(),
			"mutation_rate": o.MutationRate, "crossover_rate": o.CrossoverRate, "crossover": o.CrossoverName,
			"selection": o.Selection, "tournament_size": o.TournamentSize, "elitism": o.Elitism,
			"max_edits": o.MaxEdits, "immigrants": o.Immigrants, "search_timeout_seconds": res.SearchTimeout.Seconds(), "seed": o.Seed, "workers": o.Workers, "all": o.All,
			"operators": ops, "weighting": o.Weights.Weighting.String(),
			"weight_passing": o.Weights.Passing, "weight_failing": o.Weights.Failing,
			"localization": o.Formula.Name, "reduce": o.Reduce, "lenient": f.lenient, "guard_inputs": f.guardInputs,
		},
		StopReason: res.StopReason, Seconds: elapsed.Seconds(),
		Stages: map[string]float64{
			"localize": res.LocalizeTime.Seconds(), "search": res.SearchTime.Seconds(), "reduce": res.ReduceTime.Seconds(),
			"guard": res.GuardTime.Seconds(),
		},
		Evaluations: res.Evaluations, Generations: res.Generations, Restarts: res.Restarts,
		CacheHits: res.Cache.Hits, CacheMisses: res.Cache.Misses, BestFitness: res.BestFitness,
		History: res.History, Ranking: fileLines(l.prog, res.Ranking.Entries), Uniform: res.Ranking.Uniform,
		Fixes: res.Fixes, Best: res.Best, BestDiff: res.BestDiff,
	}
	r.Outcome = "none"
	if len(res.Fixes) > 0 {
		r.Outcome = "plausible"
	} else if res.StopReason == "interrupted" {
		r.Outcome = "interrupted"
	}
	for _, i := range res.Flaky {
		r.Flaky = append(r.Flaky, l.suite.Cases[i].Name)
	}
	if f.lenient && res.Original != nil {
		r.Lenient = &lenientReport{Needed: neededInjections(res.Original), Cases: []caseInjections{}}
		if r.Lenient.Needed == nil {
			r.Lenient.Needed = []fitness.Injection{}
		}
		for i, c := range res.Original.Results {
			in := c.Injections
			if in == nil {
				in = []fitness.Injection{}
			}
			r.Lenient.Cases = append(r.Lenient.Cases, caseInjections{Case: l.suite.Cases[i].Name, Verdict: c.Verdict, Injections: in})
		}
	}
	if r.Fixes == nil {
		r.Fixes = []repair.Fix{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // diffs hold < and >; keep them readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		// The path was checked before the search: this is the machine.
		return fmt.Errorf("--report %s: %v", path, unwrap(err))
	}
	return nil
}

// reportSchema is the version of the --report format: it changes when a
// field changes meaning or goes away (new fields do not change it).
const reportSchema = 2

// rerunCommand is the command line that repeats this run: args with the
// seed made explicit (it fixes every random choice) and without the
// output flags (--report, --write), so that running it changes nothing.
func rerunCommand(args []string, seed uint64) []string {
	out := []string{"repair"}
	hasSeed := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		name, _, inline := strings.Cut(a, "=")
		switch name {
		case "--report", "--write":
			if name == "--report" && !inline && i+1 < len(args) {
				i++ // its value
			}
			continue
		case "--seed":
			hasSeed = true
		}
		out = append(out, a)
	}
	if !hasSeed {
		out = append(out, "--seed", strconv.FormatUint(seed, 10))
	}
	return out
}

func workingDir() string {
	wd, _ := os.Getwd()
	return wd
}
