package fitness

import (
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
)

// Key identifies a rendered candidate source: the first 128 bits of its
// SHA-256. (SHA-256 runs on the CPU's SHA extensions: 5× faster than
// FNV-128a on 1–10 KB sources, and collision resistant; see doc.go.)
type Key [16]byte

// KeyOf returns the key of a candidate source.
func KeyOf(src []byte) Key {
	sum := sha256.Sum256(src)
	return Key(sum[:16])
}

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Prefixed computes the keys of texts that begin with a prefix of one
// text (a candidate begins with the original up to its first change):
// the hash's state after each prefix is kept, so that a key hashes only
// what follows it. On a large file a candidate changes one function of
// hundreds, and its key hashed the whole file. Safe for concurrent use.
type Prefixed struct {
	base   []byte
	mu     sync.Mutex
	states map[int][]byte // prefix length -> the hash's state after it (encoding.BinaryMarshaler)
}

// NewPrefixed returns a Prefixed for texts that share prefixes of base.
func NewPrefixed(base []byte) *Prefixed {
	return &Prefixed{base: base, states: map[int][]byte{}}
}

// minPrefix is the shortest prefix whose hash state is kept: a shorter
// one costs about as much to hash as to restore.
const minPrefix = 4 << 10

// maxPrefixes bounds the states kept (each about 100 bytes).
const maxPrefixes = 1024

// KeyOf returns KeyOf(src), given that src[:n] equals the base's first n
// bytes (the caller's promise; n out of range is ignored).
func (p *Prefixed) KeyOf(src []byte, n int) Key {
	if n < minPrefix || n > len(src) || n > len(p.base) {
		return KeyOf(src)
	}
	h := sha256.New()
	p.mu.Lock()
	state, ok := p.states[n]
	p.mu.Unlock()
	if ok {
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
			return KeyOf(src)
		}
	} else {
		h.Write(p.base[:n])
		if state, err := h.(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
			p.mu.Lock()
			if len(p.states) >= maxPrefixes {
				clear(p.states)
			}
			p.states[n] = state
			p.mu.Unlock()
		}
	}
	h.Write(src[n:])
	var sum [sha256.Size]byte
	return Key(h.Sum(sum[:0])[:16])
}

// Entry is what the cache keeps of one evaluated candidate: its score and
// one verdict per case. The details of the outcome (messages, times,
// coverage) are dropped to bound memory; rerun the engine on the candidate
// to get them.
type Entry struct {
	Score float64
	// Verdicts has one verdict per case, in suite order. Shared between
	// callers: do not modify.
	Verdicts []Verdict
	// CompileError is the candidate's compile error, "" when it compiled.
	CompileError string
}

// Passed reports whether every case passed.
func (e Entry) Passed() bool { return e.Score == 1 }

// DefaultCacheLimit is the entry limit of NewCache(sc, 0): about 40 MB with
// 200 cases per suite.
const DefaultCacheLimit = 1 << 17

// CacheStats are a cache's counters.
type CacheStats struct {
	// Hits counts calls answered without running the evaluation; Shared of
	// them waited for a concurrent evaluation of the same source.
	Hits, Shared int64
	// Misses counts evaluations run (including failed ones).
	Misses int64
	// Evictions counts entries dropped to respect the limit.
	Evictions int64
	// Entries is the number of entries held now.
	Entries int
}

// Cache maps candidate sources to their [Entry], for one suite and one
// [Scorer]. It is safe for concurrent use. When several goroutines ask for
// the same source at once, one runs the evaluation and the others wait for
// its result (or their context).
//
// Memory is bounded by the entry limit with a two-generation scheme: new
// entries go to the young generation; when it holds limit/2 entries the old
// generation is dropped and the young one becomes old; a hit in the old
// generation moves the entry back to the young one. So recently used
// entries stay, and at most limit entries are held.
type Cache struct {
	sc   *Scorer
	half int

	mu       sync.Mutex
	young    map[Key]Entry
	old      map[Key]Entry
	inflight map[Key]*call
	stats    CacheStats
}

type call struct {
	done    chan struct{}
	e       Entry
	err     error
	waiters int // goroutines waiting for done (tests watch it); c.mu guards it
}

// NewCache returns an empty cache that scores outcomes with sc and holds at
// most limit entries (DefaultCacheLimit when limit <= 0).
func NewCache(sc *Scorer, limit int) *Cache {
	if limit <= 0 {
		limit = DefaultCacheLimit
	}
	half := max(limit/2, 1)
	return &Cache{
		sc:       sc,
		half:     half,
		young:    make(map[Key]Entry),
		old:      make(map[Key]Entry),
		inflight: make(map[Key]*call),
	}
}

// Eval returns the entry of src: from the cache, from a concurrent
// evaluation of the same source, or by calling run(ctx) and scoring its
// outcome. Errors of run (the tool broke) are returned and not cached; a
// waiter whose leader was canceled while the waiter's own ctx is still live
// evaluates itself.
func (c *Cache) Eval(ctx context.Context, src []byte, run func(context.Context) (*Outcome, error)) (Entry, error) {
	return c.EvalKey(ctx, KeyOf(src), run)
}

// EvalKey is [Cache.Eval] for a key computed with [KeyOf].
func (c *Cache) EvalKey(ctx context.Context, k Key, run func(context.Context) (*Outcome, error)) (Entry, error) {
	for {
		c.mu.Lock()
		if e, ok := c.lookup(k); ok {
			c.stats.Hits++
			c.mu.Unlock()
			return e, nil
		}
		if cl, ok := c.inflight[k]; ok {
			cl.waiters++
			c.mu.Unlock()
			select {
			case <-ctx.Done():
				return Entry{}, ctx.Err()
			case <-cl.done:
			}
			if cl.err == nil {
				c.mu.Lock()
				c.stats.Hits++
				c.stats.Shared++
				c.mu.Unlock()
				return cl.e, nil
			}
			if isContextErr(cl.err) && ctx.Err() == nil {
				continue // the leader gave up; try again
			}
			return Entry{}, cl.err
		}
		cl := &call{done: make(chan struct{})}
		c.inflight[k] = cl
		c.stats.Misses++
		c.mu.Unlock()
		return c.lead(ctx, k, cl, run)
	}
}

// lead runs the evaluation of k and publishes its result to the waiters.
func (c *Cache) lead(ctx context.Context, k Key, cl *call, run func(context.Context) (*Outcome, error)) (e Entry, err error) {
	finished := false
	defer func() {
		if !finished { // run panicked: release the waiters, then go on panicking
			cl.err = errors.New("fitness: the evaluation panicked")
		}
		c.mu.Lock()
		delete(c.inflight, k)
		if cl.err == nil {
			c.store(k, cl.e)
		}
		c.mu.Unlock()
		close(cl.done)
	}()
	o, err := run(ctx)
	if err == nil && o == nil {
		err = errors.New("fitness: the evaluation returned no outcome")
	}
	if err == nil {
		cl.e, err = c.entry(o)
	}
	cl.err = err
	finished = true
	return cl.e, err
}

func (c *Cache) entry(o *Outcome) (Entry, error) {
	if len(o.Results) != len(c.sc.gain) {
		return Entry{}, fmt.Errorf("fitness: outcome has %d results, the suite %d cases", len(o.Results), len(c.sc.gain))
	}
	vs := make([]Verdict, len(o.Results))
	for i, r := range o.Results {
		vs[i] = r.Verdict
		if o.CompileError != "" {
			vs[i] = CompilationError
		}
	}
	return Entry{Score: c.sc.Score(o), Verdicts: vs, CompileError: o.CompileError}, nil
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// lookup finds k, moving an old entry to the young generation. c.mu held.
func (c *Cache) lookup(k Key) (Entry, bool) {
	if e, ok := c.young[k]; ok {
		return e, true
	}
	e, ok := c.old[k]
	if ok {
		delete(c.old, k)
		c.store(k, e)
	}
	return e, ok
}

// store adds an entry to the young generation, rotating the generations
// when it is full. c.mu held.
func (c *Cache) store(k Key, e Entry) {
	if len(c.young) >= c.half {
		c.stats.Evictions += int64(len(c.old))
		c.old = c.young
		c.young = make(map[Key]Entry, c.half)
	}
	c.young[k] = e
}

// Put scores o and stores it as k's entry, in place of any: the verdict
// of a judge that overrules the engine that ran k first (--engine hybrid).
func (c *Cache) Put(k Key, o *Outcome) error {
	e, err := c.entry(o)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.old, k)
	c.store(k, e)
	return nil
}

// Get returns the cached entry of a key, without counting a hit or a miss.
func (c *Cache) Get(k Key) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookup(k)
}

// Stats returns a snapshot of the counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries = len(c.young) + len(c.old)
	return s
}
