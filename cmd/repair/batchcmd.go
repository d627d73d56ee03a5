package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"repair/batch"
	"repair/donors"
	"repair/fitness"
	"repair/guard"
	"repair/internal/inputerr"
	"repair/repair"
	"repair/sandbox"
	"repair/sandbox/engines"
)

// batchFlags are the flags of repair batch.
type batchFlags struct {
	tests, module       string
	budget              time.Duration
	seed                uint64
	evaluations         int
	donors              int
	showDonors          bool
	guardInputs         int
	format, jsonl, repo string
	engine, isolation   string
	python              string
	workers             int
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
	addTests(fl, &f.tests)
	fl.StringVar(&f.module, "module", "", "the module name submissions run as (default: the suite's target, or what its test file imports)")
	addTimeBudget(fl, &f.budget, 30*time.Second, "per submission")
	addSeed(fl, &f.seed, 1)
	addEvaluations(fl, &f.evaluations)
	addGuardInputs(fl, &f.guardInputs, guard.DefaultInputs)
	fl.IntVar(&f.donors, "donor-count", 5, "the passing submissions most similar to a failing one lend it their code (0: none)")
	// The old name of --donor-count, kept working: runBatch says so.
	fl.IntVar(&f.donors, "donors", 5, "the old name of --donor-count")
	_ = fl.MarkHidden("donors")
	fl.BoolVar(&f.showDonors, "show-donors", false, "name the donors' files in the feedback (by default a student's feedback names no classmate's file)")
	addFormat(fl, &f.format)
	fl.StringVar(&f.jsonl, "jsonl", "", "write one JSON record per submission here")
	addReport(fl, &f.repo)
	addEngine(fl, &f.engine, "auto")
	fl.IntVar(&f.workers, "workers", 0, usageWorkers+"; here also the submissions repaired at once")
	addSandbox(fl, &f.isolation, "auto")
	addPython(fl, &f.python)
	return cmd
}

func runBatch(ctx context.Context, f *batchFlags, args []string, io streams) error {
	if f.tests == "" {
		return &flagError{fmt.Errorf("--tests is required")}
	}
	if f.format != "markdown" && f.format != "csv" {
		return &flagError{fmt.Errorf("--format must be markdown or csv, got %q", f.format)}
	}
	if f.budget <= 0 {
		return &flagError{fmt.Errorf("--time-budget must be positive, got %v", f.budget)}
	}
	in := inputFlags{isolation: f.isolation}
	iso, err := in.isolationLevel()
	if err != nil {
		return err
	}
	for _, p := range []struct{ flag, path string }{{"--jsonl", f.jsonl}, {"--report", f.repo}} {
		if p.path != "" {
			if err := checkWritable(p.flag, p.path); err != nil {
				return err
			}
		}
	}
	suite, err := fitness.Load(f.tests)
	if err != nil {
		return err
	}
	subs, err := submissions(args, f.tests)
	if err != nil {
		return err
	}
	module := f.module
	if module == "" {
		if module, err = suiteModule(suite, f.python); err != nil {
			return err
		}
	}
	if !isModuleName(module) {
		return &flagError{fmt.Errorf("--module: %q is not a Python module name", module)}
	}
	workers := f.workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, max(len(subs), 1))
	o := repair.Defaults()
	o.Seed, o.TimeBudget, o.Evaluations = f.seed, f.budget, f.evaluations
	o.Generations = repair.MaxGenerations // the budget is time, or evaluations
	if f.evaluations < 0 {
		return &flagError{fmt.Errorf("--evaluations must be 0 or more, got %d", f.evaluations)}
	}
	if f.guardInputs < 0 || f.guardInputs > 100_000 {
		return &flagError{fmt.Errorf("--guard-inputs must be from 0 to 100000, got %d", f.guardInputs)}
	}
	start := time.Now()
	results, err := batch.Run(ctx, subs, batch.Options{
		Suite: suite, Module: module, Repair: o, Workers: workers,
		Open: func(ctx context.Context, so sandbox.Options) (sandbox.Engine, error) {
			so.Isolation, so.Python, so.Stderr = iso, f.python, io.Err
			so.Env = sandbox.Environment{Standard: true}
			if so.Suite != suite {
				so.Stderr = nil // the guard's and the check's engines: the notices were said
			}
			return engines.Open(ctx, f.engine, so)
		},
		Path:        displayPath,
		Progress:    io.v.log(io.Err),
		Donors:      f.donors,
		ShowDonors:  f.showDonors,
		GuardInputs: f.guardInputs,
	})
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if f.format == "csv" {
		if err := writeBatchCSV(io.Out, results); err != nil {
			return err
		}
	} else {
		writeBatchTable(io.Out, results)
	}
	if f.donors > 0 {
		n := 0
		for _, r := range results {
			if r.Status == batch.Passes {
				n++
			}
		}
		fmt.Fprintf(io.v.log(io.Err), "batch: %s lent code to the others' repairs (the %d most similar to each; --donor-count 0 for none)\n", plural(n, "passing submission"), f.donors)
	}
	fmt.Fprintf(io.v.log(io.Err), "batch: %s in %.1fs on %s: %s\n", plural(len(results), "submission"), elapsed.Seconds(), plural(workers, "worker"), batchCounts(results))
	if f.jsonl != "" {
		var b bytes.Buffer
		for _, r := range results {
			line, _ := json.Marshal(r)
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(f.jsonl, b.Bytes(), 0o644); err != nil {
			return inputerr.New("--jsonl: %v", unwrap(err))
		}
	}
	if f.repo != "" {
		data := batchReport(f.tests, results, elapsed, workers)
		if !markdownPath(f.repo) {
			data = batchJSON(f.tests, results, elapsed, workers)
		}
		if err := os.WriteFile(f.repo, data, 0o644); err != nil {
			return inputerr.New("--report: %v", unwrap(err))
		}
	}
	return nil
}

// submissions expands the arguments: files as given, a directory as its
// Python files (not tests, not conftest.py, not the suite), sorted.
func submissions(args []string, suite string) ([]string, error) {
	skip := map[string]bool{}
	if abs, err := filepath.Abs(suite); err == nil {
		skip[abs] = true
	}
	out, err := donors.Collect(args, skip)
	if err != nil {
		return nil, inputerr.New("%v", err)
	}
	if len(out) == 0 {
		return nil, &flagError{fmt.Errorf("no submission: %s holds no Python file", strings.Join(args, " "))}
	}
	return out, nil
}

var importRE = regexp.MustCompile(`^\s*(?:from\s+([A-Za-z_][A-Za-z0-9_]*)[\w.]*\s+import\b|import\s+([A-Za-z_][A-Za-z0-9_]*))`)

// suiteModule is the module submissions run as: the suite's target's
// name, or the one module its test file imports that is neither the
// standard library, pytest, nor a file next to the test file.
func suiteModule(s *fitness.Suite, python string) (string, error) {
	if s.Target != "" {
		return strings.TrimSuffix(filepath.Base(s.Target), ".py"), nil
	}
	if len(s.TestSource) == 0 {
		return "solution", nil // call and I/O cases do not import it by name
	}
	std := stdlibNames(python)
	dir := filepath.Dir(s.Path)
	var cands []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(s.TestSource))
	for sc.Scan() {
		m := importRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		name := m[1] + m[2]
		if seen[name] || std[name] || name == "pytest" || name == "_pytest" {
			continue
		}
		seen[name] = true
		if _, err := os.Stat(filepath.Join(dir, name+".py")); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			continue
		}
		cands = append(cands, name)
	}
	if len(cands) != 1 {
		return "", &flagError{fmt.Errorf("--module: cannot tell which module %s tests (it imports %v); name it", s.Path, cands)}
	}
	return cands[0], nil
}

// stdlibNames are the standard library's top-level modules, from the
// interpreter when there is one.
func stdlibNames(python string) map[string]bool {
	names := map[string]bool{}
	for _, n := range strings.Fields("os sys re math json random itertools functools collections typing unittest string time datetime copy io abc dataclasses enum heapq bisect statistics fractions decimal operator") {
		names[n] = true
	}
	if python == "" {
		python = "python3"
	}
	out, err := exec.Command(python, "-S", "-c", "import sys; print(' '.join(sys.stdlib_module_names))").Output()
	if err == nil {
		for _, n := range strings.Fields(string(out)) {
			names[n] = true
		}
	}
	return names
}

func isModuleName(s string) bool {
	return importRE.MatchString("import "+s) && !strings.ContainsAny(s, ". ")
}

// batchOrder is the order of the statuses in counts.
var batchOrder = []string{batch.Repaired, batch.Suspect, batch.Passes, batch.Untrusted, batch.Apart, batch.NotRepaired, batch.NoCompile, batch.Misnamed, batch.Failed}

// statusPlural is a status said of several submissions.
var statusPlural = map[string]string{
	batch.Suspect: "suspect patches", batch.Passes: "pass", batch.Apart: "fail apart", batch.NoCompile: "do not compile", batch.Failed: "errors",
}

func batchCounts(rs []batch.Result) string {
	n := map[string]int{}
	for _, r := range rs {
		n[r.Status]++
	}
	var parts []string
	for _, s := range batchOrder {
		if n[s] > 0 {
			what := s
			if p, ok := statusPlural[s]; ok && n[s] > 1 {
				what = p
			}
			parts = append(parts, fmt.Sprintf("%d %s", n[s], what))
		}
	}
	return strings.Join(parts, ", ")
}

// batchJSON is the JSON report: the counts and every submission's record.
func batchJSON(tests string, rs []batch.Result, elapsed time.Duration, workers int) []byte {
	counts := map[string]int{}
	for _, r := range rs {
		counts[r.Status]++
	}
	if rs == nil {
		rs = []batch.Result{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(struct {
		Tool        string         `json:"tool"`
		Version     string         `json:"version"`
		Tests       string         `json:"tests"`
		Seconds     float64        `json:"seconds"`
		Workers     int            `json:"workers"`
		Counts      map[string]int `json:"counts"`
		Submissions []batch.Result `json:"submissions"`
	}{"repair batch", version, tests, elapsed.Seconds(), workers, counts, rs})
	return b.Bytes()
}

func writeBatchTable(w io.Writer, rs []batch.Result) {
	fmt.Fprintln(w, "| submission | status | passed before | seconds | evaluations | what |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rs {
		what := strings.Join(r.Describe, "; ")
		if what == "" {
			what = r.Detail
		}
		fmt.Fprintf(w, "| %s | %s | %d/%d | %.1f | %d | %s |\n", r.Submission, r.Status, r.Passed, r.Cases, r.Seconds, r.Evaluations, mdCell(what))
	}
}

func writeBatchCSV(w io.Writer, rs []batch.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"submission", "status", "passed", "cases", "seconds", "evaluations", "insertions", "deletions", "edits", "detail"})
	for _, r := range rs {
		cw.Write([]string{r.Submission, r.Status, fmt.Sprint(r.Passed), fmt.Sprint(r.Cases), fmt.Sprintf("%.2f", r.Seconds),
			fmt.Sprint(r.Evaluations), fmt.Sprint(r.Insertions), fmt.Sprint(r.Deletions), strings.Join(r.Describe, "; "), r.Detail})
	}
	cw.Flush()
	return cw.Error()
}

// mdCell keeps a table cell on one line and its pipes literal.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// batchReport is the Markdown report: the counts, the table, and each
// submission with its patch.
func batchReport(tests string, rs []batch.Result, elapsed time.Duration, workers int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Batch repair against %s\n\n", tests)
	fmt.Fprintf(&b, "%s in %.1f s on %s: %s.\n\n", plural(len(rs), "submission"), elapsed.Seconds(), plural(workers, "worker"), batchCounts(rs))
	writeBatchTable(&b, rs)
	for _, r := range rs {
		fmt.Fprintf(&b, "\n## %s: %s\n\n", r.Submission, r.Status)
		if len(r.Uses) > 0 && r.Status != batch.Untrusted {
			fmt.Fprintf(&b, "Uses %s: with these, code under test can forge a test file's verdicts; never a donor.\n\n", strings.Join(r.Uses, ", "))
		}
		switch {
		case r.Status == batch.Repaired || r.Status == batch.Suspect:
			if r.Status == batch.Suspect {
				fmt.Fprintf(&b, "Passed %d of %d cases as handed in. No repair: the only patch found passes every case but breaks inputs the submission handled (%s):\n\n", r.Passed, r.Cases, r.Guard)
			} else {
				fmt.Fprintf(&b, "Passed %d of %d cases as handed in. The repair (%s):\n\n", r.Passed, r.Cases, batch.Size(r.Insertions, r.Deletions))
			}
			for _, d := range r.Describe {
				fmt.Fprintf(&b, "- %s\n", d)
			}
			if len(r.Donors) > 0 {
				fmt.Fprintf(&b, "\nDonors (most similar first): %s.\n", strings.Join(r.Donors, ", "))
			}
			if r.Guard != nil {
				fmt.Fprintf(&b, "\nOverfitting guard: %s.\n", r.Guard)
			}
			fmt.Fprintf(&b, "\n```diff\n%s```\n", r.Patch)
		case r.Status == batch.NotRepaired:
			fmt.Fprintf(&b, "Passes %d of %d cases; no repair within the time budget (%d candidates tried).\n", r.Passed, r.Cases, r.Evaluations)
		case r.Detail != "":
			fmt.Fprintf(&b, "%s\n", r.Detail)
		default:
			fmt.Fprintf(&b, "Passes all %d cases.\n", r.Cases)
		}
	}
	return b.Bytes()
}

// plural is "1 worker" or "n workers".
func plural(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, pluralNoun(n, noun))
}
