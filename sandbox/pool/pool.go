// Package pool keeps a sandbox engine's worker processes (the cpython
// engine's fork servers, the gpython engine's workers): the first starts
// with the engine, the others in the background when they pay (the
// ski-rental rule, see spawner) or when the engine grows; a dead worker is
// replaced by whoever takes it next; Close kills every worker, busy ones
// and ones still starting included. It is generic over the engine's
// worker type and knows of it only what [Config] says.
package pool

import (
	"context"
	"errors"
	"sync"
)

// ErrClosed is what [Pool.Get] returns once the pool is closed; an
// engine's Run returns it after Close (sandbox.ErrClosed is the same
// value).
var ErrClosed = errors.New("sandbox engine is closed")

// Config says how a pool starts, checks and stops its workers.
type Config[W comparable] struct {
	// Start starts a worker. When stop closes before the worker is up,
	// Start kills it and fails.
	Start func(stop <-chan struct{}) (W, error)
	// Kill stops a worker, which Dead reports from then on. It may be
	// called more than once, and while another goroutine uses the worker
	// (Close kills busy workers).
	Kill func(W)
	// Dead reports whether a worker must be replaced before it is used
	// again (it broke, or was killed).
	Dead func(W) bool
	// Forget, when not nil, releases what a killed worker still holds
	// once the pool drops it: a dead worker replaced, one that started
	// after Close. The goroutine that calls it owns the worker.
	Forget func(W)
	// Joined, when not nil, is called for every worker that joins the
	// pool, before it is handed out.
	Joined func(W)
	// Workers is how many workers the pool grows to on its own (at least
	// one); Max, how many it may hold in all ([Pool.Grow]; at least
	// Workers).
	Workers, Max int
}

// Pool is a set of worker processes, each used by one caller at a time
// between [Pool.Get] and [Pool.Put]. Safe for concurrent use.
type Pool[W comparable] struct {
	cfg     Config[W]
	idle    chan W // idle workers; a dead one is replaced by whoever takes it
	spawner spawner
	growing sync.WaitGroup // the workers spawn is starting
	quit    chan struct{}  // closed by Close: a worker still starting is killed

	mu     sync.Mutex
	closed bool
	all    map[W]bool // every worker started and not forgotten, busy or idle
}

// Boot starts a pool with its first worker, which starts while prepare
// makes what the worker is sent once it is up (the checks of the cases,
// the suite's message): Start must wait for ready, which closes once
// prepare succeeds, before it sends it. When prepare fails, the worker is
// killed (and forgotten) and prepare's error returned; when the worker
// fails to start, its error.
func Boot[W comparable](cfg Config[W], prepare func() error, ready chan<- struct{}) (*Pool[W], error) {
	cfg.Workers = max(cfg.Workers, 1)
	cfg.Max = max(cfg.Max, cfg.Workers)
	p := &Pool[W]{cfg: cfg, idle: make(chan W, cfg.Max), quit: make(chan struct{}), all: map[W]bool{}}
	w, took, err := bootWhile(cfg.Start, p.drop, prepare, ready)
	if err != nil {
		return nil, err
	}
	p.spawner.start(cfg.Workers, took)
	p.all[w] = true
	p.joined(w)
	p.idle <- w
	return p, nil
}

// drop kills and forgets a worker the pool will not hand out.
func (p *Pool[W]) drop(w W) {
	p.cfg.Kill(w)
	p.forget(w)
}

func (p *Pool[W]) forget(w W) {
	if p.cfg.Forget != nil {
		p.cfg.Forget(w)
	}
}

func (p *Pool[W]) joined(w W) {
	if p.cfg.Joined != nil {
		p.cfg.Joined(w)
	}
}

// Get takes an idle worker, waiting for one while every worker is busy
// (and starting one more in the background when it pays), and replaces
// it first if it is dead. The error is ctx's, [ErrClosed], or the
// failure to start a replacement (twice: what killed the worker may have
// killed its replacement while it started); the dead worker then stays in
// the pool for the next caller to try again.
func (p *Pool[W]) Get(ctx context.Context) (W, error) {
	var none W
	p.spawner.busy()
	var w W
	select {
	case w = <-p.idle:
	default:
		if p.spawner.want() {
			p.spawn()
		}
		select {
		case w = <-p.idle:
		case <-ctx.Done():
			return none, ctx.Err()
		}
	}
	if p.Closed() {
		p.idle <- w
		return none, ErrClosed
	}
	if !p.cfg.Dead(w) {
		return w, nil
	}
	fresh, err := p.cfg.Start(p.quit)
	if err != nil && ctx.Err() == nil && !p.Closed() {
		fresh, err = p.cfg.Start(p.quit)
	}
	if err != nil {
		p.idle <- w // still dead: the next caller tries again
		return none, err
	}
	p.forget(w)
	p.mu.Lock()
	delete(p.all, w)
	closed := p.closed
	if !closed {
		p.all[fresh] = true // under mu: Close kills it, or it sees closed
	}
	p.mu.Unlock()
	if closed {
		p.drop(fresh)
		return none, ErrClosed
	}
	p.joined(fresh)
	return fresh, nil
}

// Put gives back a worker Get returned, dead or alive.
func (p *Pool[W]) Put(w W) { p.idle <- w }

// Grow starts workers in the background until the pool has n (at most
// Config.Max), and returns how many it is to have. Each joins the pool
// as soon as it is up; one that fails to start is not replaced.
func (p *Pool[W]) Grow(n int) int {
	start, size := p.spawner.raise(min(n, p.cfg.Max))
	for range start {
		p.spawn()
	}
	return size
}

// Capacity is how many workers the pool may have: Config.Workers, or
// what Grow raised it to (an engine's sandbox.Sizer).
func (p *Pool[W]) Capacity() int {
	p.spawner.mu.Lock()
	defer p.spawner.mu.Unlock()
	return p.spawner.limit
}

// spawn starts a worker in the background: it joins the pool when it is
// up, or is killed if the pool closes first.
func (p *Pool[W]) spawn() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.growing.Add(1) // under mu: before Close waits, or not at all
	p.mu.Unlock()
	go func() {
		defer p.growing.Done()
		w, err := p.cfg.Start(p.quit)
		if err != nil {
			return
		}
		p.mu.Lock()
		closed := p.closed
		if !closed {
			p.all[w] = true // under mu: Close kills it, or it sees closed
		}
		p.mu.Unlock()
		if closed {
			p.drop(w)
			return
		}
		p.joined(w)
		p.idle <- w
	}()
}

// Closed reports whether Close was called.
func (p *Pool[W]) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Workers lists the pool's workers, busy or idle, dead ones not yet
// replaced included.
func (p *Pool[W]) Workers() []W {
	p.mu.Lock()
	defer p.mu.Unlock()
	ws := make([]W, 0, len(p.all))
	for w := range p.all {
		ws = append(ws, w)
	}
	return ws
}

// Close kills every worker, busy ones too (their users find them dead),
// and ones still starting, and returns once they are gone. Get returns
// ErrClosed from then on. Safe to call more than once.
func (p *Pool[W]) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.quit) // workers still starting stop
	all := make([]W, 0, len(p.all))
	for w := range p.all {
		all = append(all, w)
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.cfg.Kill(w)
		}()
	}
	wg.Wait()
	p.growing.Wait() // a worker spawn was starting is killed (quit) and sees closed
}
