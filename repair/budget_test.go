package repair

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// TestBudgetBoundsDelivery: a fix found within the time budget whose
// validation does not finish (a machine too loaded for it) does not hold
// the run past the budget and its grace: the validation is stopped at
// that deadline, the candidate is not claimed, and the run says why. The
// assertions are on the deadlines the run gives its runs, not on how long
// anything took.
func TestBudgetBoundsDelivery(t *testing.T) {
	defer func(g time.Duration) { deliveryGrace = g }(deliveryGrace)
	deliveryGrace = 300 * time.Millisecond
	p := parseMiddle(t)
	search := fakeRunner(nil)
	var mu sync.Mutex
	var validations []error
	var deadlines []time.Time
	run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		if !opts.Validate {
			return search(ctx, src, opts)
		}
		d, _ := ctx.Deadline()
		// A validation that never ends by itself; the backstop only keeps
		// a broken run from hanging the test.
		var err error
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(time.Minute):
			err = errors.New("the validation was not stopped")
		}
		mu.Lock()
		validations, deadlines = append(validations, err), append(deadlines, d)
		mu.Unlock()
		return nil, err
	}
	var log bytes.Buffer
	opts := firstFix()
	opts.Workers = 2
	opts.Log = &log
	opts.Start = time.Now()
	opts.TimeBudget = time.Second
	res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) != 0 || res.StopReason != "time budget" {
		t.Errorf("fixes %d, stop %q; want none, stopped by the time budget", len(res.Fixes), res.StopReason)
	}
	if len(validations) == 0 {
		t.Fatal("no validation ran: the fake search found no fix")
	}
	end := opts.Start.Add(opts.TimeBudget + deliveryGrace)
	for i, err := range validations {
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("validation %d ended with %v; want the budget's deadline", i, err)
		}
		if deadlines[i].IsZero() || deadlines[i].After(end) {
			t.Errorf("validation %d: deadline %v, want by the budget and its grace (%v)", i, deadlines[i], end)
		}
	}
	if !strings.Contains(log.String(), "the time budget ran out while a plausible candidate was validated: not claimed") {
		t.Errorf("log does not say why the fix is not claimed:\n%s", log.String())
	}
}

// TestBudgetCountsFromStart: the time budget counts from Options.Start
// (the command's start), not from the search's: a run whose budget was
// spent before Run searches nothing.
func TestBudgetCountsFromStart(t *testing.T) {
	p := parseMiddle(t)
	opts := firstFix()
	opts.Workers = 2
	opts.TimeBudget = time.Second
	opts.Start = time.Now().Add(-opts.TimeBudget)
	res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixes) != 0 || res.StopReason != "time budget" {
		t.Errorf("fixes %d, stop %q after %d evaluations; want none, stopped by the time budget", len(res.Fixes), res.StopReason, res.Evaluations)
	}
}

// TestBudgetBoundsOriginal: an original whose run outlasts the time
// budget (a large suite on a loaded machine) ends the run at the budget,
// with no search and no error: the run stopped for its budget.
func TestBudgetBoundsOriginal(t *testing.T) {
	p := parseMiddle(t)
	var ended error
	run := func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
		select {
		case <-ctx.Done():
			ended = ctx.Err()
		case <-time.After(time.Minute):
			ended = errors.New("the original's run was not stopped")
		}
		return nil, ended
	}
	var log bytes.Buffer
	opts := firstFix()
	opts.Log = &log
	opts.TimeBudget = 100 * time.Millisecond
	res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(ended, context.DeadlineExceeded) {
		t.Errorf("the original's run ended with %v; want the budget's deadline", ended)
	}
	if res.StopReason != "time budget" || res.Evaluations != 0 || len(res.Fixes) != 0 {
		t.Errorf("stop %q, %d evaluations, %d fixes; want the time budget, nothing searched", res.StopReason, res.Evaluations, len(res.Fixes))
	}
	if !strings.Contains(log.String(), "the time budget ran out before the original program's run ended") {
		t.Errorf("log does not say why:\n%s", log.String())
	}
}

// TestBudgetBoundsRescue: when no fix was found and the best candidate
// fails only tests the original fails, the original runs again (its
// flaky tests); when those runs outlast the budget's grace (a large
// suite on a loaded machine), the run ends for its budget, says why, and
// is no failure of the tool.
func TestBudgetBoundsRescue(t *testing.T) {
	defer func(g time.Duration) { deliveryGrace = g }(deliveryGrace)
	deliveryGrace = 300 * time.Millisecond
	p := parseMiddle(t)
	inner := flakyRunner(p.Src, func(k int, o *fitness.Outcome) {
		o.Results[0] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "drew badly"}
	}, nil)
	var again atomic.Int32
	run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
		if o.Validate && bytes.Equal(src, p.Src) {
			// The original's runs again never end by themselves.
			again.Add(1)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Minute):
				return nil, errors.New("the original's run again was not stopped")
			}
		}
		out, err := inner(ctx, src, o)
		if err == nil && !o.Validate && out.CompileError == "" {
			out.Results[0] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "drew badly"}
		}
		return out, err
	}
	var log bytes.Buffer
	opts := firstFix()
	opts.Seed, opts.Workers, opts.Log = 1, 2, &log
	opts.Start = time.Now()
	opts.TimeBudget = time.Second
	res, err := Run(context.Background(), p, fakeSuite(10), run, opts)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if again.Load() == 0 {
		t.Fatalf("the original did not run again: no best candidate to rescue\n%s", log.String())
	}
	if len(res.Fixes) != 0 || res.StopReason != "time budget" {
		t.Errorf("fixes %d, stop %q; want none, stopped by the time budget", len(res.Fixes), res.StopReason)
	}
	if !strings.Contains(log.String(), "the time budget ran out while the best candidate was checked against the original's flaky tests") {
		t.Errorf("log does not say why:\n%s", log.String())
	}
}
