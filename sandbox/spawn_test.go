package sandbox

import (
	"testing"
	"time"
)

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
