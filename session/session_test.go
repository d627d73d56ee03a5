package session

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"repair/fitness"
	"repair/guard"
	"repair/sandbox"
)

func probeSuite(args ...string) *fitness.Suite {
	s := &fitness.Suite{}
	for _, a := range args {
		s.Cases = append(s.Cases, fitness.Case{Name: a, Function: "f", Args: json.RawMessage(a)})
	}
	return s
}

// TestSharedGuard: many searches of one suite share the guard's engine
// for the same generated inputs (opened once, closed with the session);
// other inputs get an engine of their own, which their search closes.
func TestSharedGuard(t *testing.T) {
	for _, tc := range []struct {
		name       string
		asks       []*fitness.Suite
		opens      int // engines opened
		closedLate int // closed by the session's Close
	}{
		{"one search", []*fitness.Suite{probeSuite("[1]", "[2]")}, 1, 1},
		{"same inputs thrice", []*fitness.Suite{probeSuite("[1]", "[2]"), probeSuite("[1]", "[2]"), probeSuite("[1]", "[2]")}, 1, 1},
		{"other inputs", []*fitness.Suite{probeSuite("[1]"), probeSuite("[2]"), probeSuite("[1]")}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Session{cfg: &Config{}, shared: true}
			opens, closed := 0, 0
			open := func(context.Context, *fitness.Suite) (guard.Runner, func(), error) {
				opens++
				run := func(context.Context, []byte, sandbox.RunOptions) (*fitness.Outcome, error) {
					return &fitness.Outcome{}, nil
				}
				return run, func() { closed++ }, nil
			}
			get := s.sharedGuard(open)
			for _, ps := range tc.asks {
				_, closeFn, err := get(context.Background(), ps)
				if err != nil {
					t.Fatal(err)
				}
				closeFn() // as repair.Run does when its search ends
			}
			early := closed
			s.Close()
			if opens != tc.opens || closed-early != tc.closedLate {
				t.Errorf("opened %d, closed %d by the session; want %d, %d", opens, closed-early, tc.opens, tc.closedLate)
			}
		})
	}
}

// TestWorkers: 0 workers is one per CPU, resolved in one place.
func TestWorkers(t *testing.T) {
	for _, tc := range []struct{ in, want int }{{0, runtime.NumCPU()}, {-1, runtime.NumCPU()}, {1, 1}, {7, 7}} {
		if got := Workers(tc.in); got != tc.want {
			t.Errorf("Workers(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestCheckedAndGuarded: the guard runs unless its inputs are 0 or the
// run is lenient; the check needs a test file and the cpython engine,
// unless turned off.
func TestCheckedAndGuarded(t *testing.T) {
	testFile := &fitness.Suite{TestSource: []byte("def test_a(): pass\n")}
	data := &fitness.Suite{}
	for _, tc := range []struct {
		name             string
		cfg              Config
		suite            *fitness.Suite
		engine           string
		guarded, checked bool
	}{
		{"test file on cpython", Config{GuardInputs: 20}, testFile, "cpython", true, true},
		{"check off", Config{GuardInputs: 20, NoCheck: true}, testFile, "cpython", true, false},
		{"gpython", Config{GuardInputs: 20}, testFile, "gpython", true, false},
		{"data suite", Config{GuardInputs: 20}, data, "cpython", true, false},
		{"guard off", Config{}, data, "cpython", false, false},
		{"lenient", Config{GuardInputs: 20, Lenient: true}, testFile, "cpython", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Session{cfg: &tc.cfg, in: &Input{Suite: tc.suite}, Engine: namedEngine(tc.engine)}
			if s.Guarded() != tc.guarded || s.Checked() != tc.checked {
				t.Errorf("guarded %v, checked %v; want %v, %v", s.Guarded(), s.Checked(), tc.guarded, tc.checked)
			}
		})
	}
}

type namedEngine string

func (e namedEngine) Name() string { return string(e) }
func (e namedEngine) Close() error { return nil }
func (e namedEngine) Features() sandbox.Features {
	return sandbox.Features{Verify: e == "cpython", Lenient: e == "cpython"}
}
func (e namedEngine) Run(context.Context, []byte, sandbox.RunOptions) (*fitness.Outcome, error) {
	return &fitness.Outcome{}, nil
}
