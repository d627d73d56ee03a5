package program

import (
	"fmt"
	"strings"
	"testing"
)

// bigProgram returns about n lines of realistic Python: copies of a
// binary search with different names.
func bigProgram(n int) []byte {
	var sb strings.Builder
	for i := 0; strings.Count(sb.String(), "\n") < n; i++ {
		fmt.Fprintf(&sb, `def search_%d(xs, target):
    """Binary search %d."""
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target: lo = mid + 1
        else:
            hi = mid - 1
    total = sum(x for x in xs if x > 0); count = len(xs)
    return -1 if total < count else -2


`, i, i)
	}
	return []byte(sb.String())
}

func BenchmarkParse1000(b *testing.B) {
	src := bigProgram(1000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("big.py", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRender1000 parses a 1,000-line file and renders one patch.
func BenchmarkParseRender1000(b *testing.B) {
	src := bigProgram(1000)
	for b.Loop() {
		p, err := Parse("big.py", src)
		if err != nil {
			b.Fatal(err)
		}
		p.Render(Patch{{Op: Delete, Stmt: len(p.Stmts) / 2}, {Op: InsertAfter, Stmt: 3, Donor: 10}})
	}
}

// BenchmarkRenderEdit renders one single-edit patch of a 100-line program,
// for each kind of edit: the cost paid by every candidate of the search.
func BenchmarkRenderEdit(b *testing.B) {
	p, err := Parse("f.py", bigProgram(100))
	if err != nil {
		b.Fatal(err)
	}
	mid := len(p.Stmts) / 2
	site := len(p.Sites) / 2
	var inline int
	for i := range p.Stmts {
		if p.Stmts[i].Inline {
			inline = i
			break
		}
	}
	edits := []struct {
		name string
		e    Edit
	}{
		{"delete", Edit{Op: Delete, Stmt: mid}},
		{"insert", Edit{Op: InsertAfter, Stmt: mid, Donor: mid - 3}},
		{"replace", Edit{Op: Replace, Stmt: mid, Donor: mid - 3}},
		{"swap", Edit{Op: Swap, Stmt: mid, Donor: mid + 5}},
		{"text", Edit{Op: ReplaceText, Site: site, Text: "x"}},
		{"split-line", Edit{Op: Delete, Stmt: inline}},
	}
	for _, tt := range edits {
		b.Run(tt.name, func(b *testing.B) {
			pt := Patch{tt.e}
			for b.Loop() {
				p.Render(pt)
			}
		})
	}
}

func BenchmarkDiff(b *testing.B) {
	p, err := Parse("f.py", bigProgram(1000))
	if err != nil {
		b.Fatal(err)
	}
	out := p.Render(Patch{{Op: Delete, Stmt: len(p.Stmts) / 2}})
	for b.Loop() {
		Diff("f.py", p.Src, out)
	}
}
