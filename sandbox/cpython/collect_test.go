package cpython

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"repair/fitness"
	"repair/sandbox"
)

var updateCollect = flag.Bool("update", false, "rewrite the want sections of testdata/collect/*.txtar")

// TestCollectedLikePytest: the tool's cases are exactly the tests plain
// pytest collects, in its order, whatever shape they take. Each
// testdata/collect/*.txtar is a project (its comment names the target
// and the test file; its want section lists the ids, reviewed by hand:
// regenerate with -update). The ids the engine collects must equal
// `pytest --collect-only -q` run on the project outside the tool, the
// ids plain pytest's run in the sandbox (the parity check's reference)
// reports, and the want section; each test passes under the tool as it
// does under plain pytest.
func TestCollectedLikePytest(t *testing.T) {
	py := pytestWithPlugins(t)
	files, _ := filepath.Glob(filepath.Join(testdataDir(t), "collect", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no testdata/collect/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			target, tests := header(t, ar.Comment, "target"), header(t, ar.Comment, "tests")
			project := map[string]string{}
			var want []string
			for _, f := range ar.Files {
				if f.Name == "want" {
					want = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
					continue
				}
				project[f.Name] = string(f.Data)
			}
			dir := writeTree(t, project)
			t.Chdir(dir)

			plain := collectOnly(t, py, tests)
			suite, err := fitness.Load(tests)
			if err != nil {
				t.Fatal(err)
			}
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path,
				Env: sandbox.Environment{Standard: true}}, config{})
			var got []string
			for _, c := range suite.Cases {
				got = append(got, c.Name)
			}
			if !slices.Equal(got, plain) {
				t.Errorf("the tool collects\n\t%s\npytest --collect-only -q\n\t%s", strings.Join(got, "\n\t"), strings.Join(plain, "\n\t"))
			}
			run, err := e.PlainPytest(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if run == nil {
				t.Fatal("no plain pytest run")
			}
			var ran []string
			for _, pt := range run.Tests {
				ran = append(ran, pt.ID)
			}
			if !slices.Equal(ran, got) || len(run.Errors) > 0 {
				t.Errorf("plain pytest in the sandbox ran\n\t%s\n(errors %+v); the tool collects\n\t%s", strings.Join(ran, "\n\t"), run.Errors, strings.Join(got, "\n\t"))
			}
			// And each passes under the tool as under plain pytest.
			src, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.Run(context.Background(), src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, pt := range run.Tests {
				if i < len(out.Results) && (out.Results[i].Verdict == fitness.Passed) != (pt.Outcome == "passed") {
					t.Errorf("%s: %v %q under the tool, %s %q under plain pytest", pt.ID, out.Results[i].Verdict, out.Results[i].Detail, pt.Outcome, pt.Detail)
				}
			}
			if *updateCollect {
				rewriteWant(t, file, ar, plain)
				return
			}
			if !slices.Equal(got, want) {
				t.Errorf("the tool collects\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
		})
	}
}

// testdataDir is the absolute path of testdata (tests change directory).
func testdataDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// header is the value of a "name: value" line of an archive's comment.
func header(t *testing.T, comment []byte, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `: (\S+)$`).FindSubmatch(comment)
	if m == nil {
		t.Fatalf("the archive's comment has no %q line", name)
	}
	return string(m[1])
}

// collectOnly runs `python -m pytest --collect-only -q` on tests in the
// working directory, outside the tool, and returns the ids it lists.
func collectOnly(t *testing.T, py *Interpreter, tests string) []string {
	t.Helper()
	cmd := exec.Command(py.Path, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", tests)
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "PYTEST_")
	}), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pytest --collect-only: %v\n%s", err, out)
	}
	var ids []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break // the summary follows
		}
		ids = append(ids, line)
	}
	return ids
}

// rewriteWant writes ids into the archive's want section.
func rewriteWant(t *testing.T, file string, ar *txtar.Archive, ids []string) {
	t.Helper()
	data := []byte(strings.Join(ids, "\n") + "\n")
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == "want" {
			ar.Files[i].Data, found = data, true
		}
	}
	if !found {
		ar.Files = append(ar.Files, txtar.File{Name: "want", Data: data})
	}
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}
