package repair

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/mutate"
	"repair/program"
	"repair/sandbox"
)

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

// fakeSuite has n passing and n failing cases.
func fakeSuite(n int) *fitness.Suite {
	s := &fitness.Suite{Path: "tests.json", Function: "middle"}
	for i := 0; i < 2*n; i++ {
		s.Cases = append(s.Cases, fitness.Case{Name: fmt.Sprintf("c%d", i), Kind: fitness.Call, Function: "middle", Weight: 1, Timeout: 2})
	}
	return s
}

// fakeRunner judges a candidate by its text: the failing half passes when
// line 6 returns x, the passing half keeps passing while lines 4 and 9 still
// return y. Coverage: the failing cases execute lines 1-3, 5, 6.
func fakeRunner(calls *atomic.Int64) Runner {
	return func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if calls != nil {
			calls.Add(1)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := program.Parse("m.py", src)
		if err != nil {
			o := &fitness.Outcome{CompileError: err.Error()}
			for i := 0; i < 20; i++ {
				o.Results = append(o.Results, fitness.Result{Verdict: fitness.CompilationError})
			}
			return o, nil
		}
		lines := strings.Split(string(src), "\n")
		line := func(n int) string {
			if n-1 < len(lines) {
				return strings.TrimSpace(lines[n-1])
			}
			return ""
		}
		_ = p
		fixed := line(6) == "return x"
		kept := line(4) == "return y" && line(9) == "return y" && line(11) == "return x"
		o := &fitness.Outcome{}
		for i := 0; i < 20; i++ {
			r := fitness.Result{Verdict: fitness.WrongAnswer}
			if i < 10 && kept || i >= 10 && fixed && kept {
				r.Verdict = fitness.Passed
			}
			if opts.Coverage {
				if i < 10 {
					r.Lines = []int{1, 2, 3, 4, 12}
				} else {
					r.Lines = []int{1, 2, 3, 5, 6}
				}
			}
			o.Results = append(o.Results, r)
		}
		return o, nil
	}
}

func parseMiddle(t *testing.T) *program.Program {
	t.Helper()
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunFindsFix(t *testing.T) {
	p := parseMiddle(t)
	opts := firstFix()
	opts.Workers = 2
	res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) != 1 {
		t.Fatalf("no fix: stop %s, best %v", res.StopReason, res.BestFitness)
	}
	fix := res.Fixes[0]
	if len(fix.Patch) != 1 {
		t.Errorf("reduced patch has %d edits, want 1: %v", len(fix.Patch), fix.Describe)
	}
	if !strings.Contains(fix.Diff, "+            return x") {
		t.Errorf("diff does not return x:\n%s", fix.Diff)
	}
	if res.StopReason != "found" || res.BestFitness != 1 {
		t.Errorf("stop %q best %v", res.StopReason, res.BestFitness)
	}
	if len(res.Ranking.Entries) == 0 {
		t.Fatal("no ranking")
	}
	if res.Ranking.Entries[0].Line != 6 {
		t.Errorf("top suspicious line %d, want 6", res.Ranking.Entries[0].Line)
	}
}

// TestDeterminism: the same seed gives the same fix, the same number of
// evaluations and the same history whatever the number of workers.
func TestDeterminism(t *testing.T) {
	p := parseMiddle(t)
	for _, seed := range []uint64{1, 2, 3, 4, 5} {
		var got []string
		for _, workers := range []int{1, 2, 7} {
			opts := firstFix()
			opts.Seed, opts.Workers = seed, workers
			opts.Operators = opts.Operators[:5] // statement operators only: a longer search
			res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), opts)
			if err != nil {
				t.Fatal(err)
			}
			s := fmt.Sprintf("evals=%d gens=%d", res.Evaluations, res.Generations)
			if len(res.Fixes) > 0 {
				s += " " + res.Fixes[0].Diff + fmt.Sprint(res.Fixes[0].Unreduced)
			}
			got = append(got, s)
		}
		if diff := cmp.Diff(got[0], got[1]); diff != "" {
			t.Errorf("seed %d: workers 1 vs 2 differ (-1 +2):\n%s", seed, diff)
		}
		if diff := cmp.Diff(got[0], got[2]); diff != "" {
			t.Errorf("seed %d: workers 1 vs 7 differ (-1 +7):\n%s", seed, diff)
		}
	}
}

// TestFixBeforeGenerationEnds: a fix is delivered as soon as it and the
// candidates before it are scored, not when its generation ends; when it
// ends the search, the candidates after it are abandoned and not counted.
// With one worker, none of them even starts: no candidate starts while a
// plausible one waits for its delivery.
func TestFixBeforeGenerationEnds(t *testing.T) {
	p := parseMiddle(t)
	plain := fakeRunner(nil)
	for _, workers := range []int{1} {
		for _, seed := range []uint64{1, 2, 3, 4, 5} {
			var fixRan atomic.Bool
			var after atomic.Int64 // candidates started after the fix was scored
			run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				out, err := plain(ctx, src, o)
				if err != nil || o.Validate || o.Coverage {
					return out, err
				}
				if allPassed(out) {
					fixRan.Store(true)
					return out, nil
				}
				if fixRan.Load() {
					after.Add(1)
					// A candidate after the fix: it runs until abandoned.
					select {
					case <-ctx.Done():
						return nil, ctx.Err()
					case <-time.After(5 * time.Second):
						t.Errorf("workers %d, seed %d: the fix waited for the end of its generation", workers, seed)
					}
				}
				return out, nil
			}
			opts := firstFix()
			opts.Seed, opts.Workers, opts.Reduce = seed, workers, false
			res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Fixes) != 1 || res.StopReason != "found" {
				t.Fatalf("workers %d, seed %d: %d fixes, stop %q", workers, seed, len(res.Fixes), res.StopReason)
			}
			if f := res.Fixes[0]; f.Evaluations != res.Evaluations {
				t.Errorf("workers %d, seed %d: the fix came after %d evaluations, the run counts %d", workers, seed, f.Evaluations, res.Evaluations)
			}
			if n := after.Load(); workers == 1 && n > 0 {
				t.Errorf("seed %d: %d candidates started after the fix was scored", seed, n)
			}
		}
	}
}

func TestEvaluationBudget(t *testing.T) {
	p := parseMiddle(t)
	var calls atomic.Int64
	opts := firstFix()
	opts.Evaluations = 25
	// Comparisons only: the fake suite looks at the return lines, which
	// no edit of a comparison changes (delete and insert can: the else
	// branch's if copied over the first).
	ops, err := mutate.ParseSpec("cmp-op")
	if err != nil {
		t.Fatal(err)
	}
	opts.Operators = ops
	res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(&calls), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) != 0 {
		t.Fatalf("a comparisons-only search found a fix")
	}
	if res.Evaluations > 25 {
		t.Errorf("%d evaluations, budget 25", res.Evaluations)
	}
	// The original's coverage run plus at most the budget.
	if n := calls.Load(); n > 26 {
		t.Errorf("engine ran %d times, want at most 26", n)
	}
	if res.StopReason != "evaluations" {
		t.Errorf("stop reason %q", res.StopReason)
	}
}

// TestExhausted: a search that cannot make new programs stops.
func TestExhausted(t *testing.T) {
	p := parseMiddle(t)
	opts := firstFix()
	opts.Operators = opts.Operators[:1] // delete: three targets, a handful of programs
	res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != "exhausted" || res.Generations >= 50 {
		t.Errorf("stop %q after %d generations", res.StopReason, res.Generations)
	}
}

func TestNothingToRepair(t *testing.T) {
	p := parseMiddle(t)
	all := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		o := &fitness.Outcome{}
		for i := 0; i < 20; i++ {
			o.Results = append(o.Results, fitness.Result{Verdict: fitness.Passed})
		}
		return o, nil
	}
	_, err := Run(context.Background(), p, fakeSuite(10), all, firstFix())
	if err == nil || !strings.Contains(err.Error(), "nothing to repair: all 20 cases pass") {
		t.Errorf("error = %v", err)
	}
}

func TestCanceled(t *testing.T) {
	p := parseMiddle(t)
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	run := fakeRunner(&calls)
	orig := []byte(middle)
	slow := func(c context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if calls.Load() > 5 {
			cancel()
		}
		// No candidate ever fixes anything.
		return run(c, orig, opts)
	}
	res, err := Run(ctx, p, fakeSuite(10), slow, firstFix())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want canceled", err)
	}
	if res == nil || res.StopReason != "interrupted" {
		t.Errorf("result %+v", res)
	}
}

func TestBookPreset(t *testing.T) {
	o := Book()
	if o.Population != 40 || o.Generations != 100 || o.Weights.Passing != 0.99 || o.Weights.Failing != 0.01 ||
		o.MutationRate != 1 || o.CrossoverRate != 1 || o.Selection != Truncation || o.Immigrants != 0 {
		t.Errorf("book preset: %+v", o)
	}
	var names []string
	for _, w := range o.Operators {
		names = append(names, fmt.Sprintf("%s=%v", w.Op.Name, w.Weight))
	}
	if diff := cmp.Diff([]string{"insert=1", "replace=1", "delete=1"}, names); diff != "" {
		t.Errorf("book operators (-want +got):\n%s", diff)
	}
	if err := o.Validate(); err != nil {
		t.Error(err)
	}
	// The book's search finds the middle fix too (replace/insert/delete can).
	p := parseMiddle(t)
	res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) == 0 {
		t.Errorf("book preset found no fix (best %v)", res.BestFitness)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		set  func(*Options)
		want string
	}{
		{"population", func(o *Options) { o.Population = 0 }, "--population must be from 1 to 1000000, got 0"},
		{"mutation rate", func(o *Options) { o.MutationRate = 1.5 }, "--mutation-rate must be from 0 to 1, got 1.5"},
		{"selection", func(o *Options) { o.Selection = "roulette" }, `--selection must be tournament or truncation, got "roulette"`},
		{"tournament", func(o *Options) { o.TournamentSize = 100 }, "--tournament-size must be from 1 to the population (40), got 100"},
		{"immigrants and elitism", func(o *Options) { o.Immigrants, o.Elitism = 0.95, 0.1 }, "--elitism (0.1) and --immigrants (0.95) add up to more than the population"},
		{"weights", func(o *Options) { o.Weights.Failing = 0 }, "fitness weights: the failing weight must be a number > 0, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := firstFix()
			tt.set(&o)
			err := o.Validate()
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestAll: --all collects several fixes, each a distinct program after
// reduction, and validates each program once: a plausible candidate that
// reduces to a fix already delivered is not run again.
func TestAll(t *testing.T) {
	p := parseMiddle(t)
	opts := firstFix()
	opts.All, opts.Generations = true, 8
	var mu sync.Mutex
	validated := map[string]int{}
	plain := fakeRunner(nil)
	run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		if o.Validate {
			mu.Lock()
			validated[string(src)]++
			mu.Unlock()
		}
		return plain(ctx, src, o)
	}
	res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
	if err != nil {
		t.Fatal(err)
	}
	for src, n := range validated {
		if n > 1 {
			t.Errorf("validated %d times:\n%s", n, src)
		}
	}
	if len(validated) != len(res.Fixes) {
		t.Errorf("%d programs validated for %d fixes", len(validated), len(res.Fixes))
	}
	if len(res.Fixes) < 2 {
		t.Fatalf("%d fixes, want several", len(res.Fixes))
	}
	seen := map[string]bool{}
	for _, f := range res.Fixes {
		if seen[string(f.Source)] {
			t.Errorf("fix %v delivered twice", f.Describe)
		}
		seen[string(f.Source)] = true
	}
	if res.StopReason != "generations" {
		t.Errorf("stop reason %q", res.StopReason)
	}
}

// TestValidationOverOriginal: a fix whose changed definitions keep their
// lines is validated over the original's code (its Change goes with the
// validation run: no compile of the whole file), and that run still runs
// every case, selecting none.
func TestValidationOverOriginal(t *testing.T) {
	p := parseMiddle(t)
	var mu sync.Mutex
	var validations []sandbox.RunOptions
	var srcs [][]byte
	plain := fakeRunner(nil)
	run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		if o.Validate {
			mu.Lock()
			validations = append(validations, o)
			srcs = append(srcs, src)
			mu.Unlock()
		}
		return plain(ctx, src, o)
	}
	res, err := Run(context.Background(), p, fakeSuite(10), run, firstFix())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) == 0 || len(validations) == 0 {
		t.Fatalf("%d fixes, %d validations", len(res.Fixes), len(validations))
	}
	for i, o := range validations {
		if o.Change == nil || !o.Change.KeepsLines(p.Src, srcs[i]) {
			t.Errorf("validation %d: change %+v, want one that keeps the lines", i, o.Change)
		}
		if o.Select != nil || o.WallCaps != nil || o.Timeout != 0 {
			t.Errorf("validation %d: select %v, wall caps %v, timeout %v: want every case with the suite's timeouts", i, o.Select, o.WallCaps, o.Timeout)
		}
	}
}

// TestDiagnosis: failing cases that run no line of the target, or only
// its imports and definitions, stop the run with one line naming them (an
// *Unreached error); failing cases that run its module-level code (a
// constant they read) or whose error went through it get a warning and
// the search goes on.
func TestDiagnosis(t *testing.T) {
	const constant = "RATE = 1\n\n\ndef middle(x, y, z):\n    return x\n"
	for _, tc := range []struct {
		name       string
		src        string
		failLines  []int  // what each failing case executes
		detail     string // their error
		wantErr    string
		wantLogged string
	}{
		{"no line", middle, nil, "", "m.py: no failing case runs any line of it, so no change to it can fix them; look at the files their tracebacks name: c1: RUNTIME_ERROR (ImportError: no module named helper (test_m.py line 3)); c3: RUNTIME_ERROR", ""},
		{"definitions only", middle, []int{1}, "", "m.py: no failing case calls a function of it (they only import it), so no change to it can fix them; look at the files their tracebacks name: c1: RUNTIME_ERROR (ImportError: no module named helper (test_m.py line 3))", ""},
		{"a module-level constant", constant, []int{1, 4}, "", "", "repair: warning: m.py: no failing case calls a function of it (only its module-level lines run), so the fault may be in another file: c1: RUNTIME_ERROR"},
		{"an error in the target's import", middle, []int{1}, "ModuleNotFoundError: No module named 'sdk' (line 1)", "", "repair: warning: m.py: no failing case calls a function of it"},
		{"calls in", middle, []int{1, 2, 3, 5, 6}, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := program.Parse("m.py", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			detail := tc.detail
			if detail == "" {
				detail = "ImportError: no module named helper (test_m.py line 3)"
			}
			s := fakeSuite(2)
			run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				out := &fitness.Outcome{}
				for i := range s.Cases {
					r := fitness.Result{Verdict: fitness.Passed, Lines: []int{1, 2, 5}}
					if i%2 == 1 {
						r = fitness.Result{Verdict: fitness.RuntimeError, Detail: detail, Lines: tc.failLines}
					}
					out.Results = append(out.Results, r)
				}
				return out, nil
			}
			var log strings.Builder
			o := firstFix()
			o.Generations, o.Population, o.Seed, o.Log, o.Workers = 1, 4, 1, &log, 1
			_, err = Run(context.Background(), p, s, run, o)
			if tc.wantErr != "" {
				var un *Unreached
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "\n") || !errors.As(err, &un) {
					t.Fatalf("err = %v, want an *Unreached of one line starting %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := log.String(); tc.wantLogged != "" && !strings.Contains(got, tc.wantLogged) {
				t.Errorf("log lacks %q:\n%s", tc.wantLogged, got)
			} else if tc.wantLogged == "" && strings.Contains(got, "warning") {
				t.Errorf("unexpected warning:\n%s", got)
			}
		})
	}
}

// TestDeterminismWithRejections: a fix its validation rejects scores what
// the validation saw from the next generation on, whatever the number of
// workers: the rest of its own generation, which runs beside its
// delivery, scores as the search's runs did.
func TestDeterminismWithRejections(t *testing.T) {
	p := parseMiddle(t)
	plain := fakeRunner(nil)
	// The search believes in the fix; its validation never does.
	run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		out, err := plain(ctx, src, o)
		if err == nil && o.Validate && allPassed(out) {
			out.Results[0] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "validation"}
		}
		return out, err
	}
	for _, seed := range []uint64{1, 2, 3, 4, 5, 6} {
		var got []string
		for _, workers := range []int{1, 2, 40} {
			opts := firstFix()
			opts.Seed, opts.Workers, opts.Generations = seed, workers, 6
			res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Rejected == 0 {
				t.Fatalf("seed %d: no fix rejected: the test shows nothing", seed)
			}
			s := fmt.Sprintf("evals=%d gens=%d rejected=%d", res.Evaluations, res.Generations, res.Rejected)
			for _, g := range res.History {
				s += fmt.Sprintf("; %d: best %.4f mean %.4f evals %d", g.Generation, g.Best, g.Mean, g.Evaluations)
			}
			got = append(got, s)
		}
		for i, w := range []int{2, 40} {
			if diff := cmp.Diff(got[0], got[i+1]); diff != "" {
				t.Errorf("seed %d: workers 1 vs %d differ (-1 +%d):\n%s", seed, w, w, diff)
			}
		}
	}
}

// TestPreparedAhead: with the operators' view of the program made by the
// caller (Options.Prepared), Run takes it, once, and finds what it finds
// preparing it itself: the same fix after as many evaluations; a nil one
// from the caller is made by Run.
func TestPreparedAhead(t *testing.T) {
	p := parseMiddle(t)
	run := func(prepared func() *mutate.Context) *Result {
		t.Helper()
		opts := firstFix()
		opts.Workers = 2
		opts.Prepared = prepared
		res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Fixes) != 1 {
			t.Fatalf("no fix: stop %s", res.StopReason)
		}
		return res
	}
	want := run(nil)
	calls := 0
	got := run(func() *mutate.Context { calls++; return mutate.Prepare(p) })
	if calls != 1 {
		t.Errorf("Prepared called %d times, want 1", calls)
	}
	if got.Evaluations != want.Evaluations || got.Fixes[0].Diff != want.Fixes[0].Diff {
		t.Errorf("with the context made ahead: %d evaluations, fix\n%s\nwant %d,\n%s", got.Evaluations, got.Fixes[0].Diff, want.Evaluations, want.Fixes[0].Diff)
	}
	if got := run(func() *mutate.Context { return nil }); got.Evaluations != want.Evaluations {
		t.Errorf("with a nil context from the caller: %d evaluations, want %d", got.Evaluations, want.Evaluations)
	}
}
