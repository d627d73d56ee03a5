package program

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestRenderGolden renders, for every corpus file, the first edit of each
// kind that singleEdits proposes at an inline statement (if any) and at a
// statement in the middle of the file, and compares the diffs with
// testdata/golden/FILE.golden (a txtar file, one section per edit).
// Regenerate with go test ./program -run Golden -update and review.
func TestRenderGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.py")
	sort.Strings(files)
	for _, f := range files {
		p, err := ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ar := &txtar.Archive{Comment: []byte("Diffs of sample edits of " + filepath.Base(f) + ".\n")}
		taken := map[string]bool{}
		mid := p.Stmts[len(p.Stmts)/2].Line
		for _, e := range singleEdits(p) {
			line := p.Stmts[e.Stmt].Line
			if e.Op == ReplaceText || e.Op == SwapText {
				line = p.LineOf(p.Sites[e.Site].Start)
			}
			where := ""
			switch {
			case e.Op != ReplaceText && e.Op != SwapText && p.Stmts[e.Stmt].Inline:
				where = "inline"
			case line >= mid:
				where = "middle"
			default:
				continue
			}
			name := e.Op.String() + " " + where
			if e.Op == ReplaceText {
				name += " " + p.Sites[e.Site].Kind.String()
			}
			if taken[name] {
				continue
			}
			taken[name] = true
			d := Diff(filepath.Base(f), p.Src, p.Render(Patch{e}))
			ar.Files = append(ar.Files, txtar.File{Name: name + ": " + p.Describe(e), Data: []byte(d)})
		}
		golden := filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(f), ".py")+".golden")
		got := txtar.Format(ar)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", golden, diff)
		}
	}
}
