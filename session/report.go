// The JSON report of a run (--report).

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"repair/fitness"
	"repair/internal/buildinfo"
	"repair/internal/inputerr"
	"repair/localize"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
)

// report is the JSON record of a run (--report).
type report struct {
	Schema     int            `json:"schema"`
	Tool       string         `json:"tool"`
	Version    string         `json:"version"`
	Commit     string         `json:"commit,omitempty"`
	Rerun      []string       `json:"rerun"`
	Dir        string         `json:"dir"`
	GoVersion  string         `json:"go_version"`
	Command    []string       `json:"command"`
	Target     string         `json:"target"`
	Tests      string         `json:"tests"`
	Engine     string         `json:"engine"`
	Cases      int            `json:"cases"`
	Failing    int            `json:"failing"`
	Parameters map[string]any `json:"parameters"`
	// Outcome is plausible, suspect (every fix breaks a generated
	// input), none, interrupted, or for a run that ended before its
	// search: nothing_to_repair, not_reached (the failing tests never
	// reach the target), bad_input or error, with Error saying why.
	Outcome     string              `json:"outcome"`
	Error       string              `json:"error,omitempty"`
	StopReason  string              `json:"stop_reason"`
	Seconds     float64             `json:"seconds"`
	Stages      map[string]float64  `json:"stage_seconds"`
	Evaluations int                 `json:"evaluations"`
	Generations int                 `json:"generations"`
	Restarts    int                 `json:"restarts"`
	CacheHits   int64               `json:"cache_hits"`
	CacheMisses int64               `json:"cache_misses"`
	CasesRun    int64               `json:"cases_run"`
	CasesSkip   int64               `json:"cases_skipped"`
	BestFitness float64             `json:"best_fitness"`
	History     []repair.Generation `json:"fitness_per_generation"`
	Ranking     []localize.Entry    `json:"localization"`
	Uniform     bool                `json:"localization_uniform"`
	// Fixes are the plausible fixes found, the delivered one first;
	// Alternatives counts them and Why says why the first beats each of
	// the others. FirstFix is when the first was found, from the start.
	Fixes        []repair.Fix `json:"fixes"`
	Alternatives int          `json:"alternatives"`
	Why          string       `json:"why_delivered,omitempty"`
	FirstFix     float64      `json:"first_fix_seconds,omitempty"`
	// Flaky are the tests whose verdict changed when a program ran again
	// (a fix's validation, the original's re-runs): judged on what held
	// every time. FlakyOriginal are those whose verdict changed on the
	// original too: left out of the fitness and of the fixes' validation.
	Flaky         []string `json:"flaky_cases,omitempty"`
	FlakyOriginal []string `json:"flaky_in_original,omitempty"`
	// Rejected counts fixes whose validation failed twice alike after the
	// search's runs passed them (with --engine hybrid: CPython disagreed).
	Rejected int `json:"rejected_fixes"`
	// Hybrid is, with --engine hybrid, what ran where and whether gpython
	// and CPython agreed on the original.
	Hybrid *sandbox.HybridStats `json:"hybrid,omitempty"`
	// Sandbox is, with the cpython engine, how its servers ran the
	// candidates: fresh forks, reused children, candidates compiled one
	// changed definition at a time, candidates that ran only the cases
	// their edits can reach (docs/engines.md).
	Sandbox *sandbox.FastPaths `json:"sandbox,omitempty"`
	// Refused are the fixes the check of delivered fixes refused: the
	// test each failed there.
	Refused []string `json:"refused,omitempty"`
	// CheckedVia counts how the check reached its verdicts of the
	// delivered fixes' tests: "separate processes" (the test code apart
	// from the code under test), or "in-process: " and why.
	CheckedVia map[string]int `json:"checked_via,omitempty"`
	Best       program.Patch  `json:"best_candidate,omitempty"`
	BestDiff   string         `json:"best_candidate_diff,omitempty"`
	// Lenient is, with --lenient, what the original program ran with.
	Lenient *lenientReport `json:"lenient,omitempty"`
	// SkippedByPytest are the tests plain pytest skips at run time
	// (pytest.skip, importorskip), which the search and the validation
	// left out of the suite: Cases counts them, Failing does not.
	SkippedByPytest []string `json:"skipped_by_pytest,omitempty"`
	// FailingElsewhere are, for the project's suite (several test files),
	// the failing tests that run no code of the target an edit could
	// change, left out of the suite: Cases counts them, Failing does not.
	FailingElsewhere []string `json:"failing_elsewhere,omitempty"`
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

// writeReport writes the --report of a run: res is its result (empty
// when it ended before any search, with runErr saying why).
func writeReport(job Job, c *Config, o repair.Options, l *Input, engine string, eng sandbox.Engine, res *repair.Result, elapsed time.Duration, runErr error) error {
	path := job.Report
	ops := map[string]float64{}
	for _, w := range o.Operators {
		ops[w.Op.Name] = w.Weight
	}
	r := report{
		Schema: reportSchema, Tool: "repair", Version: job.Version, Commit: buildinfo.Commit(), GoVersion: runtime.Version(), Command: os.Args,
		Rerun: rerunCommand(os.Args, o.Seed), Dir: workingDir(),
		Target: DisplayPath(l.Path), Tests: c.Tests, Engine: engine, Cases: len(l.Suite.Cases),
		Failing: res.Ranking.Failing,
		Parameters: map[string]any{
			"preset": job.Preset, "population": o.Population, "generations": o.Generations,
			"evaluations": o.Evaluations, "time_budget_seconds": o.TimeBudget.Seconds(),
			"mutation_rate": o.MutationRate, "crossover_rate": o.CrossoverRate, "crossover": o.CrossoverName,
			"selection": o.Selection, "tournament_size": o.TournamentSize, "elitism": o.Elitism,
			"max_edits": o.MaxEdits, "immigrants": o.Immigrants, "search_timeout_seconds": res.SearchTimeout.Seconds(), "seed": o.Seed, "workers": o.Workers, "all": o.All, "alternatives": o.Alternatives,
			"operators": ops, "weighting": o.Weights.Weighting.String(),
			"weight_passing": o.Weights.Passing, "weight_failing": o.Weights.Failing,
			"localization": o.Formula.Name, "reduce": o.Reduce, "lenient": c.Lenient, "guard_inputs": c.GuardInputs,
		},
		StopReason: res.StopReason, Seconds: elapsed.Seconds(),
		Stages: map[string]float64{
			"localize": res.LocalizeTime.Seconds(), "search": res.SearchTime.Seconds(), "reduce": res.ReduceTime.Seconds(),
			"guard": res.GuardTime.Seconds(), "verify": res.VerifyTime.Seconds(),
		},
		Evaluations: res.Evaluations, Generations: res.Generations, Restarts: res.Restarts,
		CacheHits: res.Cache.Hits, CacheMisses: res.Cache.Misses, CasesRun: res.CasesRun, CasesSkip: res.CasesSkipped,
		BestFitness: res.BestFitness,
		History:     res.History, Uniform: res.Ranking.Uniform,
		Fixes: res.Fixes, Best: res.Best, BestDiff: res.BestDiff,
		Alternatives: len(res.Fixes), Why: res.Why, FirstFix: res.FirstFix.Seconds(),
	}
	if l.Prog != nil {
		r.Target = l.Prog.Path
		r.Ranking = FileLines(l.Prog, res.Ranking.Entries)
		localize.Texts(l.Prog, r.Ranking)
	}
	r.Rejected = res.Rejected
	if eng != nil {
		r.Hybrid, r.Sandbox = hybridStats(eng), sandboxStats(eng)
	}
	r.Outcome = "none"
	if len(res.Fixes) > 0 {
		r.Outcome = "plausible"
		if res.Fixes[0].Suspect() {
			r.Outcome = "suspect"
		}
	} else if res.StopReason == "interrupted" || errors.Is(runErr, context.Canceled) {
		r.Outcome = "interrupted"
	} else if runErr != nil {
		r.Outcome, r.Error = outcomeOf(runErr), runErr.Error()
	}
	suite := l.Suite
	if res.Suite != nil {
		suite = res.Suite // without the cases left out, which Flaky indexes
	}
	r.SkippedByPytest = res.LeftOut
	r.FailingElsewhere = res.FailingElsewhere
	for _, i := range res.Flaky {
		r.Flaky = append(r.Flaky, suite.Cases[i].Name)
	}
	for _, i := range res.FlakyOriginal {
		r.FlakyOriginal = append(r.FlakyOriginal, suite.Cases[i].Name)
	}
	r.Refused = res.Refused
	r.CheckedVia = res.CheckedVia
	if c.Lenient && res.Original != nil {
		r.Lenient = &lenientReport{Needed: neededInjections(res.Original), Cases: []caseInjections{}}
		if r.Lenient.Needed == nil {
			r.Lenient.Needed = []fitness.Injection{}
		}
		for i, c := range res.Original.Results {
			in := c.Injections
			if in == nil {
				in = []fitness.Injection{}
			}
			r.Lenient.Cases = append(r.Lenient.Cases, caseInjections{Case: suite.Cases[i].Name, Verdict: c.Verdict, Injections: in})
		}
	}
	if r.Fixes == nil {
		r.Fixes = []repair.Fix{}
	}
	var buf bytes.Buffer
	if MarkdownPath(path) {
		r.markdown(&buf)
	} else {
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // diffs hold < and >; keep them readable
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		// The path was checked before the search: this is the machine.
		return fmt.Errorf("--report %s: %v", path, Unwrap(err))
	}
	return nil
}

// outcomeOf is the report's outcome of a run that ended before its search
// with err.
func outcomeOf(err error) string {
	var nothing *fitness.NothingToRepair
	var unreached *repair.Unreached
	switch {
	case errors.As(err, &nothing):
		return "nothing_to_repair"
	case errors.As(err, &unreached):
		return "not_reached"
	case inputerr.Is(err):
		return "bad_input"
	}
	return "error"
}

// markdown writes the report for a reader: the outcome, the fixes with
// their diffs, the figures of the run.
func (r *report) markdown(b *bytes.Buffer) {
	fmt.Fprintf(b, "# repair %s against %s\n\n", r.Target, r.Tests)
	switch r.Outcome {
	case "plausible", "suspect":
		fmt.Fprintf(b, "Outcome: %s: %s in %.1f s (%d evaluations, %d generations; stopped: %s).\n", r.Outcome, Plural(len(r.Fixes), "fix"), r.Seconds, r.Evaluations, r.Generations, r.StopReason)
	case "none", "interrupted":
		fmt.Fprintf(b, "Outcome: %s: no fix in %.1f s (%d evaluations, %d generations; stopped: %s; best fitness %.4f).\n", r.Outcome, r.Seconds, r.Evaluations, r.Generations, r.StopReason, r.BestFitness)
	default:
		fmt.Fprintf(b, "Outcome: %s: %s\n", r.Outcome, r.Error)
	}
	failing := ""
	if r.Error == "" {
		failing = fmt.Sprintf(" (%d failing)", r.Failing)
	}
	fmt.Fprintf(b, "\nEngine %s, %d cases%s. Rerun: `%s`\n", r.Engine, r.Cases, failing, strings.Join(r.Rerun, " "))
	for i, fx := range r.Fixes {
		fmt.Fprintf(b, "\n## Fix %d of %d\n\n", i+1, len(r.Fixes))
		for _, d := range fx.Describe {
			fmt.Fprintf(b, "- %s\n", d)
		}
		if fx.Guard != nil {
			fmt.Fprintf(b, "\nOverfitting guard: %s.\n", fx.Guard)
		}
		fmt.Fprintf(b, "\n```diff\n%s```\n", fx.Diff)
	}
	if len(r.Fixes) == 0 && r.BestDiff != "" {
		fmt.Fprintf(b, "\n## The best candidate (not a fix)\n\n```diff\n%s```\n", r.BestDiff)
	}
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

// MarkdownPath reports whether a --report path asks for Markdown.
func MarkdownPath(p string) bool {
	return strings.HasSuffix(strings.ToLower(p), ".md") || strings.HasSuffix(strings.ToLower(p), ".markdown")
}
