package mutate

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"repair/program"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestValidate checks the operator table: flag-safe unique names, docs
// whose first line is a lowercase title without a final period.
func TestValidate(t *testing.T) {
	name := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	seen := map[string]bool{}
	for _, o := range All {
		if !name.MatchString(o.Name) {
			t.Errorf("operator name %q is not flag-safe", o.Name)
		}
		if seen[o.Name] {
			t.Errorf("operator %q listed twice", o.Name)
		}
		seen[o.Name] = true
		first, _, _ := strings.Cut(o.Doc, "\n")
		if first == "" || strings.HasSuffix(first, ".") || strings.ToLower(first[:1]) != first[:1] {
			t.Errorf("operator %q: doc title %q must be lowercase without a final period", o.Name, first)
		}
		if o.Targets == nil || o.Edits == nil {
			t.Errorf("operator %q has no Targets or Edits", o.Name)
		}
	}
	for _, w := range Default() {
		if w.Weight <= 0 {
			t.Errorf("default weight of %q is %v", w.Op.Name, w.Weight)
		}
	}
}

func TestParseSpec(t *testing.T) {
	tests := []struct {
		spec    string
		want    string
		wantErr string
	}{
		{spec: "delete,insert=2,cmp-op=0.5", want: "delete=1 insert=2 cmp-op=0.5"},
		{spec: "all", want: strings.TrimSpace(strings.Repeat("x=1 ", len(All)))},
		{spec: "delete,nope", wantErr: `unknown operator "nope" (see 'repair operators')`},
		{spec: "delete=-1", wantErr: `operator "delete": weight "-1" must be a number from 0 to 1e6`},
		{spec: "delete=0", wantErr: `operators "delete=0": every weight is 0`},
		{spec: "ident,ident", wantErr: `operator "ident" given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			ws, err := ParseSpec(tt.spec)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, w := range ws {
				n := w.Op.Name
				if tt.spec == "all" {
					n = "x"
				}
				parts = append(parts, fmt.Sprintf("%s=%v", n, w.Weight))
			}
			if got := strings.Join(parts, " "); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// devEdit reports whether operator name is one of the operators of
// developers' edits: regex and every operator after it in All, so that a
// new operator (appended last) has its golden section in devfixes.golden.
func devEdit(name string) bool {
	first := slices.IndexFunc(All, func(o Operator) bool { return o.Name == "regex" })
	i := slices.IndexFunc(All, func(o Operator) bool { return o.Name == name })
	return first >= 0 && i >= first
}

// goldens are the golden files of TestOperatorsGolden: every operator on
// sample.py, and the operators of developers' edits (issue 28) with the
// operators they widened on fixes.py, a file modelled on real fixes.
var goldens = []struct {
	src, golden string
	ops         func(name string) bool
}{
	{"sample.py", "operators.golden", func(string) bool { return true }},
	{"fixes.py", "fixes.golden", func(name string) bool {
		switch name {
		case "string-char", "module-const", "similar-name", "rename", "add-call",
			"guard", "early-exit", "cond-expr", "default-arg", "item-call", "wrap", "slice", "insert":
			return true
		}
		return false
	}},
	{"devfixes.py", "devfixes.golden", devEdit},
}

// TestOperatorsGolden applies the operators to each file of goldens with
// 40 seeds and compares the distinct edits, in words, with its golden file
// (a txtar file, one section per operator). Every edit must render to code
// that compiles, and every operator must propose something on some file.
func TestOperatorsGolden(t *testing.T) {
	proposed := map[string]bool{}
	for _, g := range goldens {
		p, err := program.ParseFile(filepath.Join("testdata", g.src))
		if err != nil {
			t.Fatal(err)
		}
		c := NewContext(p, nil)
		ar := &txtar.Archive{Comment: []byte("Distinct edits each operator proposes on " + g.src + " with seeds 0..39.\nRegenerate with go test ./mutate -run Golden -update and review the diff.\n")}
		var srcs, names []string
		for _, o := range All {
			if !g.ops(o.Name) {
				continue
			}
			seen := map[string]bool{}
			var lines []string
			for seed := uint64(0); seed < 40; seed++ {
				rng := rand.New(rand.NewPCG(seed, 7))
				e, ok := (&o).Apply(c, rng)
				if !ok {
					continue
				}
				d := p.Describe(e)
				if seen[d] {
					continue
				}
				seen[d] = true
				lines = append(lines, d)
				srcs = append(srcs, string(p.Render(program.Patch{e})))
				names = append(names, o.Name+": "+d)
			}
			proposed[o.Name] = proposed[o.Name] || len(lines) > 0
			ar.Files = append(ar.Files, txtar.File{Name: o.Name, Data: []byte(strings.Join(lines, "\n") + "\n")})
		}
		golden := filepath.Join("testdata", g.golden)
		got := txtar.Format(ar)
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", golden, diff)
		}
		for i, msg := range compileAll(t, srcs) {
			if msg != "" {
				t.Errorf("%s: does not compile: %s\n%s", names[i], msg, srcs[i])
			}
		}
	}
	for _, o := range All {
		if !proposed[o.Name] && !o.NeedsDonors && !o.NeedsCrash {
			t.Errorf("operator %s proposed nothing on the golden files", o.Name)
		}
	}
}

// TestTargetsFollowWeights: with all weight on one statement, every edit
// lands in it.
func TestTargetsFollowWeights(t *testing.T) {
	p, err := program.ParseFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	target := -1
	for i := range p.Stmts {
		if p.FirstLine(i) == "total += v" {
			target = i
		}
	}
	w := make([]float64, len(p.Stmts))
	w[target] = 1
	c := NewContext(p, w)
	m := NewMutator(Default())
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 500; i++ {
		e, name, ok := m.Mutate(c, rng)
		if !ok {
			t.Fatal("no edit")
		}
		stmt := e.Stmt
		if e.Op == program.ReplaceText || e.Op == program.SwapText {
			stmt = p.Sites[e.Site].Stmt
		}
		if stmt != target {
			t.Fatalf("%s edited statement %q, want only %q", name, p.FirstLine(stmt), p.FirstLine(target))
		}
	}
}

// TestMutatorDrawsOnlyApplicable: an operator with no target in the
// program takes no draw, so the same seed makes the same edits with or
// without it in the list (a new operator changes nothing where it cannot
// apply); one with targets does change them.
func TestMutatorDrawsOnlyApplicable(t *testing.T) {
	p, err := program.ParseFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	without := func(names ...string) []Weighted {
		var out []Weighted
		for _, w := range Default() {
			if !slices.Contains(names, w.Op.Name) {
				out = append(out, w)
			}
		}
		return out
	}
	edits := func(ops []Weighted) []string {
		m := NewMutator(ops)
		rng := rand.New(rand.NewPCG(7, 7))
		var out []string
		for range 300 {
			e, name, ok := m.Mutate(c, rng)
			if !ok {
				t.Fatal("no edit")
			}
			out = append(out, name+": "+p.Describe(e))
		}
		return out
	}
	all := edits(Default())
	tests := []struct {
		drop []string
		same bool
	}{
		{[]string{"getattr-dunder"}, true},
		{[]string{"yield-nonempty", "init-unbound", "stop-after"}, true},
		{[]string{"delete"}, false},
	}
	for _, tt := range tests {
		for _, name := range tt.drop {
			o, _ := ByName(name)
			if applies := !o.Targets(c).empty(); applies == tt.same {
				t.Fatalf("%s has targets in sample.py: %v; the case needs %v", name, applies, !tt.same)
			}
		}
		got := edits(without(tt.drop...))
		if same := slices.Equal(got, all); same != tt.same {
			t.Errorf("without %v: the same edits %v, want %v", tt.drop, same, tt.same)
		}
	}
}

func compileAll(t *testing.T, srcs []string) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	in := filepath.Join(t.TempDir(), "in.json")
	data, _ := json.Marshal(srcs)
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script := "import json,sys\nout=[]\nfor s in json.load(open(sys.argv[1])):\n    try:\n        compile(s,'c','exec'); out.append('')\n    except SyntaxError as e:\n        out.append('%s line %s' % (e.msg, e.lineno))\njson.dump(out, sys.stdout)\n"
	res, err := exec.Command(py, "-c", script, in).Output()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	if err := json.Unmarshal(res, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNeighbourhood: the neighbourhood holds every edit the operators can
// propose, once, valid, and its order follows the weights (the edits of a
// heavily weighted operator come first on average).
func TestNeighbourhood(t *testing.T) {
	p, err := program.ParseFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	ops := []Weighted{{opCmp, 100}, {opDelete, 1}}
	all := Neighbourhood(c, ops, rand.New(rand.NewPCG(1, 2)), 1<<20)
	want := 0
	for _, o := range ops {
		s := o.Op.Targets(c)
		for _, id := range s.ids {
			o.Op.Edits(c, id, func(program.Edit) { want++ })
		}
	}
	if len(all) != want {
		t.Fatalf("neighbourhood has %d edits, want %d", len(all), want)
	}
	seen := map[program.Edit]bool{}
	cmpFirst := 0
	for i, e := range all {
		if seen[e] {
			t.Fatalf("edit %v twice", e)
		}
		seen[e] = true
		if i < len(all)/2 && e.Op == program.ReplaceText {
			cmpFirst++
		}
	}
	if cmpFirst == 0 {
		t.Errorf("no comparison edit in the first half despite weight 100")
	}
	// A limit keeps the first edits of the order, for every limit (the
	// stream trims what it draws to its limit as it goes): on a program
	// with thousands of edits.
	var sb strings.Builder
	for k := 0; k < 6; k++ {
		fmt.Fprintf(&sb, "def f%d(a, b):\n    t = a + %d\n    for i in range(b):\n        if i %% 3 == 0:\n            t -= i\n        else:\n            t += a * i\n    return t\n\n", k, k)
	}
	big, err := program.Parse("big.py", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	bc := NewContext(big, nil)
	bops := Default()
	all = Neighbourhood(bc, bops, rand.New(rand.NewPCG(1, 2)), 1<<20)
	if len(all) < 4*trimSlack {
		t.Fatalf("only %d edits", len(all))
	}
	for _, limit := range []int{1, 5, 1000, len(all) / 3, len(all) - 1} {
		got := Neighbourhood(bc, bops, rand.New(rand.NewPCG(1, 2)), limit)
		if !slices.Equal(got, all[:limit]) {
			t.Errorf("limit %d: not the first %d edits of the order", limit, limit)
		}
	}
}

// TestSmallest: smallest keeps the k smallest keys, duplicates included.
func TestSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(300)
		xs := make([]keyed, n)
		for i := range xs {
			xs[i].key = float64(rng.IntN(20)) // many ties
		}
		want := make([]float64, n)
		for i, x := range xs {
			want[i] = x.key
		}
		slices.Sort(want)
		k := rng.IntN(n + 1)
		got := []float64{}
		for _, x := range smallest(slices.Clone(xs), k) {
			got = append(got, x.key)
		}
		slices.Sort(got)
		if !slices.Equal(got, want[:k]) {
			t.Fatalf("smallest %d of %v: %v", k, want, got)
		}
	}
}

func TestTransposed(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"84600", []string{"48600", "86400", "84060"}},
		{"7", nil},
		{"100", nil},
		{"12", []string{"21"}},
		{"1.5", nil},
		{"0x1f", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, transposed(tt.in)); diff != "" {
			t.Errorf("transposed(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestReplaceFunction: with a donor file defining a function of the same
// name, the whole function is replaced by the donor's; without, nothing.
func TestReplaceFunction(t *testing.T) {
	target := "def dedupe(lst):\n    return list(set(lst))\n\n\ndef other():\n    return 1\n"
	donor := "def dedupe(xs):\n    out = []\n    for x in xs:\n        if x not in out:\n            out.append(x)\n    return out\n"
	p, err := program.ParseWithDonors("t.py", []byte(target), []string{"d.py"}, [][]byte{[]byte(donor)})
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	e, ok := opReplaceFunction.Apply(c, rand.New(rand.NewPCG(1, 2)))
	if !ok {
		t.Fatal("replace-function proposed nothing")
	}
	got := string(p.Strip(p.Render(program.Patch{e})))
	want := donor + "\n\ndef other():\n    return 1\n"
	if got != want {
		t.Errorf("rendered:\n%s\nwant:\n%s", got, want)
	}
	if d := p.Describe(e); !strings.Contains(d, "from d.py line 1") {
		t.Errorf("Describe = %q", d)
	}
	plain, _ := program.Parse("t.py", []byte(target))
	if _, ok := opReplaceFunction.Apply(NewContext(plain, nil), rand.New(rand.NewPCG(1, 2))); ok {
		t.Error("replace-function proposed an edit without donors")
	}
}

// TestSiblingAndAttr: the edits of the two name operators at every
// target, rendered.
func TestSiblingAndAttr(t *testing.T) {
	src := "def f(xs, node):\n    out = []\n    out.append(max(xs))\n    if any(x < 0 for x in xs):\n        return node.left\n    return out\n\n\ndef g(min):\n    return min(1, 2) + node.right.count(3)\n"
	p, err := program.Parse("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	tests := []struct {
		op   Operator
		want []string
	}{
		{opSibling, []string{
			"line 3: replaced `append` with `extend`",
			"line 3: replaced `append` with `appendleft`",
			"line 3: replaced `max` with `min`",
			"line 4: replaced `any` with `all`",
			// min is a parameter of g: not the builtin.
		}},
		{opAttr, []string{
			"line 3: replaced `append` with `left`", "line 3: replaced `append` with `right`", "line 3: replaced `append` with `count`",
			"line 5: replaced `left` with `append`", "line 5: replaced `left` with `right`", "line 5: replaced `left` with `count`",
			"line 10: replaced `right` with `append`", "line 10: replaced `right` with `left`", "line 10: replaced `right` with `count`",
			"line 10: replaced `count` with `append`", "line 10: replaced `count` with `left`", "line 10: replaced `count` with `right`",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.op.Name, func(t *testing.T) {
			got := describeEdits(t, c, tt.op)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("edits (-want +got):\n%s", diff)
			}
		})
	}
}

// describeEdits describes every edit op proposes at each of its targets,
// checking that each renders to a program that parses.
func describeEdits(t *testing.T, c *Context, op Operator) []string {
	t.Helper()
	p := c.Prog
	var got []string
	for _, id := range op.Targets(c).ids {
		op.Edits(c, id, func(e program.Edit) {
			if _, err := program.Parse("out.py", p.Render(program.Patch{e})); err != nil {
				t.Errorf("%s: %v", p.Describe(e), err)
			}
			got = append(got, p.Describe(e))
		})
	}
	return got
}

// The sweep takes the edits at the most suspicious statement first, in
// the same order every time, each once; a statement half as suspicious
// comes after the top one's edits even when its operator weighs more.
func TestSweep(t *testing.T) {
	src := "def f(a, b):\n    t = a + b\n    if t > 3:\n        return t\n    return a\n"
	p, err := program.Parse("f.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	top := -1
	weights := make([]float64, len(p.Stmts))
	for i := range p.Stmts {
		weights[i] = 0.5
		if p.StmtText(i) == "return t" {
			weights[i], top = 1, i
		}
	}
	c := NewContext(p, weights)
	tests := []struct {
		name     string
		ops      []Weighted
		firstTop int // edits of the top statement that must come first
	}{
		{"one operator", []Weighted{{opDelete, 1}}, 1},
		{"a heavier operator elsewhere", []Weighted{{opDelete, 1}, {opCmp, 4}}, 1},
		{"wrap at the top before a name anywhere else", []Weighted{{opWrap, 0.25}, {opIdent, 2}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			order := func() []program.Edit {
				_, sw := NewStreams(c, tt.ops, rand.New(rand.NewPCG(1, 2)), 0, 1000)
				var out []program.Edit
				for e, ok := sw.Next(); ok; e, ok = sw.Next() {
					out = append(out, e)
				}
				return out
			}
			a, b := order(), order()
			if len(a) < tt.firstTop || !slices.Equal(a, b) {
				t.Fatalf("sweep of %d edits, again %d, orders equal %v", len(a), len(b), slices.Equal(a, b))
			}
			seen := map[program.Edit]bool{}
			for i, e := range a {
				if seen[e] {
					t.Fatalf("edit %v twice", e)
				}
				seen[e] = true
				stmt := e.Stmt
				if e.Op == program.ReplaceText || e.Op == program.SwapText {
					stmt = p.Sites[e.Site].Stmt
				}
				if i < tt.firstTop && stmt != top {
					t.Errorf("edit %d is %s, not at the top statement", i, p.Describe(e))
				}
			}
		})
	}
}

// At equal suspiciousness the sweep takes a function's statements before
// the module's, which every case runs at import; but not before a table
// the function reads, weighed as its reader (SetData).
func TestSweepImportLast(t *testing.T) {
	p, err := program.Parse("m.py", []byte("LIMIT = 3\n\ndef f(a):\n    return a\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []int
		want []string
	}{
		{"module code", nil, []string{"return a", "LIMIT = 3"}},
		{"a table its reader weighs", []int{0}, []string{"LIMIT = 3", "return a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewContext(p, nil)
			c.SetData(tt.data)
			_, sw := NewStreams(c, []Weighted{{opDelete, 1}}, rand.New(rand.NewPCG(1, 2)), 0, 10)
			var got []string
			for e, ok := sw.Next(); ok; e, ok = sw.Next() {
				got = append(got, p.StmtText(e.Stmt))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("sweep deletes %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSweepLimitPrefix: a sweep limit keeps the first edits of the sweep's
// order, whatever the limit: the edits left out once its draws are trimmed
// (their keys past the largest kept) are never among them.
func TestSweepLimitPrefix(t *testing.T) {
	var sb strings.Builder
	for k := 0; k < 12; k++ {
		fmt.Fprintf(&sb, "def f%d(a, b):\n    t = a + %d\n    for i in range(b):\n        if i %% 3 == 0:\n            t -= i\n        else:\n            t += a * i\n    return t\n\n", k, k)
	}
	p, err := program.Parse("big.py", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	weights := make([]float64, len(p.Stmts))
	for i := range weights {
		weights[i] = 0.1 + float64(i%7)/10
	}
	c := NewContext(p, weights)
	sweep := func(limit int) []program.Edit {
		_, sw := NewStreams(c, Default(), rand.New(rand.NewPCG(1, 2)), 0, limit)
		var out []program.Edit
		for e, ok := sw.Next(); ok; e, ok = sw.Next() {
			out = append(out, e)
		}
		return out
	}
	all := sweep(1 << 22)
	if len(all) < 4*trimSlack {
		t.Fatalf("only %d edits", len(all))
	}
	for _, limit := range []int{1, 10, 1000, len(all) / 5, len(all) - 1} {
		if got := sweep(limit); !slices.Equal(got, all[:limit]) {
			t.Errorf("limit %d: not the first %d edits of the sweep", limit, limit)
		}
	}
}

// TestWeighEverySampler: Weigh weighs the targets of every operator (a
// sampler it missed would draw its targets uniformly, at statements no
// failing case ran), every operator has a default weight, and a context
// prepared before the ranking and weighed after draws as one made with
// the weights.
func TestWeighEverySampler(t *testing.T) {
	p, err := program.ParseFile("testdata/sample.py")
	if err != nil {
		t.Fatal(err)
	}
	c0 := Prepare(p)
	weighed := map[*Sampler]bool{}
	for _, s := range c0.samplers() {
		weighed[s] = true
	}
	for _, o := range All {
		if !weighed[o.Targets(c0)] {
			t.Errorf("%s: its targets are not weighed", o.Name)
		}
		if o.Weight <= 0 {
			t.Errorf("%s: no default weight", o.Name)
		}
	}

	weights := make([]float64, len(p.Stmts))
	for i := range weights {
		weights[i] = float64(i % 3) // some statements of no weight
	}
	want := Neighbourhood(NewContext(p, weights), Default(), rand.New(rand.NewPCG(1, 2)), 1<<20)
	prepared := Prepare(p)
	prepared.Weigh(nil)
	prepared.Weigh(weights)
	got := Neighbourhood(prepared, Default(), rand.New(rand.NewPCG(1, 2)), 1<<20)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("prepared then weighed: %d edits, made with the weights: %d (equal %v)", len(got), len(want), slices.Equal(got, want))
	}
}

// TestSweepCrashGuards: where a failing case crashed, the guards whose
// condition reads a name of the crashing statement come first in the
// sweep, before the top statement's own edits; without a crash they come
// after many of them.
func TestSweepCrashGuards(t *testing.T) {
	src := "def first(items, n):\n    size = len(items) + n\n    head = items[0]\n    return head * size\n"
	p, err := program.Parse("f.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	crash := -1
	weights := make([]float64, len(p.Stmts))
	for i := range p.Stmts {
		weights[i] = 0.5
		if p.StmtText(i) == "head = items[0]" {
			weights[i], crash = 1, i
		}
	}
	firstGuard := func(crashes []int) int {
		c := NewContext(p, weights)
		c.SetCrashes(crashes)
		_, sw := NewStreams(c, Default(), rand.New(rand.NewPCG(1, 2)), 0, 2000)
		for i := 0; ; i++ {
			e, ok := sw.Next()
			if !ok {
				return -1
			}
			if e.Op == program.InsertText && e.Stmt == crash && strings.HasPrefix(e.Text, "if not items:") {
				return i
			}
		}
	}
	with, without := firstGuard([]int{crash}), firstGuard(nil)
	if with < 0 || with >= 2*crashGuards {
		t.Errorf("with the crash, the guard if not items comes at %d of the sweep; want among the first %d", with, 2*crashGuards)
	}
	if without >= 0 && without <= with {
		t.Errorf("without the crash it comes at %d, with it at %d", without, with)
	}
}
