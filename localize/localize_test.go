package localize

import (
	stdcmp "cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/program"
)

func TestFormulas(t *testing.T) {
	tests := []struct {
		name string
		f    Formula
		s    Spectrum
		want float64
	}{
		{"ochiai", Ochiai, Spectrum{EF: 2, EP: 1, NF: 2, NP: 5}, 2 / math.Sqrt(4*3)},
		{"ochiai all failing only", Ochiai, Spectrum{EF: 4, NP: 6}, 1},
		{"ochiai not executed", Ochiai, Spectrum{NF: 4, NP: 6}, 0},
		{"ochiai no failing cases", Ochiai, Spectrum{EP: 3, NP: 2}, 0},
		{"tarantula", Tarantula, Spectrum{EF: 2, EP: 1, NF: 2, NP: 3}, (2.0 / 4) / (2.0/4 + 1.0/4)},
		{"tarantula no passing cases", Tarantula, Spectrum{EF: 2, NF: 2}, 1},
		{"tarantula no failing cases", Tarantula, Spectrum{EP: 2, NP: 2}, 0},
		{"jaccard", Jaccard, Spectrum{EF: 3, EP: 2, NF: 1, NP: 4}, 3.0 / 6},
		{"jaccard empty", Jaccard, Spectrum{}, 0},
		{"dstar", DStar, Spectrum{EF: 3, EP: 2, NF: 1, NP: 4}, 9.0 / 3},
		{"dstar zero denominator", DStar, Spectrum{EF: 3, NP: 4}, 9.0 / 0.5},
		{"op2", Op2, Spectrum{EF: 3, EP: 2, NF: 1, NP: 4}, 3 - 2.0/7},
		{"op2 not executed by failing", Op2, Spectrum{EP: 2, NF: 1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.f.Score(tt.s)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("%s(%+v) = %v, want %v", tt.f.Name, tt.s, got, tt.want)
			}
		})
	}
}

func TestByName(t *testing.T) {
	for _, n := range []string{"ochiai", "tarantula", "jaccard", "dstar", "op2"} {
		if f, ok := ByName(n); !ok || f.Name != n || f.Doc == "" {
			t.Errorf("ByName(%q) = %v, %v", n, f.Name, ok)
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Errorf("ByName(nope) found something")
	}
}

const middle = `def middle(x, y, z):
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
`

func result(v fitness.Verdict, lines ...int) fitness.Result {
	return fitness.Result{Verdict: v, Lines: lines}
}

func TestRank(t *testing.T) {
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	// Two failing cases take the buggy path (lines 2, 3, 5, 6); three
	// passing cases take other paths, one of them the buggy line too.
	o := &fitness.Outcome{Results: []fitness.Result{
		result(fitness.WrongAnswer, 2, 3, 5, 6),
		result(fitness.WrongAnswer, 2, 3, 5, 6),
		result(fitness.Passed, 2, 3, 5, 6),
		result(fitness.Passed, 2, 3, 4),
		result(fitness.Passed, 2, 8, 9),
	}}
	rk := Rank(p, o, Ochiai)
	if rk.Failing != 2 || rk.Passing != 3 || rk.Uniform {
		t.Fatalf("failing/passing/uniform = %d/%d/%v", rk.Failing, rk.Passing, rk.Uniform)
	}
	if len(rk.Entries) == 0 {
		t.Fatal("Rank ranked no statement")
	}
	if rk.Entries[0].Text != "" {
		t.Errorf("Rank made a text: %q", rk.Entries[0].Text)
	}
	Texts(p, rk.Entries)
	top := rk.Entries[0]
	// The first "return y" on line 6: ef=2, ep=1, nf=0, np=2.
	wantTop := Entry{Stmt: top.Stmt, Line: 6, Score: 2 / math.Sqrt(2*3), Spectrum: Spectrum{EF: 2, EP: 1, NP: 2}, Text: "return y"}
	if diff := cmp.Diff(wantTop, top); diff != "" {
		t.Errorf("top entry mismatch (-want +got):\n%s", diff)
	}
	// Then the inner if (ef=2, ep=2), then the outer if and the def, which
	// every case executes (ef=2, ep=3): the tie broken by their distance
	// from the failing return (the outer if holds it, the def holds the
	// outer if); then the rest.
	var lines []int
	for _, e := range rk.Entries {
		lines = append(lines, e.Line)
	}
	if diff := cmp.Diff([]int{6, 3, 2, 1, 4, 8, 9, 11, 12}, lines); diff != "" {
		t.Errorf("ranking order mismatch (-want +got):\n%s", diff)
	}
	// Statements no failing case executes weigh 0.
	for _, e := range rk.Entries {
		if e.EF == 0 && rk.Weights[e.Stmt] != 0 {
			t.Errorf("line %d: weight %v with ef=0", e.Line, rk.Weights[e.Stmt])
		}
	}
}

// TestRankSharedLines: results that share one Lines slice (as the cpython
// engine's do, for cases that took one path), or a prefix of one, rank
// and execute as results with copies of their own.
func TestRankSharedLines(t *testing.T) {
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	buggy := []int{2, 3, 5, 6}
	shared := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.WrongAnswer, Lines: buggy},
		{Verdict: fitness.Passed, Lines: buggy[:2]}, // the same first element, fewer lines
		{Verdict: fitness.WrongAnswer, Lines: buggy},
		{Verdict: fitness.Passed, Lines: buggy},
		result(fitness.Passed, 2, 8, 9),
		{Verdict: fitness.Passed, Lines: buggy[:2]},
	}}
	own := &fitness.Outcome{Results: slices.Clone(shared.Results)}
	for i := range own.Results {
		own.Results[i].Lines = slices.Clone(own.Results[i].Lines)
	}
	if diff := cmp.Diff(Rank(p, own, Ochiai), Rank(p, shared, Ochiai)); diff != "" {
		t.Errorf("ranking mismatch (-own +shared):\n%s", diff)
	}
	if diff := cmp.Diff(ExecutedAny(p, own), ExecutedAny(p, shared)); diff != "" {
		t.Errorf("ExecutedAny mismatch (-own +shared):\n%s", diff)
	}
}

func TestRankUniform(t *testing.T) {
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	// The failing case executes nothing (it fails before calling).
	o := &fitness.Outcome{Results: []fitness.Result{result(fitness.RuntimeError), result(fitness.Passed, 1, 2, 12)}}
	rk := Rank(p, o, Ochiai)
	if !rk.Uniform {
		t.Fatalf("not uniform")
	}
	for i, w := range rk.Weights {
		if w != 1 {
			t.Errorf("weight[%d] = %v, want 1", i, w)
		}
	}
}

func TestExecutedCompound(t *testing.T) {
	p, err := program.Parse("t.py", []byte("try:\n    a = 1\nexcept E:\n    b = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	// CPython reports no line event for "try:" itself: the try statement
	// counts as executed because its body ran.
	ex := Executed(p, []int{2})
	if diff := cmp.Diff([]bool{true, true, false}, ex); diff != "" {
		t.Errorf("executed mismatch (-want +got):\n%s", diff)
	}
}

// TestStoppedWeight: when a failing case stopped early, the statements of
// its function that only passing cases executed get StoppedWeight of the
// function's least score; other statements keep theirs.
func TestStoppedWeight(t *testing.T) {
	const grade = `def letter(score):
    if score >= 90:
        return "A"
    if score > 80:
        return "B"
    if score > 60:
        return "D"
    return "F"


def unused():
    return 1
`
	p, err := program.Parse("grade.py", []byte(grade))
	if err != nil {
		t.Fatal(err)
	}
	// A passing case runs lines 1, 2, 4, 6, 8; the failing one stops at
	// line 5 (its test's later asserts never ran).
	passing := fitness.Result{Verdict: fitness.Passed, Lines: []int{1, 2, 4, 6, 8, 11}}
	tests := []struct {
		name    string
		failing fitness.Result
		floored bool
	}{
		{"a failed assert after others passed", fitness.Result{Verdict: fitness.WrongAnswer, Progress: 0.25, Lines: []int{1, 2, 4, 5}}, true},
		{"an exception", fitness.Result{Verdict: fitness.RuntimeError, Lines: []int{1, 2, 4, 5}}, true},
		{"a wrong return value", fitness.Result{Verdict: fitness.WrongAnswer, Lines: []int{1, 2, 4, 5}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rk := Rank(p, &fitness.Outcome{Results: []fitness.Result{passing, tt.failing}}, Ochiai)
			byLine, score := map[int]float64{}, map[int]float64{}
			for i, st := range p.Stmts {
				byLine[st.Line] = rk.Weights[i]
			}
			for _, e := range rk.Entries {
				score[e.Line] = e.Score
			}
			least := math.Min(score[2], score[4]) // executed by both
			want := map[int]float64{1: byLine[1], 2: byLine[2], 3: 0, 4: byLine[4], 5: 1, 6: 0, 7: 0, 8: 0, 11: 0, 12: 0}
			if tt.floored {
				// Lines 6 and 8 ran in passing cases only; 3 and 7 in none;
				// the module's statements (def unused) and unused() are no
				// function a failing case ran.
				want[6], want[8] = StoppedWeight*least, StoppedWeight*least
			}
			if diff := cmp.Diff(want, byLine); diff != "" {
				t.Errorf("weights by line (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTies: statements of one score are ordered by their distance from
// where the failing cases failed, and weigh less the farther they are,
// never as little as the next lower score.
func TestTies(t *testing.T) {
	const src = `def mean(xs, log):
    log.append("mean")
    n = len(xs)
    total = sum(xs)
    log.append(n)
    return total / n
`
	p, err := program.Parse("mean.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	every := []int{1, 2, 3, 4, 5, 6}
	tests := []struct {
		name    string
		failing fitness.Result
		want    []int // lines, most suspicious first
	}{
		{
			// The division raises: what it reads (n, total) first, then
			// what they read; the log calls last.
			name:    "an exception's line",
			failing: fitness.Result{Verdict: fitness.RuntimeError, Detail: "ZeroDivisionError: division by zero (line 6)", Lines: every},
			want:    []int{6, 3, 4, 1, 2, 5},
		},
		{
			name:    "a wrong return value",
			failing: fitness.Result{Verdict: fitness.WrongAnswer, Detail: "expected 2, got 1", Lines: every},
			want:    []int{6, 3, 4, 1, 2, 5},
		},
		{
			// A line of the test file says nothing of the candidate's.
			name:    "a test file's line",
			failing: fitness.Result{Verdict: fitness.RuntimeError, Detail: "AssertionError (test_mean.py line 3)", Lines: []int{1, 2, 3, 4, 5}},
			want:    []int{1, 2, 3, 4, 5, 6},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &fitness.Outcome{Results: []fitness.Result{tt.failing, {Verdict: fitness.Passed, Lines: every}}}
			rk := Rank(p, o, Ochiai)
			var lines []int
			for _, e := range rk.Entries {
				lines = append(lines, e.Line)
				if w := rk.Weights[e.Stmt]; e.Score > 0 && (w > e.Score || w <= e.Score*tieShare) {
					t.Errorf("line %d: weight %v outside (%v, %v]", e.Line, w, e.Score*tieShare, e.Score)
				}
			}
			if diff := cmp.Diff(tt.want, lines); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTiesKeepScores: breaking ties never moves a statement past one of
// another score.
func TestTiesKeepScores(t *testing.T) {
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	o := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.RuntimeError, Detail: "E (line 12)", Lines: []int{2, 3, 5, 12}},
		result(fitness.Passed, 2, 3, 5, 6),
		result(fitness.Passed, 2, 8, 9),
	}}
	rk := Rank(p, o, Ochiai)
	for i := 1; i < len(rk.Entries); i++ {
		a, b := rk.Entries[i-1], rk.Entries[i]
		if a.Score < b.Score {
			t.Errorf("line %d (score %v) before line %d (score %v)", a.Line, a.Score, b.Line, b.Score)
		}
		if a.Score > b.Score && rk.Weights[a.Stmt] <= rk.Weights[b.Stmt] {
			t.Errorf("line %d (score %v) weighs %v, not more than line %d (score %v, weight %v)",
				a.Line, a.Score, rk.Weights[a.Stmt], b.Line, b.Score, rk.Weights[b.Stmt])
		}
	}
}

// TestSortEntries: sortEntries, which sorts only the entries of some
// score or weight when those of neither are already in order, orders
// every list as sorting all of them does: score and weight descending,
// then line and statement.
func TestSortEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, 0, 0, 0.5, 1}
	for trial := range 3000 {
		n := rng.IntN(40)
		entries := make([]Entry, n)
		weights := make([]float64, n)
		line := 1
		for i := range entries {
			line += rng.IntN(2)
			entries[i] = Entry{Stmt: i, Line: line, Score: vals[rng.IntN(len(vals))]}
			weights[i] = vals[rng.IntN(len(vals))]
		}
		if trial%3 == 0 {
			// Not in statement order.
			rng.Shuffle(n, func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		}
		if trial%5 == 0 && n > 0 {
			weights[rng.IntN(n)] = -1
		}
		want := slices.Clone(entries)
		slices.SortFunc(want, func(a, b Entry) int {
			return stdcmp.Or(-stdcmp.Compare(a.Score, b.Score), -stdcmp.Compare(weights[a.Stmt], weights[b.Stmt]),
				stdcmp.Compare(a.Line, b.Line), stdcmp.Compare(a.Stmt, b.Stmt))
		})
		if got := sortEntries(entries, weights); !slices.Equal(got, want) {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
	}
}

// TestDefinitionWeights: every case runs a module's definitions and its
// __all__ at import. A definition none of whose function bodies a failing
// case ran weighs UncalledWeight of its score (ties may lower it a
// little more, never to nothing); one the failing case called keeps its
// weight; __all__ weighs nothing.
func TestDefinitionWeights(t *testing.T) {
	const src = `__all__ = ["letter", "unused"]


def letter(score):
    if score >= 90:
        return "A"
    return "F"


def unused():
    return 1


class Grades:
    def best(self):
        return "A"
`
	p, err := program.Parse("grade.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	passing := fitness.Result{Verdict: fitness.Passed, Lines: []int{1, 4, 5, 6, 10, 14, 15}}
	failing := fitness.Result{Verdict: fitness.WrongAnswer, Lines: []int{1, 4, 5, 7, 10, 14, 15}}
	rk := Rank(p, &fitness.Outcome{Results: []fitness.Result{passing, failing}}, Ochiai)
	score := map[int]float64{}
	for _, e := range rk.Entries {
		score[e.Line] = e.Score
	}
	for i, st := range p.Stmts {
		w, s := rk.Weights[i], score[st.Line]
		switch st.Line {
		case 1:
			if w != 0 {
				t.Errorf("__all__ weighs %v, want 0", w)
			}
		case 4:
			if w < s/2 {
				t.Errorf("def letter (called) weighs %v of its score %v", w, s)
			}
		case 10, 14, 15:
			if s == 0 || w <= 0 || w > UncalledWeight*s+1e-12 {
				t.Errorf("line %d (%s, not called) weighs %v of its score %v, want (0, %v]", st.Line, st.Kind, w, s, UncalledWeight*s)
			}
		}
	}
}

// TestModuleData: a module-level table weighs as the statement of a
// function a failing case ran that reads it (or as the body of a function
// whose parameter's default it is), not as the rest of what every case
// runs at import.
func TestModuleData(t *testing.T) {
	for _, tt := range []struct{ name, src string }{
		{"read in the body", `ESCAPES = {'"'}
OTHER = {'x'}


def escape(s):
    return "".join("\\" + c if c in ESCAPES else c for c in s)


def other(s):
    return s in OTHER
`},
		{"a parameter's default", `ESCAPES = {'"'}
OTHER = {'x'}


def escape(s, escapes=ESCAPES):
    return "".join("\\" + c if c in escapes else c for c in s)


def other(s):
    return s in OTHER
`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("esc.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			o := &fitness.Outcome{Results: []fitness.Result{
				{Verdict: fitness.Passed, Lines: []int{1, 2, 5, 9, 10}},
				{Verdict: fitness.Passed, Lines: []int{1, 2, 5, 9, 6}},
				{Verdict: fitness.WrongAnswer, Lines: []int{1, 2, 5, 9, 6}},
			}}
			rk := Rank(p, o, Ochiai)
			byLine := map[int]float64{}
			for i, st := range p.Stmts {
				byLine[st.Line] = rk.Weights[i]
			}
			// Line 6 runs in one passing case and the failing one:
			// 1/sqrt(2); the module's statements in every case: 1/sqrt(3).
			if byLine[1] <= byLine[2] || byLine[1] < 0.6 {
				t.Errorf("ESCAPES (read for the failing case's escape) weighs %.3f, OTHER %.3f: want ESCAPES above, near line 6's %.3f",
					byLine[1], byLine[2], byLine[6])
			}
			if byLine[2] > 1/math.Sqrt(3)+1e-9 {
				t.Errorf("OTHER weighs %.3f, want at most its own score %.3f (no failing case reads it)", byLine[2], 1/math.Sqrt(3))
			}
			// Ranking.Data names ESCAPES alone: the sweep tries its edits
			// as its reader's.
			var data []int
			for _, i := range rk.Data {
				data = append(data, p.Stmts[i].Line)
			}
			if !slices.Equal(data, []int{1}) {
				t.Errorf("Data are the statements of lines %v, want [1] (ESCAPES)", data)
			}
		})
	}
}

// TestUnbound: the failing cases' UnboundLocalError details, in both
// of CPython's wordings, name the local read before assignment and the
// statement where it was read; a passing case, another error or a
// detail without a line of the target name nothing.
func TestUnbound(t *testing.T) {
	const src = "def last(xs):\n    for x in xs:\n        y = x\n    return y\n"
	p, err := program.Parse("last.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ret := stmtAtLine(p, 4)
	for _, tt := range []struct {
		name    string
		results []fitness.Result
		want    []Unbound
	}{
		{"3.11", []fitness.Result{{Verdict: fitness.RuntimeError, Detail: "UnboundLocalError: cannot access local variable 'y' where it is not associated with a value (line 4)"}},
			[]Unbound{{ret, "y"}}},
		{"before 3.11", []fitness.Result{{Verdict: fitness.RuntimeError, Detail: "UnboundLocalError: local variable 'y' referenced before assignment (line 4)"}},
			[]Unbound{{ret, "y"}}},
		{"twice, once", []fitness.Result{
			{Verdict: fitness.RuntimeError, Detail: "UnboundLocalError: local variable 'y' referenced before assignment (line 4)"},
			{Verdict: fitness.WrongAnswer, Detail: "UnboundLocalError: local variable 'y' referenced before assignment (line 4)"}},
			[]Unbound{{ret, "y"}}},
		{"passed", []fitness.Result{{Verdict: fitness.Passed, Detail: "UnboundLocalError: local variable 'y' referenced before assignment (line 4)"}}, nil},
		{"another error", []fitness.Result{{Verdict: fitness.RuntimeError, Detail: "NameError: name 'y' is not defined (line 4)"}}, nil},
		{"no line of the target", []fitness.Result{{Verdict: fitness.RuntimeError, Detail: "UnboundLocalError: local variable 'y' referenced before assignment"}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Rank(p, &fitness.Outcome{Results: tt.results}, Ochiai).Unbound
			if !slices.Equal(got, tt.want) {
				t.Errorf("Unbound = %v, want %v", got, tt.want)
			}
		})
	}
}
