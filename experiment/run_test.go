package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/internal/inputerr"
	"repair/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

func requirePython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 on PATH")
	}
}

// outcome is what a trial found: the fields that must not depend on how,
// where or with what else it ran.
type outcome struct {
	Outcome                  string
	Evaluations, Generations int
	FirstFixGeneration       int
	FirstFixEvaluations      int
	PatchEdits, PatchLines   int
	Patch                    string
}

func outcomes(t *testing.T, paths ...string) map[string]outcome {
	t.Helper()
	res, err := ReadResults(paths...)
	if err != nil {
		t.Fatal(err)
	}
	if res.Duplicates != 0 || len(res.Torn) != 0 {
		t.Errorf("%v: %d duplicates, torn %v", paths, res.Duplicates, res.Torn)
	}
	out := map[string]outcome{}
	for _, r := range res.Records {
		out[r.ID] = outcome{r.Outcome, r.Evaluations, r.Generations, r.FirstFixGeneration,
			r.FirstFixEvaluations, r.PatchEdits, r.PatchLines, r.Patch}
	}
	return out
}

func lineCount(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}

func runPlan(t *testing.T, plan *Plan, opts RunOptions) *Summary {
	t.Helper()
	sum, err := Run(context.Background(), plan, opts)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestRunEndToEnd is the check of DESIGN §10 on testdata/plan.yaml (3 bugs
// × 2 populations × 2 weight settings × 3 seeds): 36 lines, a second run
// runs nothing, shards 1/2 and 2/2 together give the same trials and
// outcomes as the unsharded run, the outcomes do not depend on the number
// of workers, and the report's rates are those counted by hand.
func TestRunEndToEnd(t *testing.T) {
	requirePython(t)
	plan, err := Load("testdata/plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	all := t.TempDir()

	sum := runPlan(t, plan, RunOptions{Output: all, Version: "test"})
	file := filepath.Join(all, "results.jsonl")
	if sum.File != file || sum.Trials != 36 || sum.Ran != 36 || sum.Skipped != 0 || sum.Errors != 0 {
		t.Fatalf("first run: %+v", sum)
	}
	if n := lineCount(t, file); n != 36 {
		t.Fatalf("%d result lines, want 36", n)
	}
	want := outcomes(t, file)
	if len(want) != 36 {
		t.Fatalf("%d distinct trials, want 36", len(want))
	}
	var plausible, none int
	for _, o := range want {
		switch o.Outcome {
		case Plausible:
			plausible++
		case None:
			none++
		}
	}
	if plausible == 0 || none == 0 {
		t.Errorf("%d plausible, %d none: the plan should give both", plausible, none)
	}
	t.Logf("36 trials in %v: %d plausible, %d none", sum.Elapsed, plausible, none)

	t.Run("rerun runs nothing", func(t *testing.T) {
		before, _ := os.ReadFile(file)
		sum := runPlan(t, plan, RunOptions{Output: all})
		if sum.Ran != 0 || sum.Skipped != 36 {
			t.Errorf("second run: %+v, want nothing run", sum)
		}
		after, _ := os.ReadFile(file)
		if !bytes.Equal(before, after) {
			t.Errorf("the second run changed %s", file)
		}
	})

	t.Run("shards", func(t *testing.T) {
		dir := t.TempDir()
		total := 0
		for k := 1; k <= 2; k++ {
			sum := runPlan(t, plan, RunOptions{Output: dir, Shard: k, Shards: 2})
			if sum.File != filepath.Join(dir, fmt.Sprintf("results-%d-of-2.jsonl", k)) || sum.Ran != sum.Trials {
				t.Errorf("shard %d/2: %+v", k, sum)
			}
			total += sum.Ran
			t.Logf("shard %d/2: %d trials", k, sum.Ran)
		}
		if total != 36 {
			t.Errorf("the shards ran %d trials, want 36", total)
		}
		if diff := cmp.Diff(want, outcomes(t, dir)); diff != "" {
			t.Errorf("shards 1/2 + 2/2 differ from the unsharded run (-want +got):\n%s", diff)
		}
		// An unsharded run in the shards' directory has nothing to do.
		if sum := runPlan(t, plan, RunOptions{Output: dir}); sum.Ran != 0 {
			t.Errorf("unsharded run after the shards ran %d trials", sum.Ran)
		}
	})

	t.Run("one worker", func(t *testing.T) {
		dir := t.TempDir()
		runPlan(t, plan, RunOptions{Output: dir, Workers: 1})
		if diff := cmp.Diff(want, outcomes(t, dir)); diff != "" {
			t.Errorf("one worker differs from two (-want +got):\n%s", diff)
		}
	})

	t.Run("trial alone", func(t *testing.T) {
		// Rerun alone the first plausible and the first none trial.
		picked := map[string]bool{}
		seen := map[string]bool{}
		for _, tr := range plan.Trials() {
			if o := want[tr.ID].Outcome; !seen[o] {
				seen[o] = true
				picked[tr.ID] = true
			}
		}
		for id := range picked {
			dir := t.TempDir()
			sum := runPlan(t, plan, RunOptions{Output: dir, Filter: func(tr Trial) bool { return tr.ID == id }})
			if sum.Ran != 1 {
				t.Fatalf("ran %d trials, want 1", sum.Ran)
			}
			got := outcomes(t, dir)
			if diff := cmp.Diff(want[id], got[id]); diff != "" {
				t.Errorf("trial %s alone differs (-want +got):\n%s", id, diff)
			}
		}
	})

	t.Run("report matches a hand count", func(t *testing.T) {
		res, err := ReadResults(file)
		if err != nil {
			t.Fatal(err)
		}
		type count struct{ trials, plausible int }
		hand := map[string]count{}
		add := func(key string, ok bool) {
			c := hand[key]
			c.trials++
			if ok {
				c.plausible++
			}
			hand[key] = c
		}
		for _, r := range res.Records {
			ok := r.Outcome == Plausible
			add("all/all", ok)
			add("bug/"+r.Bug, ok)
			add(fmt.Sprintf("population/%v", r.Parameters["population"]), ok)
			add(fmt.Sprintf("weight_failing/%v", r.Parameters["weight_failing"]), ok)
			add(fmt.Sprintf("configuration/population=%v weight_failing=%v", r.Parameters["population"], r.Parameters["weight_failing"]), ok)
		}
		rep := NewReport(res)
		got := map[string]count{"all/all": {rep.All.Trials, rep.All.Plausible}}
		for _, tab := range rep.Tables {
			for _, row := range tab.Rows {
				got[tab.By+"/"+row.Value] = count{row.Trials, row.Plausible}
				if want := float64(row.Plausible) / float64(row.Trials); row.Rate != want {
					t.Errorf("%s=%s: rate %v, want %v", tab.By, row.Value, row.Rate, want)
				}
			}
		}
		if diff := cmp.Diff(hand, got, cmp.AllowUnexported(count{})); diff != "" {
			t.Errorf("report mismatch with the hand count (-want +got):\n%s", diff)
		}
		keys := make([]string, 0, len(hand))
		for k := range hand {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%-45s %2d/%2d", k, hand[k].plausible, hand[k].trials)
		}
	})
}

// TestRunInterrupted cancels a run after a few trials: the trials that
// finished have their line, the others none, and the next run does the
// rest without running any trial twice.
func TestRunInterrupted(t *testing.T) {
	requirePython(t)
	plan, err := Load("testdata/plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := Run(ctx, plan, RunOptions{Output: dir, Progress: func(p Progress) {
		if p.Done == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	file := filepath.Join(dir, "results.jsonl")
	first := lineCount(t, file)
	if first < 5 || first >= 36 || sum.Ran != first {
		t.Fatalf("interrupted run wrote %d lines (summary %+v), want from 5 to 35", first, sum)
	}
	sum = runPlan(t, plan, RunOptions{Output: dir})
	if sum.Skipped != first || sum.Ran != 36-first {
		t.Errorf("resumed run: %+v, want %d skipped, %d run", sum, first, 36-first)
	}
	if n := lineCount(t, file); n != 36 {
		t.Errorf("%d lines after resuming, want 36", n)
	}
	outcomes(t, file) // no duplicates
}

// TestRunGrownPlan checks that a plan with one more parameter value runs
// only the new trials.
func TestRunGrownPlan(t *testing.T) {
	requirePython(t)
	dir := t.TempDir()
	small, err := Parse("plan.yaml", "testdata", []byte("bugs: [bugs/largest]\nseeds: 2\nparameters: {population: [10]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := runPlan(t, small, RunOptions{Output: dir}); sum.Ran != 2 {
		t.Fatalf("small plan ran %d trials, want 2", sum.Ran)
	}
	grown, err := Parse("plan.yaml", "testdata", []byte("bugs: [bugs/largest]\nseeds: 2\nparameters: {population: [10, 20], max_edits: 10}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := runPlan(t, grown, RunOptions{Output: dir}); sum.Ran != 2 || sum.Skipped != 2 {
		t.Errorf("grown plan: %+v, want 2 run and 2 skipped (max_edits 10 is the default)", sum)
	}
}

// TestRunNothingToRepair checks that a bug whose original passes every
// case stops the run before any of its trials.
func TestRunNothingToRepair(t *testing.T) {
	requirePython(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "fine"), 0o755)
	os.WriteFile(filepath.Join(dir, "fine", "fine.py"), []byte("def f(x):\n    return x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "fine", "tests.json"), []byte(`{"function": "f", "tests": [{"args": [1], "expected": 1}]}`), 0o644)
	plan, err := Parse("plan.yaml", dir, []byte("bugs: [fine]\nseeds: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	_, err = Run(context.Background(), plan, RunOptions{Output: out})
	want := "fine: " + filepath.Join(dir, "fine", "tests.json") + ": nothing to repair: all 1 cases pass"
	if err == nil || err.Error() != want || !inputerr.Is(err) {
		t.Errorf("Run = %v, want the inputerr %q", err, want)
	}
	if res, err := ReadResults(out); err != nil || len(res.Records) != 0 {
		t.Errorf("results after a refused bug: %v, %v", res, err)
	}
}
