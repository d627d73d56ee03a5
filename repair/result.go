// The result of a repair run: its fixes, counters and history.

package repair

import (
	"time"

	"repair/fitness"
	"repair/guard"
	"repair/localize"
	"repair/program"
)

// Fix is a plausible patch: it passes every case.
type Fix struct {
	// Patch is the reduced patch (the edits that matter), in order.
	Patch program.Patch `json:"edits"`
	// Unreduced is the patch as the search found it (applied edits only).
	Unreduced program.Patch `json:"unreduced"`
	// Source is the repaired program and Diff its unified diff.
	Source []byte `json:"-"`
	Diff   string `json:"diff"`
	// Describe says each edit in words.
	Describe []string `json:"describe"`
	// Generation and Evaluations are when the search first found it.
	Generation  int `json:"generation"`
	Evaluations int `json:"evaluations"`
	// Injections are, with Options.Lenient, the values injected in the
	// validation run, per case (nil for a case without any).
	Injections [][]fitness.Injection `json:"injections,omitempty"`
	// Guard is what the overfitting guard saw of the fix: how often it
	// behaves differently from the original on generated inputs (nil
	// without Options.Guard).
	Guard *guard.Report `json:"guard,omitempty"`
	// SuitePassed counts the cases the fix passed in its validation, a
	// run of the whole suite (the search ran only the cases that reach
	// what a candidate changes): all but the original's flaky ones.
	SuitePassed int `json:"suite_passed"`
	// Rank is what the ranking of the run's fixes saw of it (rankFixes).
	Rank *Rank `json:"rank,omitempty"`
	// Seconds is when it was delivered (found, reduced, validated and
	// checked), from the start of Run.
	Seconds float64 `json:"seconds"`
}

// Suspect reports whether the fix, though it passes the suite, is one a
// developer would doubt: the guard saw it break an input the original
// handled, or it deletes or weakens a check of the code (Rank.DeletesCheck:
// a raise, an assert, an if or a checking call). Deleting code to make a
// failing test pass is the commonest way a search overfits (Qi et al.,
// "An Analysis of Patch Plausibility and Correctness for
// Generate-and-Validate Patch Generation Systems", ISSTA 2015; Tan et
// al., "Anti-patterns in Search-Based Program Repair", FSE 2016). The
// fixes are ranked so that the first is the least suspect: when it is
// suspect, so is every fix found.
func (f *Fix) Suspect() bool {
	return f.Guard.Suspect() || f.Rank != nil && f.Rank.DeletesCheck
}

// Generation is a summary of one generation, for reports.
type Generation struct {
	Generation  int     `json:"generation"`
	Best        float64 `json:"best"`
	Mean        float64 `json:"mean"`
	Evaluations int     `json:"evaluations"`
	Seconds     float64 `json:"seconds"`
}

// Result is what a repair run did.
type Result struct {
	// Fixes are the plausible patches found, the best first (rankFixes:
	// the overfitting guard, no check deleted, names consistent with the
	// code around, fewest changed tokens). After the first one the search
	// goes on for Options.Alternatives of the remaining budget (longer
	// when the guard finds it suspect, until a budget runs out with
	// Options.All).
	Fixes []Fix
	// Why says why Fixes[0] beats each of the others ("" with one fix).
	Why string
	// FirstFix is when the first fix was delivered, from the start of Run
	// (0: none): what the run took before the search went on for
	// alternatives.
	FirstFix time.Duration
	// Best is the fittest candidate when no fix was found.
	Best     program.Patch
	BestDiff string
	// BestFitness is the best fitness seen (1 when a fix was found).
	BestFitness float64
	// Flaky lists the cases whose verdict changed when a program ran
	// again: a plausible candidate's validation (which then runs it three
	// times in all and judges it on what held every time: a case passes
	// only if it passed every run), or the original's re-runs.
	Flaky []int
	// FlakyOriginal lists those of Flaky whose verdict changed on the
	// original's runs too (it runs again, three times in all, once: when
	// Options.CheckOriginal asks, when a plausible candidate fails its
	// validation or a test under the check of delivered fixes, or when a
	// search without a fix made progress): they are left out of the
	// fitness (every candidate counts them as passed, from the search's
	// start or its next generation) and no fix need pass them.
	FlakyOriginal []int
	// Rejected counts the plausible candidates whose validation failed
	// them: twice alike, or on what held in every run when their verdicts
	// changed. The search's runs passed them, the final validation's did
	// not (with --engine hybrid: gpython passed them, CPython did not).
	Rejected int
	// Refused says, of each fix the check of delivered fixes refused
	// (Options.Verify), the test it failed there: such a fix passed its
	// tests only by what the code under test did to them.
	Refused []string
	// CheckedVia counts, over the runs of delivered fixes under the check,
	// how each test's verdict was reached (fitness.Result.Via: the test
	// code and the code under test in separate processes, or in-process
	// and why).
	CheckedVia map[string]int
	// Ranking is the fault localization of the original program.
	Ranking localize.Ranking
	// Suite is the suite the search ran: the one Run was given, less the
	// cases Options.CheckOriginal left out. Original, Flaky,
	// FlakyOriginal and each Fix's Injections are indexed by its cases.
	Suite *fitness.Suite
	// LeftOut are the names of the tests that skip themselves at run
	// time, left out of the search and the final validation: those
	// Options.CheckOriginal leaves out (plain pytest skips them), or in a
	// suite of several files those the tool's own run skips; in the order
	// of the suite Run was given.
	LeftOut []string
	// FailingElsewhere are the names of the failing tests of a suite of
	// several files that no edit of the target can reach (they run none of
	// its functions and their errors do not go through it: a socket the
	// sandbox refuses, another module's bug), left out of the search and
	// the final validation as LeftOut's are.
	FailingElsewhere []string
	// Original is the outcome of the original program on Suite.
	Original *fitness.Outcome
	// Counters.
	Evaluations int
	Generations int
	// Restarts counts the times half the population started over after
	// restartAfter generations without a better best candidate.
	Restarts int
	Cache    fitness.CacheStats
	// CasesRun and CasesSkipped count the cases the search's candidates
	// ran and those test selection let them skip (the original's
	// verdicts stood for them).
	CasesRun, CasesSkipped int64
	History                []Generation
	// StopReason says why the search stopped: "found", "generations",
	// "evaluations", "time budget", "exhausted" (nothing new to try),
	// "interrupted".
	StopReason string
	// Durations of the stages.
	LocalizeTime, SearchTime, ReduceTime, GuardTime, VerifyTime time.Duration
	// SearchTimeout is the cap of case timeouts during the search.
	SearchTimeout time.Duration
}
