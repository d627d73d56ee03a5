package archtest

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var fuzzFuncRE = regexp.MustCompile(`^func (Fuzz\w+)\(\w+ \*testing\.F\)`)

// TestFuzzTargetsInCI: every fuzz target of the repository is in .ci/run's
// list ("./pkg FuzzName COUNT" lines), and every listed target exists, so a
// new target cannot be left out of CI unnoticed.
func TestFuzzTargetsInCI(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if m := fuzzFuncRE.FindStringSubmatch(sc.Text()); m != nil {
				have["./"+filepath.ToSlash(rel)+" "+m[1]] = true
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(have) == 0 {
		t.Fatal("found no fuzz target: the walk is broken")
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	line := regexp.MustCompile(`^(\./\S+) (Fuzz\w+) \d+x$`)
	for _, l := range strings.Split(string(ci), "\n") {
		if m := line.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			listed[m[1]+" "+m[2]] = true
		}
	}
	var missing, stale []string
	for k := range have {
		if !listed[k] {
			missing = append(missing, k)
		}
	}
	for k := range listed {
		if !have[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	for _, k := range missing {
		t.Errorf("fuzz target %s is not in .ci/run's list (add a line \"%s COUNTx\")", k, k)
	}
	for _, k := range stale {
		t.Errorf(".ci/run lists %s, which no test file defines", k)
	}
}
