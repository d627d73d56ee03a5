package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"repair/crossover"
	"repair/fitness"
	"repair/internal/inputerr"
	"repair/localize"
	"repair/mutate"
	"repair/repair"
)

// Kind is the type of a parameter's values.
type Kind uint8

// Parameter kinds.
const (
	Int Kind = iota
	Float
	Duration
	Bool
	String
)

// Param is a search parameter of the repair command that a plan may set or
// vary. Its Name is the flag's name with '_' for '-' (--weight-failing is
// weight_failing).
type Param struct {
	// Name is the plan key and the key of the results' "parameters".
	Name string
	// Flag is the repair command's flag ("--weight-failing").
	Flag string
	Kind Kind
	// check reports a value the flag would refuse by itself (an unknown
	// operator, a negative duration); nil accepts every value of the kind.
	// Limits that depend on other parameters are Options' business.
	check func(v string) error
	// set stores the canonical value v into o.
	set func(o *repair.Options, v string)
	// get is the canonical value of the parameter in o.
	get func(o *repair.Options) string
}

// Values are canonical parameter values by parameter name.
type Values map[string]string

// Params are the parameters a plan may set, in the order of the repair
// command's help. preset comes first: it is applied before the others.
var Params = []Param{
	{Name: "preset", Flag: "--preset", Kind: String,
		check: func(v string) error {
			if v != "" && v != "book" {
				return fmt.Errorf("must be book or empty, got %q", v)
			}
			return nil
		},
		set: func(*repair.Options, string) {},
		get: nil, // recorded as given
	},
	intParam("population", func(o *repair.Options) *int { return &o.Population }),
	intParam("generations", func(o *repair.Options) *int { return &o.Generations }),
	intParam("evaluations", func(o *repair.Options) *int { return &o.Evaluations }),
	{Name: "time_budget", Flag: "--time-budget", Kind: Duration,
		set: func(o *repair.Options, v string) { o.TimeBudget, _ = time.ParseDuration(v) },
		get: func(o *repair.Options) string { return o.TimeBudget.String() },
	},
	floatParam("mutation_rate", func(o *repair.Options) *float64 { return &o.MutationRate }),
	floatParam("crossover_rate", func(o *repair.Options) *float64 { return &o.CrossoverRate }),
	{Name: "crossover", Flag: "--crossover", Kind: String,
		check: func(v string) error { _, err := crossover.ByName(v); return err },
		set: func(o *repair.Options, v string) {
			o.Crossover, _ = crossover.ByName(v)
			o.CrossoverName = v
		},
		get: func(o *repair.Options) string { return o.CrossoverName },
	},
	{Name: "selection", Flag: "--selection", Kind: String,
		check: func(v string) error {
			if v != repair.Tournament && v != repair.Truncation {
				return fmt.Errorf("must be tournament or truncation, got %q", v)
			}
			return nil
		},
		set: func(o *repair.Options, v string) { o.Selection = v },
		get: func(o *repair.Options) string { return o.Selection },
	},
	intParam("tournament_size", func(o *repair.Options) *int { return &o.TournamentSize }),
	floatParam("elitism", func(o *repair.Options) *float64 { return &o.Elitism }),
	intParam("max_edits", func(o *repair.Options) *int { return &o.MaxEdits }),
	floatParam("immigrants", func(o *repair.Options) *float64 { return &o.Immigrants }),
	floatParam("alternatives", func(o *repair.Options) *float64 { return &o.Alternatives }),
	{Name: "search_timeout", Flag: "--search-timeout", Kind: Duration,
		set: func(o *repair.Options, v string) { o.SearchTimeout, _ = time.ParseDuration(v) },
		get: func(o *repair.Options) string { return o.SearchTimeout.String() },
	},
	{Name: "operators", Flag: "--operators", Kind: String,
		check: func(v string) error { _, err := mutate.ParseSpec(v); return err },
		set: func(o *repair.Options, v string) {
			o.Operators, _ = mutate.ParseSpec(v)
		},
		get: func(o *repair.Options) string { return operatorSpec(o.Operators) },
	},
	{Name: "weighting", Flag: "--weighting", Kind: String,
		check: func(v string) error { _, err := fitness.ParseWeighting(v); return err },
		set: func(o *repair.Options, v string) {
			o.Weights.Weighting, _ = fitness.ParseWeighting(v)
		},
		get: func(o *repair.Options) string { return o.Weights.Weighting.String() },
	},
	floatParam("weight_passing", func(o *repair.Options) *float64 { return &o.Weights.Passing }),
	floatParam("weight_failing", func(o *repair.Options) *float64 { return &o.Weights.Failing }),
	{Name: "localization", Flag: "--localization", Kind: String,
		check: func(v string) error {
			if _, ok := localize.ByName(v); !ok {
				return fmt.Errorf("must be one of %s, got %q", strings.Join(localize.Names(), ", "), v)
			}
			return nil
		},
		set: func(o *repair.Options, v string) { o.Formula, _ = localize.ByName(v) },
		get: func(o *repair.Options) string { return o.Formula.Name },
	},
	{Name: "no_reduce", Flag: "--no-reduce", Kind: Bool,
		set: func(o *repair.Options, v string) { o.Reduce = v != "true" },
		get: func(o *repair.Options) string { return strconv.FormatBool(!o.Reduce) },
	},
	{Name: "all", Flag: "--all", Kind: Bool,
		set: func(o *repair.Options, v string) { o.All = v == "true" },
		get: func(o *repair.Options) string { return strconv.FormatBool(o.All) },
	},
}

func intParam(name string, field func(*repair.Options) *int) Param {
	return Param{Name: name, Flag: "--" + strings.ReplaceAll(name, "_", "-"), Kind: Int,
		set: func(o *repair.Options, v string) { *field(o), _ = strconv.Atoi(v) },
		get: func(o *repair.Options) string { return strconv.Itoa(*field(o)) },
	}
}

func floatParam(name string, field func(*repair.Options) *float64) Param {
	return Param{Name: name, Flag: "--" + strings.ReplaceAll(name, "_", "-"), Kind: Float,
		set: func(o *repair.Options, v string) { *field(o), _ = strconv.ParseFloat(v, 64) },
		get: func(o *repair.Options) string { return formatFloat(*field(o)) },
	}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// notParams are repair flags a plan cannot put in its parameters, with the
// reason.
var notParams = map[string]string{
	"seed":    "seeds come from the plan's \"seeds\"",
	"workers": "set \"workers\" at the top of the plan or --workers (the results do not depend on it)",
	"engine":  "set \"engine\" at the top of the plan",
	"sandbox": "set \"sandbox\" at the top of the plan",
	"python":  "set \"python\" at the top of the plan",
	"target":  "bugs come from the plan's \"bugs\"",
	"tests":   "bugs come from the plan's \"bugs\"",
	"report":  "every trial is recorded in the results file",
	"write":   "an experiment never writes its targets",
	"quiet":   "not a search parameter",
}

// ParamByName returns the parameter with the given plan key.
func ParamByName(name string) (Param, bool) {
	for _, p := range Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames are the plan keys of Params.
func ParamNames() []string {
	var out []string
	for _, p := range Params {
		out = append(out, p.Name)
	}
	return out
}

// unknownParam explains why name is not a parameter.
func unknownParam(name string) error {
	if why, ok := notParams[strings.ReplaceAll(name, "-", "_")]; ok {
		return fmt.Errorf("%q is not a plan parameter: %s", name, why)
	}
	if alt := strings.ReplaceAll(name, "-", "_"); alt != name {
		if _, ok := ParamByName(alt); ok {
			return fmt.Errorf("unknown parameter %q (write %s: plan keys spell the flag with '_')", name, alt)
		}
	}
	return fmt.Errorf("unknown parameter %q (known: %s)", name, strings.Join(ParamNames(), ", "))
}

// Canonical checks raw, a value of the parameter name as the repair
// command's flag would take it, and returns its canonical spelling: numbers
// in shortest form ("0.5", "40"), durations as time.Duration prints them
// ("1m30s"), operator lists without spaces and without "=1". The error does
// not repeat the parameter's name.
func Canonical(name, raw string) (string, error) {
	p, ok := ParamByName(name)
	if !ok {
		return "", unknownParam(name)
	}
	raw = strings.TrimSpace(raw)
	var v string
	switch p.Kind {
	case Int:
		n, err := strconv.ParseInt(raw, 10, 0)
		if err != nil {
			return "", fmt.Errorf("want an integer, got %q", raw)
		}
		v = strconv.FormatInt(n, 10)
	case Float:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return "", fmt.Errorf("want a number, got %q", raw)
		}
		v = formatFloat(f)
	case Duration:
		d, err := time.ParseDuration(raw)
		if err != nil {
			// A bare number is seconds, as in YAML plans "time: 30".
			f, ferr := strconv.ParseFloat(raw, 64)
			if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e9 {
				return "", fmt.Errorf("want a duration such as 30s or 2m, got %q", raw)
			}
			d = time.Duration(f * float64(time.Second))
		}
		if d < 0 {
			return "", fmt.Errorf("must be >= 0, got %s", raw)
		}
		v = d.String()
	case Bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return "", fmt.Errorf("want true or false, got %q", raw)
		}
		v = strconv.FormatBool(b)
	case String:
		v = raw
		if name == "operators" {
			ops, err := mutate.ParseSpec(raw)
			if err != nil {
				return "", err
			}
			v = operatorSpec(ops)
		}
	}
	if p.check != nil {
		if err := p.check(v); err != nil {
			return "", err
		}
	}
	return v, nil
}

// operatorSpec is the canonical --operators value of ops: "default",
// "all", or NAME[=WEIGHT] items in order (weight 1 omitted).
func operatorSpec(ops []mutate.Weighted) string {
	same := func(b []mutate.Weighted) bool {
		return slices.EqualFunc(ops, b, func(x, y mutate.Weighted) bool {
			return x.Op.Name == y.Op.Name && x.Weight == y.Weight
		})
	}
	if same(mutate.Default()) {
		return "default"
	}
	all, _ := mutate.ParseSpec("all")
	if same(all) {
		return "all"
	}
	var items []string
	for _, w := range ops {
		if w.Weight == 1 {
			items = append(items, w.Op.Name)
		} else {
			items = append(items, w.Op.Name+"="+formatFloat(w.Weight))
		}
	}
	return strings.Join(items, ",")
}

// Options returns the search options that the repair command builds from
// the same flags: the preset's settings (repair.Book() for "book", else
// repair.Defaults()), then every value of v. Values must be canonical (see
// Canonical); a value Canonical would refuse is an error. The options are
// validated; the error, an inputerr, names the flag at fault.
func Options(v Values) (repair.Options, error) {
	for name, val := range v {
		c, err := Canonical(name, val)
		if err != nil {
			return repair.Options{}, inputerr.New("%s: %v", name, err)
		}
		if c != val {
			return repair.Options{}, fmt.Errorf("parameter %s: value %q is not canonical (%q)", name, val, c)
		}
	}
	o := repair.Defaults()
	if v["preset"] == "book" {
		o = repair.Book()
	}
	for _, p := range Params {
		if val, ok := v[p.Name]; ok {
			p.set(&o, val)
		}
	}
	if _, ok := v["generations"]; !ok && v["preset"] != "book" && o.TimeBudget > 0 {
		// A time budget is the budget: the default cap of 1000
		// generations stopped most searches that missed after a fraction
		// of their time.
		o.Generations = repair.MaxGenerations
	}
	if err := o.Validate(); err != nil {
		return o, err
	}
	return o, nil
}

// Effective returns the value of every parameter in o, with preset as
// given: what a trial ran with, whether the plan set it or not.
func Effective(o repair.Options, preset string) Values {
	v := Values{"preset": preset}
	for _, p := range Params {
		if p.get != nil {
			v[p.Name] = p.get(&o)
		}
	}
	return v
}

// typed is the JSON value of the canonical value v of parameter p: a
// number for numbers, a boolean for booleans, else the string.
func typed(p Param, v string) any {
	switch p.Kind {
	case Int:
		n, err := strconv.Atoi(v)
		if err == nil {
			return n
		}
	case Float:
		f, err := strconv.ParseFloat(v, 64)
		if err == nil {
			return f
		}
	case Bool:
		return v == "true"
	}
	return v
}
