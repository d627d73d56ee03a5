//go:build race

package gpython

// raceEnabled: the race detector's shadow memory does not fit under the
// worker's RLIMIT_DATA, so race builds leave it out (the heap limit and the
// probes still apply).
const raceEnabled = true
