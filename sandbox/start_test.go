package sandbox

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAwaitStartWaited: the window of silence counts the time the process
// could run, not the time it waited for a CPU. One silent for five
// windows while it waited for a CPU nine tenths of them (a busy machine)
// is waited for; one silent as long that waited for none (it sleeps, or
// blocks) is given up after one window.
func TestAwaitStartWaited(t *testing.T) {
	const quiet = 200 * time.Millisecond
	tests := []struct {
		name  string
		share float64 // of the wall time, what the process waited for a CPU
		want  string
	}{
		{name: "starved", share: 0.9},
		{name: "asleep", share: 0, want: "the harness made no progress for 0.2s while importing"},
		{name: "no run delay known", share: -1, want: "the harness made no progress for 0.2s while importing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			var waited func() time.Duration
			if tc.share >= 0 {
				waited = func() time.Duration { return time.Duration(tc.share * float64(time.Since(start))) }
			}
			hello := start.Add(5 * quiet)
			recv := func(deadline time.Time) (byte, []byte, error) {
				if deadline.Before(hello) {
					time.Sleep(time.Until(deadline))
					return 0, nil, os.ErrDeadlineExceeded
				}
				time.Sleep(time.Until(hello))
				return 'H', nil, nil
			}
			stage := "importing"
			kind, _, err := AwaitStart(recv, 'P', quiet, "harness", &stage, waited)
			switch {
			case tc.want == "" && (err != nil || kind != 'H'):
				t.Fatalf("%q, %v; want the hello", kind, err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTreeRunDelay: the run delay of this process's tree counts at least
// what its own threads waited for a CPU, read just before; no process
// has none.
func TestTreeRunDelay(t *testing.T) {
	var own int64
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + task.Name() + "/schedstat")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(data)); len(f) >= 2 {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			own += n
		}
	}
	if own == 0 {
		t.Skip("no run delay kept here (schedstat)")
	}
	if d := TreeRunDelay(os.Getpid()); d < time.Duration(own) {
		t.Errorf("run delay of the tree %v, less than its threads' %v", d, time.Duration(own))
	}
	if d := TreeRunDelay(-1); d != 0 {
		t.Errorf("run delay of no process %v", d)
	}
}
