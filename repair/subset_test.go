package repair

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// skipping is fakeSuite(10) with two more cases, at indices 3 and 15,
// that fail whatever the candidate (tests that skip themselves), and a
// runner for it: fakeRunner's verdicts for the others.
func skipping() (*fitness.Suite, Runner, []int) {
	at := []int{3, 15}
	s := fakeSuite(10)
	s.TestSource = []byte("def test_x(): ...\n")
	for _, i := range at {
		s.Cases = slices.Insert(s.Cases, i, fitness.Case{Name: fmt.Sprintf("skips%d", i), Kind: fitness.Test, Weight: 1, Timeout: 2})
	}
	plain := fakeRunner(nil)
	run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		out, err := plain(ctx, src, o)
		if err != nil || out.CompileError != "" {
			if out != nil {
				out.Results = append(out.Results, make([]fitness.Result, len(at))...)
			}
			return out, err
		}
		for _, i := range at {
			out.Results = slices.Insert(out.Results, i, fitness.Result{Verdict: fitness.WrongAnswer, Detail: "skipped: why"})
		}
		return out, nil
	}
	return s, run, at
}

// TestLeaveOut: the cases Options.CheckOriginal leaves out are out of the
// search, the validation and the check of delivered fixes, which could
// never pass them; the result's suite, original and indices are without
// them.
func TestLeaveOut(t *testing.T) {
	p := parseMiddle(t)
	s, run, at := skipping()
	opts := firstFix()
	opts.Workers = 2
	checked := 0
	opts.CheckOriginal = func(_ context.Context, orig *fitness.Outcome, _ func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
		checked++
		if len(orig.Results) != 22 {
			t.Errorf("CheckOriginal got %d results, want the whole suite's 22", len(orig.Results))
		}
		return at, nil
	}
	verified := 0
	opts.Verify = func(context.Context) (Runner, func(), error) {
		return func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			verified++
			return run(ctx, src, o)
		}, func() {}, nil
	}
	res, err := Run(context.Background(), p, s, run, opts)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 1 {
		t.Errorf("CheckOriginal called %d times", checked)
	}
	if len(res.Fixes) != 1 || !strings.Contains(res.Fixes[0].Diff, "+            return x") {
		t.Fatalf("no fix: stop %s, best %v", res.StopReason, res.BestFitness)
	}
	if verified == 0 {
		t.Errorf("the check of delivered fixes did not run")
	}
	if len(res.Refused) > 0 {
		t.Errorf("refused: %v", res.Refused)
	}
	if want := []string{s.Cases[3].Name, s.Cases[15].Name}; !slices.Equal(res.LeftOut, want) {
		t.Errorf("LeftOut = %v, want %v", res.LeftOut, want)
	}
	if len(res.Suite.Cases) != 20 || len(res.Original.Results) != 20 || len(s.Cases) != 22 {
		t.Errorf("%d cases searched, %d results of the original; the given suite has %d (want 20, 20, 22)", len(res.Suite.Cases), len(res.Original.Results), len(s.Cases))
	}
	for _, c := range res.Suite.Cases {
		if strings.HasPrefix(c.Name, "skips") {
			t.Errorf("case %s not left out", c.Name)
		}
	}
	if len(res.Ranking.Entries) == 0 {
		t.Fatalf("no ranking (%d failing cases)", res.Ranking.Failing)
	}
	if res.Ranking.Failing != 10 || res.Ranking.Entries[0].Line != 6 {
		t.Errorf("%d failing cases, top line %d; want 10, 6", res.Ranking.Failing, res.Ranking.Entries[0].Line)
	}
}

// TestLeaveOutAll: leaving every case out is an input error; leaving out
// all the failing ones leaves nothing to repair.
func TestLeaveOutAll(t *testing.T) {
	p := parseMiddle(t)
	s, run, _ := skipping()
	opts := firstFix()
	opts.CheckOriginal = func(_ context.Context, orig *fitness.Outcome, _ func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
		all := make([]int, len(orig.Results))
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	_, err := Run(context.Background(), p, s, run, opts)
	if !inputerr.Is(err) || !strings.Contains(err.Error(), "every case is left out") {
		t.Errorf("error = %v", err)
	}
	opts.CheckOriginal = func(_ context.Context, orig *fitness.Outcome, _ func(context.Context) ([]*fitness.Outcome, error)) ([]int, error) {
		var failing []int
		for i, r := range orig.Results {
			if r.Verdict != fitness.Passed {
				failing = append(failing, i)
			}
		}
		return failing, nil
	}
	_, err = Run(context.Background(), p, s, run, opts)
	if !inputerr.Is(err) || !strings.Contains(err.Error(), "nothing to repair: all 10 cases pass") {
		t.Errorf("error = %v", err)
	}
}

// TestSubsetRanges: a range of the kept cases runs the whole suite's
// cases from the first to the last of them.
func TestSubsetRanges(t *testing.T) {
	s := fakeSuite(3) // 6 cases
	sub, err := leaveOut(s, []int{0, 2, 5})
	if err != nil {
		t.Fatal(err)
	}
	var got []sandbox.CaseRange
	run := sub.runner(func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		got = append(got, o.Cases)
		out := &fitness.Outcome{}
		for i := range 6 {
			out.Results = append(out.Results, fitness.Result{Seconds: float64(i)})
		}
		return out, nil
	})
	for _, r := range []sandbox.CaseRange{{}, {First: 0, End: 1}, {First: 1, End: 3}, {First: 2, End: 2}} {
		o, err := run(context.Background(), nil, sandbox.RunOptions{Cases: r})
		if err != nil {
			t.Fatal(err)
		}
		var secs []float64
		for _, res := range o.Results {
			secs = append(secs, res.Seconds)
		}
		if !slices.Equal(secs, []float64{1, 3, 4}) {
			t.Errorf("range %v: results of cases %v, want 1, 3, 4", r, secs)
		}
	}
	want := []sandbox.CaseRange{{}, {First: 1, End: 2}, {First: 3, End: 5}, {First: 6, End: 6}}
	if !slices.Equal(got, want) {
		t.Errorf("ranges run %v, want %v", got, want)
	}
	if o := sub.origin([]int{1, 2, 4, 5}); !slices.Equal(o, []int{0, 3, 2, 3}) {
		t.Errorf("origin = %v", o)
	}
}

// TestSubsetSelect: a selection of the kept cases reaches the engine on
// the whole suite (the cases left out not selected), and the cases it
// skipped come back on the kept ones; a selection of another length is
// none (every case runs).
func TestSubsetSelect(t *testing.T) {
	s := fakeSuite(3) // 6 cases
	sub, err := leaveOut(s, []int{0, 2, 5})
	if err != nil {
		t.Fatal(err)
	}
	var seen []bool
	run := sub.runner(func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		seen = o.Select
		out := &fitness.Outcome{Results: make([]fitness.Result, 6)}
		if o.Select != nil {
			out.Skipped = make([]bool, 6)
			for i, s := range o.Select {
				out.Skipped[i] = !s
			}
		}
		return out, nil
	})
	for _, tc := range []struct {
		sel, engine, skipped []bool
	}{
		{nil, nil, nil},
		{[]bool{true, false, true}, []bool{false, true, false, false, true, false}, []bool{false, true, false}},
		{[]bool{true, true}, nil, nil},
	} {
		o, err := run(context.Background(), nil, sandbox.RunOptions{Select: tc.sel})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seen, tc.engine) || !slices.Equal(o.Skipped, tc.skipped) {
			t.Errorf("select %v: the engine's %v, skipped %v; want %v, %v", tc.sel, seen, o.Skipped, tc.engine, tc.skipped)
		}
	}
}

// TestSubsetCaps: the per-case time caps of the kept cases reach the
// engine on the whole suite (a case left out uncapped), as a selection
// does; caps of another length are none. An engine of several files
// cuts them per file, and caps of the kept cases' length would not fit.
func TestSubsetCaps(t *testing.T) {
	s := fakeSuite(3) // 6 cases
	sub, err := leaveOut(s, []int{0, 2, 5})
	if err != nil {
		t.Fatal(err)
	}
	var wall, cpu []float64
	run := sub.runner(func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		wall, cpu = o.WallCaps, o.CPUCaps
		return &fitness.Outcome{Results: make([]fitness.Result, 6)}, nil
	})
	for _, tc := range []struct {
		caps, engine []float64
	}{
		{nil, nil},
		{[]float64{1, 2, 3}, []float64{0, 1, 0, 2, 3, 0}},
		{[]float64{1, 2}, nil},
	} {
		if _, err := run(context.Background(), nil, sandbox.RunOptions{WallCaps: tc.caps, CPUCaps: tc.caps}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(wall, tc.engine) || !slices.Equal(cpu, tc.engine) {
			t.Errorf("caps %v: the engine's %v and %v, want %v", tc.caps, wall, cpu, tc.engine)
		}
	}
	// The same caps again are the same slice: the engine sends a server
	// its caps again only for another one.
	caps := []float64{1, 2, 3}
	run(context.Background(), nil, sandbox.RunOptions{WallCaps: caps})
	first := wall
	run(context.Background(), nil, sandbox.RunOptions{WallCaps: caps})
	if &first[0] != &wall[0] {
		t.Error("the same caps were spread into another slice")
	}
}
