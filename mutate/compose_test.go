package mutate

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"repair/program"
)

// TestComposeOperators checks that each operator composing new text
// proposes the edit a known fix needs, and none of the ones it must not.
func TestComposeOperators(t *testing.T) {
	src := `"""Module docstring: a spec a fix must never paste into a body."""


def drain(queue, limit):
    out = []
    while True:
        item = queue.pop()
        out.append(item)
    lo = 0
    n = len(out)
    return out[lo] - n


def depth(node):
    if node.left:
        return 1 + depth(node.left)
    return 0


def sample(xs, k):
    for x in xs:
        k += 1
    return xs[k] + xs[1:k]


def unused(s):
    """Docstring."""
    return s


def lead(part, self):
    if part[0] == "0" or self.part[2]:
        return False
    return True
`
	p, err := program.Parse("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	tests := []struct {
		op         Operator
		want, none []string
	}{
		{opCondName, []string{
			"line 6: replaced `True` with `queue`",
			"line 15: replaced `node.left` with `node.left and node is not None`",
			"line 6: replaced `True` with `True and not out`",
			"line 32: replaced `part[0] == \"0\" or self.part[2]` with `len(part) > 1 and (part[0] == \"0\" or self.part[2])`",
			"line 32: replaced `part[0] == \"0\" or self.part[2]` with `len(part) > 0 and (part[0] == \"0\" or self.part[2])`",
		}, []string{
			"line 6: replaced `True` with `True or True`",
			"line 32: replaced `part[0] == \"0\" or self.part[2]` with `len(part) > 2 and (part[0] == \"0\" or self.part[2])`", // self.part is another name
			"line 23: replaced `xs[k] + xs[1:k]` with `len(xs) > 1 and xs[k] + xs[1:k]`",                                       // no condition
		}},
		{opWrap, []string{
			"line 11: replaced `out[lo] - n` with `max(0, out[lo] - n)`",
			"line 11: replaced `out[lo] - n` with `abs(out[lo] - n)`",
			"line 11: replaced `n` with `max(lo, n)`",
			"line 11: replaced `out[lo] - n` with `[out[lo] - n]`",
		}, []string{
			"line 11: replaced `n` with `max(out, n)`", // out is a list: no number
			"line 18: replaced `0` with `abs(0)`",      // literals are not wrapped in calls
		}},
		{opSwapOperands, []string{
			"line 11: replaced `out[lo] - n` with `n - out[lo]`",
			"line 16: replaced `1 + depth(node.left)` with `depth(node.left) + 1`",
		}, nil},
		{opAddTerm, []string{
			"line 11: replaced `out[lo]` with `n - out[lo]`",
			"line 11: replaced `n` with `(lo - n)`",
		}, nil},
		{opSlice, []string{
			"line 11: replaced `out[lo]` with `out[lo:]`",
			"line 11: replaced `out[lo]` with `out[:lo + 1]`",
			"line 23: replaced `xs[1:k]` with `xs[:k]`",
			"line 23: replaced `xs[1:k]` with `xs[1:]`",
			"line 10: replaced `out` with `out[lo:]`",
		}, []string{
			"line 11: replaced `n` with `n[1:]`", // n is a number
		}},
		{opInsertChanged, []string{
			"line 23: inserted `k -= 1` (from line 22, with `+=` as `-=`) before `return xs[k] + xs[1:k]`",
		}, []string{
			"line 23: inserted `k += 1` (from line 22, with `+=` as `+=`) before `return xs[k] + xs[1:k]`",
		}},
		{opAssign, []string{
			"line 11: inserted `lo = 1` (from line 9, with `0` as `1`) before `return out[lo] - n`",
			"line 11: inserted `n = lo - 1` (from line 10, with `len(out)` as `lo - 1`) before `return out[lo] - n`",
		}, []string{
			"line 22: inserted `lo = 1` (from line 9, with `0` as `1`) before `k += 1`", // lo is not sample's
		}},
	}
	for _, tt := range tests {
		t.Run(tt.op.Name, func(t *testing.T) {
			got := describeEdits(t, c, tt.op)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %s\ngot:\n%s", w, strings.Join(got, "\n"))
				}
			}
			for _, n := range tt.none {
				if slices.Contains(got, n) {
					t.Errorf("unwanted %s", n)
				}
			}
		})
	}
	// No string statement is a donor: neither the module docstring nor a
	// function's.
	for _, d := range c.donors {
		if stringStmt(p.StmtText(d)) {
			t.Errorf("donor %q", p.StmtText(d))
		}
	}
}

// TestRefine checks that a later edit can change the copy an insert put
// in: a copied `lo = 0` refined into another assignment, and nothing done
// to an edit that adapts its copy already or copies nothing.
func TestRefine(t *testing.T) {
	src := "def f(xs):\n    lo = 0\n    hi = len(xs)\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < 3:\n            hi = mid\n    return lo\n"
	p, err := program.Parse("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	hi := p.StmtsOnLine(7)[0]
	ret := p.StmtsOnLine(8)[0]
	ins := program.Edit{Op: program.InsertBefore, Stmt: hi, Donor: hi}
	seen := map[string]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		e, ok := Refine(c, Default(), ins, rng)
		if !ok {
			continue
		}
		if e.Text == "" || e.Donor != hi || e.Op != program.InsertBefore {
			t.Fatalf("refined %+v", e)
		}
		out := p.Render(program.Patch{e})
		if _, err := program.Parse("out.py", out); err != nil {
			t.Fatalf("%s: %v", p.Describe(e), err)
		}
		seen[p.Describe(e)] = true
	}
	want := "line 7: inserted `lo = mid` (from line 7, with `hi` as `lo`) before `hi = mid`"
	if !seen[want] {
		t.Errorf("300 refinements never gave %s; got %d others", want, len(seen))
	}
	for _, e := range []program.Edit{
		{Op: program.Delete, Stmt: ret},
		{Op: program.InsertBefore, Stmt: hi, Donor: hi, Site: 1, Text: "x"},
	} {
		if _, ok := Refine(c, Default(), e, rng); ok {
			t.Errorf("refined %+v", e)
		}
	}
}
