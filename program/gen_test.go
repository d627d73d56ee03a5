package program

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"repair/internal/pygen"
)

// Random programs from internal/pygen (docs/design.md §9): every one parses,
// and every patch of it renders to text that parses again, that CPython
// compiles, and whose diff applies back exactly.

// generated returns the program pygen makes from rng, parsed; a generated
// program that does not parse fails the test.
func generated(t testing.TB, rng *rand.Rand, cfg pygen.Config) *Program {
	t.Helper()
	src := pygen.Generate(rng, cfg)
	p, err := Parse("gen.py", src)
	if err != nil {
		t.Fatalf("a valid generated program does not parse: %v\n%s", err, src)
	}
	return p
}

// compiles reports a CPython compile error of a candidate rendered from p
// (nil when python3 is missing).
func compiles(t testing.TB, c *pygen.Compiler, p *Program, pt Patch, out []byte) {
	t.Helper()
	if c == nil {
		return
	}
	msg, err := c.Compile(out)
	if err != nil {
		t.Fatal(err)
	}
	if msg != "" {
		t.Errorf("CPython: %s\nedits:\n%s\noriginal:\n%s\nrendered:\n%s", msg, describeAll(p, pt), p.Src, out)
	}
}

func describeAll(p *Program, pt Patch) string {
	var sb strings.Builder
	for _, e := range pt {
		fmt.Fprintf(&sb, "  %+v: %s\n", e, p.Describe(e))
	}
	return sb.String()
}

// checkRender renders pt on p and checks that the result parses and that
// its diff applies back exactly; it returns the rendered text and the diff.
func checkRender(t testing.TB, p *Program, pt Patch) ([]byte, string, bool) {
	t.Helper()
	out := p.Render(pt)
	if _, err := Parse("out.py", out); err != nil {
		t.Errorf("rendered text does not parse: %v\nedits:\n%s\noriginal:\n%s\nrendered:\n%s", err, describeAll(p, pt), p.Src, out)
		return nil, "", false
	}
	d := Diff("gen.py", p.Src, out)
	back, err := applyUnified(p.Src, d)
	if err != nil || !bytes.Equal(back, out) {
		t.Errorf("diff does not apply back (%v):\n%s", err, d)
		return nil, "", false
	}
	return out, d, true
}

// TestGeneratedPrograms: for pygen programs of seeds 0..N-1, a sample of
// the single edits of every kind (singleEdits) and random patches of
// several of them render to code that parses and that CPython compiles,
// and the diffs round-trip, through the reference applier and, for a
// sample, through patch(1).
func TestGeneratedPrograms(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	c := pygen.Shared(t)
	var programs, edits, patches, compiled int
	files := map[string][]byte{}
	want := map[string][]byte{}
	var diffs strings.Builder
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 1))
			p := generated(t, rng, pygen.Config{Stmts: 30})
			programs++
			singles := singleEdits(p)
			edits += len(singles)
			// A sample of the single edits (parsing what they render costs
			// milliseconds), then patches of several.
			var pts []Patch
			for _, i := range rng.Perm(len(singles))[:min(len(singles), 40)] {
				pts = append(pts, Patch{singles[i]})
			}
			for k := 0; k < 5 && len(singles) > 0; k++ {
				var pt Patch
				for m := 2 + rng.IntN(4); m > 0; m-- {
					pt = append(pt, singles[rng.IntN(len(singles))])
				}
				pts = append(pts, pt)
			}
			for i, pt := range pts {
				out, d, ok := checkRender(t, p, pt)
				if !ok {
					return
				}
				patches++
				if c != nil {
					compiled++
					compiles(t, c, p, pt, out)
				}
				if i%10 == 0 && d != "" {
					// A sample for patch(1), applied in one batch below.
					name := fmt.Sprintf("g%d_%d.py", seed, i)
					files[name], want[name] = p.Src, out
					diffs.WriteString(Diff(name, p.Src, out))
				}
			}
		})
	}
	got, err := pygen.ApplyPatch(files, diffs.String())
	switch {
	case errors.Is(err, pygen.ErrNoPatch):
		t.Logf("patch(1) not found: diffs checked with the reference applier only")
	case err != nil:
		t.Errorf("%v", err)
	default:
		for name := range want {
			if !bytes.Equal(got[name], want[name]) {
				t.Errorf("%s: patch(1) gave a different file", name)
			}
		}
	}
	t.Logf("%d generated programs with %d single edits: %d patches rendered and parsed, %d compiled with CPython, %d diffs applied with patch(1)",
		programs, edits, patches, compiled, len(files))
}

// FuzzGenerated: the fuzzer chooses a program (pygen's choices) and a list
// of edits (as FuzzRender decodes them). The program parses; the patch
// renders to text that parses and whose diff applies back; and when every
// edit keeps to the placement rules (CanPlace, CanRemove), CPython compiles
// it.
func FuzzGenerated(f *testing.F) {
	f.Add([]byte{}, []byte{0, 0, 1, 0, 2})
	f.Add([]byte{200, 150, 99, 250, 7, 180, 33, 255, 255, 90}, []byte{3, 0, 7, 0, 1, 1, 0, 2, 0, 5})
	f.Add(bytes.Repeat([]byte{170, 60, 255}, 30), []byte{4, 0, 3, 0, 9, 2, 1, 2, 0, 4, 5, 0, 6, 0, 2})
	f.Fuzz(func(t *testing.T, prog, data []byte) {
		p := generated(t, rand.New(pygen.Bytes(prog)), pygen.Config{Stmts: 20})
		pt := decodeEdits(p, data)
		out, _, ok := checkRender(t, p, pt)
		if !ok || !placeable(p, pt) {
			return
		}
		compiles(t, pygen.Shared(t), p, pt, out)
	})
}

// placeable reports whether every edit of pt keeps to the placement rules
// that singleEdits keeps to.
func placeable(p *Program, pt Patch) bool {
	for _, e := range pt {
		switch e.Op {
		case Delete:
			if !p.CanRemove(e.Stmt) {
				return false
			}
		case InsertBefore, InsertAfter:
			if !p.CanPlace(e.Donor, e.Stmt) {
				return false
			}
		case Replace:
			if !p.CanPlace(e.Donor, e.Stmt) || !p.CanRemove(e.Stmt) {
				return false
			}
		case Swap:
			if !p.CanPlace(e.Donor, e.Stmt) || !p.CanPlace(e.Stmt, e.Donor) || !p.CanRemove(e.Stmt) || !p.CanRemove(e.Donor) {
				return false
			}
		case InsertText:
			if !p.Movable(e.Stmt) {
				return false
			}
		case Guard:
			if e.Stmt < 0 || e.Donor < 0 || e.Stmt >= len(p.Stmts) || e.Donor >= len(p.Stmts) {
				return false
			}
			for _, s := range p.guarded(e.Stmt, e.Donor) {
				if !p.Movable(s) {
					return false
				}
			}
		}
	}
	return true
}

// TestGeneratedRegressions holds, reduced by hand, what the generated
// programs found: each edit must render to code that parses and compiles.
func TestGeneratedRegressions(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		op    Op
		stmt  string // first line of the target statement
		donor string // first line of the donor, if any
		// refused: the placement rules must refuse the edit instead.
		refused bool
	}{
		{
			name: "nothing placed at a docstring before a future import",
			src:  "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\nx = 1\n",
			op:   InsertBefore, stmt: `"""Doc."""`, donor: "x = 1", refused: true,
		},
		{
			name: "import * stays at module level",
			src:  "from os import *\ndef f():\n    return 1\n",
			op:   InsertBefore, stmt: "return 1", donor: "from os import *", refused: true,
		},
		{
			name: "no yield from in an async function",
			src:  "def g():\n    yield from h()\nasync def f():\n    await x\n",
			op:   InsertBefore, stmt: "await x", donor: "yield from h()", refused: true,
		},
		{
			name: "a one-line block whose first statement is continued is split whole",
			src:  "for t in r:  val = \\\n    1; b = 2; c = 3\nx = 0\n",
			op:   Delete, stmt: "c = 3",
		},
		{
			name: "continuation lines of a statement split off a ';' line are not left of it",
			src:  "if x:  a = 1; from m import (\n  b,\n); c = 2\n",
			op:   Delete, stmt: "a = 1",
		},
		{
			name: "continuation lines of an inline copy are not left of it",
			src:  "if x: from m import (\n  b,\n)\ndef f():\n    if y:\n        pass\n",
			op:   InsertBefore, stmt: "pass", donor: "from m import (",
		},
	}
	c := pygen.Shared(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.src)
			e := Edit{Op: tt.op, Stmt: stmtAt(t, p, tt.stmt)}
			if tt.donor != "" {
				e.Donor = stmtAt(t, p, tt.donor)
			}
			if tt.refused {
				if p.CanPlace(e.Donor, e.Stmt) {
					t.Errorf("CanPlace(%q, %q) = true; want false", tt.donor, tt.stmt)
				}
				return
			}
			out, _, ok := checkRender(t, p, Patch{e})
			if ok {
				compiles(t, c, p, Patch{e}, out)
			}
		})
	}
}
