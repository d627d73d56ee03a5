package session

import (
	"os"
	"runtime/debug"
	"time"
)

// startupGC lets the Go collector run less for the first window of a
// repair, unless the user set GOGC: the parse, the operators' context and
// the streams are most of what a repair allocates then, and most of it
// stays live, so the collections the default pace starts during the
// original's run and the search's set-up find little garbage and take a
// CPU from the Python servers (on a 5,000-line file, 3-4 ms of the
// streams' set-up). The default pace comes back after the window (a long
// search's memory follows it) or when the returned function is called.
func startupGC(window time.Duration) (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	old := debug.SetGCPercent(startupGCPercent)
	restore := func() { debug.SetGCPercent(old) }
	t := time.AfterFunc(window, restore)
	return func() {
		if t.Stop() {
			restore()
		}
	}
}

// startupGCPercent is the collector's pace during startupGC's window:
// the heap grows to five times what is live before a collection, where
// the default is twice (at 5,000 lines the process peaks 3 MB higher).
const startupGCPercent = 400

// startupGCWindow is startupGC's window in a repair: a short repair's
// whole run.
const startupGCWindow = time.Second
