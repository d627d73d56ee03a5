package mutate

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"repair/internal/pygen"
	"repair/program"
)

// Every operator on random programs from internal/pygen (docs/design.md §9):
// each edit it proposes is valid, renders to code that parses again and
// that CPython compiles, and its diff applies back with patch(1).

// genProgram parses what pygen makes from rng.
func genProgram(t testing.TB, rng *rand.Rand, cfg pygen.Config) *program.Program {
	t.Helper()
	src := pygen.Generate(rng, cfg)
	p, err := program.Parse("gen.py", src)
	if err != nil {
		t.Fatalf("a generated program does not parse: %v\n%s", err, src)
	}
	return p
}

// checkEdit renders one operator's edit: it must apply, parse and compile.
// It returns the rendered text, or nil after reporting a failure.
func checkEdit(t testing.TB, comp *pygen.Compiler, p *program.Program, name string, pt program.Patch) []byte {
	t.Helper()
	describe := func() string {
		var sb strings.Builder
		for _, e := range pt {
			fmt.Fprintf(&sb, "  %s: %+v: %s\n", name, e, p.Describe(e))
		}
		return sb.String()
	}
	for i, ok := range p.Resolve(pt) {
		if !ok && len(pt) == 1 {
			t.Errorf("%s proposed an edit Render drops: %+v\noriginal:\n%s", name, pt[i], p.Src)
			return nil
		}
	}
	out := p.Render(pt)
	if _, err := program.Parse("out.py", out); err != nil {
		t.Errorf("rendered text does not parse: %v\n%soriginal:\n%s\nrendered:\n%s", err, describe(), p.Src, out)
		return nil
	}
	if comp != nil {
		msg, err := comp.Compile(out)
		if err != nil {
			t.Fatal(err)
		}
		if msg != "" {
			t.Errorf("CPython: %s\n%soriginal:\n%s\nrendered:\n%s", msg, describe(), p.Src, out)
			return nil
		}
	}
	return out
}

// opEdits returns up to k edits of operator o: one drawn uniformly at
// each of up to k targets drawn uniformly.
func opEdits(c *Context, o *Operator, rng *rand.Rand, k int) []program.Edit {
	ids := o.Targets(c).ids
	var out, buf []program.Edit
	for _, i := range rng.Perm(len(ids))[:min(k, len(ids))] {
		buf = buf[:0]
		o.Edits(c, ids[i], func(e program.Edit) { buf = append(buf, e) })
		if len(buf) > 0 {
			out = append(out, buf[rng.IntN(len(buf))])
		}
	}
	return out
}

// TestGeneratedOperators applies every operator to pygen programs of seeds
// 0..N-1: a sample of each operator's edits, and patches the Mutator
// draws, must render to code that parses and compiles; a sample of the
// diffs goes through patch(1).
func TestGeneratedOperators(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 10
	}
	comp := pygen.Shared(t)
	perOp := map[string]int{}
	var programs, patches int
	files, want := map[string][]byte{}, map[string][]byte{}
	var diffs strings.Builder
	m := NewMutator(Default())
	for seed := 0; seed < n; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 2))
			p := genProgram(t, rng, pygen.Config{Stmts: 30})
			programs++
			c := NewContext(p, nil)
			for i := range All {
				o := &All[i]
				for _, e := range opEdits(c, o, rng, 5) {
					if out := checkEdit(t, comp, p, o.Name, program.Patch{e}); out != nil {
						perOp[o.Name]++
						patches++
						if perOp[o.Name]%8 == 1 {
							name := fmt.Sprintf("%s_%d_%d.py", o.Name, seed, perOp[o.Name])
							files[name], want[name] = p.Src, out
							diffs.WriteString(program.Diff(name, p.Src, out))
						}
					}
				}
			}
			for k := 0; k < 10; k++ {
				var pt program.Patch
				for j := 1 + rng.IntN(4); j > 0; j-- {
					if e, _, ok := m.Mutate(c, rng); ok {
						pt = append(pt, e)
					}
				}
				if checkEdit(t, comp, p, "mutator", pt) != nil {
					patches++
				}
			}
		})
	}
	got, err := pygen.ApplyPatch(files, diffs.String())
	switch {
	case errors.Is(err, pygen.ErrNoPatch):
	case err != nil:
		t.Error(err)
	default:
		for name := range want {
			if !bytes.Equal(got[name], want[name]) {
				t.Errorf("%s: patch(1) gave a different file", name)
			}
		}
	}
	for i := range All {
		// No literal pygen writes is a module constant's value (os.sep,
		// math.pi), a pattern of the re module or a string of a domain,
		// and it writes no classes, no type checks and no names alike:
		// those operators have their own tests (TestDeveloperFixes).
		if perOp[All[i].Name] == 0 && !All[i].NeedsDonors && !devEdit(All[i].Name) && !notGenerated[All[i].Name] {
			t.Errorf("operator %s proposed nothing on %d generated programs", All[i].Name, programs)
		}
	}
	t.Logf("%d generated programs: %d patches rendered, parsed and compiled (%d diffs through patch(1)); edits per operator: %v", programs, patches, len(files), perOp)
}

// FuzzOperators: on a program of the fuzzer's choosing, one edit of each
// operator (chosen by seed) and a Mutator patch render to code that parses
// and compiles.
func FuzzOperators(f *testing.F) {
	f.Add([]byte{}, uint64(1))
	f.Add([]byte{200, 150, 99, 250, 7, 180, 33, 255, 255, 90}, uint64(2))
	f.Add(bytes.Repeat([]byte{170, 60, 255, 3}, 30), uint64(3))
	m := NewMutator(Default())
	f.Fuzz(func(t *testing.T, prog []byte, seed uint64) {
		p := genProgram(t, rand.New(pygen.Bytes(prog)), pygen.Config{Stmts: 20})
		comp := pygen.Shared(t)
		c := NewContext(p, nil)
		rng := rand.New(rand.NewPCG(seed, 0))
		for i := range All {
			if e, ok := All[i].Apply(c, rng); ok {
				checkEdit(t, comp, p, All[i].Name, program.Patch{e})
			}
		}
		var pt program.Patch
		for j := 0; j < 4; j++ {
			if e, _, ok := m.Mutate(c, rng); ok {
				pt = append(pt, e)
			}
		}
		checkEdit(t, comp, p, "mutator", pt)
	})
}

// TestContextual: expressions that compile only in some places are found
// by their text (what the generated programs showed copied into a
// comprehension's iterable or a class body's comprehension).
func TestContextual(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"(n := len(a))", true},
		{"await f()", false}, // a donor for async functions only (donorExpr.async)
		{"(yield x)", true},
		{"x if (yield) else y", true},
		{"awaited + yielded", false},
		{"a[i:j]", false},
		{"f(x=1) == {'a': b}", false},
		{"my_await", false},
	}
	for _, tt := range tests {
		if got := contextual(tt.text); got != tt.want {
			t.Errorf("contextual(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// notGenerated are the operators whose targets pygen never writes,
// besides the operators of developers' edits (devEdit), which
// devfixes.golden shows at work.
var notGenerated = map[string]bool{"module-const": true}
