package mutate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"repair/program"
)

// TestDenied: no edit brings a name of the deny list into a function
// whose original does not use it, whichever way it is proposed; a
// function that uses one keeps its edits.
func TestDenied(t *testing.T) {
	tests := []struct {
		name, src string
		fn        string // the function whose edits are checked
		deny      string // a name of the deny list the fix must not bring into fn
		allowed   bool   // fn already uses it: edits that copy it stay
	}{
		{"pytest.xfail copied into another function", `import pytest


def guard(xs):
    if not xs:
        pytest.xfail("no data")
    return xs


def mean(xs):
    total = sum(xs)
    return total / (len(xs) + 1)
`, "mean", "pytest", false},
		{"gc walked from another function", `import gc


def count():
    return len(gc.get_objects())


def add(a, b):
    c = a + b + 1
    return c
`, "add", "gc", false},
		{"a new __eq__", `class Box:
    def __init__(self, v):
        self.v = v


class Any:
    def __eq__(self, other):
        return True


def make(v):
    b = Box(v)
    return b
`, "make", "__eq__", false},
		{"sys._getframe and os._exit", `import os
import sys


def spy():
    f = sys._getframe(1)
    os._exit(0)
    return f


def add(a, b):
    c = a + b + 1
    return c
`, "add", "_getframe", false},
		{"pytest in the function itself", `import pytest


def mean(xs):
    if not xs:
        pytest.xfail("no data")
    return sum(xs) / (len(xs) + 1)
`, "mean", "pytest", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("t.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			c := NewContext(p, nil)
			var ops []Weighted
			for _, o := range All {
				ops = append(ops, Weighted{o, 1})
			}
			in := func(e program.Edit) bool {
				s := e.Stmt
				if e.Op == program.ReplaceText || e.Op == program.SwapText {
					s = p.Sites[e.Site].Stmt
				}
				return p.Scopes[p.Stmts[s].Scope].Name == tt.fn
			}
			brings := 0
			check := func(how string, e program.Edit) {
				if !in(e) {
					return
				}
				before := strings.Count(string(p.Src), tt.deny)
				after := strings.Count(string(p.Render(program.Patch{e})), tt.deny)
				if after > before {
					brings++
					if !tt.allowed {
						t.Errorf("%s proposes %s: %s", how, e.Op, p.Describe(e))
					}
				}
			}
			for _, e := range Neighbourhood(c, ops, rand.New(rand.NewPCG(1, 2)), 1<<20) {
				check("Neighbourhood", e)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			m := NewMutator(ops)
			for range 3000 {
				e, _, ok := m.Mutate(c, rng)
				if !ok {
					continue
				}
				check("Mutate", e)
				if r, ok := Refine(c, ops, e, rng); ok {
					check("Refine", r)
				}
			}
			if tt.allowed && brings == 0 {
				t.Errorf("no edit copies %s within %s, which uses it", tt.deny, tt.fn)
			}
		})
	}
}

func TestDeniedNames(t *testing.T) {
	got := strings.Join(DeniedNames("import pytest, gc\nx = sys . modules\ndef __eq__(self, o): pass\nmodules = 1\n"), ",")
	if want := "pytest,gc,sys.modules,a new __eq__"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
