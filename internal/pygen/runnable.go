// Runnable programs: modules of functions over small integers that
// import, run and end, for tests that compare executions (test selection).

package pygen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Runnable returns a random module of Functions top-level functions (0:
// 5) named f0, f1, ... that each take two small integers and return an
// integer (or raise: ZeroDivisionError, IndexError...) in a few
// thousand steps at most, drawing every choice from rng. Unlike
// [Generate]'s, its programs run: every name is bound before it is read
// and every loop is bounded. They hold what matters to code that
// reasons about which statements an execution reaches: module-level
// constants and a list the functions append to, global declarations,
// docstrings and pass (statements without code), if/elif/else, for and
// while with break, continue and else, try/except/finally, nested
// functions with nonlocal, lambdas and comprehensions, a generator, a
// class with methods, and calls from each function to the ones before
// it. Only the standard library's math is imported.
func Runnable(rng *rand.Rand, functions int) []byte {
	if functions <= 0 {
		functions = 5
	}
	g := &rgen{rng: rng}
	var b strings.Builder
	if g.maybe(40) {
		b.WriteString("\"\"\"A generated module.\"\"\"\n")
	}
	b.WriteString("import math\n\n")
	fmt.Fprintf(&b, "K = %d\nLIMIT = %d\nTABLE = (%d, %d, %d)\nSEEN = []\nCOUNT = 0\n\n\n", g.small(), 3+g.n(8), g.small(), g.small(), g.small())
	b.WriteString("def gen(n):\n    for i in range(min(abs(n), 6)):\n        yield i * K\n    yield LIMIT\n\n\n")
	b.WriteString("class Acc:\n    \"\"\"Adds up.\"\"\"\n\n    def __init__(self, start):\n        self.total = start\n\n    def add(self, v):\n        if v > LIMIT:\n            v = LIMIT\n        self.total += v\n        return self.total\n\n\n")
	for k := 0; k < functions; k++ {
		g.fn = k
		b.WriteString(g.function())
		b.WriteString("\n\n")
	}
	return []byte(b.String())
}

type rgen struct {
	rng   *rand.Rand
	fn    int // the function being written
	depth int
	loop  bool // inside a loop
	calls int  // calls of other functions in the function (at most 2, none in loops)
}

func (g *rgen) n(k int) int              { return g.rng.IntN(k) }
func (g *rgen) maybe(pct int) bool       { return g.rng.IntN(100) < pct }
func (g *rgen) small() int               { return g.n(11) - 3 }
func (g *rgen) pick(xs ...string) string { return xs[g.n(len(xs))] }

// locals every function binds first, so that every read finds a value.
var rlocals = []string{"a", "b", "x", "y", "z"}

func (g *rgen) name() string { return rlocals[g.n(len(rlocals))] }

func (g *rgen) atom() string {
	switch g.n(9) {
	case 0:
		return fmt.Sprint(g.small())
	case 1:
		return "K"
	case 2:
		return fmt.Sprintf("TABLE[%d]", g.n(3))
	case 3:
		return g.pick("COUNT", "LIMIT")
	default:
		return g.name()
	}
}

func (g *rgen) expr(depth int) string {
	if depth <= 0 || g.maybe(30) {
		return g.atom()
	}
	l, r := g.expr(depth-1), g.expr(depth-1)
	switch g.n(12) {
	case 0:
		return fmt.Sprintf("(%s) // (%s)", l, r) // may divide by zero
	case 1:
		return fmt.Sprintf("(%s) %% %d", l, 2+g.n(5))
	case 2:
		return fmt.Sprintf("min(%s, %s)", l, r)
	case 3:
		return fmt.Sprintf("abs(%s)", l)
	case 4:
		return fmt.Sprintf("(%s if %s else %s)", l, g.cond(0), r)
	case 5:
		return fmt.Sprintf("sum(v for v in (%s, %s) if v > 0)", l, r)
	case 6:
		if g.fn > 0 && !g.loop && g.calls < 2 {
			g.calls++
			return fmt.Sprintf("f%d(%s, %s)", g.n(g.fn), l, r)
		}
		return l
	case 7:
		return fmt.Sprintf("(lambda q: q * 2 - %s)(%s)", r, l)
	case 8:
		return fmt.Sprintf("sum(gen(%s))", l)
	case 9:
		return fmt.Sprintf("int(math.sqrt(abs(%s)))", l)
	default:
		if g.maybe(20) {
			return fmt.Sprintf("%s * %d", l, 2+g.n(3))
		}
		return fmt.Sprintf("%s %s %s", l, g.pick("+", "-"), r)
	}
}

func (g *rgen) cond(depth int) string {
	c := fmt.Sprintf("%s %s %s", g.expr(depth), g.pick("<", "<=", ">", ">=", "==", "!="), g.expr(depth))
	if depth > 0 && g.maybe(25) {
		c += g.pick(" and ", " or ") + g.cond(0)
	}
	return c
}

// function is one top-level function fK(a, b).
func (g *rgen) function() string {
	var b strings.Builder
	fmt.Fprintf(&b, "def f%d(a, b):\n", g.fn)
	ind := "    "
	if g.maybe(30) {
		b.WriteString(ind + "\"\"\"A generated function.\"\"\"\n")
	}
	if g.maybe(40) {
		// A global the other functions read: a copy of its assignment in
		// one of them makes it local there, everywhere in it.
		b.WriteString(ind + "global COUNT\n")
		b.WriteString(ind + "COUNT = COUNT + " + fmt.Sprint(1+g.n(3)) + "\n")
	}
	b.WriteString(ind + "x, y, z = a, b, K\n")
	g.depth, g.calls = 0, 0
	for k := 2 + g.n(4); k > 0; k-- {
		b.WriteString(g.stmt(ind))
	}
	b.WriteString(ind + "return " + g.expr(2) + "\n")
	return b.String()
}

func (g *rgen) block(ind string) string {
	var b strings.Builder
	g.depth++
	for k := 1 + g.n(3); k > 0; k-- {
		b.WriteString(g.stmt(ind))
	}
	g.depth--
	return b.String()
}

func (g *rgen) stmt(ind string) string {
	in := ind + "    "
	if g.depth >= 2 {
		return g.simple(ind)
	}
	switch g.n(14) {
	case 0:
		s := ind + "if " + g.cond(1) + ":\n" + g.block(in)
		if g.maybe(50) {
			s += ind + "elif " + g.cond(1) + ":\n" + g.block(in)
		}
		if g.maybe(50) {
			s += ind + "else:\n" + g.block(in)
		}
		return s
	case 1:
		loop := g.loop
		g.loop = true
		s := fmt.Sprintf("%sfor i%d in range(%d):\n%s", ind, g.depth, 1+g.n(5), g.block(in))
		g.loop = loop
		if g.maybe(20) {
			s += ind + "else:\n" + g.block(in)
		}
		return s
	case 2:
		loop := g.loop
		g.loop = true
		w := fmt.Sprintf("w%d", g.depth) // nested loops count apart
		s := fmt.Sprintf("%s%s = 0\n%swhile %s < %d:\n%s%s += 1\n%s", ind, w, ind, w, 1+g.n(4), in, w, g.block(in))
		g.loop = loop
		return s
	case 3:
		s := ind + "try:\n" + g.block(in) + ind + "except (ZeroDivisionError, IndexError, ValueError):\n" + g.block(in)
		if g.maybe(30) {
			s += ind + "finally:\n" + in + "SEEN.append(x)\n"
		}
		return s
	case 4:
		if g.depth > 0 {
			return g.simple(ind)
		}
		return fmt.Sprintf("%sdef inner(v):\n%s    nonlocal z\n%s    z = z + v\n%s    return z * %d\n%sx = inner(%s)\n",
			ind, ind, ind, ind, 1+g.n(3), ind, g.expr(1))
	case 5:
		return fmt.Sprintf("%sacc = Acc(%s)\n%sy = acc.add(%s)\n", ind, g.expr(1), ind, g.expr(1))
	case 6:
		return fmt.Sprintf("%sz = [v * %s for v in range(%d) if v %% 2 == 0][-1]\n", ind, g.atom(), 1+g.n(5))
	default:
		return g.simple(ind)
	}
}

func (g *rgen) simple(ind string) string {
	switch g.n(12) {
	case 0:
		return ind + "pass\n"
	case 1:
		return ind + "SEEN.append(" + g.expr(1) + ")\n"
	case 2:
		return ind + g.name() + " = len(SEEN) + " + g.atom() + "\n"
	case 3:
		if g.loop {
			return ind + "if " + g.cond(0) + ":\n" + ind + "    " + g.pick("break", "continue") + "\n"
		}
		return ind + "z += 1\n"
	case 4:
		if g.maybe(50) {
			return ind + "if " + g.cond(0) + ":\n" + ind + "    return " + g.expr(1) + "\n"
		}
		return ind + "if " + g.cond(0) + ":\n" + ind + "    raise ValueError(" + g.atom() + ")\n"
	case 5:
		return ind + g.pick("x", "y", "z") + " " + g.pick("+=", "-=") + " " + g.expr(1) + "\n"
	default:
		return ind + g.pick("x", "y", "z", "x", "y", "z", "b") + " = " + g.expr(2) + "\n"
	}
}
