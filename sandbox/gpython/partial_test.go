package gpython

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/go-python/gpython/py"

	"repair/fitness"
	"repair/internal/testutil/padded"
	"repair/program"
	"repair/sandbox"
)

// randomEdit is one random edit of p: a deletion, a replacement, an
// insertion or a swap of statements, or a site's text replaced by
// another site's.
func randomEdit(r *rand.Rand, p *program.Program) program.Edit {
	n := len(p.Stmts)
	switch r.IntN(5) {
	case 0:
		return program.Edit{Op: program.Delete, Stmt: r.IntN(n)}
	case 1:
		return program.Edit{Op: program.Replace, Stmt: r.IntN(n), Donor: r.IntN(n)}
	case 2:
		return program.Edit{Op: program.InsertBefore, Stmt: r.IntN(n), Donor: r.IntN(n)}
	case 3:
		return program.Edit{Op: program.Swap, Stmt: r.IntN(n), Donor: r.IntN(n)}
	default:
		if len(p.Sites) == 0 {
			return program.Edit{Op: program.Delete, Stmt: r.IntN(n)}
		}
		a, b := r.IntN(len(p.Sites)), r.IntN(len(p.Sites))
		return program.Edit{Op: program.ReplaceText, Site: a, Text: p.SiteText(b)}
	}
}

// TestPartialEquivalence: for random single-edit candidates of example
// programs and of a padded file, a run with the candidate's Change (the
// worker compiles only the changed definitions when it can) gives what a
// run of the whole candidate gives, case by case: the same compile error,
// the same verdicts, and the same details when the candidate has the
// original's line count (otherwise a traceback through a later function
// names the original's line there).
func TestPartialEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("many candidates")
	}
	type prog struct {
		name  string
		src   []byte
		suite *fitness.Suite
	}
	var progs []prog
	for _, ex := range []string{"middle", "binary_search", "bubble_sort", "clamp", "count_vowels", "dedupe",
		"is_prime", "power", "sum_even", "temperature", "word_stats"} {
		dir := filepath.Join("..", "..", "examples", ex)
		src, err := os.ReadFile(filepath.Join(dir, ex+".py"))
		if err != nil {
			t.Fatal(err)
		}
		suite, err := fitness.Load(filepath.Join(dir, "tests.json"))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{ex, src, suite})
	}
	_, mid := middleSuite(t)
	progs = append(progs, prog{"padded", padded.Source(progs[0].src, 1000), mid})
	// A program with what the rewrites touch: f-strings, decorators,
	// classes, defaults computed at import.
	const rich = `K = 3


def deco(f):
    def g(*a):
        return f(*a)
    return g


@deco
def fmt(x, width=K + 1):
    s = f"{x:>{width}}|"
    if x > 10:
        s = s + f"{x!r}"
    return s.strip()


class Acc:
    base = K

    def add(self, x):
        total = self.base
        for i in range(x):
            total += i
        return total


def use(x):
    a = Acc()
    return [a.add(x), fmt(x)]
`
	progs = append(progs, prog{"rich", []byte(rich), &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{
		call("use", "[3]", `[6, "3"]`), call("use", "[12]", `[69, "12|12"]`), call("fmt", "[5]", `"5|"`),
	}}})
	ctx := context.Background()
	total, partial := 0, 0
	for k, pg := range progs {
		t.Run(pg.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(k)))
			p, err := program.Parse(pg.name+".py", pg.src)
			if err != nil {
				t.Fatal(err)
			}
			tgt := target(t, pg.name+".py", map[string]string{pg.name + ".py": string(pg.src)})
			e, err := newEngine(ctx, sandbox.Options{Suite: pg.suite, Target: tgt, Workers: 1}, config{})
			var unsupported *UnsupportedError
			if errors.As(err, &unsupported) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			lines := bytes.Count(pg.src, []byte("\n"))
			n := 60
			if pg.name == "padded" {
				n = 25
			}
			t0, p0 := total, partial
			defer func() { t.Logf("%d candidates with a change, %d compiled partially", total-t0, partial-p0) }()
			for range n {
				src, ch := p.RenderChange(program.Patch{randomEdit(r, p)})
				if len(ch.Defs) == 0 {
					continue
				}
				opts := sandbox.RunOptions{Timeout: 250 * time.Millisecond, AbandonAfterTimeout: true}
				whole, err := e.Run(ctx, src, opts)
				if err != nil {
					t.Fatal(err)
				}
				before := e.Stats().Partial
				opts.Change = &ch
				got, err := e.Run(ctx, src, opts)
				if err != nil {
					t.Fatal(err)
				}
				total++
				if e.Stats().Partial > before {
					partial++
				}
				if got.CompileError != whole.CompileError {
					t.Fatalf("compile error %q, whole %q\n%s", got.CompileError, whole.CompileError, src)
				}
				sameLines := bytes.Count(src, []byte("\n")) == lines
				for i := range whole.Results {
					g, w := got.Results[i], whole.Results[i]
					if g.Verdict != w.Verdict || (sameLines && addrs.ReplaceAllString(g.Detail, "") != addrs.ReplaceAllString(w.Detail, "")) {
						t.Fatalf("case %d: partial %v %q, whole %v %q\n%s", i, g.Verdict, g.Detail, w.Verdict, w.Detail, src)
					}
				}
			}
		})
	}
	t.Logf("%d candidates with a change, %d compiled partially", total, partial)
	if partial == 0 || partial < total/3 {
		t.Errorf("only %d of %d candidates compiled partially", partial, total)
	}
}

// TestPartialFallbacks: a Change that does not describe the candidate, or
// a definition that does not compile alone, takes the whole path.
func TestPartialFallbacks(t *testing.T) {
	const orig = "def f(x):\n    return x + 1\n\n\ndef g(x):\n    return f'{x}!'\n"
	p, err := program.Parse("m.py", []byte(orig))
	if err != nil {
		t.Fatal(err)
	}
	cases := []fitness.Case{call("f", "[1]", "2"), call("g", "[1]", `"1!"`)}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases},
		Target: target(t, "m.py", map[string]string{"m.py": orig})}, config{})
	site := -1
	for i, s := range p.Sites {
		if p.FirstLine(s.Stmt) == "return x + 1" && p.SiteText(i) == "1" {
			site = i
		}
	}
	if site < 0 {
		t.Fatal("no site")
	}
	ctx := context.Background()
	tests := []struct {
		name    string
		text    string
		mangle  func(*program.Change)
		partial bool
	}{
		{"a constant", "2", nil, true},
		{"the probe's name", "_p_", nil, false},
		{"a syntax error", "1 +", nil, false},
		{"spans that lie", "2", func(c *program.Change) { c.Cand[0].End-- }, false},
		{"another definition", "2", func(c *program.Change) {
			c.Cand[0].Start, c.Cand[0].End = c.Cand[0].End+2, len(orig)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, ch := p.RenderChange(program.Patch{{Op: program.ReplaceText, Site: site, Text: tt.text}})
			if tt.mangle != nil {
				tt.mangle(&ch)
			}
			whole, err := e.Run(ctx, src, sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			before := e.Stats().Partial
			got, err := e.Run(ctx, src, sandbox.RunOptions{Change: &ch})
			if err != nil {
				t.Fatal(err)
			}
			if partial := e.Stats().Partial > before; partial != tt.partial {
				t.Errorf("compiled partially: %v", partial)
			}
			if got.CompileError != whole.CompileError || briefOf(got) != briefOf(whole) {
				t.Errorf("partial %q %v, whole %q %v", got.CompileError, briefOf(got), whole.CompileError, briefOf(whole))
			}
		})
	}
}

// addrs are the addresses in the repr of objects, which differ from run
// to run.
var addrs = regexp.MustCompile(`0x[0-9a-f]+`)

func briefOf(o *fitness.Outcome) string {
	var b bytes.Buffer
	for _, r := range o.Results {
		b.WriteString(r.Verdict.String() + ":" + addrs.ReplaceAllString(r.Detail, "") + ";")
	}
	return b.String()
}

// TestPartialCode: for random single-edit candidates whose changed
// definitions keep their line counts, the module code compilePartial splices is the
// code compile gives the whole candidate, object for object (bytecode,
// constants, names, line tables), with the same probe name and rewrites.
func TestPartialCode(t *testing.T) {
	srcs := map[string][]byte{}
	for _, ex := range []string{"middle", "binary_search", "bubble_sort", "is_prime", "power", "word_stats"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", ex, ex+".py"))
		if err != nil {
			t.Fatal(err)
		}
		srcs[ex] = src
	}
	srcs["padded"] = padded.Source(srcs["middle"], 600)
	srcs["rich"] = []byte("K = 3\n\n\ndef fmt(x, width=K + 1):\n    s = f\"{x:>{width}}|\"\n    if x > 10:\n" +
		"        s = s + f\"{x!r}\"\n    return s.strip()\n\n\nclass Acc:\n    base = K\n\n    def add(self, x):\n" +
		"        total = self.base\n        for i in range(x):\n            total += i\n        return (lambda: total)()\n")
	w := benchWorker(t, []fitness.Case{call("f", "[]", "")}, "m")
	checked := 0
	for name, src := range srcs {
		p, err := program.Parse(name+".py", src)
		if err != nil {
			t.Fatal(err)
		}
		w.original, w.base = src, nil
		w.base = newPartialBase(src, w.candFile)
		if w.base.code == nil {
			t.Fatalf("%s: no base code", name)
		}
		r := rand.New(rand.NewPCG(3, uint64(len(src))))
		for range 150 {
			cand, ch := p.RenderChange(program.Patch{randomEdit(r, p)})
			if len(ch.Defs) == 0 {
				continue
			}
			var spans []partialSpan
			sameLines := true
			for i := range ch.Cand {
				s := partialSpan{ch.Cand[i].Start, ch.Cand[i].End, ch.Orig[i].Start, ch.Orig[i].End}
				spans = append(spans, s)
				sameLines = sameLines && bytes.Count(cand[s.cs:s.ce], []byte("\n")) == bytes.Count(src[s.bs:s.be], []byte("\n"))
			}
			if !sameLines {
				continue // what follows a definition keeps its original lines
			}
			got, ok := w.compilePartial(cand, spans)
			if !ok {
				continue
			}
			pdecor, ppaths, pfmt := w.decor, w.paths, w.fmt
			want, probe, err := w.compile(cand, false)
			if err != nil || probe != w.base.name {
				t.Fatalf("%s: compiled partially, whole: %v, probe %q\n%s", name, err, probe, cand)
			}
			if pdecor != w.decor || len(ppaths) != len(w.paths) || pfmt != w.fmt {
				t.Fatalf("%s: rewrites %q %v %q, whole %q %v %q", name, pdecor, ppaths, pfmt, w.decor, w.paths, w.fmt)
			}
			if d := codeDiff(got, want, "module"); d != "" {
				t.Fatalf("%s: %s\n%s", name, d, cand)
			}
			checked++
		}
	}
	t.Logf("%d candidates compared", checked)
	if checked < 100 {
		t.Errorf("only %d candidates compared", checked)
	}
}

// codeDiff describes the first difference between code objects a and b,
// "" when they are the same.
func codeDiff(a, b *py.Code, path string) string {
	switch {
	case a.Code != b.Code:
		return path + ": bytecode"
	case a.Argcount != b.Argcount || a.Kwonlyargcount != b.Kwonlyargcount || a.Nlocals != b.Nlocals ||
		a.Stacksize != b.Stacksize || a.Flags != b.Flags:
		return path + ": counts or flags"
	case !equalStrings(a.Names, b.Names) || !equalStrings(a.Varnames, b.Varnames) ||
		!equalStrings(a.Freevars, b.Freevars) || !equalStrings(a.Cellvars, b.Cellvars):
		return path + ": names"
	case a.Filename != b.Filename || a.Name != b.Name || a.Firstlineno != b.Firstlineno || a.Lnotab != b.Lnotab:
		return fmt.Sprintf("%s: file, name or lines: %q %q %d, %q %q %d", path, a.Filename, a.Name, a.Firstlineno, b.Filename, b.Name, b.Firstlineno)
	case string(a.Cell2arg) != string(b.Cell2arg):
		return path + ": cell2arg"
	case len(a.Consts) != len(b.Consts):
		return path + ": constant count"
	}
	for i := range a.Consts {
		ka, kb := a.Consts[i], b.Consts[i]
		ca, okA := ka.(*py.Code)
		cb, okB := kb.(*py.Code)
		if okA != okB {
			return fmt.Sprintf("%s: constant %d", path, i)
		}
		if okA {
			if d := codeDiff(ca, cb, path+"/"+ca.Name); d != "" {
				return d
			}
			continue
		}
		if ka.Type() != kb.Type() {
			return fmt.Sprintf("%s: constant %d type", path, i)
		}
		if eq, err := py.Eq(ka, kb); err != nil || eq != py.True {
			return fmt.Sprintf("%s: constant %d: %v, %v", path, i, ka, kb)
		}
	}
	return ""
}
