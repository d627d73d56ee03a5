package sandbox

import (
	"errors"
	"testing"
	"time"
)

// TestSpawner: a pool starts one more worker only when candidates wait,
// once it has been busy for k+1 times as long as its first worker took to
// start (k workers), and never past its limit; Raise starts what a new
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
			var s Spawner
			s.Start(r.limit, r.boot)
			if r.busy {
				s.Busy()
			}
			for i, want := range r.want {
				if got := s.Want(); got != want {
					t.Errorf("Want #%d = %v, want %v", i+1, got, want)
				}
			}
		})
	}

	// With k workers, one more after k+1 boots' worth of busy time.
	now := int64(1) // 0 is "not busy yet"
	c := Spawner{now: func() int64 { return now }}
	c.Start(3, time.Second)
	c.Busy()
	for _, step := range []struct {
		at   time.Duration
		want bool
	}{{time.Second, false}, {2 * time.Second, true}, {2 * time.Second, false}, {3 * time.Second, true}, {time.Hour, false}} {
		now = 1 + int64(step.at)
		if got := c.Want(); got != step.want {
			t.Errorf("busy %v: Want = %v, want %v", step.at, got, step.want)
		}
	}

	var s Spawner
	s.Start(2, time.Hour)
	if start, size := s.Raise(5); start != 4 || size != 5 {
		t.Errorf("Raise(5) from one worker = %d to start, %d in all; want 4, 5", start, size)
	}
	if start, size := s.Raise(3); start != 0 || size != 5 {
		t.Errorf("Raise(3) below the limit = %d, %d; want 0, 5", start, size)
	}
	s.Busy()
	if s.Want() {
		t.Error("Want past the raised limit")
	}
}

// TestKillOnStop: closing stop while the worker starts kills it; once it
// has started, closing stop does not.
func TestKillOnStop(t *testing.T) {
	for _, closeFirst := range []bool{true, false} {
		stop := make(chan struct{})
		killed := make(chan struct{})
		started := KillOnStop(stop, func() { close(killed) })
		if closeFirst {
			close(stop)
			<-killed // returns only if kill ran
			started()
			continue
		}
		started()
		close(stop)
		select {
		case <-killed:
			t.Error("killed after it had started")
		case <-time.After(50 * time.Millisecond):
		}
	}
	KillOnStop(nil, func() { t.Error("killed with a nil stop") })()
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
					return "worker", nil // up, but stopped: BootWhile kills it
				}
			}
			killed := false
			prepare := func() error {
				time.Sleep(5 * time.Millisecond) // the worker is starting meanwhile
				prepared = tc.prepErr == nil
				return tc.prepErr
			}
			w, _, err := BootWhile(start, func(string) { killed = true }, prepare, ready)
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
