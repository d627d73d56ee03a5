package repair

import (
	"context"
	"io"
	"time"

	"repair/crossover"
	"repair/fitness"
	"repair/guard"
	"repair/internal/inputerr"
	"repair/lenient"
	"repair/localize"
	"repair/mutate"
)

// Selection names.
const (
	Tournament = "tournament"
	Truncation = "truncation"
)

// Options are the parameters of a repair run. The zero value is not
// usable: start from Defaults() or Book().
type Options struct {
	// Population is the number of candidates per generation (> 0).
	Population int
	// Generations bounds the number of generations (> 0).
	Generations int
	// Evaluations bounds the number of distinct candidate programs
	// evaluated; 0 means no bound.
	Evaluations int
	// TimeBudget bounds the wall time of the run from Start; 0 means no
	// bound. The search stops when it runs out (it may stop the search
	// earlier, never change what it found first); a plausible candidate
	// found before then is reduced, validated and checked within a few
	// seconds more (deliveryGrace), so that the run ends soon after the
	// budget at any load.
	TimeBudget time.Duration
	// Start is when the time budget started counting: the command's
	// start, so that what ran before Run (engines starting, parsing)
	// counts too. Zero: when Run starts.
	Start time.Time
	// MutationRate is the probability that a child gets one more mutation.
	MutationRate float64
	// CrossoverRate is the probability that two parents are crossed over
	// (else the children are copies of the parents).
	CrossoverRate float64
	// Selection is Tournament (generational, with elitism) or Truncation
	// (the Debugging Book's: parents and children together, the fittest
	// and then smallest patches survive).
	Selection string
	// TournamentSize is the number of candidates drawn per tournament.
	TournamentSize int
	// Elitism is the fraction of the population copied unchanged into the
	// next generation (tournament selection).
	Elitism float64
	// Immigrants is the fraction of each generation made of first-order
	// mutants of the original not evaluated before, taken in turns from a
	// weighted random order without replacement (mutate.Neighbourhood)
	// and from the sweep of the most suspicious statements' edits in a
	// fixed order (mutate.NewStreams): "random immigrants" (Grefenstette,
	// "Genetic algorithms for changing environments", PPSN 1992) that make
	// the search cover every single edit before long, while the rest of
	// the population recombines. 0 turns them off (and generation 0 is
	// then random mutants, as in GenProg).
	Immigrants float64
	// MaxEdits caps the number of edits of a candidate (the oldest are
	// dropped), against bloat.
	MaxEdits int
	// SearchTimeout caps the timeout of every case while searching; 0
	// calibrates it on the original program: ten times its slowest case,
	// at least MinSearchTimeout. A candidate is not run further after its
	// first timed-out case. Fixes are validated with the suite's timeouts.
	SearchTimeout time.Duration
	// Seed fixes every random choice.
	Seed uint64
	// Workers bounds the candidates evaluated at once (the engine's pool).
	Workers int
	// Grow, when not nil, asks the engine for n workers in all and returns
	// how many it has (sandbox/cpython.Engine.Grow). The search calls it
	// when the original's cases mostly wait (they sleep or do I/O: their
	// wall time is more than WaitFactor times their CPU time) and then
	// evaluates that many candidates at once: WaitFactor times Workers.
	Grow func(ctx context.Context, n int) (int, error)
	// All keeps searching after the first plausible patch and collects
	// every distinct one until a budget runs out.
	All bool
	// Alternatives is the share of the remaining budget (time, and
	// evaluations when Evaluations bounds them) the search goes on for
	// after its first plausible fix, collecting others to rank against it
	// (rankFixes): at most as many evaluations again as the first fix
	// took, at least ten generations' worth. 0 stops at the first fix
	// (unless the guard finds it suspect).
	Alternatives float64
	// Operators are the mutation operators with their weights.
	Operators []mutate.Weighted
	// Crossover is the crossover function and CrossoverName its name.
	Crossover     crossover.Func
	CrossoverName string
	// Weights parameterize the fitness function.
	Weights fitness.Weights
	// Formula is the fault localization formula.
	Formula localize.Formula
	// Reduce shrinks the winning patch with ddmin.
	Reduce bool
	// NoSelection runs every case of every candidate, compiled whole,
	// instead of only the cases that can reach what it changes (test
	// selection and partial re-execution, docs/architecture.md): for
	// comparisons; the results are the same.
	NoSelection bool
	// Lenient, when not nil, runs the original and every candidate
	// leniently with this plan (made from the original; package lenient).
	// A candidate that passes a case only with an injection the original
	// program never needed (a kind and name no case of the original had
	// injected) fails that case, so it is never reported as a fix.
	Lenient *lenient.Plan
	// Guard, when not nil, opens an engine for the overfitting guard's
	// generated inputs (package guard; probes is a suite of probe cases
	// made from the suite's): each fix is run on them and compared with
	// the original (Fix.Guard), fixes are ranked by it, and a fix that
	// breaks an input the original handled does not end the search at
	// once: it goes on for a better one, for as many evaluations and as
	// long again as the first fix took. The returned function closes the
	// engine. Nil turns the guard off.
	Guard func(ctx context.Context, probes *fitness.Suite) (guard.Runner, func(), error)
	// GuardInputs is the number of generated inputs (0: the default,
	// guard.DefaultInputs).
	GuardInputs int
	// GuardProbes, when not nil, returns the guard's generated inputs for
	// the suite Run is given, as guard.Probes(suite, nil, GuardInputs)
	// does, when the caller makes them already (in the background, while
	// the engine starts): Run then does not make them again on its way.
	GuardProbes func() (*fitness.Suite, []int)
	// GuardExamples, when not nil with Guard, is a doctest suite of the
	// target's original file (fitness.Load("doctest:FILE")): the guard
	// opens an engine for it with Guard and judges each fix on the
	// docstring examples the original passes too (guard.AddExamples).
	GuardExamples *fitness.Suite
	// Prepared, when not nil, returns mutate.Prepare of the program Run
	// is given, made by a caller that has the program before Run starts
	// (while the engine starts): Run then does not make it beside the
	// original's run, whose CPUs it shared. Nil from it: Run makes it.
	Prepared func() *mutate.Context
	// CheckOriginal, if not nil, is called with the original program's
	// outcome (once it compiles) before anything else looks at it: an
	// error stops the run before any search (the parity check with plain
	// pytest, package session). It returns the indices of the cases to leave
	// out (tests that plain pytest skips at run time): the search, the
	// localization and the final validation run without them, as if the
	// suite did not have them (Result.Suite, Result.LeftOut). Leaving out
	// every case is an inputerr error. again runs the original again under
	// the engine, as a fix's validation runs (at most once: later calls
	// return the same), and returns its runs on the whole suite, orig
	// first: a case whose verdict changes between them is flaky (a
	// difference with plain pytest is then no mismatch), and the search
	// leaves it out of the fitness from its start (Result.FlakyOriginal).
	CheckOriginal func(ctx context.Context, orig *fitness.Outcome, again func(context.Context) ([]*fitness.Outcome, error)) (leaveOut []int, err error)
	// Verify, when not nil, opens an engine for the suite with the check
	// of delivered fixes (sandbox.Options.Verify): with a test-file suite,
	// every fix runs its tests there too, and one that fails a test the
	// search's runs passed is refused (Result.Refused) and the search goes
	// on. The returned function closes the engine. Nil turns it off.
	Verify func(ctx context.Context) (Runner, func(), error)
	// Progress, if not nil, is called after each generation.
	Progress func(Progress)
	// Stage, if not nil, is called as each stage of the run starts:
	// "original run", "localize", "search", and for each plausible
	// candidate "reduce" and "check" (its validation), then "search"
	// again if the search goes on. It may be called from several
	// goroutines.
	Stage func(name string)
	// Log receives notices (uniform localization, flaky cases). Nil
	// discards.
	Log io.Writer
}

// MaxGenerations bounds Options.Generations; it is also the cap when a
// time budget is the budget (experiment.Options).
const MaxGenerations = 10_000_000

// Defaults are the tool's default settings, tuned on the examples and the
// public benchmark.
func Defaults() Options {
	return Options{
		Population:     40,
		Generations:    1000,
		MutationRate:   1,
		CrossoverRate:  0.5,
		Selection:      Tournament,
		TournamentSize: 2,
		Elitism:        0.1,
		Immigrants:     0.5,
		MaxEdits:       10,
		Seed:           1,
		Workers:        0,
		Operators:      mutate.Default(),
		Crossover:      crossover.OnePoint,
		CrossoverName:  "one-point",
		Weights:        fitness.DefaultWeights(),
		Formula:        localize.Ochiai,
		Reduce:         true,
		Alternatives:   DefaultAlternatives,
	}
}

// Book returns the Debugging Book's Repairer settings ("Repairing Code
// Automatically", Zeller et al., The Debugging Book): population 40, 100
// iterations, weights 0.99/0.01, one mutation per child, insert, swap and
// delete with equal probability, crossover always, truncation selection.
// The book's StatementMutator.swap replaces a statement by another of the
// program: that is the operator "replace" here ("swap" here exchanges two
// statements, which cannot repair middle()).
func Book() Options {
	o := Defaults()
	o.Population = 40
	o.Generations = 100
	o.MutationRate = 1
	o.CrossoverRate = 1
	o.Selection = Truncation
	o.Elitism = 0
	o.Immigrants = 0
	o.Weights = fitness.DefaultWeights()
	o.Operators = nil
	for _, name := range []string{"insert", "replace", "delete"} {
		op, _ := mutate.ByName(name)
		o.Operators = append(o.Operators, mutate.Weighted{Op: op, Weight: 1})
	}
	return o
}

// Validate reports options the search cannot use, as inputerr errors
// naming the flag.
func (o *Options) Validate() error {
	switch {
	case o.Population < 1 || o.Population > 1_000_000:
		return inputerr.New("--population must be from 1 to 1000000, got %d", o.Population)
	case o.Generations < 1 || o.Generations > MaxGenerations:
		return inputerr.New("--generations must be from 1 to %d, got %d", MaxGenerations, o.Generations)
	case o.Evaluations < 0:
		return inputerr.New("--evaluations must be >= 0, got %d", o.Evaluations)
	case o.TimeBudget < 0:
		return inputerr.New("--time-budget must be >= 0, got %v", o.TimeBudget)
	case !(o.MutationRate >= 0 && o.MutationRate <= 1):
		return inputerr.New("--mutation-rate must be from 0 to 1, got %v", o.MutationRate)
	case !(o.CrossoverRate >= 0 && o.CrossoverRate <= 1):
		return inputerr.New("--crossover-rate must be from 0 to 1, got %v", o.CrossoverRate)
	case o.Selection != Tournament && o.Selection != Truncation:
		return inputerr.New("--selection must be tournament or truncation, got %q", o.Selection)
	case o.TournamentSize < 1 || o.TournamentSize > o.Population:
		return inputerr.New("--tournament-size must be from 1 to the population (%d), got %d", o.Population, o.TournamentSize)
	case !(o.Elitism >= 0 && o.Elitism < 1):
		return inputerr.New("--elitism must be from 0 to below 1, got %v", o.Elitism)
	case !(o.Immigrants >= 0 && o.Immigrants <= 1):
		return inputerr.New("--immigrants must be from 0 to 1, got %v", o.Immigrants)
	case o.Elitism+o.Immigrants > 1:
		return inputerr.New("--elitism (%v) and --immigrants (%v) add up to more than the population", o.Elitism, o.Immigrants)
	case o.SearchTimeout < 0:
		return inputerr.New("--search-timeout must be >= 0, got %v", o.SearchTimeout)
	case o.MaxEdits < 1:
		return inputerr.New("--max-edits must be >= 1, got %d", o.MaxEdits)
	case o.Workers < 0 || o.Workers > 1024:
		return inputerr.New("--workers must be from 0 (all CPUs) to 1024, got %d", o.Workers)
	case len(o.Operators) == 0:
		return inputerr.New("--operators: no operator selected")
	case o.Crossover == nil:
		return inputerr.New("--crossover: none selected")
	case !(o.Alternatives >= 0 && o.Alternatives <= 1):
		return inputerr.New("--alternatives must be from 0 to 1, got %v", o.Alternatives)
	case o.GuardInputs < 0 || o.GuardInputs > 100_000:
		return inputerr.New("--guard-inputs must be from 0 to 100000, got %d", o.GuardInputs)
	case o.Formula.Score == nil:
		return inputerr.New("--localization: no formula selected")
	}
	return o.Weights.Validate()
}

// Progress is reported after each generation.
type Progress struct {
	Generation  int
	Best        float64
	Mean        float64
	Evaluations int     // distinct candidate programs evaluated so far
	PerSecond   float64 // evaluations per second so far
	CacheHits   int64
	Elapsed     time.Duration
	Found       int // plausible patches found so far
}

// stage announces a stage (Options.Stage).
func (o *Options) stage(name string) {
	if o.Stage != nil {
		o.Stage(name)
	}
}
