package repair

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/lenient"
	"repair/sandbox"
)

// lenientRunner is fakeRunner for lenient runs: every case of every
// program needs the injected name "helper", and a program whose line 6 is
// fixed also needs fixInjection in the cases the original fails.
func lenientRunner(t *testing.T, fixInjection string, sawPlan *atomic.Bool) Runner {
	inner := fakeRunner(nil)
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if opts.Lenient == nil {
			t.Errorf("a run without the lenient plan")
		} else {
			sawPlan.Store(true)
		}
		o, err := inner(ctx, src, opts)
		if err != nil {
			return nil, err
		}
		fixed := strings.Contains(string(src), "            return x\n    else:")
		for i := range o.Results {
			o.Results[i].Injections = []fitness.Injection{{Line: 2, Kind: "name", Name: "helper", Class: "callable"}}
			if fixed && i >= 10 {
				o.Results[i].Injections = append(o.Results[i].Injections, fitness.Injection{Line: 6, Kind: "name", Name: fixInjection, Class: "int_pos"})
			}
		}
		return o, nil
	}
}

func TestRunLenient(t *testing.T) {
	plan, err := lenient.NewPlan([]byte(middle), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		fixInjection string // what the fix needs injected besides "helper"
		wantFix      bool
	}{
		{"a fix needing what the original needed is claimed", "helper", true},
		{"a fix needing something new is not", "ghost", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parseMiddle(t)
			opts := firstFix()
			opts.Workers = 2
			opts.Generations = 8
			opts.Lenient = plan
			var saw atomic.Bool
			res, err := Run(context.Background(), p, fakeSuite(10), lenientRunner(t, tt.fixInjection, &saw), opts)
			if err != nil {
				t.Fatal(err)
			}
			if !saw.Load() {
				t.Error("the runner never got the plan")
			}
			if got := len(res.Fixes) > 0; got != tt.wantFix {
				t.Fatalf("fix found: %v, want %v (stop %s, best %v)", got, tt.wantFix, res.StopReason, res.BestFitness)
			}
			if !tt.wantFix {
				if res.BestFitness >= 1 {
					t.Errorf("best fitness %v: a candidate passing by a new injection scored as plausible", res.BestFitness)
				}
				return
			}
			inj := res.Fixes[0].Injections
			if len(inj) != 20 || len(inj[0]) != 1 || inj[0][0].Name != "helper" {
				t.Errorf("fix injections: %v", inj)
			}
		})
	}
}

func TestNeedOnly(t *testing.T) {
	in := func(kind, name string) fitness.Injection {
		return fitness.Injection{Line: 3, Kind: kind, Name: name, Class: "object"}
	}
	orig := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.Passed, Injections: []fitness.Injection{in("name", "a")}},
		{Verdict: fitness.WrongAnswer, Injections: []fitness.Injection{in("attribute", "b")}},
	}}
	cand := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.Passed, Injections: []fitness.Injection{in("attribute", "b")}}, // needed by another case: fine
		{Verdict: fitness.Passed, Injections: []fitness.Injection{in("name", "a"), in("name", "b")}},
		{Verdict: fitness.RuntimeError, Detail: "x", Injections: []fitness.Injection{in("name", "c")}},
	}}
	run := needOnly(func(context.Context, []byte, sandbox.RunOptions) (*fitness.Outcome, error) { return cand, nil }, orig)
	o, err := run(context.Background(), nil, sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range o.Results {
		got = append(got, r.Verdict.String()+" "+r.Detail)
	}
	want := []string{
		"PASSED ",
		"WRONG_ANSWER passes only with a value injected for name b (line 3), which the original program did not need",
		"RUNTIME_ERROR x",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
