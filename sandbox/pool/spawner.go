package pool

import (
	"sync"
	"sync/atomic"
	"time"
)

// spawner decides when a pool starts one more worker process. The pool
// starts with one; with k workers, one more starts when a candidate waits
// for a worker and the engine has been busy for k+1 times as long as its
// first worker took to start. That is the ski-rental rule (rent until the
// rent paid equals the price, then buy: never more than twice the best
// cost in hindsight; Karlin, Manasse, McGeoch and Owicki, "Competitive
// randomized algorithms for nonuniform problems", Algorithmica 11, 1994):
// the price is a worker's start, and the rent is the time lost to running
// on k workers instead of k+1, a (k+1)th of the time busy. Workers that
// boot together slow each other down on a machine with few cores, the
// original's run needs one worker, and a repair that ends sooner does not
// pay for another. Safe for concurrent use.
type spawner struct {
	mu    sync.Mutex
	size  int // workers in the pool or on their way
	limit int // workers the pool may have

	boot  time.Duration // how long the first worker took to start
	first atomic.Int64  // UnixNano of the first busy, 0 before

	now func() int64 // UnixNano (tests set it)
}

func (s *spawner) clock() int64 {
	if s.now != nil {
		return s.now()
	}
	return time.Now().UnixNano()
}

// start records the first worker, which took boot to start, and the
// number of workers the pool may have.
func (s *spawner) start(limit int, boot time.Duration) {
	s.mu.Lock()
	s.size, s.limit, s.boot = 1, max(limit, 1), boot
	s.mu.Unlock()
}

// busy marks that a candidate asks for a worker (the first call starts
// the engine's busy time).
func (s *spawner) busy() { s.first.CompareAndSwap(0, s.clock()) }

// want reports whether to start one more worker now that a candidate
// found none idle, and counts it when so.
func (s *spawner) want() bool {
	first := s.first.Load()
	s.mu.Lock()
	defer s.mu.Unlock()
	if first == 0 || s.size >= s.limit || time.Duration(s.clock()-first) < time.Duration(s.size+1)*s.boot {
		return false
	}
	s.size++
	return true
}

// raise lets the pool have n workers (when n is more than it may have
// now) and returns how many to start at once to get there, counting them:
// for a suite whose cases mostly wait, more workers pay at once.
func (s *spawner) raise(n int) (start, size int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit = max(s.limit, n)
	start = s.limit - s.size
	s.size = s.limit
	return start, s.size
}

// bootWhile starts a pool's first worker with start while prepare makes
// what the worker is sent once it is up (the checks of the cases, the
// suite's message): start must wait for ready, which closes once prepare
// succeeds, before it sends it. It returns the worker and how long its
// start took. When prepare fails, start's stop closes, the worker (if it
// started) is killed and prepare's error returned.
func bootWhile[W any](start func(stop <-chan struct{}) (W, error), kill func(W), prepare func() error, ready chan<- struct{}) (W, time.Duration, error) {
	type booted struct {
		w    W
		err  error
		took time.Duration
	}
	first := make(chan booted, 1)
	stop := make(chan struct{})
	go func() {
		t0 := time.Now()
		w, err := start(stop)
		first <- booted{w, err, time.Since(t0)}
	}()
	if err := prepare(); err != nil {
		close(stop)
		if b := <-first; b.err == nil {
			kill(b.w)
		}
		var none W
		return none, 0, err
	}
	close(ready)
	b := <-first
	return b.w, b.took, b.err
}
