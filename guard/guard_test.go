package guard

import (
	"context"
	"testing"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// TestCheck: what counts as a change and as a break, next to passing
// cases only.
func TestCheck(t *testing.T) {
	s := &fitness.Suite{Cases: []fitness.Case{
		{Name: "ok", Kind: fitness.Call, Function: "f", Args: []byte(`[5]`), Timeout: 1},
		{Name: "bad", Kind: fitness.Call, Function: "f", Args: []byte(`[-5]`), Raises: "ValueError", Timeout: 1},
	}}
	orig := &fitness.Outcome{Results: []fitness.Result{{Verdict: fitness.Passed}, {Verdict: fitness.WrongAnswer}}}
	ps, origin := Probes(s, orig, 100)
	ret := func(d string) fitness.Result { return fitness.Result{Verdict: fitness.Passed, Detail: d + "\tx"} }
	// Each program's behaviour on the probes, by its text.
	behave := map[string]func(i int, c fitness.Case) fitness.Result{
		"original": func(i int, c fitness.Case) fitness.Result {
			if i == 3 {
				return fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "timed out after 20ms"}
			}
			return ret("returned 1")
		},
		"same": func(i int, c fitness.Case) fitness.Result {
			if i == 3 {
				return fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "timed out after 40ms"}
			}
			return ret("returned 1")
		},
		"raises what the suite expects": func(i int, c fitness.Case) fitness.Result {
			if i == 0 {
				return ret("raised ValueError")
			}
			return behaveOrig(i)
		},
		"raises something else": func(i int, c fitness.Case) fitness.Result {
			if i == 0 {
				return ret("raised TypeError")
			}
			return behaveOrig(i)
		},
		"loops": func(i int, c fitness.Case) fitness.Result {
			if i <= 1 {
				return fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "timed out"}
			}
			return behaveOrig(i)
		},
		"returns otherwise": func(i int, c fitness.Case) fitness.Result {
			if origin[i] == 1 {
				return ret("raised ValueError") // next to the failing case: not judged
			}
			if i == 2 {
				return ret("returned 2")
			}
			return behaveOrig(i)
		},
	}
	var change *program.Change // the last run's
	run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		change = opts.Change
		o := &fitness.Outcome{}
		for i, c := range ps.Cases {
			o.Results = append(o.Results, behave[string(src)](i, c))
		}
		return o, nil
	}
	g, err := New(context.Background(), s, orig, []byte("original"), ps, origin, run, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	near := 0
	for _, o := range origin {
		if o == 0 {
			near++
		}
	}
	tests := []struct {
		prog             string
		changed, broken  int
		exampleHasPrefix string
	}{
		{"same", 0, 0, ""},
		{"raises what the suite expects", 1, 0, "f(6): returned 1 before, raised ValueError after"},
		{"raises something else", 1, 1, "f(6): returned 1 before, raised TypeError after"},
		{"loops", 1, 1, "f(6): returned 1 before, TIME_LIMIT_EXCEEDED (timed out) after"},
		{"returns otherwise", 1, 0, "f(4): returned 1 before, returned 2 after"},
	}
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			r, err := g.Check(context.Background(), []byte(tt.prog), nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Inputs != near || r.Changed != tt.changed || r.Broken != tt.broken || r.Example != tt.exampleHasPrefix {
				t.Errorf("got %+v, want %d inputs, %d changed, %d broken, example %q", r, near, tt.changed, tt.broken, tt.exampleHasPrefix)
			}
		})
	}
	// What a fix changes goes with its run: the engine may run it over
	// the original's code.
	ch := &program.Change{Defs: []int{0}}
	if _, err := g.Check(context.Background(), []byte("same"), ch); err != nil || change != ch {
		t.Errorf("check with a change: err %v, the run got change %p, want %p", err, change, ch)
	}
}

func behaveOrig(i int) fitness.Result {
	if i == 3 {
		return fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "timed out after 20ms"}
	}
	return fitness.Result{Verdict: fitness.Passed, Detail: "returned 1\tx"}
}

// TestExpectedFromTestFile: an exception a test file expects
// (pytest.raises, assertRaises) is behaviour, not a break, as a JSON
// case's "raises" is.
func TestExpectedFromTestFile(t *testing.T) {
	s := &fitness.Suite{TestSource: []byte("import pytest\n\ndef test_a():\n    with pytest.raises(ValueError):\n        f(-1)\n\ndef test_b():\n    self.assertRaises(errors.Bad, f, 2)\n"),
		Cases: []fitness.Case{{Name: "test_a", Kind: fitness.Test}, {Name: "test_b", Kind: fitness.Test}}}
	orig := &fitness.Outcome{Results: []fitness.Result{{Verdict: fitness.WrongAnswer}, {Verdict: fitness.WrongAnswer}}}
	g, err := New(context.Background(), s, orig, nil, nil, nil, nil, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ValueError", "Bad"} {
		if !g.raises[name] {
			t.Errorf("%s is not expected: %v", name, g.raises)
		}
	}
}

// TestDescribe: a probe is shown as the call Python would write, an
// object's life as its class's call and its methods'.
func TestDescribe(t *testing.T) {
	g := &Guard{probes: []fitness.Case{
		{Kind: fitness.Call, Function: "f", Args: []byte(`[1, "a"]`), Kwargs: []byte(`{"k": [2]}`)},
		{Kind: fitness.Call, Function: "Queue", Args: []byte(`[]`), Then: []byte(`[["add", [1], {}], ["first", [], {"x": null}]]`)},
	}}
	for i, want := range []string{`f(1, 'a', k=[2])`, `Queue().add(1).first(x=None)`} {
		if got := g.describe(i); got != want {
			t.Errorf("probe %d: got %s, want %s", i, got, want)
		}
	}
}

// TestRecheck: an input the patched program runs out of time on under
// the guard's cap, where the original did not, runs again under a
// generous cap before it counts: a fix whose first import of a large
// package passes the cap on a quiet machine is not a break, one that
// loops still is.
func TestRecheck(t *testing.T) {
	s := &fitness.Suite{Cases: []fitness.Case{{Name: "ok", Kind: fitness.Call, Function: "f", Args: []byte(`[5]`), Timeout: 2}}}
	orig := &fitness.Outcome{Results: []fitness.Result{{Verdict: fitness.Passed}}}
	ps, origin := Probes(s, orig, 100)
	const capped = 20 * time.Millisecond
	var reruns []sandbox.RunOptions
	run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if opts.Cases.End > 0 {
			reruns = append(reruns, opts)
		}
		first, end := opts.Cases.Bounds(len(ps.Cases))
		o := &fitness.Outcome{Results: make([]fitness.Result, len(ps.Cases))}
		for i := first; i < end; i++ {
			o.Results[i] = fitness.Result{Verdict: fitness.Passed, Detail: "returned 1\tx"}
			switch {
			case string(src) == "loops" && i < 2,
				string(src) != "loops" && i == first && opts.Timeout <= capped:
				o.Results[i] = fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "timed out"}
			}
		}
		return o, nil
	}
	g, err := New(context.Background(), s, orig, []byte("original"), ps, origin, run, sandbox.RunOptions{Timeout: capped})
	if err != nil {
		t.Fatal(err)
	}
	// The original pays the same first import: its input runs again.
	if len(g.base) == 0 {
		t.Fatal("the original ran on no input")
	}
	if g.base[0].Verdict != fitness.Passed || len(reruns) != 1 {
		t.Errorf("the original's first input: %+v after %d runs again; want it passed after one", g.base[0], len(reruns))
	}
	for _, tt := range []struct {
		prog            string
		changed, broken int
	}{
		{"imports a large package", 0, 0},
		{"loops", 2, 2},
	} {
		t.Run(tt.prog, func(t *testing.T) {
			reruns = nil
			r, err := g.Check(context.Background(), []byte(tt.prog), nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Changed != tt.changed || r.Broken != tt.broken {
				t.Errorf("got %+v, want %d changed, %d broken", r, tt.changed, tt.broken)
			}
			if len(reruns) != 1 || reruns[0].Timeout != RecheckTimeout || !reruns[0].AbandonAfterTimeout || reruns[0].Cases.First != 0 {
				t.Errorf("the runs again: %+v; want one from input 0, under %v, stopping at a timeout", reruns, RecheckTimeout)
			}
		})
	}
}

// TestExpectedProjectErrors: a fix that now raises the project's own error
// where the suite expects one of the project's errors (a subclass the
// guard cannot see by name) adds a check the tests ask for; a builtin
// error the suite does not name is still a break.
func TestExpectedProjectErrors(t *testing.T) {
	raised := func(name string) fitness.Result {
		return fitness.Result{Verdict: fitness.Passed, Detail: "raised " + name}
	}
	for _, tt := range []struct {
		name   string
		raises []string
		got    fitness.Result
		want   bool
	}{
		{"the class the suite names", []string{"ParseError"}, raised("ParseError"), true},
		{"a project class beside the one the suite names", []string{"ParseError"}, raised("UnexpectedCharError"), true},
		{"a builtin the suite does not name", []string{"ParseError"}, raised("TypeError"), false},
		{"a project class where the suite names only builtins", []string{"ValueError"}, raised("UnexpectedCharError"), false},
		{"a builtin the suite names", []string{"ValueError"}, raised("ValueError"), true},
		{"nothing expected", nil, raised("ParseError"), false},
		{"a return", []string{"ParseError"}, fitness.Result{Verdict: fitness.Passed, Detail: "returned 1"}, false},
		{"a crash", []string{"ParseError"}, fitness.Result{Verdict: fitness.RuntimeError, Detail: "raised ParseError"}, false},
	} {
		g := &Guard{raises: map[string]bool{}}
		for _, r := range tt.raises {
			g.raises[r] = true
		}
		if got := g.expected(tt.got); got != tt.want {
			t.Errorf("%s: expected = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUnstableOriginal: an input on which the original itself gives a
// different result each run (a random id) is not judged; a change on a
// steady one is.
func TestUnstableOriginal(t *testing.T) {
	s := &fitness.Suite{Cases: []fitness.Case{
		{Name: "id", Kind: fitness.Call, Function: "new_id", Args: []byte(`["user"]`), Timeout: 1},
		{Name: "size", Kind: fitness.Call, Function: "size", Args: []byte(`[5]`), Timeout: 1},
	}}
	orig := &fitness.Outcome{Results: []fitness.Result{{Verdict: fitness.Passed}, {Verdict: fitness.Passed}}}
	ps, origin := Probes(s, orig, 100)
	runs := 0
	run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		runs++
		o := &fitness.Outcome{}
		for i := range ps.Cases {
			d := "returned 1\tx"
			switch {
			case origin[i] == 0:
				d = "returned 'id" + string(rune('a'+runs)) + "'\tx" // new each run
			case string(src) == "fix" && origin[i] == 1:
				d = "returned 2\tx"
			}
			o.Results = append(o.Results, fitness.Result{Verdict: fitness.Passed, Detail: d})
		}
		return o, nil
	}
	g, err := New(context.Background(), s, orig, []byte("original"), ps, origin, run, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steady := 0
	for _, o := range origin {
		if o == 1 {
			steady++
		}
	}
	r, err := g.Check(context.Background(), []byte("fix"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Inputs != steady || r.Changed != steady {
		t.Errorf("judged %d inputs, %d changed; want the %d steady ones, all changed", r.Inputs, r.Changed, steady)
	}
}
