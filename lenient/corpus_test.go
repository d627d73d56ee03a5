package lenient_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"repair/fitness"
	"repair/lenient"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/cpython"
)

var update = flag.Bool("update", false, "rewrite testdata/coverage.md and the coverage table of docs/lenient.md")

func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// entry is one program of testdata/corpus (see testdata/README.md).
type entry struct {
	name, desc, missing string
	src, suite          []byte // suite nil: the program runs once as __main__
}

func loadCorpus(t *testing.T) []entry {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	sort.Strings(files)
	var out []entry
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e := entry{name: strings.TrimSuffix(filepath.Base(f), ".txtar")}
		for _, line := range strings.Split(strings.TrimSpace(string(a.Comment)), "\n") {
			if m, ok := strings.CutPrefix(line, "missing: "); ok {
				e.missing = m
			} else if e.desc == "" {
				e.desc = line
			}
		}
		for _, file := range a.Files {
			switch file.Name {
			case "prog.py":
				e.src = file.Data
			case "tests.json":
				e.suite = file.Data
			default:
				t.Fatalf("%s: unknown section %s", f, file.Name)
			}
		}
		if e.src == nil || e.missing == "" || e.desc == "" {
			t.Fatalf("%s: want a description, a missing: line and a prog.py section", f)
		}
		out = append(out, e)
	}
	return out
}

// measure is what one way of running did on one program.
type measure struct {
	covered, passed, injected int
}

// row is one program of the table.
type row struct {
	e             entry
	stmts, cases  int
	asIs, lenient measure
	random        measure
}

func pct(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

// TestCorpusCoverage runs every program of the corpus as it is, leniently
// with the rule-based predictor and leniently with the random one, and
// compares the statement coverage with testdata/coverage.md (regenerate
// with go test ./lenient -run TestCorpusCoverage -update, on the Python
// version the file names).
func TestCorpusCoverage(t *testing.T) {
	ctx := context.Background()
	py, err := cpython.FindPython(ctx, "")
	if errors.Is(err, sandbox.ErrNoPython) {
		t.Skipf("no python3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	corpus := loadCorpus(t)
	if len(corpus) < 30 {
		t.Errorf("%d programs in the corpus, want at least 30", len(corpus))
	}
	var rows []row
	for _, e := range corpus {
		r := runEntry(t, e)
		if r.lenient.covered < r.asIs.covered {
			t.Errorf("%s: lenient covers %d statements, fewer than the %d as is", e.name, r.lenient.covered, r.asIs.covered)
		}
		if e.missing == "none" && (r.lenient != r.asIs) {
			t.Errorf("%s: nothing is missing, yet lenient differs: %+v, as is %+v", e.name, r.lenient, r.asIs)
		}
		rows = append(rows, r)
	}
	version := strings.Join(strings.SplitN(py.Version, ".", 3)[:2], ".")
	table := coverageTable(rows, version)

	golden := filepath.Join("testdata", "coverage.md")
	docs := filepath.Join("..", "docs", "lenient.md")
	if *update {
		if err := os.WriteFile(golden, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := replaceTable(docs, table); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`Python (\d+\.\d+)`).FindSubmatch(want); m == nil || string(m[1]) != version {
		t.Skipf("%s was measured on another Python (this is %s): line events differ across versions", golden, py.Version)
	}
	if diff := cmp.Diff(string(want), table); diff != "" {
		t.Errorf("%s mismatch (-want +got); run with -update and review:\n%s", golden, diff)
	}
	d, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(d, want) {
		t.Errorf("%s does not hold the table of %s; run with -update", docs, golden)
	}
}

func runEntry(t *testing.T, e entry) row {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	target := filepath.Join(dir, "prog.py")
	if err := os.WriteFile(target, e.src, 0o644); err != nil {
		t.Fatal(err)
	}
	var suite *fitness.Suite
	if e.suite != nil {
		p := filepath.Join(dir, "tests.json")
		if err := os.WriteFile(p, e.suite, 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		if suite, err = fitness.Load(p); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
	} else {
		empty := ""
		suite = &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{{Name: "run", Kind: fitness.IO, Stdin: &empty, Weight: 1, Timeout: 5}}}
	}
	prog, err := program.Parse(e.name, e.src)
	if err != nil {
		t.Fatalf("%s: %v", e.name, err)
	}
	var stmts []int
	for _, s := range prog.Stmts {
		if !s.Docstring {
			stmts = append(stmts, s.Line)
		}
	}
	eng, err := cpython.New(ctx, sandbox.Options{Suite: suite, Target: target, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	run := func(p lenient.Predictor) measure {
		opts := sandbox.RunOptions{Coverage: true}
		if p != nil {
			plan, err := lenient.NewPlan(e.src, p)
			if err != nil {
				t.Fatal(err)
			}
			opts.Lenient = plan
		}
		o, err := eng.Run(ctx, e.src, opts)
		if err != nil {
			t.Fatal(err)
		}
		lines := map[int]bool{}
		injected := map[string]bool{}
		var m measure
		for _, r := range o.Results {
			for _, l := range r.Lines {
				lines[l] = true
			}
			for _, in := range r.Injections {
				injected[in.Kind+" "+in.Name] = true
			}
			if r.Verdict == fitness.Passed {
				m.passed++
			}
		}
		for _, l := range stmts {
			if lines[l] {
				m.covered++
			}
		}
		m.injected = len(injected)
		return m
	}
	return row{e: e, stmts: len(stmts), cases: len(suite.Cases),
		asIs: run(nil), lenient: run(lenient.Rules{}), random: run(lenient.Random{Seed: 1})}
}

func coverageTable(rows []row, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Statement coverage of lenient/testdata/corpus (Python %s): statements executed by at least one case / all statements (docstrings excepted).\n\n", version)
	b.WriteString("| program | missing | statements | as is | --lenient | random predictor | injected | cases passed (as is → --lenient) |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|\n")
	var stmts, asIs, len_, rnd int
	var sumA, sumL, sumR float64
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %d | %d → %d of %d |\n", r.e.name, r.e.missing, r.stmts,
			pct(r.asIs.covered, r.stmts), pct(r.lenient.covered, r.stmts), pct(r.random.covered, r.stmts),
			r.lenient.injected, r.asIs.passed, r.lenient.passed, r.cases)
		stmts += r.stmts
		asIs += r.asIs.covered
		len_ += r.lenient.covered
		rnd += r.random.covered
		sumA += float64(r.asIs.covered) / float64(r.stmts)
		sumL += float64(r.lenient.covered) / float64(r.stmts)
		sumR += float64(r.random.covered) / float64(r.stmts)
	}
	n := float64(len(rows))
	fmt.Fprintf(&b, "| **all %d programs** | | %d | **%s** | **%s** | **%s** | | |\n", len(rows), stmts, pct(asIs, stmts), pct(len_, stmts), pct(rnd, stmts))
	fmt.Fprintf(&b, "| mean per program | | | %.1f%% | %.1f%% | %.1f%% | | |\n", 100*sumA/n, 100*sumL/n, 100*sumR/n)
	return b.String()
}

// replaceTable puts table between the coverage markers of a document.
func replaceTable(path, table string) error {
	const begin, end = "<!-- coverage table: begin -->\n", "<!-- coverage table: end -->"
	d, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(d)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q ... %q markers", path, strings.TrimSpace(begin), end)
	}
	s = s[:i+len(begin)] + table + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

// TestExamplesUnchanged runs every program of examples/ (buggy and
// reference) plainly and leniently: complete programs miss nothing, so
// the verdicts and details are the same and nothing is injected.
func TestExamplesUnchanged(t *testing.T) {
	ctx := context.Background()
	if _, err := cpython.FindPython(ctx, ""); errors.Is(err, sandbox.ErrNoPython) {
		t.Skipf("no python3: %v", err)
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "examples", "*"))
	n := 0
	for _, dir := range dirs {
		name := filepath.Base(dir)
		target := filepath.Join(dir, name+".py")
		suitePath := filepath.Join(dir, "tests.json")
		if m, _ := filepath.Glob(filepath.Join(dir, "test_*.py")); len(m) == 1 {
			suitePath = m[0]
		}
		if _, err := os.Stat(target); err != nil {
			continue
		}
		suite, err := fitness.Load(suitePath)
		if err != nil {
			t.Fatal(err)
		}
		eng, err := cpython.New(ctx, sandbox.Options{Suite: suite, Target: target, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{target, filepath.Join(dir, "reference.py")} {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := lenient.NewPlan(src, nil)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := eng.Run(ctx, src, sandbox.RunOptions{Coverage: true})
			if err != nil {
				t.Fatal(err)
			}
			len_, err := eng.Run(ctx, src, sandbox.RunOptions{Coverage: true, Lenient: plan})
			if err != nil {
				t.Fatal(err)
			}
			for i := range plain.Results {
				p, l := plain.Results[i], len_.Results[i]
				if p.Verdict != l.Verdict || p.Detail != l.Detail || !slices.Equal(p.Lines, l.Lines) || len(l.Injections) != 0 {
					t.Errorf("%s case %d: plain %v %q %v, lenient %v %q %v %v", f, i, p.Verdict, p.Detail, p.Lines, l.Verdict, l.Detail, l.Lines, l.Injections)
					break
				}
			}
			n++
		}
		eng.Close()
	}
	if n < 10 {
		t.Errorf("only %d example programs", n)
	}
}
