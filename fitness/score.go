package fitness

import (
	"fmt"
	"math"

	"repair/internal/inputerr"
)

// Weighting selects how a candidate's passed cases add up to its fitness.
type Weighting uint8

const (
	// Relative is the Debugging Book's Repairer: the weighted fraction of
	// positive cases passed times Weights.Passing plus the weighted fraction
	// of negative cases passed times Weights.Failing, divided by
	// Passing+Failing. When one class is empty the other's fraction is the
	// fitness.
	Relative Weighting = iota
	// Absolute is GenProg's (Weimer et al., ICSE 2009): Passing times the
	// summed weight of the positive cases passed plus Failing times that of
	// the negative cases passed, divided by its maximum (every case passed).
	Absolute
)

var weightingNames = [...]string{Relative: "relative", Absolute: "absolute"}

func (w Weighting) String() string {
	if int(w) < len(weightingNames) {
		return weightingNames[w]
	}
	return fmt.Sprintf("Weighting(%d)", w)
}

// ParseWeighting is the inverse of [Weighting.String] ("relative",
// "absolute"); the error is an [inputerr.Error].
func ParseWeighting(s string) (Weighting, error) {
	for i, n := range weightingNames {
		if n == s {
			return Weighting(i), nil
		}
	}
	return 0, inputerr.New("unknown weighting %q (want relative or absolute)", s)
}

// Weights are the parameters of the fitness function. The zero Weighting
// is Relative, so Weights{Passing: 0.99, Failing: 0.01} is the default.
type Weights struct {
	Weighting Weighting
	// Passing weighs the positive cases (those the original program
	// passes), Failing the negative ones. Both must be finite and > 0, so
	// that a fitness of 1 means every case passes.
	Passing, Failing float64
}

// DefaultWeights are the Debugging Book's: relative, 0.99 / 0.01.
func DefaultWeights() Weights { return Weights{Weighting: Relative, Passing: 0.99, Failing: 0.01} }

// GenProgWeights are GenProg's: absolute, W_pos = 1, W_neg = 10.
func GenProgWeights() Weights { return Weights{Weighting: Absolute, Passing: 1, Failing: 10} }

// Validate reports weights a Scorer cannot use, as an [inputerr.Error].
func (w Weights) Validate() error {
	if w.Weighting > Absolute {
		return inputerr.New("fitness weights: unknown weighting %d", w.Weighting)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"passing", w.Passing}, {"failing", w.Failing}} {
		if !(p.v > 0) || math.IsInf(p.v, 0) {
			return inputerr.New("fitness weights: the %s weight must be a number > 0, got %v", p.name, p.v)
		}
	}
	return nil
}

// Scorer turns an [Outcome] into a fitness in [0, 1]. It is built once per
// run from the original program's outcome, which splits the cases into
// positive (passed by the original) and negative (the others), and is then
// read-only: Score is safe for concurrent use and does not allocate.
//
// Invariant: Score returns exactly 1 if and only if every case passed, and
// 0 for a candidate that does not compile.
type Scorer struct {
	// gain[i] is what case i adds to the fitness when it passes; the gains
	// of all cases add up to 1 (up to rounding).
	gain []float64
	// partial[i] is what case i adds when it gives a wrong answer where
	// the original crashed or timed out (see PartialCredit).
	partial  []float64
	positive []bool
	pos, neg int
	weights  Weights
}

// NewScorer builds the scorer of s for the original program's outcome.
// Case weights come from s; an outcome of the wrong length is a bug of the
// caller (a plain error), bad weights an [inputerr.Error].
func NewScorer(s *Suite, original *Outcome, w Weights) (*Scorer, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	n := len(s.Cases)
	if len(original.Results) != n {
		return nil, fmt.Errorf("fitness: the original's outcome has %d results, the suite %d cases", len(original.Results), n)
	}
	sc := &Scorer{gain: make([]float64, n), partial: make([]float64, n), positive: make([]bool, n), weights: w}
	var wpos, wneg float64 // summed case weights of each class
	for i, r := range original.Results {
		cw := s.Cases[i].Weight
		if !(cw > 0) || math.IsInf(cw, 0) {
			return nil, fmt.Errorf("fitness: %s: weight %v is not > 0", s.Where(i), cw)
		}
		if r.Verdict == Passed && original.CompileError == "" {
			sc.positive[i] = true
			sc.pos++
			wpos += cw
		} else {
			sc.neg++
			wneg += cw
		}
	}
	// What one unit of case weight is worth in each class.
	var unitPos, unitNeg float64
	switch w.Weighting {
	case Relative:
		switch {
		case sc.pos == 0:
			unitNeg = 1 / wneg
		case sc.neg == 0:
			unitPos = 1 / wpos
		default:
			sum := w.Passing + w.Failing
			unitPos = w.Passing / sum / wpos
			unitNeg = w.Failing / sum / wneg
		}
	case Absolute:
		max := w.Passing*wpos + w.Failing*wneg
		unitPos, unitNeg = w.Passing/max, w.Failing/max
	}
	for i := range sc.gain {
		if sc.positive[i] {
			sc.gain[i] = unitPos * s.Cases[i].Weight
		} else {
			sc.gain[i] = unitNeg * s.Cases[i].Weight
			if v := original.Results[i].Verdict; v == RuntimeError || v == TimeLimitExceeded {
				sc.partial[i] = PartialCredit * sc.gain[i]
			}
		}
	}
	return sc, nil
}

// Score is the fitness of a candidate's outcome: 0 when it does not
// compile, 1 when every case passes, and strictly between (or 0) otherwise.
// It panics when o has not one result per case (a broken engine).
func (sc *Scorer) Score(o *Outcome) float64 {
	if o.CompileError != "" {
		return 0
	}
	if len(o.Results) != len(sc.gain) {
		panic(fmt.Sprintf("fitness: outcome has %d results, the suite %d cases", len(o.Results), len(sc.gain)))
	}
	f, all := 0.0, true
	for i := range o.Results {
		r := &o.Results[i]
		switch r.Verdict {
		case Passed:
			f += sc.gain[i]
			continue
		case WrongAnswer:
			f += sc.partial[i]
		}
		all = false
		if p := r.Progress; p > 0 && p < 1 && (r.Verdict == WrongAnswer || r.Verdict == RuntimeError) {
			f += PartialCredit * p * sc.gain[i]
		}
	}
	return sc.finish(f, all)
}

// ScoreVerdicts is [Scorer.Score] for a list of verdicts, one per case
// (what a [Cache] keeps), without the credit of Result.Progress.
func (sc *Scorer) ScoreVerdicts(vs []Verdict) float64 {
	if len(vs) != len(sc.gain) {
		panic(fmt.Sprintf("fitness: %d verdicts, the suite %d cases", len(vs), len(sc.gain)))
	}
	f, all := 0.0, true
	for i, v := range vs {
		switch v {
		case Passed:
			f += sc.gain[i]
		case WrongAnswer:
			f += sc.partial[i]
			all = false
		case CompilationError:
			return 0
		default:
			all = false
		}
	}
	return sc.finish(f, all)
}

func (sc *Scorer) finish(f float64, all bool) float64 {
	if all {
		return 1
	}
	// Rounding must never make a failing candidate look perfect.
	return math.Min(f, math.Nextafter(1, 0))
}

// PartialCredit is the share of a failing case's gain that a candidate
// earns by returning a wrong answer (or, in a test function, reaching a
// failing assert) where the original crashed or timed out: it got further.
// Without it a suite whose failing cases all crash gives every candidate
// that still crashes and every one that no longer does the same fitness,
// and the search has no gradient towards the fix (a plateau at 0 when the
// original passes no case).
//
// A test function that fails after k of its n asserts (Result.Progress =
// k/n) earns PartialCredit × k/n of its gain on top, whether it failed an
// assert or raised: one with several asserts is a staircase, not a single
// step, and an exception later in the test scores above an earlier one.
// The credit stays below the gain: only a pass earns all of it.
const PartialCredit = 0.5

// Positive reports whether case i passed on the original program.
func (sc *Scorer) Positive(i int) bool { return sc.positive[i] }

// Counts returns the number of positive and negative cases.
func (sc *Scorer) Counts() (positive, negative int) { return sc.pos, sc.neg }

// Weights returns the weights the scorer was built with.
func (sc *Scorer) Weights() Weights { return sc.weights }
