package crossover

import (
	"math/rand/v2"
	"testing"

	"repair/program"
)

func patch(ids ...int) program.Patch {
	var p program.Patch
	for _, id := range ids {
		p = append(p, program.Edit{Op: program.Delete, Stmt: id})
	}
	return p
}

// TestChildrenAreMadeOfParents: every child edit comes from a parent, the
// children together hold exactly the parents' edits, and each child keeps
// its edits in parent order.
func TestChildrenAreMadeOfParents(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    Func
	}{{"one-point", OnePoint}, {"uniform", Uniform}} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			for i := 0; i < 500; i++ {
				a := patch(rng.Perm(rng.IntN(5))...)
				b := patch(rng.Perm(rng.IntN(5))...)
				for k := range b {
					b[k].Stmt += 100
				}
				c1, c2 := tt.f(a, b, rng)
				count := map[int]int{}
				for _, e := range append(append(program.Patch{}, a...), b...) {
					count[e.Stmt]++
				}
				for _, c := range []program.Patch{c1, c2} {
					last := map[bool]int{false: -1, true: -1}
					for _, e := range c {
						count[e.Stmt]--
						fromB := e.Stmt >= 100
						pos := indexOf(a, e)
						if fromB {
							pos = indexOf(b, e)
						}
						if pos < last[fromB] {
							t.Fatalf("child %v breaks parent order", c)
						}
						last[fromB] = pos
					}
				}
				for id, n := range count {
					if n != 0 {
						t.Fatalf("edit %d: %d left over (a=%v b=%v c1=%v c2=%v)", id, n, a, b, c1, c2)
					}
				}
			}
		})
	}
}

func indexOf(p program.Patch, e program.Edit) int {
	for i, x := range p {
		if x == e {
			return i
		}
	}
	return -1
}

// TestChildrenRender: children of real patches always render to code that
// parses (they are sublists of valid edit lists).
func TestChildrenRender(t *testing.T) {
	p, err := program.Parse("m.py", []byte("def f(a, b):\n    if a < b: a, b = b, a\n    c = a - b\n    while c > 3:\n        c -= 1\n    return c\n"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	n := len(p.Stmts)
	random := func() program.Patch {
		var pt program.Patch
		for k := rng.IntN(4); k >= 0; k-- {
			pt = append(pt, program.Edit{Op: program.Op(rng.IntN(5)), Stmt: rng.IntN(n), Donor: rng.IntN(n)})
		}
		return pt
	}
	for i := 0; i < 300; i++ {
		c1, c2 := OnePoint(random(), random(), rng)
		u1, u2 := Uniform(random(), random(), rng)
		for _, c := range []program.Patch{c1, c2, u1, u2} {
			if _, err := program.Parse("out.py", p.Render(c)); err != nil {
				t.Fatalf("child %v: %v", c, err)
			}
		}
	}
}

func TestByName(t *testing.T) {
	for _, n := range []string{"one-point", "uniform"} {
		if _, err := ByName(n); err != nil {
			t.Error(err)
		}
	}
	if _, err := ByName("two-point"); err == nil {
		t.Error("no error for an unknown crossover")
	}
}
