// Package archtest checks the house's layering: the package table of
// docs/architecture.md lists every package of the module with its floor,
// and every import of non-test code goes down to a lower floor. So
// internal/ holds leaves only (nothing in it imports a stage), and no
// stage imports the driver or a stage above it.
package archtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const module = "repair"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// listPackages runs go list over the module from its root.
func listPackages(t *testing.T, root string) []pkg {
	t.Helper()
	goBin := "go"
	if g := os.Getenv("GOROOT"); g != "" {
		goBin = filepath.Join(g, "bin", "go")
	}
	cmd := exec.Command(goBin, "list", "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Skipf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// floorRow is a row of the package table: | floor | `path` | ... |
var floorRow = regexp.MustCompile("^\\|\\s*(\\d+)\\s*\\|\\s*`([^`]+)`\\s*\\|")

// readFloors reads the package table of docs/architecture.md.
func readFloors(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	floors := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := floorRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if _, dup := floors[m[2]]; dup {
			t.Errorf("%s: %s listed twice", path, m[2])
		}
		floors[m[2]] = n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return floors
}

func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(root, "docs", "architecture.md")
	floors := readFloors(t, doc)
	pkgs := listPackages(t, root)

	// The table and the tree list the same packages.
	var listed, inTree []string
	for p := range floors {
		listed = append(listed, p)
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if rel == "internal/archtest" {
			continue
		}
		inTree = append(inTree, rel)
	}
	sort.Strings(listed)
	sort.Strings(inTree)
	if diff := cmp.Diff(inTree, listed); diff != "" {
		t.Errorf("the package table of %s does not match the tree (-tree +table):\n%s", doc, diff)
	}

	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		from, ok := floors[rel]
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			to, ok := floors[dep]
			if !ok {
				continue
			}
			if strings.HasPrefix(rel, "internal/") && !strings.HasPrefix(dep, "internal/") {
				t.Errorf("%s imports %s: internal/ holds leaf utilities that import nothing of the stages", rel, dep)
			}
			if to >= from {
				t.Errorf("%s (floor %d) imports %s (floor %d): imports go down", rel, from, dep, to)
			}
		}
	}
}

// notBelow are rules the floors imply, said by name: the search does not
// know how a session is opened (package session opens engines and wires
// the guard and the check around repair.Run, never the reverse).
var notBelow = []struct{ from, to string }{
	{"repair", "session"},
	{"fitness", "session"},
	{"guard", "session"},
	{"sandbox", "session"},
}

func TestSessionAboveSearch(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	deps := map[string][]string{}
	for _, p := range listPackages(t, root) {
		deps[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")] = p.Deps
	}
	if _, ok := deps["session"]; !ok {
		t.Fatal("no package session")
	}
	for _, r := range notBelow {
		for _, d := range deps[r.from] {
			if d == module+"/"+r.to {
				t.Errorf("%s depends on %s: a session is opened above the search, never below it", r.from, r.to)
			}
		}
	}
}
