package mutate

import (
	"fmt"
	"math/rand/v2"
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
