package repair

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/engines"
)

// rangeRunner runs n cases of which those in loops time out, honouring
// RunOptions.Cases and AbandonAfterTimeout, and counts how often each case
// ran and how many runs there were.
type rangeRunner struct {
	loops []bool
	mu    sync.Mutex
	ran   []int
	runs  int
}

func (f *rangeRunner) run(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	n := len(f.loops)
	first, end := opts.Cases.Bounds(n)
	out := &fitness.Outcome{Results: make([]fitness.Result, n)}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs++
	for i := first; i < end; i++ {
		f.ran[i]++
		r := fitness.Result{Verdict: fitness.Passed, Seconds: 0.001, Lines: []int{1, i + 2}}
		if i%3 == 1 {
			r.Verdict, r.Detail = fitness.WrongAnswer, "expected 1, got 2"
		}
		if f.loops[i] {
			r = fitness.Result{Verdict: fitness.TimeLimitExceeded, Seconds: 2, Detail: "timed out after 2s", Lines: []int{1, 2}}
		}
		out.Results[i] = r
		if f.loops[i] && opts.AbandonAfterTimeout {
			for j := i + 1; j < end; j++ {
				out.Results[j] = fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: "not run: an earlier case timed out", Lines: []int{}}
			}
			break
		}
	}
	return out, nil
}

// TestRunOriginal: the original's outcome is the one a run in order gives;
// every case runs once; the cases after the first that times out run in
// ranges.
func TestRunOriginal(t *testing.T) {
	tests := []struct {
		name    string
		loops   string // x: the case times out
		workers int
		runs    int
	}{
		{"no timeout", "..........", 2, 1},
		{"one worker", "x.x.x.x.x.", 1, 1},
		{"every other case loops", "x.x.x.x.x.", 2, 1 + 8},
		{"the last case loops", ".........x", 2, 1},
		{"two cases after it", ".......x.x", 2, 1 + 2},
		{"every case loops", "xxxxxxxxxxxx", 2, 1 + 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.loops)
			f := &rangeRunner{loops: make([]bool, n), ran: make([]int, n)}
			for i, c := range tc.loops {
				f.loops[i] = c == 'x'
			}
			opts := sandbox.RunOptions{Coverage: true}
			got, err := runOriginal(context.Background(), f.run, nil, n, tc.workers, opts)
			if err != nil {
				t.Fatal(err)
			}
			serial := &rangeRunner{loops: f.loops, ran: make([]int, n)}
			want, _ := serial.run(context.Background(), nil, opts)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("outcome (-in order +in ranges):\n%s", diff)
			}
			for i, k := range f.ran {
				if k != 1 {
					t.Errorf("case %d ran %d times", i, k)
				}
			}
			if f.runs != tc.runs {
				t.Errorf("%d runs; want %d", f.runs, tc.runs)
			}
		})
	}
}

// TestRunOriginalErrors: an engine's error or a wrong number of results is
// the run's error, not an outcome.
func TestRunOriginalErrors(t *testing.T) {
	broken := errors.New("the engine broke")
	tests := []struct {
		name string
		run  Runner
		want string
	}{
		{"error in a range", func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			if o.Cases.End > 0 {
				return nil, broken
			}
			return &fitness.Outcome{Results: []fitness.Result{{Verdict: fitness.TimeLimitExceeded}, {}, {}}}, nil
		}, broken.Error()},
		{"short outcome", func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			return &fitness.Outcome{Results: []fitness.Result{{}}}, nil
		}, "1 results for 3 cases"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runOriginal(context.Background(), tc.run, nil, 3, 2, sandbox.RunOptions{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v; want %q", err, tc.want)
			}
		})
	}
}

// TestRunOriginalEngines: with the real engines, an original that loops on
// half its cases gets the verdicts and executed lines of a run in order.
// A looping case's lines are what its worker reported when it noticed its
// deadline; a worker that did not notice it within the grace (a loaded
// machine, a worker just started) is killed from outside and its running
// case's lines are lost, in either run: those are left out of the
// comparison.
func TestRunOriginalEngines(t *testing.T) {
	const src = "def f(x):\n    if x < 0:\n        while True:\n            pass\n    y = x * 2\n    return y\n"
	var cases []fitness.Case
	for i := range 8 {
		x := i
		if i%2 == 0 {
			x = -i - 1
		}
		c := fitness.Case{Name: fmt.Sprintf("c%d", i), Kind: fitness.Call, Function: "f", Weight: 1, Timeout: 0.3, Tolerance: 1e-9,
			Args: []byte(fmt.Sprintf("[%d]", x)), Expected: []byte(fmt.Sprint(2 * x))}
		if i == 3 {
			c.Expected = []byte("0")
		}
		cases = append(cases, c)
	}
	suite := &fitness.Suite{Path: "tests.json", MemoryMB: 256, Cases: cases}
	target := t.TempDir() + "/cand.py"
	if err := os.WriteFile(target, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"cpython", "gpython"} {
		t.Run(engine, func(t *testing.T) {
			eng, err := engines.Open(context.Background(), engine, sandbox.Options{Suite: suite, Target: target, Workers: 2})
			if errors.Is(err, sandbox.ErrNoPython) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			opts := sandbox.RunOptions{Coverage: true}
			want, err := eng.Run(context.Background(), []byte(src), opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runOriginal(context.Background(), eng.Run, []byte(src), len(cases), 2, opts)
			if err != nil {
				t.Fatal(err)
			}
			type seen struct {
				Verdict fitness.Verdict
				Lines   []int
			}
			lost := func(i int) bool {
				w, g := want.Results[i], got.Results[i]
				return w.Verdict == fitness.TimeLimitExceeded && g.Verdict == fitness.TimeLimitExceeded &&
					(len(w.Lines) == 0 || len(g.Lines) == 0)
			}
			view := func(o *fitness.Outcome) []seen {
				var s []seen
				for i, r := range o.Results {
					if lost(i) {
						r.Lines = nil
					}
					s = append(s, seen{r.Verdict, r.Lines})
				}
				return s
			}
			if diff := cmp.Diff(view(want), view(got)); diff != "" {
				t.Errorf("outcome (-in order +in ranges):\n%s", diff)
			}
		})
	}
}

// TestInRanges: a run of every case, in ranges at once, gives the
// outcome one run gives; a run of a range, or of one case, is one run; a
// candidate that does not compile is one.
func TestInRanges(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n, k       int
		cases      sandbox.CaseRange
		compileErr bool
		wantRuns   int
	}{
		{name: "ranges", n: 10, k: 4, wantRuns: 4},
		{name: "more ranges than cases", n: 3, k: 8, wantRuns: 3},
		{name: "one case", n: 1, k: 4, wantRuns: 1},
		{name: "a range asked for", n: 10, k: 4, cases: sandbox.CaseRange{First: 2, End: 5}, wantRuns: 1},
		{name: "does not compile", n: 10, k: 4, compileErr: true, wantRuns: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var ranges []sandbox.CaseRange
			run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
				mu.Lock()
				ranges = append(ranges, o.Cases)
				mu.Unlock()
				out := &fitness.Outcome{Results: make([]fitness.Result, tc.n)}
				if tc.compileErr {
					// Every case, whatever the range.
					out.CompileError = "SyntaxError: invalid syntax (line 1)"
					for i := range out.Results {
						out.Results[i] = fitness.Result{Verdict: fitness.CompilationError}
					}
					return out, nil
				}
				first, end := o.Cases.Bounds(tc.n)
				for i := first; i < end; i++ {
					out.Results[i] = fitness.Result{Verdict: fitness.Passed, Detail: fmt.Sprintf("case %d of %s", i, src)}
				}
				return out, nil
			}
			want, _ := run(context.Background(), []byte("p"), sandbox.RunOptions{Cases: tc.cases})
			ranges = nil
			got, err := inRanges(run, tc.n, tc.k)(context.Background(), []byte("p"), sandbox.RunOptions{Cases: tc.cases})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("outcome differs from one run's (-one +ranges):\n%s", diff)
			}
			if len(ranges) != tc.wantRuns {
				t.Errorf("%d runs (%v), want %d", len(ranges), ranges, tc.wantRuns)
			}
		})
	}
}
