package pool

import (
	"errors"
	"testing"
	"time"
)

// TestSpawner: a pool starts one more worker only when candidates wait,
// once it has been busy for k+1 times as long as its first worker took to
// start (k workers), and never past its limit; raise starts what a new
// limit asks at once.
func TestSpawner(t *testing.T) {
	rows := []struct {
		name  string
		limit int
		boot  time.Duration
		busy  bool
		want  []bool // successive Want calls
	}{
		{"before any candidate", 3, 0, false, []bool{false}},
		{"busy for less than a boot", 3, time.Hour, true, []bool{false, false}},
		{"busy for a boot: up to the limit", 3, 0, true, []bool{true, true, false}},
		{"one worker only", 1, 0, true, []bool{false}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			var s spawner
			s.start(r.limit, r.boot)
			if r.busy {
				s.busy()
			}
			for i, want := range r.want {
				if got := s.want(); got != want {
					t.Errorf("want #%d = %v, want %v", i+1, got, want)
				}
			}
		})
	}

	// With k workers, one more after k+1 boots' worth of busy time.
	now := int64(1) // 0 is "not busy yet"
	c := spawner{now: func() int64 { return now }}
	c.start(3, time.Second)
	c.busy()
	for _, step := range []struct {
		at   time.Duration
		want bool
	}{{time.Second, false}, {2 * time.Second, true}, {2 * time.Second, false}, {3 * time.Second, true}, {time.Hour, false}} {
		now = 1 + int64(step.at)
		if got := c.want(); got != step.want {
			t.Errorf("busy %v: want = %v, want %v", step.at, got, step.want)
		}
	}

	var s spawner
	s.start(2, time.Hour)
	if start, size := s.raise(5); start != 4 || size != 5 {
		t.Errorf("raise(5) from one worker = %d to start, %d in all; want 4, 5", start, size)
	}
	if start, size := s.raise(3); start != 0 || size != 5 {
		t.Errorf("raise(3) below the limit = %d, %d; want 0, 5", start, size)
	}
	s.busy()
	if s.want() {
		t.Error("want past the raised limit")
	}
}

// TestBootWhile: the first worker starts while prepare runs and is sent
// nothing before ready; a failed prepare stops and kills it; a failed
// start is the error.
func TestBootWhile(t *testing.T) {
	errPrep, errStart := errors.New("prepare failed"), errors.New("start failed")
	for _, tc := range []struct {
		name               string
		prepErr, startErr  error
		wantErr            error
		wantKilled, wantUp bool
	}{
		{name: "up", wantUp: true},
		{name: "prepare fails", prepErr: errPrep, wantErr: errPrep, wantKilled: true},
		{name: "start fails", startErr: errStart, wantErr: errStart},
		{name: "both fail", prepErr: errPrep, startErr: errStart, wantErr: errPrep},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ready := make(chan struct{})
			prepared := false
			var sentEarly, stopped bool
			start := func(stop <-chan struct{}) (string, error) {
				if tc.startErr != nil {
					return "", tc.startErr
				}
				select {
				case <-ready:
					sentEarly = !prepared
					return "worker", nil
				case <-stop:
					stopped = true
					return "worker", nil // up, but stopped: bootWhile kills it
				}
			}
			killed := false
			prepare := func() error {
				time.Sleep(5 * time.Millisecond) // the worker is starting meanwhile
				prepared = tc.prepErr == nil
				return tc.prepErr
			}
			w, _, err := bootWhile(start, func(string) { killed = true }, prepare, ready)
			if err != tc.wantErr {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if (w == "worker") != tc.wantUp || killed != tc.wantKilled || sentEarly {
				t.Errorf("worker %q, killed %v, sent before ready %v", w, killed, sentEarly)
			}
			if tc.wantKilled && !stopped {
				t.Error("start's stop did not close")
			}
		})
	}
}
