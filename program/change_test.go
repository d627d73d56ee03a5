package program

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"repair/internal/pygen"
)

const changeSrc = `import math

LIMIT = 3


def f(x):
    if x > LIMIT:
        return x - 1
    return x


@staticmethod
def g(y): return y * 2


class C:
    size = 1

    def m(self, z=4):
        return z + self.size
`

func TestRenderChange(t *testing.T) {
	p, err := Parse("c.py", []byte(changeSrc))
	if err != nil {
		t.Fatal(err)
	}
	stmt := func(first string) int {
		for i := range p.Stmts {
			if p.FirstLine(i) == first {
				return i
			}
		}
		t.Fatalf("no statement %q", first)
		return -1
	}
	site := func(stmtFirst, text string) int {
		s := stmt(stmtFirst)
		for i, st := range p.Sites {
			if st.Stmt == s && p.SiteText(i) == text {
				return i
			}
		}
		t.Fatalf("no site %q in %q", text, stmtFirst)
		return -1
	}
	tests := []struct {
		name  string
		pt    Patch
		reach []string // first lines
		defs  []string // first lines; nil: module level
		keeps bool     // Change.KeepsLines
	}{
		{"delete in a function", Patch{{Op: Delete, Stmt: stmt("return x - 1")}}, []string{"return x - 1"}, []string{"def f(x):"}, true}, // pass
		{"delete a line", Patch{{Op: Delete, Stmt: stmt("return x")}}, []string{"return x"}, []string{"def f(x):"}, false},
		{"operator in a condition", Patch{{Op: ReplaceText, Site: site("if x > LIMIT:", ">"), Text: "<"}}, []string{"if x > LIMIT:"}, []string{"def f(x):"}, true},
		{"one-line body", Patch{{Op: InsertBefore, Stmt: stmt("return y * 2"), Donor: stmt("return x")}}, []string{"return y * 2"}, []string{"@staticmethod"}, false},
		{"two definitions", Patch{{Op: Swap, Stmt: stmt("return x"), Donor: stmt("return z + self.size")}}, []string{"return x", "return z + self.size"}, []string{"def f(x):", "class C:"}, true},
		{"insert after a body's last statement", Patch{{Op: InsertAfter, Stmt: stmt("return x"), Donor: stmt("return x - 1")}}, []string{"return x"}, []string{"def f(x):"}, false},
		{"a class attribute", Patch{{Op: ReplaceText, Site: site("size = 1", "1"), Text: "5"}}, []string{"size = 1"}, []string{"class C:"}, true},
		{"module level", Patch{{Op: ReplaceText, Site: site("LIMIT = 3", "3"), Text: "4"}}, []string{"LIMIT = 3"}, nil, false},
		{"a definition itself", Patch{{Op: Delete, Stmt: stmt("def f(x):")}}, []string{"def f(x):"}, nil, false},
		{"a function and the module", Patch{{Op: Delete, Stmt: stmt("return x - 1")}, {Op: Delete, Stmt: stmt("import math")}}, []string{"import math", "return x - 1"}, nil, false},
		{"no edit applies", Patch{{Op: Delete, Stmt: len(p.Stmts)}}, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ch := p.RenderChange(tt.pt)
			if want := p.Render(tt.pt); !bytes.Equal(out, want) {
				t.Fatalf("RenderChange renders\n%s\nRender\n%s", out, want)
			}
			var reach, defs []string
			for _, s := range ch.Reach {
				reach = append(reach, p.FirstLine(s))
			}
			for _, s := range ch.Defs {
				defs = append(defs, p.FirstLine(s))
			}
			if !slices.Equal(reach, tt.reach) || !slices.Equal(defs, tt.defs) {
				t.Errorf("reach %q, defs %q; want %q, %q", reach, defs, tt.reach, tt.defs)
			}
			if got := ch.KeepsLines(p.Src, out); got != tt.keeps {
				t.Errorf("KeepsLines = %v, want %v", got, tt.keeps)
			}
			checkSpans(t, p, out, ch)
		})
	}
}

// checkSpans checks that the candidate out equals the original outside
// the change's spans, which are whole lines.
func checkSpans(t *testing.T, p *Program, out []byte, ch Change) {
	t.Helper()
	if len(ch.Orig) != len(ch.Defs) || len(ch.Cand) != len(ch.Defs) {
		t.Fatalf("%d definitions, %d and %d spans", len(ch.Defs), len(ch.Orig), len(ch.Cand))
	}
	lineStart := func(b []byte, o int) bool { return o == 0 || o == len(b) || b[o-1] == '\n' }
	po, pc := 0, 0
	for i := range ch.Defs {
		o, c := ch.Orig[i], ch.Cand[i]
		if o.Start < po || c.Start < pc || o.End < o.Start || c.End < c.Start || c.End > len(out) {
			t.Fatalf("spans out of order: %v %v", ch.Orig, ch.Cand)
		}
		if !lineStart(p.Src, o.Start) || !lineStart(p.Src, o.End) || !lineStart(out, c.Start) || !lineStart(out, c.End) {
			t.Errorf("span %d (%v, %v) is not whole lines", i, o, c)
		}
		if !bytes.Equal(p.Src[po:o.Start], out[pc:c.Start]) {
			t.Errorf("before span %d: the texts differ:\n%q\n%q", i, p.Src[po:o.Start], out[pc:c.Start])
		}
		po, pc = o.End, c.End
	}
	if len(ch.Defs) > 0 && !bytes.Equal(p.Src[po:], out[pc:]) {
		t.Errorf("after the last span: the texts differ:\n%q\n%q", p.Src[po:], out[pc:])
	}
	// KeepsLines: every span starts and ends on the same line in both.
	same := len(ch.Defs) > 0
	line := func(b []byte, o int) int { return bytes.Count(b[:o], []byte("\n")) }
	for i := range ch.Defs {
		o, c := ch.Orig[i], ch.Cand[i]
		if line(p.Src, o.Start) != line(out, c.Start) || line(p.Src, o.End) != line(out, c.End) {
			same = false
		}
	}
	if got := ch.KeepsLines(p.Src, out); got != same {
		t.Errorf("KeepsLines = %v, but the spans keep their lines: %v", got, same)
	}
}

// TestRenderChangeGenerated: on pygen programs, for single edits and
// random patches, RenderChange renders what Render does, the candidate
// equals the original outside the spans of its definitions, and every
// applied edit's statement is in Reach.
func TestRenderChangeGenerated(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	inside := 0
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			p := generated(t, rng, pygen.Config{Stmts: 30})
			singles := singleEdits(p)
			for k := 0; k < 40 && len(singles) > 0; k++ {
				var pt Patch
				for m := 1 + rng.IntN(3); m > 0; m-- {
					pt = append(pt, singles[rng.IntN(len(singles))])
				}
				out, ch := p.RenderChange(pt)
				if want := p.Render(pt); !bytes.Equal(out, want) {
					t.Fatalf("RenderChange differs from Render for\n%s", describeAll(p, pt))
				}
				if ch.Defs != nil {
					inside++
				}
				checkSpans(t, p, out, ch)
				for _, e := range p.Applied(pt) {
					s := e.Stmt
					if e.Op == ReplaceText || e.Op == SwapText {
						s = p.Sites[e.Site].Stmt
					}
					if _, found := slices.BinarySearch(ch.Reach, s); !found {
						t.Errorf("edit %+v: statement %d not in Reach %v", e, s, ch.Reach)
					}
				}
				if t.Failed() {
					t.Fatalf("patch:\n%s\noriginal:\n%s\nrendered:\n%s", describeAll(p, pt), p.Src, out)
				}
			}
		})
	}
	if inside == 0 {
		t.Errorf("no patch lay inside definitions: the test checks nothing")
	}
}
