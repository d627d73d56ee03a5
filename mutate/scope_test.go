package mutate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"repair/program"
)

// scopeSrc is middle() between two functions no case calls.
const scopeSrc = `def far_before(items, factor):
    out = []
    for item in items:
        if item is None:
            continue
        out.append(item * factor)
    return out


def middle(x, y, z):
    if y < z:
        if x < y:
            return y
        elif x < z:
            return y
    else:
        if x > y:
            return y
        elif x > z:
            return x
    return z


def far_after(a, b):
    total = a + 3
    for i in range(b):
        total -= i
    return total
`

// executedIn marks the statements of the functions named, as a suite that
// calls only them would run them (their def lines run at import).
func executedIn(p *program.Program, funcs ...string) []bool {
	ex := make([]bool, len(p.Stmts))
	owner := -1
	for i := range p.Stmts {
		s := &p.Stmts[i]
		if s.Parent < 0 {
			ex[i] = true // the def itself runs at import
			owner = -1
			for _, f := range funcs {
				if strings.HasPrefix(p.StmtText(i), "def "+f+"(") {
					owner = i
				}
			}
			continue
		}
		ex[i] = owner >= 0
	}
	return ex
}

func parseScope(t *testing.T) *program.Program {
	t.Helper()
	p, err := program.Parse("m.py", []byte(scopeSrc))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The share of draws whose ingredient lies outside middle(), for the
// operators that copy statements, at the targets of middle().
func TestScopeFarShare(t *testing.T) {
	p := parseScope(t)
	weights := make([]float64, len(p.Stmts))
	for i := range p.Stmts {
		if strings.Contains(p.StmtText(i), "return y") {
			weights[i] = 1
		}
	}
	tests := []struct {
		name     string
		executed []string
		maxFar   float64 // the largest share of far ingredients allowed
		minFar   float64
	}{
		// Nothing is far: the two other functions' code is most of the file
		// and most of the draws.
		{"everything runs", []string{"far_before", "middle", "far_after"}, 1, 0.4},
		{"only middle runs", []string{"middle"}, farShare/(1+farShare) + 0.03, 0.05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewContext(p, weights)
			c.Scope(executedIn(p, tt.executed...))
			inFar := func(e program.Edit) bool {
				line := func(stmt int) int { return p.Stmts[stmt].Line }
				switch e.Op {
				case program.InsertBefore, program.InsertAfter, program.Replace:
					return line(e.Donor) < 10 || line(e.Donor) > 22
				}
				return false
			}
			for _, op := range []Operator{opInsert, opReplace} {
				rng := rand.New(rand.NewPCG(1, 2))
				far, n := 0, 0
				for range 4000 {
					e, ok := op.Apply(c, rng)
					if !ok {
						continue
					}
					n++
					if inFar(e) {
						far++
					}
				}
				share := float64(far) / float64(n)
				if share > tt.maxFar || share < tt.minFar {
					t.Errorf("%s: %.3f of %d draws copy far code, want %.3f..%.3f", op.Name, share, n, tt.minFar, tt.maxFar)
				}
			}
		})
	}
}

// When every statement runs, the scope changes no draw: the same edits
// come out for the same seeds as without it.
func TestScopeAllNearUnchanged(t *testing.T) {
	p := parseScope(t)
	plain := NewContext(p, nil)
	scoped := NewContext(p, nil)
	scoped.Scope(executedIn(p, "far_before", "middle", "far_after"))
	for _, op := range All {
		for seed := range uint64(20) {
			a, okA := op.Apply(plain, rand.New(rand.NewPCG(seed, 7)))
			b, okB := op.Apply(scoped, rand.New(rand.NewPCG(seed, 7)))
			if okA != okB || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%s seed %d: %v without a scope, %v with one", op.Name, seed, a, b)
			}
		}
	}
}

// Copies are renamed only to names near code reads or binds: never to the
// name of a function no case runs.
func TestScopeRenames(t *testing.T) {
	p := parseScope(t)
	c := NewContext(p, nil)
	c.Scope(executedIn(p, "middle"))
	var ret int
	for i := range p.Stmts {
		if strings.TrimSpace(p.StmtText(i)) == "return z" {
			ret = i
		}
	}
	names := c.renames(ret)
	for _, n := range names {
		if strings.HasPrefix(n, "far_") || n == "items" || n == "total" {
			t.Errorf("renames at %q include %q, a name of code no case runs", p.StmtText(ret), n)
		}
	}
	if !strings.Contains(strings.Join(names, " "), "x") {
		t.Errorf("renames at %q = %v, want middle's names", p.StmtText(ret), names)
	}
}

// TestSweepIgnoresFarCode: the sweep weighs middle()'s near edits
// (those whose ingredients the suite runs) alike whether or not the file
// also holds functions no case calls, whose names and statements are far
// ingredients: unexecuted code does not push an operator's near edits
// behind another's, and the near edits come in the same order.
func TestSweepIgnoresFarCode(t *testing.T) {
	onlyMiddle := scopeSrc[strings.Index(scopeSrc, "def middle"):strings.Index(scopeSrc, "def far_after")]
	var far strings.Builder
	for k := range 40 {
		fmt.Fprintf(&far, "\n\ndef helper_%d(items, limit):\n    total = helper_%d(items, limit - 1)\n    for item in items:\n        total -= item\n    return total\n", k, (k+1)%40)
	}
	// Operators whose near alternatives the padding leaves as they are
	// (others take names and texts the padding adds near ones of: its
	// functions' names, visible at the target, its literals), and whose
	// far ones it adds: statements copied, names.
	var ops []Weighted
	for _, o := range Default() {
		switch o.Op.Name {
		case "delete", "insert", "replace", "swap", "ident", "cond-negate", "cmp-op":
			ops = append(ops, o)
		}
	}
	type sweep struct {
		share map[string]float64 // the sweep's share of each near edit
		order []string           // the near edits in the sweep's order
		far   int
	}
	run := func(src string) sweep {
		p, err := program.Parse("m.py", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ex := executedIn(p, "middle")
		weights := make([]float64, len(p.Stmts))
		for i := range weights {
			if ex[i] && p.Stmts[i].Parent >= 0 {
				weights[i] = 1
			}
		}
		c := NewContext(p, weights)
		c.Scope(ex)
		isFar := func(e program.Edit) bool { return c.farStmt != nil && c.far(e) }
		out := sweep{share: map[string]float64{}}
		eachEdit(c, ops, func(e program.Edit, _, _, _, share float64) {
			if isFar(e) {
				out.far++
			} else {
				out.share[p.Describe(e)] = share
			}
		}, nil)
		_, sw := NewStreams(c, ops, rand.New(rand.NewPCG(1, 2)), 0, 400)
		for e, ok := sw.Next(); ok; e, ok = sw.Next() {
			if !isFar(e) {
				out.order = append(out.order, p.Describe(e))
			}
		}
		return out
	}
	alone, padded := run(onlyMiddle), run(onlyMiddle+far.String())
	if alone.far != 0 || padded.far == 0 {
		t.Fatalf("%d far edits alone, %d padded", alone.far, padded.far)
	}
	for d, want := range alone.share {
		if got, ok := padded.share[d]; !ok || math.Abs(got-want) > 1e-12*want {
			t.Errorf("%s: share %g alone, %g (%v) with never-called functions", d, want, got, ok)
		}
	}
	n := min(len(alone.order), len(padded.order), 100)
	if n < 50 || !slices.Equal(alone.order[:n], padded.order[:n]) {
		t.Errorf("the sweep's first %d near edits differ with never-called functions after middle()", n)
	}
}

// TestDonorsInScope: expr-replace, cond-replace and cond-extend take no
// donor that reads a name the site's function cannot see (another
// function's parameter or local: a NameError wherever it runs), and
// still take the module's names, the builtins, dunders and what binds
// its own names (a comprehension); a file that binds names no parse
// sees (import *) takes every donor.
func TestDonorsInScope(t *testing.T) {
	const src = `import os

LIMIT = 10


def area(width, height):
    if width > LIMIT:
        return len(__name__)
    return width * height


def scale(size):
    if size:
        return [v * 2 for v in range(size)]
    return size + 1
`
	tests := []struct {
		name    string
		src     string
		op      Operator
		want    []string // edits that must be proposed
		notWant []string // edits that must not
	}{
		{"expr-replace reads", src, opExprReplace,
			[]string{"line 15: replaced `size + 1` with `LIMIT`", "line 15: replaced `size + 1` with `len(__name__)`", "line 15: replaced `size + 1` with `[v * 2 for v in range(size)]`"},
			[]string{"line 15: replaced `size + 1` with `width * height`", "line 15: replaced `size + 1` with `width`", "line 9: replaced `width * height` with `size + 1`"}},
		{"cond-replace", src, opCondReplace,
			[]string{"line 7: replaced `width > LIMIT` with `True`"},
			[]string{"line 13: replaced `size` with `width > LIMIT`", "line 7: replaced `width > LIMIT` with `size`"}},
		{"cond-extend", src, opCondExtend,
			nil,
			[]string{"line 13: replaced `size` with `size and width > LIMIT`"}},
		{"import *", "from os import *\n" + src, opExprReplace,
			[]string{"line 16: replaced `size + 1` with `width * height`"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("s.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got := describeEdits(t, NewContext(p, nil), tt.op)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q in %d edits:\n%s", w, len(got), strings.Join(got, "\n"))
				}
			}
			for _, w := range tt.notWant {
				if slices.Contains(got, w) {
					t.Errorf("proposed %q: it reads a name its function cannot see", w)
				}
			}
		})
	}
}
