package gpython

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

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
