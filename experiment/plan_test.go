package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/internal/inputerr"
)

// parseTestPlan parses src as the plan testdata/plan.yaml would be.
func parseTestPlan(t *testing.T, src string) (*Plan, error) {
	t.Helper()
	return Parse("plan.yaml", "testdata", []byte(src))
}

func TestParseErrors(t *testing.T) {
	const known = "preset, population, generations, evaluations, time_budget, mutation_rate, crossover_rate, crossover, selection, tournament_size, elitism, max_edits, immigrants, alternatives, search_timeout, operators, weighting, weight_passing, weight_failing, localization, no_reduce, all"
	tests := []struct {
		name, src, want string
	}{
		{"unknown parameter", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  populaton: [10]\n",
			`plan.yaml:4: parameters: unknown parameter "populaton" (known: ` + known + `)`},
		{"dashed parameter", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  weight-failing: [0.1]\n",
			`plan.yaml:4: parameters: unknown parameter "weight-failing" (write weight_failing: plan keys spell the flag with '_')`},
		{"unparsable value", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  population: [10, ten]\n",
			`plan.yaml:4: parameters.population[1]: want an integer, got "ten"`},
		{"unparsable float", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  weight_failing: 0.1x\n",
			`plan.yaml:4: parameters.weight_failing: want a number, got "0.1x"`},
		{"unknown operator", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  operators: [default, 'delete,nope']\n",
			`plan.yaml:4: parameters.operators[1]: unknown operator "nope" (see 'repair operators')`},
		{"combination refused", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  population: [4]\n  tournament_size: 5\n",
			`plan.yaml:5: parameters: combination population=4 tournament_size=5: --tournament-size must be from 1 to the population (4), got 5`},
		{"value twice", "bugs: [bugs/*]\nseeds: 3\nparameters: {population: [10, 010]}\n",
			`plan.yaml:3: parameters.population[1]: value 10 is listed twice`},
		{"seed parameter", "bugs: [bugs/*]\nseeds: 3\nparameters: {seed: [1]}\n",
			`plan.yaml:3: parameters: "seed" is not a plan parameter: seeds come from the plan's "seeds"`},
		{"workers parameter", "bugs: [bugs/*]\nseeds: 3\nparameters: {workers: [1]}\n",
			`plan.yaml:3: parameters: "workers" is not a plan parameter: set "workers" at the top of the plan or --workers (the results do not depend on it)`},
		{"empty values", "bugs: [bugs/*]\nseeds: 3\nparameters: {population: []}\n",
			`plan.yaml:3: parameters.population: the list of values is empty`},
		{"null value", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  population:\n",
			`plan.yaml:4: parameters.population: must be a single value`},
		{"budget and parameter", "bugs: [bugs/*]\nseeds: 3\nbudget: {time: 10s}\nparameters: {time_budget: [1s]}\n",
			`plan.yaml:4: parameters.time_budget: already set by budget.time (line 3)`},
		{"budget unknown", "bugs: [bugs/*]\nseeds: 3\nbudget: {seconds: 10}\n",
			`plan.yaml:3: budget: unknown key "seconds" (known: time, evaluations, generations)`},
		{"budget bad", "bugs: [bugs/*]\nseeds: 3\nbudget:\n  evaluations: lots\n",
			`plan.yaml:4: budget.evaluations: want an integer, got "lots"`},
		{"grid list item", "bugs: [bugs/*]\nseeds: 3\nparameters:\n  - {population: [10]}\n  - 7\n",
			`plan.yaml:5: parameters[1]: must be a mapping from parameter names to a value or a list of values`},
		{"no folder", "bugs: [nowhere/*]\nseeds: 3\n",
			`plan.yaml:1: bugs[0]: "nowhere/*" matches no folder`},
		{"folder without suite", "bugs:\n  - bugs/*\n  - .\nseeds: 3\n",
			`plan.yaml:3: bugs[1]: .: no suite in the folder (want tests.json, tests.jsonl or a test_*.py)`},
		{"pair without suite", "bugs: [{tests: bugs/nope.json}]\nseeds: 1\n",
			`plan.yaml:1: bugs[0]: testdata/bugs/nope.json: no such file`},
		{"pair that does not fit", "bugs: [{tests: bugs/middle/tests.json, target: bugs/largest/largest.py}]\nseeds: 1\n",
			`plan.yaml:1: bugs[0]: testdata/bugs/middle/tests.json: function: "middle" is not defined in largest.py`},
		{"pair unknown key", "bugs:\n  - tests: bugs/middle/tests.json\n    program: x.py\nseeds: 1\n",
			`plan.yaml:3: bugs[0]: unknown key "program" (known: tests, target, name)`},
		{"bug twice", "bugs: [bugs/*, bugs/middle]\nseeds: 1\n",
			`plan.yaml:1: bugs[1]: bug "bugs/middle" is already listed by bugs[0] (line 1)`},
		{"no bugs", "seeds: 1\n",
			`plan.yaml:1: missing "bugs" (a list of folder globs or {tests, target} pairs)`},
		{"bugs not a list", "bugs: bugs/*\nseeds: 1\n",
			`plan.yaml:1: bugs: must be a list of folder globs or {tests, target} pairs`},
		{"no seeds", "bugs: [bugs/*]\n",
			`plan.yaml:1: missing "seeds" (a count such as 10, or a list of seeds)`},
		{"seeds zero", "bugs: [bugs/*]\nseeds: 0\n",
			`plan.yaml:2: seeds: the count must be from 1 to 1000000, got 0`},
		{"seeds twice", "bugs: [bugs/*]\nseeds: [1, 1]\n",
			`plan.yaml:2: seeds[1]: seed 1 is listed twice`},
		{"seeds negative", "bugs: [bugs/*]\nseeds: [-1]\n",
			`plan.yaml:2: seeds[0]: want a seed (an integer >= 0), got "-1"`},
		{"unknown key", "bugs: [bugs/*]\nseed: 3\n",
			`plan.yaml:2: unknown key "seed" (known: bugs, seeds, budget, parameters, output, engine, sandbox, python, workers, guard, check)`},
		{"key twice", "bugs: [bugs/*]\nseeds: 3\nseeds: 4\n",
			`plan.yaml:3: seeds: given twice`},
		{"engine", "bugs: [bugs/*]\nseeds: 3\nengine: pypy\n",
			`plan.yaml:3: engine: must be one of auto, cpython, gpython, hybrid, got "pypy"`},
		{"sandbox", "bugs: [bugs/*]\nseeds: 3\nsandbox: tight\n",
			`plan.yaml:3: sandbox: must be auto, strict or none, got "tight"`},
		{"workers", "bugs: [bugs/*]\nseeds: 3\nworkers: -2\n",
			`plan.yaml:3: workers: must be from 0 (one per CPU) to 1024, got -2`},
		{"guard", "bugs: [bugs/*]\nseeds: 3\nguard: sometimes\n",
			`plan.yaml:3: guard: want true or false, got "sometimes"`},
		{"check", "bugs: [bugs/*]\nseeds: 3\ncheck: [false]\n",
			`plan.yaml:3: check: must be a single value`},
		{"syntax", "bugs: [bugs/*\nseeds: 3\n",
			`plan.yaml:1: did not find expected ',' or ']'`},
		{"not a mapping", "- a\n- b\n",
			`plan.yaml:1: a plan is a mapping with keys bugs, seeds, budget, parameters, output, engine, sandbox, python, workers, guard, check`},
		{"json unknown parameter", "{\"bugs\": [\"bugs/*\"],\n \"seeds\": 2,\n \"parameters\": {\"pop\": [10]}}\n",
			`plan.yaml:3: parameters: unknown parameter "pop" (known: ` + known + `)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTestPlan(t, tt.src)
			if err == nil {
				t.Fatalf("Parse succeeded, want %q", tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error mismatch:\n got %s\nwant %s", got, tt.want)
			}
			if !inputerr.Is(err) {
				t.Errorf("%v is not an inputerr (exit code 2)", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is not one line", err)
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		bugs    []string
		seeds   []uint64
		configs []Values // only the keys listed are compared
		varied  []string
	}{
		{
			name:    "grid",
			src:     "bugs: [bugs/*]\nseeds: 3\nbudget: {evaluations: 40}\nparameters:\n  population: [10, 20]\n  weight_failing: [0.01, 0.5]\n",
			bugs:    []string{"bugs/count_pos", "bugs/largest", "bugs/middle"},
			seeds:   []uint64{1, 2, 3},
			configs: []Values{{"population": "10", "weight_failing": "0.01", "evaluations": "40"}, {"population": "10", "weight_failing": "0.5", "evaluations": "40"}, {"population": "20", "weight_failing": "0.01", "evaluations": "40"}, {"population": "20", "weight_failing": "0.5", "evaluations": "40"}},
			varied:  []string{"population", "weight_failing"},
		},
		{
			name: "union of grids without duplicates",
			src: `bugs: [bugs/middle, {tests: bugs/largest/tests.json, name: biggest}]
seeds: [7, 3]
parameters:
  - {population: [10, 20], weight_passing: 0.99, weight_failing: 0.01}
  - {weighting: absolute, weight_passing: 1, weight_failing: 10}
  - {population: 10, weight_failing: 0.01}
`,
			bugs:  []string{"bugs/middle", "biggest"},
			seeds: []uint64{7, 3},
			configs: []Values{
				{"population": "10", "weighting": "relative", "weight_failing": "0.01"},
				{"population": "20", "weighting": "relative", "weight_failing": "0.01"},
				{"population": "40", "weighting": "absolute", "weight_failing": "10"},
			},
			varied: []string{"population", "weighting", "weight_passing", "weight_failing"},
		},
		{
			name:    "defaults",
			src:     "bugs: [bugs/largest]\nseeds: 1\n",
			bugs:    []string{"bugs/largest"},
			seeds:   []uint64{1},
			configs: []Values{{"population": "40", "operators": "default", "time_budget": "0s", "preset": ""}},
		},
		{
			name:    "preset",
			src:     "bugs: [bugs/largest]\nseeds: 1\nparameters: {preset: book, population: [20]}\n",
			bugs:    []string{"bugs/largest"},
			seeds:   []uint64{1},
			configs: []Values{{"preset": "book", "population": "20", "selection": "truncation", "operators": "insert,replace,delete"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := parseTestPlan(t, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			var bugs []string
			for _, b := range plan.Bugs {
				bugs = append(bugs, b.Name)
			}
			if diff := cmp.Diff(tt.bugs, bugs); diff != "" {
				t.Errorf("bugs mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.seeds, plan.Seeds); diff != "" {
				t.Errorf("seeds mismatch (-want +got):\n%s", diff)
			}
			var configs []Values
			for i, c := range plan.Configs {
				if len(c) != len(Params) {
					t.Errorf("config %d has %d values, want every parameter's", i, len(c))
				}
				got := Values{}
				if i < len(tt.configs) {
					for k := range tt.configs[i] {
						got[k] = c[k]
					}
				}
				configs = append(configs, got)
			}
			if diff := cmp.Diff(tt.configs, configs); diff != "" {
				t.Errorf("configs mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.varied, plan.Varied); diff != "" {
				t.Errorf("varied mismatch (-want +got):\n%s", diff)
			}
			if n := len(plan.Trials()); n != len(tt.bugs)*len(tt.configs)*len(tt.seeds) {
				t.Errorf("%d trials, want %d", n, len(tt.bugs)*len(tt.configs)*len(tt.seeds))
			}
		})
	}
}

// TestBugFolders checks how a folder's suite and target are found.
func TestBugFolders(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const fn = "def f(x):\n    return x\n"
	const suite = `{"function": "f", "tests": [{"args": [1], "expected": 2}]}`
	write("byname/byname.py", fn)
	write("byname/reference.py", fn)
	write("byname/tests.json", suite)
	write("single/prog.py", fn)
	write("single/test_helper_data.txt", "")
	write("single/tests.json", suite)
	write("named/tests.json", `{"target": "src/f.py", "function": "f", "tests": [{"args": [1], "expected": 2}]}`)
	write("named/src/f.py", fn)
	write("pytest/mod.py", fn)
	write("pytest/test_mod.py", "import mod\n\ndef test_one():\n    assert mod.f(1) == 2\n")
	write("ambiguous/a.py", fn)
	write("ambiguous/b.py", fn)
	write("ambiguous/tests.json", suite)
	write("output/keep.txt", "")
	write("results/results.jsonl", "")
	write("nosuite/prog.py", fn)

	plan, err := Parse("plan.yaml", dir, []byte("bugs: ['[bpr]*', single, named]\nseeds: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range plan.Bugs {
		got = append(got, fmt.Sprintf("%s: %s %s %s", b.Name, b.TestsRel, b.TargetRel, b.Path))
	}
	want := []string{
		"byname: byname/tests.json byname/byname.py byname.py",
		"pytest: pytest/test_mod.py pytest/mod.py mod.py",
		"single: single/tests.json single/prog.py prog.py",
		"named: named/tests.json named/src/f.py src/f.py",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bugs mismatch (-want +got):\n%s", diff)
	}

	_, err = Parse("plan.yaml", dir, []byte("bugs: [ambiguous]\nseeds: 1\n"))
	if want := `plan.yaml:1: bugs[0]: ambiguous: cannot tell the target among 2 .py files: add "target" to the suite, or list the bug as {tests: FILE, target: FILE}`; err == nil || err.Error() != want {
		t.Errorf("ambiguous folder: got %v, want %s", err, want)
	}
	// A folder a glob matches is a bug folder if it holds Python files.
	_, err = Parse("plan.yaml", dir, []byte("bugs: ['[n-z]*']\nseeds: 1\n"))
	if want := `plan.yaml:1: bugs[0]: nosuite: no suite in the folder (want tests.json, tests.jsonl or a test_*.py)`; err == nil || err.Error() != want {
		t.Errorf("folder with Python files but no suite: got %v, want %s", err, want)
	}
	// The output directory is not a bug folder, even when a glob matches it.
	_, err = Parse("plan.yaml", dir, []byte("bugs: [byname, output]\nseeds: 1\noutput: output\n"))
	if want := `plan.yaml:1: bugs[0]: "output" matches no folder`; err == nil || !strings.Contains(err.Error(), `"output" matches no folder`) {
		t.Errorf("output folder: got %v, want %s", err, want)
	}
}

// TestTrialID pins the ID scheme: changing it would make every results
// file look unfinished.
func TestTrialID(t *testing.T) {
	v := Values{"population": "40", "weight_failing": "0.01"}
	if got, want := TrialID("bugs/middle", v, 1), TrialID("bugs/middle", Values{"weight_failing": "0.01", "population": "40"}, 1); got != want {
		t.Errorf("ID depends on map order: %s != %s", got, want)
	}
	if got := TrialID("bugs/middle", v, 1); got != "7ab394ba67ab431e" {
		t.Errorf("TrialID = %s, want 7ab394ba67ab431e (the scheme changed?)", got)
	}
	ids := map[string]bool{}
	for _, bug := range []string{"a", "b"} {
		for _, seed := range []uint64{1, 2} {
			for _, pop := range []string{"10", "20"} {
				ids[TrialID(bug, Values{"population": pop}, seed)] = true
			}
		}
	}
	if len(ids) != 8 {
		t.Errorf("%d distinct IDs for 8 trials", len(ids))
	}
}

// TestInShard checks that the shards of N partition the trials.
func TestInShard(t *testing.T) {
	plan, err := parseTestPlan(t, "bugs: [bugs/*]\nseeds: 10\nparameters: {population: [10, 20, 30]}\n")
	if err != nil {
		t.Fatal(err)
	}
	trials := plan.Trials()
	for _, n := range []int{1, 2, 3, 7} {
		count := make([]int, n+1)
		for _, tr := range trials {
			in := 0
			for k := 1; k <= n; k++ {
				if InShard(tr.ID, k, n) {
					in++
					count[k]++
				}
			}
			if in != 1 {
				t.Errorf("N=%d: trial %s is in %d shards", n, tr.ID, in)
			}
		}
		for k := 1; k <= n; k++ {
			if n > 1 && count[k] == 0 {
				t.Errorf("N=%d: shard %d is empty (of %d trials)", n, k, len(trials))
			}
		}
	}
}

// TestLoadJSON loads the JSON twin of the example plan.
func TestLoadFiles(t *testing.T) {
	for _, path := range []string{"testdata/plan.yaml", "testdata/plan.json"} {
		plan, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if n := len(plan.Trials()); n != 36 {
			t.Errorf("%s: %d trials, want 36", path, n)
		}
	}
	if _, err := Load("testdata/nope.yaml"); err == nil || err.Error() != "testdata/nope.yaml: no such file or directory" || !inputerr.Is(err) {
		t.Errorf("missing plan: %v", err)
	}
}

// TestParseChecks: the guard and the check of delivered fixes are on
// unless the plan turns them off.
func TestParseChecks(t *testing.T) {
	for _, tt := range []struct {
		name             string
		src              string
		noGuard, noCheck bool
	}{
		{"default", "", false, false},
		{"guard off", "guard: false\n", true, false},
		{"check off", "check: false\n", false, true},
		{"both off", "guard: false\ncheck: false\n", true, true},
		{"on", "guard: true\ncheck: true\n", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := parseTestPlan(t, "bugs: [bugs/largest]\nseeds: 1\n"+tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if plan.NoGuard != tt.noGuard || plan.NoCheck != tt.noCheck {
				t.Errorf("NoGuard %v, NoCheck %v; want %v, %v", plan.NoGuard, plan.NoCheck, tt.noGuard, tt.noCheck)
			}
			cmd := strings.Join(plan.Trials()[0].Command("auto", 0, plan.NoGuard), " ")
			if strings.Contains(cmd, "--guard-inputs 0") != tt.noGuard {
				t.Errorf("command %q: --guard-inputs 0 should be there exactly when the guard is off", cmd)
			}
		})
	}
}
