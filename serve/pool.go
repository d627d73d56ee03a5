package serve

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"repair/sandbox"
	"repair/sandbox/remote"
)

// A spec is a checked suite bound to a runtime: what an engine instance is
// created for. Its key is the runtime and the suite's ID.
type spec struct {
	key     string
	runtime string
	suite   *remote.Suite
	size    int // bytes of the suite's JSON, for the spec cache's budget
}

// instance is one engine with one worker, bound to one spec, and the
// private directory holding the spec's files.
type instance struct {
	eng  sandbox.Engine
	dir  string
	desc string
	used time.Time
}

// pool keeps engine instances by spec: an evaluation takes an idle
// instance of its spec or starts one, and gives it back afterwards. Idle
// instances beyond max, least recently used first, and those idle longer
// than idleTTL are closed. Busy instances are bounded by the workers (an
// evaluation holds a worker before it takes an instance), so the pool
// never holds more than max(max, workers) instances for long.
type pool struct {
	open    func(ctx context.Context, runtime string, opts sandbox.Options) (sandbox.Engine, error)
	base    sandbox.Options
	desc    func(sandbox.Engine) string
	max     int
	idleTTL time.Duration
	now     func() time.Time
	started func() // counts engine starts (metrics)

	mu      sync.Mutex
	entries map[string]*entry
	all     map[*instance]bool // every live instance, busy or idle
	idleN   int
	closed  bool
	closing sync.WaitGroup // instances being closed
}

type entry struct {
	idle []*instance // least recently used first
}

func newPool(p *pool) *pool {
	p.entries = map[string]*entry{}
	p.all = map[*instance]bool{}
	if p.now == nil {
		p.now = time.Now
	}
	return p
}

// get returns an idle instance of sp, or starts one.
func (p *pool) get(ctx context.Context, sp *spec) (*instance, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, sandbox.ErrClosed
	}
	if e := p.entries[sp.key]; e != nil && len(e.idle) > 0 {
		in := e.idle[len(e.idle)-1]
		e.idle = e.idle[:len(e.idle)-1]
		p.idleN--
		if len(e.idle) == 0 {
			delete(p.entries, sp.key)
		}
		p.mu.Unlock()
		return in, nil
	}
	p.mu.Unlock()
	return p.start(ctx, sp)
}

// start creates an instance of sp in a fresh private directory.
func (p *pool) start(ctx context.Context, sp *spec) (*instance, error) {
	dir, err := os.MkdirTemp("", dirPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	target, suite, err := sp.suite.Write(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("serve: writing the suite: %w", err)
	}
	opts := p.base
	opts.Suite, opts.Target, opts.Workers = suite, target, 1
	eng, err := p.open(ctx, sp.runtime, opts)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if p.started != nil {
		p.started()
	}
	in := &instance{eng: eng, dir: dir, desc: eng.Name()}
	if p.desc != nil {
		in.desc = p.desc(eng)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		closeInstance(in)
		return nil, sandbox.ErrClosed
	}
	p.all[in] = true
	p.mu.Unlock()
	return in, nil
}

// put gives an instance back after an evaluation; a broken one (its
// engine returned an error) is closed.
func (p *pool) put(sp *spec, in *instance, broken bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if broken || p.closed {
		p.dropLocked(in)
		return
	}
	in.used = p.now()
	e := p.entries[sp.key]
	if e == nil {
		e = &entry{}
		p.entries[sp.key] = e
	}
	e.idle = append(e.idle, in)
	p.idleN++
	for len(p.all) > p.max && p.idleN > 0 {
		p.evictLocked(time.Time{})
	}
}

// evictIdle closes the instances idle since before now minus idleTTL.
func (p *pool) evictIdle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	cutoff := p.now().Add(-p.idleTTL)
	for p.idleN > 0 && p.evictLocked(cutoff) {
	}
}

// evictLocked closes the least recently used idle instance, if it was
// last used before cutoff (a zero cutoff: whenever). It reports whether it
// closed one.
func (p *pool) evictLocked(cutoff time.Time) bool {
	var oldest *instance
	var oldestKey string
	for k, e := range p.entries {
		if in := e.idle[0]; oldest == nil || in.used.Before(oldest.used) {
			oldest, oldestKey = in, k
		}
	}
	if oldest == nil || (!cutoff.IsZero() && !oldest.used.Before(cutoff)) {
		return false
	}
	e := p.entries[oldestKey]
	e.idle = e.idle[1:]
	if len(e.idle) == 0 {
		delete(p.entries, oldestKey)
	}
	p.idleN--
	p.dropLocked(oldest)
	return true
}

// dropLocked forgets an instance and closes it in the background.
func (p *pool) dropLocked(in *instance) {
	delete(p.all, in)
	p.closing.Add(1)
	go func() {
		defer p.closing.Done()
		closeInstance(in)
	}()
}

// dirPrefix starts the name of an instance's private directory, followed
// by the server's pid, so that a server can remove what a killed one left.
const dirPrefix = "repair-serve-"

// removeOrphans removes the private directories of servers that are gone
// (killed before they could clean up).
func removeOrphans() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*-*"))
	for _, m := range matches {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), dirPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(m)
		}
	}
}

func closeInstance(in *instance) {
	in.eng.Close()
	os.RemoveAll(in.dir)
}

// stats reports the live and the idle instances.
func (p *pool) stats() (live, idle int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all), p.idleN
}

// close closes every instance, busy ones too (their evaluations fail with
// sandbox.ErrClosed), and waits until they are gone.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	for in := range p.all {
		p.dropLocked(in)
	}
	clear(p.entries)
	p.idleN = 0
	p.mu.Unlock()
	p.closing.Wait()
}

// specCache keeps the suites that native requests registered, by key, up
// to a byte budget, least recently used out first. A request that names
// an evicted suite is answered remote.CodeUnknownSuite and the client
// sends the suite again.
type specCache struct {
	mu     sync.Mutex
	budget int
	bytes  int
	order  *list.List // of *spec, most recent at the front
	byKey  map[string]*list.Element
}

func newSpecCache(budget int) *specCache {
	return &specCache{budget: budget, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *specCache) get(key string) *spec {
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.byKey[key]
	if el == nil {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*spec)
}

// add keeps sp (or the spec already kept under its key, which it returns).
func (c *specCache) add(sp *spec) *spec {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el := c.byKey[sp.key]; el != nil {
		c.order.MoveToFront(el)
		return el.Value.(*spec)
	}
	c.byKey[sp.key] = c.order.PushFront(sp)
	c.bytes += sp.size
	for c.bytes > c.budget && c.order.Len() > 1 {
		el := c.order.Back()
		old := el.Value.(*spec)
		c.order.Remove(el)
		delete(c.byKey, old.key)
		c.bytes -= old.size
	}
	return sp
}

func (c *specCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
