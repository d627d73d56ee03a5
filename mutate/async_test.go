package mutate

import (
	"testing"

	"repair/internal/pygen"
	"repair/program"
)

// asyncSrc has async functions with an await and an async comprehension,
// a class body inside one, and a plain function.
const asyncSrc = `async def fetch(y, g):
    acc = [x async for x in y]
    v = await g()
    w = len(y)
    if await g():
        pass
    if w:
        pass
    class Box:
        size = len(y)
    return acc, v, w, Box


async def other(y):
    return len(y)


def plain(y):
    u = len(y)
    if u:
        pass
    return u
`

// TestAsyncDonors: an await or an async comprehension of the file is an
// ingredient for the sites of async functions (the same or another) and
// for no other site; every edit the operators propose on such a file
// compiles.
func TestAsyncDonors(t *testing.T) {
	p, err := program.Parse("async.py", []byte(asyncSrc))
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	// at finds the n-th site (0-based) of kind k with the text.
	at := func(k program.SiteKind, text string, n int) int {
		for i := range p.Sites {
			if p.Sites[i].Kind == k && p.SiteText(i) == text {
				if n == 0 {
					return i
				}
				n--
			}
		}
		t.Fatalf("no %v site %q", k, text)
		return -1
	}
	tests := []struct {
		op   string
		site int    // the target
		text string // an async text of the file
		want bool   // the operator puts it there
	}{
		{"expr-replace", at(program.SiteExpr, "len(y)", 0), "[x async for x in y]", true},
		{"expr-replace", at(program.SiteExpr, "len(y)", 0), "await g()", true},
		{"expr-replace", at(program.SiteExpr, "len(y)", 1), "[x async for x in y]", false}, // the class body
		{"expr-replace", at(program.SiteExpr, "len(y)", 1), "await g()", false},
		{"expr-replace", at(program.SiteExpr, "len(y)", 2), "[x async for x in y]", true},  // another async def
		{"expr-replace", at(program.SiteExpr, "len(y)", 3), "[x async for x in y]", false}, // a plain def
		{"expr-replace", at(program.SiteExpr, "len(y)", 3), "await g()", false},
		{"cond-replace", at(program.SiteCond, "w", 0), "await g()", true},
		{"cond-replace", at(program.SiteCond, "u", 0), "await g()", false},
		{"cond-extend", at(program.SiteCond, "w", 0), "w and await g()", true},
		{"cond-extend", at(program.SiteCond, "u", 0), "u and await g()", false},
	}
	for _, tt := range tests {
		o, _ := ByName(tt.op)
		got := false
		o.Edits(c, tt.site, func(e program.Edit) { got = got || e.Text == tt.text })
		if got != tt.want {
			t.Errorf("%s at %q of line %d: proposes %q: %v, want %v", tt.op, p.SiteText(tt.site), p.Stmts[p.Sites[tt.site].Stmt].Line, tt.text, got, tt.want)
		}
	}
	comp := pygen.Shared(t)
	for i := range All {
		o := &All[i]
		s := o.Targets(c)
		for _, id := range s.ids {
			o.Edits(c, id, func(e program.Edit) {
				if program.AsyncText(e.Text) {
					checkEdit(t, comp, p, o.Name, program.Patch{e})
				}
			})
		}
	}
}
