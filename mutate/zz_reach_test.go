package mutate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"repair/program"
)

func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func TestZZReach(t *testing.T) {
	dir := os.Getenv("ZZ_DIR")
	if dir == "" {
		t.Skip()
	}
	bugs, _ := os.ReadDir(dir)
	for _, b := range bugs {
		buggy := filepath.Join(dir, b.Name(), "buggy.py")
		fixedB, _ := os.ReadFile(filepath.Join(dir, b.Name(), "fixed.py"))
		p, err := program.ParseFile(buggy)
		if err != nil {
			t.Log(b.Name(), err)
			continue
		}
		want := squeeze(string(fixedB))
		// the buggy lines the fix changes
		bl := strings.Split(string(p.Src), "\n")
		fl := strings.Split(string(fixedB), "\n")
		lo := 0
		for lo < len(bl) && lo < len(fl) && bl[lo] == fl[lo] {
			lo++
		}
		hi1, hi2 := len(bl)-1, len(fl)-1
		for hi1 > lo && hi2 > lo && bl[hi1] == fl[hi2] {
			hi1--
			hi2--
		}
		first, last := lo+1-2, hi1+1+2
		near := func(e program.Edit) bool {
			ln := -1
			switch e.Op {
			case program.ReplaceText, program.SwapText:
				ln = p.Stmts[p.Sites[e.Site].Stmt].Line
			default:
				ln = p.Stmts[e.Stmt].Line
			}
			return ln >= first-30 && ln <= last+2
		}
		c := NewContext(p, nil)
		found := []string{}
		n := 0
		for _, op := range All {
			for _, id := range op.Targets(c).ids {
				op.Edits(c, id, func(e program.Edit) {
					n++
					if len(found) < 3 && near(e) && squeeze(string(p.Render(program.Patch{e}))) == want {
						found = append(found, op.Name+": "+p.Describe(e))
					}
				})
			}
		}
		t.Logf("%-20s edits %7d  single-edit fix: %v", b.Name(), n, found)
	}
}
