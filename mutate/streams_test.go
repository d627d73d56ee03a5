package mutate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/internal/testutil/padded"
	"repair/program"
)

// streamCase is a program whose streams TestStreamsMatchReference and
// BenchmarkStreams draw: a context weighted and scoped as a repair's.
type streamCase struct {
	name string
	ctx  func(tb testing.TB) *Context
}

// paddedMiddle is examples/middle's middle.py padded with never-called
// functions to about n lines (scale_bench.py's lines-N), with extra
// appended.
func paddedMiddle(tb testing.TB, n int, extra string) []byte {
	tb.Helper()
	mid, err := os.ReadFile(filepath.Join("..", "examples", "middle", "middle.py"))
	if err != nil {
		tb.Fatal(err)
	}
	return append(padded.Source(mid, n), extra...)
}

// scopedContext is src's context weighted as a suite that runs only the
// functions funcs would weigh it (their statements, unevenly), and scoped
// by what it runs; module-level statements weigh modW.
func scopedContext(tb testing.TB, src []byte, modW float64, funcs ...string) *Context {
	tb.Helper()
	p, err := program.Parse("m.py", src)
	if err != nil {
		tb.Fatal(err)
	}
	ex := executedIn(p, funcs...)
	weights := make([]float64, len(p.Stmts))
	for i := range weights {
		switch {
		case ex[i] && p.Stmts[i].Parent >= 0:
			weights[i] = 1 / float64(1+i%3)
		case p.Stmts[i].Parent < 0 && !definition(&p.Stmts[i]):
			weights[i] = modW
		}
	}
	c := NewContext(p, weights)
	c.Scope(ex)
	return c
}

var streamCases = []streamCase{
	{"padded middle", func(tb testing.TB) *Context {
		return scopedContext(tb, paddedMiddle(tb, 1500, ""), 0, "middle")
	}},
	{"padded middle, unscoped", func(tb testing.TB) *Context {
		p, err := program.Parse("m.py", paddedMiddle(tb, 600, ""))
		if err != nil {
			tb.Fatal(err)
		}
		ex := executedIn(p, "middle")
		weights := make([]float64, len(p.Stmts))
		for i := range weights {
			if ex[i] && p.Stmts[i].Parent >= 0 {
				weights[i] = 1
			}
		}
		return NewContext(p, weights)
	}},
	{"denied names far and near", func(tb testing.TB) *Context {
		// Far donors that use gc and inspect, which middle does not (their
		// copies into it are denied), and a called function that does.
		extra := "\n\nimport gc\nimport inspect\nlimit = 3\n\n\n" +
			"def far_gc(x):\n    gc.collect()\n    y = inspect.stack()\n    x = x + 1\n    return y\n\n\n" +
			"def near_gc(a, b):\n    n = gc.collect()\n    if a < b:\n        a = b - n\n    return a\n"
		return scopedContext(tb, paddedMiddle(tb, 900, extra), 0.5, "middle", "near_gc")
	}},
	{"module code weighted", func(tb testing.TB) *Context {
		extra := "\n\nlimit = 3\nnames = [limit, limit + 1]\nif limit > 2:\n    limit = limit - 1\n"
		return scopedContext(tb, paddedMiddle(tb, 700, extra), 1, "middle")
	}},
	{"donor files", func(tb testing.TB) *Context {
		target := paddedMiddle(tb, 500, "")
		donor := "def middle(x, y, z):\n    if y < z:\n        if x < y:\n            return y\n        elif x < z:\n            return x\n    elif x > y:\n        return y\n    elif x > z:\n        return x\n    return z\n"
		p, err := program.ParseWithDonors("m.py", target, []string{"d.py"}, [][]byte{[]byte(donor)})
		if err != nil {
			tb.Fatal(err)
		}
		ex := executedIn(p, "middle")
		weights := make([]float64, len(p.Stmts))
		dl := p.DonorLine()
		for i := range weights {
			if ex[i] && p.Stmts[i].Parent >= 0 && p.Stmts[i].Line < dl {
				weights[i] = 1
			}
		}
		c := NewContext(p, weights)
		c.Scope(ex)
		return c
	}},
}

// sameHeap reports whether st's heap holds ref's keys and edits in
// ref's places.
func sameHeap(ref *refStream, st *Stream) bool {
	if len(ref.h) != len(st.h) {
		return false
	}
	for i, x := range ref.h {
		if x.key != st.h[i].key || x.e != st.edits[st.h[i].at] {
			return false
		}
	}
	return true
}

// drain is every edit of st in order.
func drain(st interface{ Next() (program.Edit, bool) }) []program.Edit {
	var out []program.Edit
	for e, ok := st.Next(); ok; e, ok = st.Next() {
		out = append(out, e)
	}
	return out
}

// TestStreamsMatchReference: the streams NewStreams draws, counting a far
// donor's edits without keeping them and making a far group's edits as
// the stream reaches them, are the reference's (every edit made, kept and
// visited), edit for edit, for every limit, and leave the random source
// where the reference does.
func TestStreamsMatchReference(t *testing.T) {
	limits := []struct{ limit, sweep int }{
		{4096, 2000}, {1, 0}, {0, 10}, {300, 50}, {50_000, 5000},
	}
	opSets := map[string][]Weighted{"default": Default()}
	var all []Weighted
	for _, o := range All {
		all = append(all, Weighted{o, 1})
	}
	opSets["all"] = all
	for _, tc := range streamCases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.ctx(t)
			for opsName, ops := range opSets {
				for _, l := range limits {
					name := fmt.Sprintf("%s/limit=%d,sweep=%d", opsName, l.limit, l.sweep)
					wantRng, gotRng := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(5, 6))
					wantSt, wantSw := refStreams(c, ops, wantRng, l.limit, l.sweep)
					gotSt, gotSw := NewStreams(c, ops, gotRng, l.limit, l.sweep)
					// The same keys and edits in the same heaps, then the
					// same edits in order.
					if !sameHeap(wantSw, gotSw) {
						t.Errorf("%s: the sweep's heaps differ", name)
					}
					if wantSt.More() != gotSt.More() {
						t.Errorf("%s: More() = %v, want %v", name, gotSt.More(), wantSt.More())
					}
					if diff := cmp.Diff(drain(wantSt), drain(gotSt)); diff != "" {
						t.Errorf("%s: stream mismatch (-want +got):\n%s", name, diff)
					}
					if diff := cmp.Diff(drain(wantSw), drain(gotSw)); diff != "" {
						t.Errorf("%s: sweep mismatch (-want +got):\n%s", name, diff)
					}
					if w, g := wantRng.Uint64(), gotRng.Uint64(); w != g {
						t.Errorf("%s: the random source is left elsewhere", name)
					}
				}
			}
		})
	}
}

// TestByDonorEdits: an operator split by donor emits at each target the
// edits of its donors in c.donors' order, each a copy of its donor into
// the target, as many as its Count says.
func TestByDonorEdits(t *testing.T) {
	for _, tc := range streamCases {
		t.Run(tc.name, func(t *testing.T) { testByDonor(t, tc.ctx(t)) })
	}
}

func testByDonor(t *testing.T, c *Context) {
	for _, o := range All {
		if o.From == nil {
			continue
		}
		for _, s := range o.Targets(c).ids {
			var whole, split []program.Edit
			o.Edits(c, s, func(e program.Edit) { whole = append(whole, e) })
			if from := o.From(c, s); from != nil {
				for _, d := range c.donors {
					from(d, func(e program.Edit) {
						if e.Donor != d || e.Stmt != s {
							t.Fatalf("%s: %s is not a copy of %d into %d", o.Name, c.Prog.Describe(e), d, s)
						}
						split = append(split, e)
					})
				}
			}
			if !slices.Equal(whole, split) {
				t.Fatalf("%s at %d: Edits and From differ", o.Name, s)
			}
			if o.Count == nil {
				continue
			}
			if from, count := o.From(c, s), o.Count(c, s); from != nil {
				for _, d := range c.donors {
					n := 0
					from(d, func(e program.Edit) { n++ })
					if got := count(d); got != n {
						t.Fatalf("%s at %d: Count(%d) = %d, From emits %d", o.Name, s, d, got, n)
					}
				}
			}
		}
	}
}

// BenchmarkStreams draws the search's first streams on middle() padded
// with never-called functions.
func BenchmarkStreams(b *testing.B) {
	for _, lines := range []int{13, 1000, 5000} {
		c := scopedContext(b, paddedMiddle(b, lines, ""), 0, "middle")
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				NewStreams(c, Default(), rand.New(rand.NewPCG(1, 2)), 4096, 2000)
			}
		})
	}
}

// TestFarGroupOrder: the random stream's order, where a far group draws
// one key and expands as the stream reaches it, has the distribution of
// every edit drawing its own key (Efraimidis and Spirakis), on a program
// with never-called donors: over many seeds, the number of far group
// edits among the first k of the stream has the same mean as when every
// edit draws its key. And a stream with a small limit is the start of the
// stream without one.
func TestFarGroupOrder(t *testing.T) {
	c := scopedContext(t, paddedMiddle(t, 120, ""), 0, "middle")
	// The operators that copy donors: their far groups hold a fifth of
	// the draws at each target (farShare).
	var ops []Weighted
	for _, o := range Default() {
		if o.Op.From != nil {
			ops = append(ops, o)
		}
	}
	var ps []float64
	var far []bool
	inGroup := map[program.Edit]bool{}
	refEachEdit(c, ops, func(e program.Edit, p, _, _, _ float64, g []program.Edit) {
		ps = append(ps, p)
		far = append(far, g != nil)
		if g != nil {
			inGroup[e] = true
		}
	})
	const seeds = 4000
	ks := []int{1, 10, 100}
	var got, want [3]stat
	keys := make([]keyed, len(ps))
	for seed := range uint64(seeds) {
		st := NewStream(c, ops, rand.New(rand.NewPCG(seed, 7)), 1<<20)
		n := 0
		for i := 1; i <= ks[len(ks)-1]; i++ {
			e, ok := st.Next()
			if !ok {
				t.Fatal("the stream ended early")
			}
			if inGroup[e] {
				n++
			}
			for j, k := range ks {
				if i == k {
					got[j].add(float64(n))
				}
			}
		}
		// Every edit draws its key.
		rng := rand.New(rand.NewPCG(seed, 8))
		for i, p := range ps {
			keys[i] = keyed{key: -math.Log(1-rng.Float64()) / p, at: int32(i)}
		}
		first := smallest(keys, ks[len(ks)-1])
		slices.SortFunc(first, func(a, b keyed) int { return compareKeys(a.key, b.key) })
		n = 0
		for i, x := range first {
			if far[x.at] {
				n++
			}
			for j, k := range ks {
				if i+1 == k {
					want[j].add(float64(n))
				}
			}
		}
		if seed%400 == 0 {
			// The start of the order, whatever the limit.
			all := drain(NewStream(c, ops, rand.New(rand.NewPCG(seed, 7)), 1<<20))
			for _, limit := range []int{1, 7, 60} {
				some := drain(NewStream(c, ops, rand.New(rand.NewPCG(seed, 7)), limit))
				if len(some) < limit || !slices.Equal(some, all[:len(some)]) {
					t.Fatalf("seed %d, limit %d: %d edits, not the start of the order", seed, limit, len(some))
				}
			}
		}
	}
	for j, k := range ks {
		g, w := got[j], want[j]
		if se := math.Sqrt(g.variance()/seeds + w.variance()/seeds); math.Abs(g.mean()-w.mean()) > 4.5*se {
			t.Errorf("far group edits among the first %d: %.3f on average, want %.3f (each edit's key drawn) ± %.3f", k, g.mean(), w.mean(), se)
		}
	}
}

// stat accumulates a mean and a variance.
type stat struct{ n, sum, sq float64 }

func (s *stat) add(x float64)    { s.n++; s.sum += x; s.sq += x * x }
func (s stat) mean() float64     { return s.sum / s.n }
func (s stat) variance() float64 { m := s.mean(); return s.sq/s.n - m*m }

func compareKeys(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestSweepHeadFirst: the sweep tries every edit of every operator at
// the top-ranked statements (the largest two weights) before any other,
// a string's hundreds of one-character edits at the top line included,
// and Head counts them down.
func TestSweepHeadFirst(t *testing.T) {
	src := `import re


def parse(line, sep):
    m = re.match(r"^([a-z]+)=([^;]*);\s*(\w+)$", line)
    if m is None:
        return None
    key = m.group(1).strip()
    value = m.group(2).split(sep)
    return key, value
`
	p, err := program.Parse("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, len(p.Stmts))
	var top []int
	for i := range p.Stmts {
		switch p.Stmts[i].Line {
		case 5:
			w[i] = 1
			top = append(top, i)
		case 6:
			w[i] = 0.9
			top = append(top, i)
		case 8, 9:
			w[i] = 0.8
		case 10:
			w[i] = 0.5
		}
	}
	c := NewContext(p, w)
	ops := Default()
	// Two operators may make the same edit (string-char and regex): each
	// counts.
	want := map[string]bool{}
	n := 0
	eachEdit(c, ops, func(e program.Edit, _, wt, _, _ float64) {
		if wt >= 0.9 {
			want[program.Patch{e}.Key()] = true
			n++
		}
	}, nil)
	if len(want) < 200 {
		t.Fatalf("only %d edits at the top statements: the test needs a large head", len(want))
	}
	_, sweep := NewStreams(c, ops, rand.New(rand.NewPCG(1, 2)), 100, 5000)
	if sweep.Head() != n {
		t.Errorf("the sweep's head is %d edits, want the %d at the top statements", sweep.Head(), n)
	}
	got := map[string]bool{}
	for ; n > 0; n-- {
		e, ok := sweep.Next()
		if !ok {
			t.Fatal("the sweep ended inside its head")
		}
		k := program.Patch{e}.Key()
		if !want[k] {
			t.Fatalf("edit %d of the sweep is not at a top statement: %s", len(got), p.Describe(e))
		}
		got[k] = true
	}
	if len(got) != len(want) || sweep.Head() != 0 {
		t.Errorf("%d distinct edits in the head, want %d; Head() = %d after it", len(got), len(want), sweep.Head())
	}
	if e, ok := sweep.Next(); !ok || c.Weights[stmtOfEdit(p, e)] >= 0.9 {
		t.Errorf("after the head: %v %s", ok, p.Describe(e))
	}
}

// stmtOfEdit is the statement an edit changes.
func stmtOfEdit(p *program.Program, e program.Edit) int {
	if e.Op == program.ReplaceText || e.Op == program.SwapText {
		return p.Sites[e.Site].Stmt
	}
	return e.Stmt
}

// BenchmarkApplyExprReplace is one mutation by expr-replace, the
// operator with the most edits at a site (every expression of the file),
// on middle() padded with never-called functions.
func BenchmarkApplyExprReplace(b *testing.B) {
	for _, lines := range []int{13, 5000} {
		c := scopedContext(b, paddedMiddle(b, lines, ""), 0, "middle")
		op := opExprReplace
		rng := rand.New(rand.NewPCG(1, 2))
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				op.Apply(c, rng)
			}
		})
	}
}
