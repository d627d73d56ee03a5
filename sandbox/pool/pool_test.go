package pool

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fake is a worker: a number, and what the pool did to it.
type fake struct {
	id        int
	dead      atomic.Bool
	kills     atomic.Int32
	forgotten atomic.Bool
	busy      atomic.Bool // held by a caller of Get (the tests set it)
}

var (
	errStart   = errors.New("start failed")
	errStopped = errors.New("stopped while starting")
)

// workers starts fakes for a pool and remembers them.
type workers struct {
	mu      sync.Mutex
	started []*fake
	joined  []int
	fail    int           // how many of the next starts fail
	hold    chan struct{} // when not nil, a start after the first waits for it (or stop)
	// ignoreStop: a start waits for hold only, as one past the point
	// where stop kills it.
	ignoreStop bool
}

func (ws *workers) start(stop <-chan struct{}) (*fake, error) {
	ws.mu.Lock()
	hold := ws.hold
	if len(ws.started) == 0 {
		hold = nil
	}
	if ws.fail > 0 {
		ws.fail--
		ws.mu.Unlock()
		return nil, errStart
	}
	ws.mu.Unlock()
	if hold != nil && ws.ignoreStop {
		<-hold
	} else if hold != nil {
		select {
		case <-hold:
		case <-stop:
			return nil, errStopped
		}
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	w := &fake{id: len(ws.started) + 1}
	ws.started = append(ws.started, w)
	return w, nil
}

func (ws *workers) config(n, max int) Config[*fake] {
	return Config[*fake]{
		Start: ws.start,
		Kill: func(w *fake) {
			w.dead.Store(true)
			w.kills.Add(1)
		},
		Dead:   func(w *fake) bool { return w.dead.Load() },
		Forget: func(w *fake) { w.forgotten.Store(true) },
		Joined: func(w *fake) {
			ws.mu.Lock()
			ws.joined = append(ws.joined, w.id)
			ws.mu.Unlock()
		},
		Workers: n,
		Max:     max,
	}
}

func (ws *workers) all() []*fake {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return slices.Clone(ws.started)
}

// boot starts a pool of fakes; the test closes it. Its clock stands still
// unless spawn is set: then every wait for a worker has lasted long
// enough to start one more.
func boot(t *testing.T, ws *workers, n, max int, spawn bool) *Pool[*fake] {
	t.Helper()
	p, err := Boot(ws.config(n, max), func() error { return nil }, make(chan struct{}))
	if err != nil {
		t.Fatal(err)
	}
	now := int64(1)
	if spawn {
		now = math.MaxInt64
	}
	p.spawner.first.Store(1)
	p.spawner.now = func() int64 { return now }
	p.spawner.boot = time.Hour
	t.Cleanup(p.Close)
	return p
}

func ids(ws []*fake) []int {
	var n []int
	for _, w := range ws {
		n = append(n, w.id)
	}
	slices.Sort(n)
	return n
}

// TestGet: Get hands out an idle worker, replaces a dead one (and
// forgets it) with a fresh one, tries a failed replacement once more, and
// keeps the dead worker for the next caller when the replacement fails
// twice.
func TestGet(t *testing.T) {
	rows := []struct {
		name       string
		kill       bool // the worker handed out dies before it is put back
		fail       int  // starts that fail after the first worker's
		wantErr    error
		wantID     int   // the worker the second Get hands out
		wantIn     []int // the pool's workers after it
		wantJoined []int
		forgotten  bool // the first worker was forgotten
	}{
		{name: "an idle worker", wantID: 1, wantIn: []int{1}, wantJoined: []int{1}},
		{name: "a dead worker is replaced", kill: true, wantID: 2, wantIn: []int{2}, wantJoined: []int{1, 2}, forgotten: true},
		{name: "a failed replacement is started again", kill: true, fail: 1, wantID: 2, wantIn: []int{2}, wantJoined: []int{1, 2}, forgotten: true},
		{name: "a replacement that fails twice is the error", kill: true, fail: 2, wantErr: errStart, wantIn: []int{1}, wantJoined: []int{1}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			ws := &workers{}
			p := boot(t, ws, 1, 1, false)
			w, err := p.Get(context.Background())
			if err != nil || w.id != 1 {
				t.Fatalf("first Get = %v, %v; want worker 1", w, err)
			}
			if r.kill {
				p.cfg.Kill(w)
			}
			ws.mu.Lock()
			ws.fail = r.fail
			ws.mu.Unlock()
			p.Put(w)
			got, err := p.Get(context.Background())
			if !errors.Is(err, r.wantErr) {
				t.Fatalf("second Get: err = %v, want %v", err, r.wantErr)
			}
			if err == nil && got.id != r.wantID {
				t.Errorf("second Get = worker %d, want %d", got.id, r.wantID)
			}
			if in := ids(p.Workers()); !slices.Equal(in, r.wantIn) {
				t.Errorf("workers in the pool: %v, want %v", in, r.wantIn)
			}
			ws.mu.Lock()
			joined := slices.Clone(ws.joined)
			ws.mu.Unlock()
			if !slices.Equal(joined, r.wantJoined) {
				t.Errorf("joined: %v, want %v", joined, r.wantJoined)
			}
			if w.forgotten.Load() != r.forgotten {
				t.Errorf("first worker forgotten: %v, want %v", w.forgotten.Load(), r.forgotten)
			}
			if r.wantErr == nil {
				return
			}
			// The dead worker is still there: the next Get replaces it.
			if got, err = p.Get(context.Background()); err != nil || got.dead.Load() {
				t.Errorf("Get after a failed replacement = %v, %v; want a live worker", got, err)
			}
		})
	}
}

// TestGetWaits: with every worker busy, Get waits for one, starts one
// more when it pays, and gives up when its context ends.
func TestGetWaits(t *testing.T) {
	rows := []struct {
		name       string
		workers    int
		spawn      bool // the wait has lasted long enough to pay for one more worker
		cancelled  bool
		wantErr    error
		wantID     int
		wantStarts int
	}{
		{name: "cancelled", workers: 2, cancelled: true, wantErr: context.Canceled, wantStarts: 1},
		{name: "one more worker pays", workers: 2, spawn: true, wantID: 2, wantStarts: 2},
		{name: "no more than Workers", workers: 1, spawn: true, cancelled: true, wantErr: context.Canceled, wantStarts: 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			ws := &workers{}
			p := boot(t, ws, r.workers, r.workers, r.spawn)
			if _, err := p.Get(context.Background()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			if r.cancelled {
				cancel()
			}
			defer cancel()
			got, err := p.Get(ctx)
			if !errors.Is(err, r.wantErr) {
				t.Fatalf("Get = %v, want %v", err, r.wantErr)
			}
			if err == nil && got.id != r.wantID {
				t.Errorf("Get = worker %d, want %d", got.id, r.wantID)
			}
			if n := len(ws.all()); n != r.wantStarts {
				t.Errorf("%d workers started, want %d", n, r.wantStarts)
			}
		})
	}
}

// TestGrow: Grow starts workers at once up to Max, which then join the
// pool; asking for fewer than the pool has starts none.
func TestGrow(t *testing.T) {
	rows := []struct {
		name      string
		workers   int
		max       int
		grow      []int
		wantSizes []int
	}{
		{"up to the request", 1, 4, []int{3}, []int{3}},
		{"up to Max", 1, 4, []int{10}, []int{4}},
		{"never down", 2, 4, []int{3, 1}, []int{3, 3}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			ws := &workers{}
			p := boot(t, ws, r.workers, r.max, false)
			if c := p.Capacity(); c != r.workers {
				t.Errorf("Capacity() = %d before Grow, want Workers %d", c, r.workers)
			}
			var size int
			for i, n := range r.grow {
				if size = p.Grow(n); size != r.wantSizes[i] {
					t.Errorf("Grow(%d) = %d, want %d", n, size, r.wantSizes[i])
				}
				if c := p.Capacity(); c != size {
					t.Errorf("Capacity() = %d after Grow(%d) = %d", c, n, size)
				}
			}
			// Every worker joins: as many Gets as the size find one each.
			seen := map[int]bool{}
			for range size {
				w, err := p.Get(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				seen[w.id] = true
			}
			if len(seen) != size || len(ws.all()) != size {
				t.Errorf("%d distinct workers handed out, %d started; want %d", len(seen), len(ws.all()), size)
			}
		})
	}
}

// TestBoot: the first worker starts while prepare runs; a failed prepare
// kills and forgets it; a failed start is the error.
func TestBoot(t *testing.T) {
	errPrep := errors.New("prepare failed")
	rows := []struct {
		name      string
		prepErr   error
		startFail int
		wantErr   error
	}{
		{name: "up"},
		{name: "prepare fails", prepErr: errPrep, wantErr: errPrep},
		{name: "start fails", startFail: 1, wantErr: errStart},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			ws := &workers{fail: r.startFail}
			p, err := Boot(ws.config(1, 1), func() error { return r.prepErr }, make(chan struct{}))
			if !errors.Is(err, r.wantErr) {
				t.Fatalf("Boot = %v, want %v", err, r.wantErr)
			}
			if err == nil {
				defer p.Close()
				if in := ids(p.Workers()); !slices.Equal(in, []int{1}) {
					t.Errorf("workers %v, want [1]", in)
				}
				return
			}
			for _, w := range ws.all() {
				if !w.dead.Load() || !w.forgotten.Load() {
					t.Errorf("worker %d of a failed Boot: dead %v, forgotten %v", w.id, w.dead.Load(), w.forgotten.Load())
				}
			}
		})
	}
}

// TestClose: Close kills busy and idle workers and stops those still
// starting; Get then fails with ErrClosed; a second Close does nothing.
func TestClose(t *testing.T) {
	ws := &workers{hold: make(chan struct{})}
	p := boot(t, ws, 1, 3, false)
	busy, err := p.Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.Grow(3) // two starts wait for hold, which never comes
	p.Close()
	if !busy.dead.Load() {
		t.Error("the busy worker lives on after Close")
	}
	if n := len(ws.all()); n != 1 {
		t.Errorf("%d workers started, want the first only", n)
	}
	p.Put(busy)
	if _, err := p.Get(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close = %v, want ErrClosed", err)
	}
	p.Close()
	if k := busy.kills.Load(); k != 1 {
		t.Errorf("killed %d times, want once", k)
	}
}

// TestStartAfterClose: a worker that comes up after Close began is killed
// and forgotten, never handed out, and Close waits for it.
func TestStartAfterClose(t *testing.T) {
	ws := &workers{hold: make(chan struct{}), ignoreStop: true}
	p := boot(t, ws, 1, 2, false)
	p.Grow(2) // its start waits for hold, whatever Close does
	closed := make(chan struct{})
	go func() {
		p.Close()
		close(closed)
	}()
	for !p.Closed() {
		runtime.Gosched()
	}
	close(ws.hold)
	<-closed
	all := ws.all()
	if len(all) != 2 {
		t.Fatalf("%d workers started, want 2", len(all))
	}
	if w := all[1]; !w.dead.Load() || !w.forgotten.Load() {
		t.Errorf("the worker up after Close: dead %v, forgotten %v; want both", w.dead.Load(), w.forgotten.Load())
	}
	if in := ids(p.Workers()); !slices.Equal(in, []int{1}) {
		t.Errorf("workers in the pool after Close: %v, want [1]", in)
	}
}

// TestConcurrent: many callers get, kill and put workers while the pool
// grows and then closes (run it with -race). No worker is held by two
// callers at once, Get fails only with ErrClosed, and after Close every
// worker ever started is dead.
func TestConcurrent(t *testing.T) {
	ws := &workers{}
	p, err := Boot(ws.config(2, 6), func() error { return nil }, make(chan struct{}))
	if err != nil {
		t.Fatal(err)
	}
	const callers, rounds = 8, 200
	var wg sync.WaitGroup
	var done atomic.Int32
	errs := make(chan error, callers)
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer done.Add(1)
			for i := range rounds {
				w, err := p.Get(context.Background())
				if err != nil {
					if !errors.Is(err, ErrClosed) {
						errs <- err
					}
					return
				}
				if !w.busy.CompareAndSwap(false, true) {
					errs <- errors.New("a worker handed to two callers at once")
				}
				if (c+i)%7 == 0 {
					p.cfg.Kill(w)
				}
				runtime.Gosched()
				w.busy.Store(false)
				p.Put(w)
			}
		}()
	}
	p.Grow(6)
	for done.Load() < callers/2 {
		runtime.Gosched()
	}
	p.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, w := range ws.all() {
		if !w.dead.Load() {
			t.Errorf("worker %d lives on after Close", w.id)
		}
	}
	replaced := 0
	for _, w := range ws.all() {
		if w.forgotten.Load() {
			replaced++
			if slices.Contains(ids(p.Workers()), w.id) {
				t.Errorf("worker %d forgotten but still in the pool", w.id)
			}
		}
	}
	t.Logf("%d workers started, %d replaced", len(ws.all()), replaced)
}
