package session

import (
	"os"
	"runtime/debug"
	"testing"
	"time"
)

// TestStartupGC: the collector's pace is startupGCPercent during the
// window and the one before after it, whether the window ends or the
// repair does first; with GOGC set it is left alone.
func TestStartupGC(t *testing.T) {
	percent := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	before := percent()
	if v, ok := os.LookupEnv("GOGC"); ok {
		defer os.Setenv("GOGC", v)
	}
	os.Unsetenv("GOGC")

	stop := startupGC(time.Hour)
	if got := percent(); got != startupGCPercent {
		t.Errorf("pace %d in the window, want %d", got, startupGCPercent)
	}
	stop()
	if got := percent(); got != before {
		t.Errorf("pace %d after the repair, want %d", got, before)
	}

	stop = startupGC(time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); percent() != before && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if got := percent(); got != before {
		t.Errorf("pace %d after the window, want %d", got, before)
	}
	stop()
	if got := percent(); got != before {
		t.Errorf("pace %d after the window and the repair, want %d", got, before)
	}

	os.Setenv("GOGC", "100")
	defer os.Unsetenv("GOGC")
	stop = startupGC(time.Hour)
	if got := percent(); got != before {
		t.Errorf("pace %d with GOGC set, want %d", got, before)
	}
	stop()
}
