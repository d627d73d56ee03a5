package fitness

import (
	"fmt"
	"math"
	"testing"

	"repair/internal/inputerr"
)

// weightedSuite has cases of the given weights.
func weightedSuite(weights ...float64) *Suite {
	s := &Suite{Path: "tests.json", Function: "f", MemoryMB: DefaultMemoryMB}
	for i, w := range weights {
		s.Cases = append(s.Cases, Case{Name: "c", Kind: Call, Function: "f", Weight: w, Timeout: 2, Path: fmt.Sprintf("tests[%d]", i)})
	}
	return s
}

// outcome passes the listed cases of n.
func outcome(n int, passed ...int) *Outcome {
	o := &Outcome{Results: make([]Result, n)}
	for i := range o.Results {
		o.Results[i].Verdict = WrongAnswer
	}
	for _, i := range passed {
		o.Results[i].Verdict = Passed
	}
	return o
}

func TestScore(t *testing.T) {
	// Four cases weighing 1, 1, 2, 1; the original passes cases 0 and 1.
	// Positive: {0, 1}, Σw = 2. Negative: {2, 3}, Σw = 3.
	suite := weightedSuite(1, 1, 2, 1)
	original := outcome(4, 0, 1)
	tests := []struct {
		name      string
		w         Weights
		candidate *Outcome
		want      float64
	}{
		{"book: all pass", DefaultWeights(), outcome(4, 0, 1, 2, 3), 1},
		{"book: like the original", DefaultWeights(), outcome(4, 0, 1), 0.99},
		{"book: half the positive, the heavy negative", DefaultWeights(), outcome(4, 0, 2), 0.99*1.0/2 + 0.01*2.0/3}, // 0.50166…
		{"book: negatives only", DefaultWeights(), outcome(4, 2, 3), 0.01},
		{"book: positives and the heavy negative", DefaultWeights(), outcome(4, 0, 1, 2), 0.99 + 0.01*2.0/3}, // 0.99666…
		{"book: nothing", DefaultWeights(), outcome(4), 0},
		{"book: compile error", DefaultWeights(), &Outcome{CompileError: "SyntaxError", Results: outcome(4).Results}, 0},
		{"zero value weighting is relative", Weights{Passing: 0.99, Failing: 0.01}, outcome(4, 0, 2), 0.99*1.0/2 + 0.01*2.0/3},
		{"relative weights are normalised", Weights{Passing: 3, Failing: 1}, outcome(4, 0, 2), (3*0.5 + 1*2.0/3) / 4}, // 0.54166…
		{"genprog: like the original", GenProgWeights(), outcome(4, 0, 1), 2.0 / 32},                                  // (1·2)/(1·2+10·3)
		{"genprog: one positive, the heavy negative", GenProgWeights(), outcome(4, 0, 2), 21.0 / 32},                  // (1·1+10·2)/32
		{"genprog: positives and the heavy negative", GenProgWeights(), outcome(4, 0, 1, 2), 22.0 / 32},
		{"genprog: all pass", GenProgWeights(), outcome(4, 0, 1, 2, 3), 1},
		{"genprog: compile error", GenProgWeights(), &Outcome{CompileError: "x", Results: outcome(4).Results}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := NewScorer(suite, original, tt.w)
			if err != nil {
				t.Fatal(err)
			}
			got := sc.Score(tt.candidate)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Score = %.15f, want %.15f", got, tt.want)
			}
			vs := make([]Verdict, len(tt.candidate.Results))
			for i, r := range tt.candidate.Results {
				vs[i] = r.Verdict
				if tt.candidate.CompileError != "" {
					vs[i] = CompilationError
				}
			}
			if got2 := sc.ScoreVerdicts(vs); got2 != got {
				t.Errorf("ScoreVerdicts = %v, Score = %v", got2, got)
			}
		})
	}
}

func TestScoreOneClass(t *testing.T) {
	suite := weightedSuite(1, 1, 2, 1)
	tests := []struct {
		name      string
		original  *Outcome
		w         Weights
		candidate *Outcome
		want      float64
	}{
		// The original passes everything: the positive fraction is the fitness.
		{"no negatives, book", outcome(4, 0, 1, 2, 3), DefaultWeights(), outcome(4, 0, 2), 3.0 / 5},
		{"no negatives, genprog", outcome(4, 0, 1, 2, 3), GenProgWeights(), outcome(4, 0, 2), 3.0 / 5},
		// The original passes nothing (or does not compile): the negative fraction.
		{"no positives, book", outcome(4), DefaultWeights(), outcome(4, 0, 2), 3.0 / 5},
		{"original does not compile", &Outcome{CompileError: "x", Results: outcome(4, 0, 1).Results}, DefaultWeights(), outcome(4, 0, 2), 3.0 / 5},
		{"no positives, genprog", outcome(4), GenProgWeights(), outcome(4, 3), 1.0 / 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := NewScorer(suite, tt.original, tt.w)
			if err != nil {
				t.Fatal(err)
			}
			if got := sc.Score(tt.candidate); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Score = %v, want %v", got, tt.want)
			}
			if got := sc.Score(outcome(4, 0, 1, 2, 3)); got != 1 {
				t.Errorf("Score(all pass) = %v, want 1", got)
			}
		})
	}
}

// TestScoreOneMeansAllPass: rounding never lifts a failing candidate to 1.
func TestScoreOneMeansAllPass(t *testing.T) {
	suite := weightedSuite(1, 1)
	sc, err := NewScorer(suite, outcome(2, 0), Weights{Passing: 1, Failing: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Score(outcome(2, 0)); got >= 1 {
		t.Errorf("Score(one fails) = %v, want < 1", got)
	}
	if got := sc.Score(outcome(2, 0, 1)); got != 1 {
		t.Errorf("Score(all pass) = %v, want 1", got)
	}
}

func TestScorerCounts(t *testing.T) {
	sc, err := NewScorer(weightedSuite(1, 1, 1), outcome(3, 1), DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	if p, n := sc.Counts(); p != 1 || n != 2 {
		t.Errorf("Counts = %d, %d, want 1, 2", p, n)
	}
	if sc.Positive(0) || !sc.Positive(1) {
		t.Errorf("Positive(0), Positive(1) = %v, %v", sc.Positive(0), sc.Positive(1))
	}
	if sc.Weights() != DefaultWeights() {
		t.Errorf("Weights = %+v", sc.Weights())
	}
}

func TestWeightsValidate(t *testing.T) {
	bad := []Weights{
		{Passing: 0, Failing: 1},
		{Passing: 1, Failing: -1},
		{Passing: math.NaN(), Failing: 1},
		{Passing: 1, Failing: math.Inf(1)},
		{Weighting: 7, Passing: 1, Failing: 1},
	}
	for _, w := range bad {
		if err := w.Validate(); err == nil || !inputerr.Is(err) {
			t.Errorf("Validate(%+v) = %v, want an inputerr", w, err)
		}
		if _, err := NewScorer(weightedSuite(1), outcome(1), w); err == nil {
			t.Errorf("NewScorer(%+v) succeeded", w)
		}
	}
	for _, w := range []Weights{DefaultWeights(), GenProgWeights()} {
		if err := w.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", w, err)
		}
	}
}

func TestNewScorerMismatch(t *testing.T) {
	if _, err := NewScorer(weightedSuite(1, 1), outcome(3), DefaultWeights()); err == nil {
		t.Error("NewScorer with 3 results for 2 cases succeeded")
	}
	sc, _ := NewScorer(weightedSuite(1, 1), outcome(2), DefaultWeights())
	defer func() {
		if recover() == nil {
			t.Error("Score with the wrong number of results did not panic")
		}
	}()
	sc.Score(outcome(3))
}

func TestParseWeighting(t *testing.T) {
	for _, w := range []Weighting{Relative, Absolute} {
		got, err := ParseWeighting(w.String())
		if err != nil || got != w {
			t.Errorf("ParseWeighting(%q) = %v, %v", w.String(), got, err)
		}
	}
	if _, err := ParseWeighting("genprog"); err == nil || !inputerr.Is(err) {
		t.Errorf("ParseWeighting(genprog) = %v, want an inputerr", err)
	}
}

func TestScoreAllocs(t *testing.T) {
	suite, original, candidate := bench200()
	sc, err := NewScorer(suite, original, DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { sc.Score(candidate) }); n != 0 {
		t.Errorf("Score allocates %v times", n)
	}
}

// bench200 is a 200-case suite, an original passing 3 of 4 cases and a
// candidate passing 9 of 10.
func bench200() (*Suite, *Outcome, *Outcome) {
	ws := make([]float64, 200)
	var orig, cand []int
	for i := range ws {
		ws[i] = float64(1 + i%3)
		if i%4 != 0 {
			orig = append(orig, i)
		}
		if i%10 != 0 {
			cand = append(cand, i)
		}
	}
	return weightedSuite(ws...), outcome(200, orig...), outcome(200, cand...)
}

func BenchmarkScore200(b *testing.B) {
	suite, original, candidate := bench200()
	for _, w := range []Weights{DefaultWeights(), GenProgWeights()} {
		sc, err := NewScorer(suite, original, w)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(w.Weighting.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sc.Score(candidate)
			}
		})
	}
}

// TestPartialCredit: a wrong answer where the original crashed or timed
// out earns half of the case's gain; where the original gave a wrong
// answer too, or on a case the original passed, it earns nothing.
func TestPartialCredit(t *testing.T) {
	suite := weightedSuite(1, 1, 1, 1)
	// Case 0 passes; 1 crashes; 2 times out; 3 gives a wrong answer.
	original := outcome(4, 0)
	original.Results[1].Verdict = RuntimeError
	original.Results[2].Verdict = TimeLimitExceeded
	with := func(vs ...Verdict) *Outcome {
		o := &Outcome{Results: make([]Result, len(vs))}
		for i, v := range vs {
			o.Results[i].Verdict = v
		}
		return o
	}
	const p, pass = 0.99, 0.01 / 3 // the gain of the positive case, of each negative one
	tests := []struct {
		name      string
		candidate *Outcome
		want      float64
	}{
		{"like the original", with(Passed, RuntimeError, TimeLimitExceeded, WrongAnswer), p},
		{"the crash now a wrong answer", with(Passed, WrongAnswer, TimeLimitExceeded, WrongAnswer), p + PartialCredit*pass},
		{"the timeout now a wrong answer", with(Passed, RuntimeError, WrongAnswer, WrongAnswer), p + PartialCredit*pass},
		{"both further, one passes", with(Passed, WrongAnswer, Passed, WrongAnswer), p + pass + PartialCredit*pass},
		{"a wrong answer where the original passed", with(WrongAnswer, WrongAnswer, WrongAnswer, WrongAnswer), 2 * PartialCredit * pass},
		{"all pass", with(Passed, Passed, Passed, Passed), 1},
	}
	sc, err := NewScorer(suite, original, DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sc.Score(tt.candidate); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Score = %.15f, want %.15f", got, tt.want)
			}
			vs := make([]Verdict, len(tt.candidate.Results))
			for i, r := range tt.candidate.Results {
				vs[i] = r.Verdict
			}
			if got := sc.ScoreVerdicts(vs); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("ScoreVerdicts = %.15f, want %.15f", got, tt.want)
			}
		})
	}
}

// TestProgressCredit: a failing test function earns PartialCredit × its
// progress (the share of its asserts passed) of its gain, whether it failed
// an assert or raised; never as much as a pass.
func TestProgressCredit(t *testing.T) {
	suite := weightedSuite(1, 1)
	original := outcome(2, 0) // case 0 passes, case 1 fails
	original.Results[1].Verdict = WrongAnswer
	at := func(v Verdict, p float64) *Outcome {
		return &Outcome{Results: []Result{{Verdict: Passed}, {Verdict: v, Progress: p}}}
	}
	const p, n = 0.99, 0.01
	tests := []struct {
		name      string
		candidate *Outcome
		want      float64
	}{
		{"no progress", at(WrongAnswer, 0), p},
		{"fails at the third of four asserts", at(WrongAnswer, 0.5), p + PartialCredit*0.5*n},
		{"raises after the third assert", at(RuntimeError, 0.75), p + PartialCredit*0.75*n},
		{"a timeout earns nothing", at(TimeLimitExceeded, 0.75), p},
		{"out of range is ignored", at(WrongAnswer, 1), p},
		{"NaN is ignored", at(WrongAnswer, math.NaN()), p},
		{"passes", at(Passed, 0.5), 1},
	}
	sc, err := NewScorer(suite, original, DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sc.Score(tt.candidate); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Score = %.15f, want %.15f", got, tt.want)
			}
		})
	}
	if got := sc.Score(at(WrongAnswer, 0.99)); !(got < 1) {
		t.Errorf("a failing test with progress 0.99 scores %v", got)
	}
}
