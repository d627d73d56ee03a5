package serve

import (
	"context"
	"errors"
	"sync/atomic"
)

// errBusy: every worker is busy and the queue is full.
var errBusy = errors.New("every worker is busy and the queue is full: retry later")

// admission bounds the requests inside the server: at most workers
// evaluate at once, and at most queue more wait for a worker. A request
// enters before its body is read, so the memory that waiting bodies hold
// is bounded too; one that cannot enter is answered 503 at once.
type admission struct {
	slots   chan struct{}
	limit   int64 // workers + queue
	inside  atomic.Int64
	busy    atomic.Int64
	changed func(busy, waiting int64) // reports the load (metrics); may be nil
}

func newAdmission(workers, queue int, changed func(busy, waiting int64)) *admission {
	return &admission{slots: make(chan struct{}, workers), limit: int64(workers + queue), changed: changed}
}

// enter admits a request, or returns errBusy when the server is full.
func (a *admission) enter() error {
	if a.inside.Add(1) > a.limit {
		a.inside.Add(-1)
		return errBusy
	}
	a.report()
	return nil
}

// leave is the end of an entered request.
func (a *admission) leave() {
	a.inside.Add(-1)
	a.report()
}

// acquire waits for a worker (the request has entered); it returns
// ctx.Err() if ctx ends first.
func (a *admission) acquire(ctx context.Context) error {
	select {
	case a.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	a.busy.Add(1)
	a.report()
	return nil
}

// release gives a worker back.
func (a *admission) release() {
	a.busy.Add(-1)
	<-a.slots
	a.report()
}

// load returns the busy workers and the requests waiting for one (or for
// their body to arrive).
func (a *admission) load() (busy, waiting int64) {
	b := a.busy.Load()
	return b, max(a.inside.Load()-b, 0)
}

func (a *admission) report() {
	if a.changed != nil {
		a.changed(a.load())
	}
}
