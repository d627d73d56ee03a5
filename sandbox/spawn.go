package sandbox

import "sync"

// KillOnStop calls kill if stop is closed before the function it returns
// is called: a worker still starting when its engine closes is killed, not
// waited for. A nil stop does nothing. Call it once the worker's process
// has started, and defer the returned function.
func KillOnStop(stop <-chan struct{}, kill func()) (started func()) {
	if stop == nil {
		return func() {}
	}
	// A select with both channels ready picks either: the flag, under
	// mu, says whether started ran first, so that a worker that has
	// started is never killed for a stop that came after.
	var mu sync.Mutex
	finished := false
	done := make(chan struct{})
	go func() {
		select {
		case <-stop:
			mu.Lock()
			if !finished {
				kill()
			}
			mu.Unlock()
		case <-done:
		}
	}()
	return func() {
		mu.Lock()
		finished = true
		mu.Unlock()
		close(done)
	}
}
