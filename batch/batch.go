// Package batch repairs many submissions of one exercise against one
// suite (a teacher's class): each submission is classified (it does not
// compile, it misses the function the suite calls, it already passes) or
// repaired within its own time budget, all of them on one engine pool.
//
// Every submission is run as the same module (Options.Module), so that a
// pytest-style test file that imports "solution" tests a submission saved
// as alice.py without renaming it, and so that one engine serves them all.
package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"repair/donors"
	"repair/fitness"
	"repair/guard"
	"repair/internal/inputerr"
	"repair/mutate"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
	"repair/session"
)

// Statuses of a submission.
const (
	Repaired    = "repaired"         // a patch that passes every case was found
	Suspect     = "suspect patch"    // every patch found breaks an input the submission handled, or deletes a check
	Passes      = "passes"           // it passes every case as it is
	Untrusted   = "untrusted"        // it passes a test file, but uses names that can forge its verdicts
	Apart       = "fails apart"      // it passes beside the tests, not in a process apart from them: never a donor, not repaired
	NotRepaired = "not repaired"     // no patch within its budget
	NoCompile   = "does not compile" // a syntax error
	Misnamed    = "misnamed"         // it lacks the function the suite calls
	Failed      = "error"            // the tool could not run it (Detail says why)
)

// Result is what happened to one submission.
type Result struct {
	Submission string `json:"submission"`
	Status     string `json:"status"`
	// Detail says why a submission did not compile, what it misses, what
	// went wrong, or why a suspect patch is no repair when not for the
	// guard (it deletes a check).
	Detail string `json:"detail,omitempty"`
	// Passed of Cases the submission passed as handed in.
	Passed int `json:"passed"`
	Cases  int `json:"cases"`
	// Patch is the unified diff of a repair (paths as the submission's),
	// Describe its edits in words.
	Patch    string   `json:"patch,omitempty"`
	Describe []string `json:"describe,omitempty"`
	// Insertions and Deletions are the lines the patch adds and removes,
	// as git diff --stat counts them: a size a reader sees (one edit may
	// paste a block).
	Insertions int `json:"insertions,omitempty"`
	Deletions  int `json:"deletions,omitempty"`
	// Seconds is the time spent on the submission, Evaluations the
	// candidates its search ran.
	Seconds     float64 `json:"seconds"`
	Evaluations int     `json:"evaluations"`
	// Donors are the passing submissions whose code the repair could
	// use, most similar first; only with Options.ShowDonors (a student's
	// feedback names no classmate's file by default).
	Donors []string `json:"donors,omitempty"`
	// Guard is what the overfitting guard saw of the patch (package
	// guard): how often it changes the submission's behaviour next to the
	// cases it passed.
	Guard *guard.Report `json:"guard,omitempty"`
	// Uses lists, for a test-file suite, the names of the deny list
	// (mutate.Denied) the submission uses: code under test can forge a
	// test file's verdicts with them, so such a submission is never
	// graded as passing (Untrusted) nor used as a donor.
	Uses []string `json:"uses,omitempty"`
	// Graded says, for a test-file suite, how the grade was reached:
	// "separate processes" (the tests ran in a process of their own, the
	// submission in another, where it cannot reach their verdicts), or
	// "in-process: " and why not.
	Graded string `json:"graded,omitempty"`
}

// Options configure Run.
type Options struct {
	// Suite is the exercise's suite; Module the module name submissions
	// are imported as ("solution").
	Suite  *fitness.Suite
	Module string
	// Repair are the search's options for each submission; its
	// TimeBudget is the per-submission budget. Workers is ignored: each
	// search runs one candidate at a time and Workers searches run at
	// once.
	Repair repair.Options
	// Workers is the engine pool's size and the number of submissions
	// repaired at once (default 1).
	Workers int
	// Config selects the engine (Engine, Isolation, Python); its Workers
	// and GuardInputs are this Options'. Stderr gets the engine's
	// notices (nil: none).
	Config session.Config
	Stderr io.Writer
	// Path names a submission in results and patches (default: as given).
	Path func(string) string
	// Progress, when not nil, gets one line per finished submission.
	Progress io.Writer
	// Donors, when > 0, makes the submissions that pass donors of the
	// others' repairs: the Donors most similar to each one.
	Donors int
	// ShowDonors names the donors' files in the results (Result.Donors,
	// and the edits that copy their code); else an edit says it copies
	// "classmate-N", N the donor's rank for that submission.
	ShowDonors bool
	// GuardInputs, when > 0, checks each patch with the overfitting
	// guard on that many inputs generated from the suite (one engine pool
	// for them, shared by every submission).
	GuardInputs int
}

// Run repairs every submission, in parallel on one engine pool. Results
// are in the order of subs. The error is ctx.Err() or a failure of the
// engine; a submission that cannot be read or run is a Result with
// Status Failed.
func Run(ctx context.Context, subs []string, opts Options) ([]Result, error) {
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.Path == nil {
		opts.Path = func(p string) string { return p }
	}
	dir, err := os.MkdirTemp("", "repair-batch-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	target := filepath.Join(dir, opts.Module+".py")
	// The engine preloads what the first submission imports; any
	// submission serves.
	first := []byte("")
	for _, s := range subs {
		if data, err := os.ReadFile(s); err == nil {
			first = data
			break
		}
	}
	if err := os.WriteFile(target, first, 0o644); err != nil {
		return nil, err
	}
	// One session for the batch: its engine, and the guard's and the
	// check's, each opened once and shared by the submissions.
	cfg := opts.Config
	cfg.Workers, cfg.GuardInputs = opts.Workers, opts.GuardInputs
	ses, err := session.NewShared(&cfg, &session.Input{Suite: opts.Suite, Path: target, Paths: []string{target}})
	if err != nil {
		return nil, err
	}
	defer ses.Close()
	eng, err := ses.Open(ctx, opts.Stderr)
	if err != nil {
		return nil, err
	}
	// Every grade of a passing submission and every repair's fixes are
	// checked against a test file by the check's engine (the tests in a
	// process of their own, the submission in another).
	ses.Hooks(ctx, &opts.Repair, nil)

	// First every submission as handed in, then the repairs, which may
	// take the passing ones as donors.
	results := make([]Result, len(subs))
	progs := make([]*program.Program, len(subs))
	if err := each(ctx, opts.Workers, len(subs), func(ctx context.Context, i int) error {
		var err error
		results[i], progs[i], err = classify(ctx, eng, subs[i], opts)
		return err
	}); err != nil {
		return results, err
	}
	var passing []string
	for i, r := range results {
		if r.Status == Passes {
			passing = append(passing, subs[i])
		}
	}
	var mu sync.Mutex
	err = each(ctx, opts.Workers, len(subs), func(ctx context.Context, i int) error {
		r := &results[i]
		if r.Status == "" {
			if err := repairOne(ctx, eng, subs[i], progs[i], passing, r, opts); err != nil {
				return err
			}
		}
		if opts.Progress != nil {
			mu.Lock()
			fmt.Fprintf(opts.Progress, "batch: %s: %s%s (%.1fs)\n", r.Submission, r.Status, detailSuffix(*r), r.Seconds)
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return results, err
	}
	return results, ctx.Err()
}

// each runs f for 0..n-1, workers at once.
func each(ctx context.Context, workers, n int, f func(context.Context, int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i := 0; i < n; i++ {
		g.Go(func() error { return f(gctx, i) })
	}
	return g.Wait()
}

// DiffStat counts the lines a unified diff adds and removes, as git diff
// --stat does (the file headers are not counted).
func DiffStat(diff string) (insertions, deletions int) {
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+"):
			insertions++
		case strings.HasPrefix(l, "-"):
			deletions++
		}
	}
	return insertions, deletions
}

// Size says a patch's size as git diff --shortstat does: "1 insertion(+),
// 1 deletion(-)".
func Size(insertions, deletions int) string {
	var parts []string
	if insertions > 0 || deletions == 0 {
		parts = append(parts, fmt.Sprintf("%d %s(+)", insertions, noun(insertions, "insertion")))
	}
	if deletions > 0 {
		parts = append(parts, fmt.Sprintf("%d %s(-)", deletions, noun(deletions, "deletion")))
	}
	return strings.Join(parts, ", ")
}

func noun(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}

func detailSuffix(r Result) string {
	switch r.Status {
	case Repaired:
		return ": " + Size(r.Insertions, r.Deletions)
	case Suspect:
		if r.Detail != "" {
			return fmt.Sprintf(": %s, %s", Size(r.Insertions, r.Deletions), r.Detail)
		}
		return fmt.Sprintf(": %s, %s", Size(r.Insertions, r.Deletions), r.Guard)
	case NotRepaired:
		return fmt.Sprintf(": passes %d of %d cases", r.Passed, r.Cases)
	}
	if r.Detail != "" {
		return ": " + r.Detail
	}
	return ""
}

// classify runs a submission as handed in: its Result has a Status
// unless it needs a repair (then its program is returned too). The error
// is a failure of the engine or ctx's.
func classify(ctx context.Context, eng sandbox.Engine, path string, opts Options) (Result, *program.Program, error) {
	start := time.Now()
	r := Result{Submission: opts.Path(path), Cases: len(opts.Suite.Cases)}
	defer func() { r.Seconds += time.Since(start).Seconds() }()
	prog, err := program.ParseFile(path)
	if err != nil {
		r.Status, r.Detail = NoCompile, err.Error()
		if !inputerr.Is(err) {
			r.Status = Failed
		}
		return r, nil, nil
	}
	prog.Path = opts.Path(path)
	if err := opts.Suite.CheckTarget(path, prog.Scopes[0].Names); err != nil {
		r.Status, r.Detail = Misnamed, err.Error()
		return r, nil, nil
	}
	if len(opts.Suite.TestSource) > 0 {
		// The test file's asserts run next to the submission.
		r.Uses = mutate.DeniedNames(string(prog.Src))
	}
	orig, err := eng.Run(ctx, prog.Src, sandbox.RunOptions{})
	if err != nil {
		return r, nil, err
	}
	if orig.CompileError != "" {
		r.Status, r.Detail = NoCompile, orig.CompileError
		return r, nil, nil
	}
	for _, res := range orig.Results {
		if res.Verdict == fitness.Passed {
			r.Passed++
		}
	}
	if r.Passed == r.Cases && opts.Repair.Verify != nil {
		// Graded where the submission cannot reach the tests' verdicts.
		run, _, err := opts.Repair.Verify(ctx)
		if err == nil && run != nil {
			o, err := run(ctx, prog.Src, sandbox.RunOptions{})
			if err != nil {
				return r, nil, err
			}
			graded(&r, o)
			if r.Passed < r.Cases {
				// Its own code reached the tests' verdicts, or it needs
				// what cannot cross: a search in-process would have
				// nothing to repair.
				r.Status = Apart
				r.Detail = fmt.Sprintf("passes the %d cases when it runs beside the tests, %d in a process apart from them (%s): not graded as passing, never a donor", r.Cases, r.Passed, r.Detail)
				return r, nil, nil
			}
		}
	}
	if r.Passed == r.Cases {
		r.Status = Passes
		if len(r.Uses) > 0 && !strings.HasPrefix(r.Graded, sandbox.ViaSplit) {
			r.Status = Untrusted
			r.Detail = fmt.Sprintf("passes the %d cases, but uses %s: with these, code under test can forge a test file's verdicts; not graded as passing, never a donor", r.Cases, strings.Join(r.Uses, ", "))
		}
		return r, nil, nil
	}
	return r, prog, nil
}

// graded sets r's count of passed cases, and how they were reached, from
// the check's outcome o.
func graded(r *Result, o *fitness.Outcome) {
	r.Passed = 0
	why := ""
	for _, res := range o.Results {
		if res.Verdict == fitness.Passed {
			r.Passed++
		}
		if res.Via != sandbox.ViaSplit && why == "" {
			why = res.Via
		}
		if res.Verdict != fitness.Passed && r.Detail == "" {
			r.Detail = res.Detail
		}
	}
	r.Graded = sandbox.ViaSplit
	if why != "" {
		r.Graded = why
	}
}

// repairOne searches a patch for a submission that fails, with the
// passing submissions most similar to it as donors.
func repairOne(ctx context.Context, eng sandbox.Engine, path string, prog *program.Program, passing []string, r *Result, opts Options) error {
	start := time.Now()
	defer func() { r.Seconds += time.Since(start).Seconds() }()
	if opts.Donors > 0 && len(passing) > 0 {
		picked, _ := donors.Pick(prog.Src, passing, opts.Donors)
		if len(picked) > 0 {
			dp := make([]string, len(picked))
			ds := make([][]byte, len(picked))
			for i, d := range picked {
				dp[i], ds[i] = opts.Path(d.Path), d.Src
				if opts.ShowDonors {
					r.Donors = append(r.Donors, dp[i])
				} else {
					dp[i] = fmt.Sprintf("classmate-%d", i+1)
				}
			}
			if p, err := program.ParseWithDonors(prog.Path, prog.Src, dp, ds); err == nil {
				prog = p
			}
		}
	}
	o := opts.Repair
	o.Workers = 1
	o.Log, o.Progress = nil, nil
	res, err := repair.Run(ctx, prog, opts.Suite, eng.Run, o)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, sandbox.ErrClosed) {
			return err
		}
		var un *repair.Unreached
		if errors.As(err, &un) {
			// The suite reaches the other submissions: this one lacks
			// what it imports or calls.
			r.Status, r.Detail = Misnamed, "the failing tests never reach it: "+un.Why
			return nil
		}
		r.Status, r.Detail = Failed, err.Error()
		return nil
	}
	r.Evaluations = res.Evaluations
	if len(res.Fixes) == 0 {
		r.Status = NotRepaired
		return nil
	}
	fix := res.Fixes[0]
	r.Status, r.Patch, r.Describe, r.Guard = Repaired, fix.Diff, fix.Describe, fix.Guard
	r.Insertions, r.Deletions = DiffStat(fix.Diff)
	switch {
	case fix.Guard.Suspect():
		// Passing the suite is not enough: the guard saw the patch break
		// an input next to one the submission passes.
		r.Status = Suspect
	case fix.Suspect():
		// Or it passes by deleting what checks the submission's input, and
		// so does every fix found (repair.Fix.Suspect).
		r.Status, r.Detail = Suspect, deletesCheck
	}
	return nil
}

// deletesCheck is the Detail of a Suspect result whose patch deletes or
// weakens a check of the submission rather than breaking an input.
const deletesCheck = "it deletes or weakens a check of the code (a raise, an assert, an if or a checking call), as every patch found does"

// suspectWhy says why a Suspect result's patch is no repair.
func suspectWhy(r Result) string {
	if r.Detail != "" {
		return r.Detail
	}
	return fmt.Sprintf("it breaks inputs the submission handled (%s)", r.Guard)
}
