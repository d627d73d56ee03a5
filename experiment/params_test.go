package experiment

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/mutate"
	"repair/repair"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, param, raw string
		want             string
		err              string // substring of the error; "" means none
	}{
		{"int", "population", "40", "40", ""},
		{"int spaces", "population", " 40 ", "40", ""},
		{"int not a number", "population", "forty", "", `want an integer, got "forty"`},
		{"int float", "population", "4.5", "", "want an integer"},
		{"float short", "weight_failing", "0.100", "0.1", ""},
		{"float exponent", "weight_failing", "1e-2", "0.01", ""},
		{"float integer", "weight_passing", "1", "1", ""},
		{"float NaN", "elitism", "NaN", "", "want a number"},
		{"duration", "time_budget", "90s", "1m30s", ""},
		{"duration bare seconds", "time_budget", "30", "30s", ""},
		{"duration zero", "time_budget", "0", "0s", ""},
		{"duration negative", "time_budget", "-1s", "", "must be >= 0"},
		{"duration junk", "time_budget", "soon", "", "want a duration"},
		{"bool", "no_reduce", "true", "true", ""},
		{"bool junk", "all", "maybe", "", "want true or false"},
		{"operators default", "operators", "default", "default", ""},
		{"operators all", "operators", "all", "all", ""},
		{"operators list", "operators", "delete, insert=1, swap=2", "delete,insert,swap=2", ""},
		{"operators unknown", "operators", "delete,frobnicate", "", `unknown operator "frobnicate"`},
		{"selection", "selection", "truncation", "truncation", ""},
		{"selection unknown", "selection", "roulette", "", "must be tournament or truncation"},
		{"crossover", "crossover", "uniform", "uniform", ""},
		{"crossover unknown", "crossover", "two-point", "", "unknown crossover"},
		{"localization", "localization", "dstar", "dstar", ""},
		{"localization unknown", "localization", "magic", "", "must be one of ochiai"},
		{"weighting", "weighting", "absolute", "absolute", ""},
		{"weighting unknown", "weighting", "linear", "", "unknown weighting"},
		{"preset", "preset", "book", "book", ""},
		{"preset unknown", "preset", "fast", "", "must be book"},
		{"dashed name", "weight-failing", "0.1", "", "write weight_failing"},
		{"seed", "seed", "1", "", `"seed" is not a plan parameter: seeds come from the plan's "seeds"`},
		{"unknown", "populaton", "1", "", `unknown parameter "populaton" (known: preset, population,`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonical(tt.param, tt.raw)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Canonical(%q, %q) = %q, %v; want an error containing %q", tt.param, tt.raw, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Canonical(%q, %q) = %q, %v; want %q", tt.param, tt.raw, got, err, tt.want)
			}
		})
	}
}

// settings are the comparable fields of repair.Options.
type settings struct {
	Population, Generations, Evaluations int
	TimeBudget                           time.Duration
	MutationRate, CrossoverRate          float64
	Crossover, Selection                 string
	TournamentSize                       int
	Elitism                              float64
	MaxEdits                             int
	Operators                            string
	Weights                              fitness.Weights
	Formula                              string
	Reduce, All                          bool
}

func settingsOf(o repair.Options) settings {
	return settings{o.Population, o.Generations, o.Evaluations, o.TimeBudget, o.MutationRate, o.CrossoverRate,
		o.CrossoverName, o.Selection, o.TournamentSize, o.Elitism, o.MaxEdits, operatorSpec(o.Operators),
		o.Weights, o.Formula.Name, o.Reduce, o.All}
}

// TestOptions checks that values build the options the repair command's
// flags build: the preset first, then each value.
func TestOptions(t *testing.T) {
	with := func(o repair.Options, f func(*repair.Options)) repair.Options { f(&o); return o }
	tests := []struct {
		name   string
		values Values
		want   repair.Options
		err    string
	}{
		{"none", Values{}, repair.Defaults(), ""},
		{"book", Values{"preset": "book"}, repair.Book(), ""},
		{"book with population", Values{"preset": "book", "population": "20"},
			with(repair.Book(), func(o *repair.Options) { o.Population = 20 }), ""},
		{"every kind", Values{
			"population": "12", "generations": "7", "evaluations": "300", "time_budget": "1m0s",
			"mutation_rate": "0.5", "crossover_rate": "0.25", "crossover": "uniform", "selection": "truncation",
			"tournament_size": "3", "elitism": "0.2", "max_edits": "4", "operators": "delete,swap=2",
			"weighting": "absolute", "weight_passing": "1", "weight_failing": "10", "localization": "tarantula",
			"no_reduce": "true", "all": "true",
		}, func() repair.Options {
			o := repair.Defaults()
			o.Population, o.Generations, o.Evaluations, o.TimeBudget = 12, 7, 300, time.Minute
			o.MutationRate, o.CrossoverRate, o.CrossoverName, o.Selection = 0.5, 0.25, "uniform", "truncation"
			o.TournamentSize, o.Elitism, o.MaxEdits = 3, 0.2, 4
			o.Operators = mustSpec(t, "delete,swap=2")
			o.Weights = fitness.Weights{Weighting: fitness.Absolute, Passing: 1, Failing: 10}
			o.Formula.Name = "tarantula"
			o.Reduce, o.All = false, true
			return o
		}(), ""},
		{"tournament larger than the population", Values{"population": "4", "tournament_size": "5"}, repair.Options{},
			"--tournament-size must be from 1 to the population (4), got 5"},
		{"population zero", Values{"population": "0"}, repair.Options{}, "--population must be from 1"},
		{"not canonical", Values{"weight_failing": "0.10"}, repair.Options{}, `value "0.10" is not canonical`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Options(tt.values)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Options(%v) error = %v, want one containing %q", tt.values, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(settingsOf(tt.want), settingsOf(got)); diff != "" {
				t.Errorf("Options(%v) mismatch (-want +got):\n%s", tt.values, diff)
			}
		})
	}
}

func mustSpec(t *testing.T, spec string) []mutate.Weighted {
	t.Helper()
	v, err := Canonical("operators", spec)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Options(Values{"operators": v})
	if err != nil {
		t.Fatal(err)
	}
	return o.Operators
}

// TestOptionsErrorsAreInput checks that bad values are input errors (exit
// code 2).
func TestOptionsErrorsAreInput(t *testing.T) {
	for _, v := range []Values{{"population": "0"}, {"selection": "roulette"}, {"weight_failing": "-1"}} {
		if _, err := Options(v); !inputerr.Is(err) {
			t.Errorf("Options(%v) = %v, want an inputerr", v, err)
		}
	}
}

// TestEffectiveRoundTrip checks that the values Effective reads back
// build the same options again, and that every parameter has a value.
func TestEffectiveRoundTrip(t *testing.T) {
	for _, preset := range []string{"", "book"} {
		o, err := Options(Values{"preset": preset})
		if err != nil {
			t.Fatal(err)
		}
		eff := Effective(o, preset)
		if len(eff) != len(Params) {
			t.Errorf("preset %q: Effective has %d values, want one per parameter (%d)", preset, len(eff), len(Params))
		}
		for name, v := range eff {
			if c, err := Canonical(name, v); err != nil || c != v {
				t.Errorf("preset %q: %s=%q is not canonical (%q, %v)", preset, name, v, c, err)
			}
		}
		again, err := Options(eff)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(settingsOf(o), settingsOf(again)); diff != "" {
			t.Errorf("preset %q: round trip mismatch (-want +got):\n%s", preset, diff)
		}
	}
}

// TestParamsFlags checks the table itself: flags are the names with '-',
// every parameter can be set and read.
func TestParamsFlags(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Params {
		if want := "--" + strings.ReplaceAll(p.Name, "_", "-"); p.Flag != want {
			t.Errorf("%s: flag %q, want %q", p.Name, p.Flag, want)
		}
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		if p.set == nil || (p.get == nil && p.Name != "preset") {
			t.Errorf("%s: set or get missing", p.Name)
		}
	}
}

// TestTimeBudgetIsTheBudget: with a time budget and no generations given,
// the search is not stopped by the default 1000 generations; a given
// number, or the book preset's, is kept.
func TestTimeBudgetIsTheBudget(t *testing.T) {
	for _, tc := range []struct {
		v    Values
		want int
	}{
		{Values{}, repair.Defaults().Generations},
		{Values{"time_budget": "30s"}, repair.MaxGenerations},
		{Values{"time_budget": "30s", "generations": "50"}, 50},
		{Values{"time_budget": "30s", "preset": "book"}, repair.Book().Generations},
	} {
		o, err := Options(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if o.Generations != tc.want {
			t.Errorf("Options(%v).Generations = %d, want %d", tc.v, o.Generations, tc.want)
		}
	}
}
