package fitness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// newTestCache is a cache over a 4-case suite whose original passes cases
// 0 and 1 (relative weights 0.99/0.01).
func newTestCache(t testing.TB, limit int) *Cache {
	t.Helper()
	sc, err := NewScorer(weightedSuite(1, 1, 1, 1), outcome(4, 0, 1), DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	return NewCache(sc, limit)
}

// runner returns outcome(4, passed...) and counts its calls.
func runner(calls *atomic.Int64, passed ...int) func(context.Context) (*Outcome, error) {
	return func(context.Context) (*Outcome, error) {
		calls.Add(1)
		return outcome(4, passed...), nil
	}
}

func TestCacheHitMiss(t *testing.T) {
	c := newTestCache(t, 0)
	ctx := context.Background()
	var calls atomic.Int64
	e, err := c.Eval(ctx, []byte("a = 1\n"), runner(&calls, 0, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Score: 0.99 + 0.01*0.5, Verdicts: []Verdict{Passed, Passed, Passed, WrongAnswer}}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("entry mismatch (-want +got):\n%s", diff)
	}
	e2, err := c.Eval(ctx, []byte("a = 1\n"), runner(&calls))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, e2); diff != "" {
		t.Errorf("cached entry mismatch (-want +got):\n%s", diff)
	}
	if _, err := c.Eval(ctx, []byte("a = 2\n"), runner(&calls, 0, 1, 2, 3)); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(KeyOf([]byte("a = 2\n"))); !ok || !got.Passed() {
		t.Errorf("Get = %+v, %v; want a passing entry", got, ok)
	}
	if calls.Load() != 2 {
		t.Errorf("run called %d times, want 2", calls.Load())
	}
	if diff := cmp.Diff(CacheStats{Hits: 1, Misses: 2, Entries: 2}, c.Stats()); diff != "" {
		t.Errorf("stats mismatch (-want +got):\n%s", diff)
	}
}

func TestCacheCompileError(t *testing.T) {
	c := newTestCache(t, 0)
	e, err := c.Eval(context.Background(), []byte("def ("), func(context.Context) (*Outcome, error) {
		o := outcome(4)
		o.CompileError = "SyntaxError: invalid syntax (line 1)"
		return o, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Verdicts: []Verdict{CompilationError, CompilationError, CompilationError, CompilationError}, CompileError: "SyntaxError: invalid syntax (line 1)"}
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("entry mismatch (-want +got):\n%s", diff)
	}
}

func TestCacheBadOutcome(t *testing.T) {
	c := newTestCache(t, 0)
	ctx := context.Background()
	if _, err := c.Eval(ctx, []byte("x"), func(context.Context) (*Outcome, error) { return nil, nil }); err == nil {
		t.Error("a nil outcome was accepted")
	}
	if _, err := c.Eval(ctx, []byte("x"), func(context.Context) (*Outcome, error) { return outcome(3), nil }); err == nil {
		t.Error("an outcome of the wrong length was accepted")
	}
	if n := c.Stats().Entries; n != 0 {
		t.Errorf("%d entries after failed evaluations, want 0", n)
	}
}

// waitForWaiters spins until n goroutines wait for the evaluation of k.
func waitForWaiters(c *Cache, k Key, n int) {
	for {
		c.mu.Lock()
		cl := c.inflight[k]
		got := 0
		if cl != nil {
			got = cl.waiters
		}
		c.mu.Unlock()
		if got >= n {
			return
		}
		runtime.Gosched()
	}
}

// TestCacheSingleflight: concurrent requests for one source run it once.
func TestCacheSingleflight(t *testing.T) {
	c := newTestCache(t, 0)
	src := []byte("print(1)\n")
	release := make(chan struct{})
	var calls atomic.Int64
	run := func(context.Context) (*Outcome, error) {
		calls.Add(1)
		<-release
		return outcome(4, 0, 1, 2, 3), nil
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	entries := make([]Entry, n)
	for i := range n {
		wg.Go(func() { entries[i], errs[i] = c.Eval(context.Background(), src, run) })
	}
	waitForWaiters(c, KeyOf(src), n-1)
	close(release)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !entries[i].Passed() {
			t.Errorf("goroutine %d: %+v, %v", i, entries[i], errs[i])
		}
	}
	if calls.Load() != 1 {
		t.Errorf("run called %d times, want 1", calls.Load())
	}
	if diff := cmp.Diff(CacheStats{Hits: n - 1, Shared: n - 1, Misses: 1, Entries: 1}, c.Stats()); diff != "" {
		t.Errorf("stats mismatch (-want +got):\n%s", diff)
	}
}

// TestCacheWaiterCanceled: a waiter leaves when its own context ends.
func TestCacheWaiterCanceled(t *testing.T) {
	c := newTestCache(t, 0)
	src := []byte("slow")
	release, started := make(chan struct{}), make(chan struct{})
	leaderDone := make(chan error)
	go func() {
		_, err := c.Eval(context.Background(), src, func(context.Context) (*Outcome, error) {
			close(started)
			<-release
			return outcome(4), nil
		})
		leaderDone <- err
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	waiterDone := make(chan error)
	go func() {
		_, err := c.Eval(ctx, src, func(context.Context) (*Outcome, error) {
			t.Error("the waiter ran the evaluation")
			return outcome(4), nil
		})
		waiterDone <- err
	}()
	waitForWaiters(c, KeyOf(src), 1)
	cancel()
	if err := <-waiterDone; !errors.Is(err, context.Canceled) {
		t.Errorf("waiter: %v, want context.Canceled", err)
	}
	close(release)
	if err := <-leaderDone; err != nil {
		t.Errorf("leader: %v", err)
	}
}

// TestCacheLeaderCanceled: when the leader's context ends, a live waiter
// evaluates the source itself.
func TestCacheLeaderCanceled(t *testing.T) {
	c := newTestCache(t, 0)
	src := []byte("abandoned")
	ctx, cancel := context.WithCancel(context.Background())
	leaderDone, started := make(chan error), make(chan struct{})
	go func() {
		_, err := c.Eval(ctx, src, func(ctx context.Context) (*Outcome, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		})
		leaderDone <- err
	}()
	<-started
	waiterDone := make(chan error)
	var calls atomic.Int64
	go func() {
		e, err := c.Eval(context.Background(), src, runner(&calls, 0, 1, 2, 3))
		if err == nil && !e.Passed() {
			err = fmt.Errorf("entry %+v does not pass", e)
		}
		waiterDone <- err
	}()
	waitForWaiters(c, KeyOf(src), 1)
	cancel()
	if err := <-leaderDone; !errors.Is(err, context.Canceled) {
		t.Errorf("leader: %v, want context.Canceled", err)
	}
	if err := <-waiterDone; err != nil {
		t.Errorf("waiter: %v", err)
	}
	if calls.Load() != 1 {
		t.Errorf("the waiter ran %d evaluations, want 1", calls.Load())
	}
}

// TestCacheErrorNotCached: a tool error reaches the waiters and is not
// cached.
func TestCacheErrorNotCached(t *testing.T) {
	c := newTestCache(t, 0)
	src := []byte("x")
	boom := errors.New("python vanished")
	release, started := make(chan struct{}), make(chan struct{})
	leaderDone := make(chan error)
	go func() {
		_, err := c.Eval(context.Background(), src, func(context.Context) (*Outcome, error) {
			close(started)
			<-release
			return nil, boom
		})
		leaderDone <- err
	}()
	<-started
	waiterDone := make(chan error)
	go func() {
		_, err := c.Eval(context.Background(), src, func(context.Context) (*Outcome, error) { return outcome(4), nil })
		waiterDone <- err
	}()
	waitForWaiters(c, KeyOf(src), 1)
	close(release)
	if err := <-leaderDone; !errors.Is(err, boom) {
		t.Errorf("leader: %v", err)
	}
	if err := <-waiterDone; !errors.Is(err, boom) {
		t.Errorf("waiter: %v", err)
	}
	var calls atomic.Int64
	if _, err := c.Eval(context.Background(), src, runner(&calls)); err != nil || calls.Load() != 1 {
		t.Errorf("after an error: %v, %d runs; want a fresh evaluation", err, calls.Load())
	}
}

// TestCachePanic: a panicking evaluation releases its waiters.
func TestCachePanic(t *testing.T) {
	c := newTestCache(t, 0)
	src := []byte("x")
	release, started := make(chan struct{}), make(chan struct{})
	leaderDone := make(chan any)
	go func() {
		defer func() { leaderDone <- recover() }()
		c.Eval(context.Background(), src, func(context.Context) (*Outcome, error) {
			close(started)
			<-release
			panic("engine bug")
		})
	}()
	<-started
	waiterDone := make(chan error)
	go func() {
		_, err := c.Eval(context.Background(), src, func(context.Context) (*Outcome, error) { return outcome(4), nil })
		waiterDone <- err
	}()
	waitForWaiters(c, KeyOf(src), 1)
	close(release)
	if p := <-leaderDone; p != "engine bug" {
		t.Errorf("leader recovered %v, want the panic", p)
	}
	if err := <-waiterDone; err == nil {
		t.Error("waiter got no error")
	}
}

// TestCacheEviction: the cache keeps at most limit entries, and the
// recently used ones.
func TestCacheEviction(t *testing.T) {
	c := newTestCache(t, 4) // generations of 2
	ctx := context.Background()
	var calls atomic.Int64
	eval := func(s string) {
		if _, err := c.Eval(ctx, []byte(s), runner(&calls)); err != nil {
			t.Fatal(err)
		}
	}
	eval("a")
	eval("b") // young {a b}
	eval("c") // old {a b}, young {c}
	eval("a") // hit in old: young {c a}
	eval("d") // old {c a}, young {d}; b evicted
	if n := c.Stats().Entries; n > 4 {
		t.Errorf("%d entries, limit 4", n)
	}
	for s, want := range map[string]bool{"a": true, "c": true, "d": true, "b": false} {
		if _, ok := c.Get(KeyOf([]byte(s))); ok != want {
			t.Errorf("Get(%q) found = %v, want %v", s, ok, want)
		}
	}
	for i := range 100 {
		eval(fmt.Sprint(i))
		if n := c.Stats().Entries; n > 4 {
			t.Fatalf("%d entries, limit 4", n)
		}
	}
	if s := c.Stats(); s.Evictions == 0 || s.Misses != calls.Load() {
		t.Errorf("stats %+v after %d runs", s, calls.Load())
	}
}

func TestCacheRace(t *testing.T) {
	c := newTestCache(t, 16)
	var wg sync.WaitGroup
	var calls atomic.Int64
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				src := []byte(fmt.Sprint((i * (g + 1)) % 40))
				if _, err := c.Eval(context.Background(), src, runner(&calls, 0)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	s := c.Stats()
	if s.Hits+s.Misses != 800 || s.Misses != calls.Load() || s.Entries > 16 {
		t.Errorf("stats %+v after %d runs", s, calls.Load())
	}
}

func BenchmarkCacheHit(b *testing.B) {
	for _, size := range []int{1 << 10, 10 << 10} {
		src := bytes.Repeat([]byte("x = y + 1\n"), size/10)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			c := newTestCache(b, 0)
			var calls atomic.Int64
			ctx := context.Background()
			if _, err := c.Eval(ctx, src, runner(&calls)); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Eval(ctx, src, runner(&calls)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("key-only", func(b *testing.B) {
		c := newTestCache(b, 0)
		var calls atomic.Int64
		ctx := context.Background()
		k := KeyOf([]byte("x"))
		c.EvalKey(ctx, k, runner(&calls))
		b.ReportAllocs()
		for b.Loop() {
			c.EvalKey(ctx, k, runner(&calls))
		}
	})
}

// BenchmarkKey compares the candidate hash functions on sources of 1 and
// 10 KB (see doc.go for why SHA-256 won).
func BenchmarkKey(b *testing.B) {
	for _, size := range []int{1 << 10, 10 << 10} {
		src := bytes.Repeat([]byte("x = y + 1\n"), size/10)
		b.Run(fmt.Sprintf("sha256-128/%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				KeyOf(src)
			}
		})
		b.Run(fmt.Sprintf("fnv128a/%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var k Key
			for b.Loop() {
				h := fnv.New128a()
				h.Write(src)
				h.Sum(k[:0])
			}
		})
	}
}

// TestPrefixedKeys: a key computed from a kept prefix's hash state is
// KeyOf of the whole text, for prefixes shorter than the threshold,
// longer, repeated, at block boundaries and not, and from goroutines at
// once; a prefix out of range falls back to KeyOf.
func TestPrefixedKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := make([]byte, 50_000)
	for i := range base {
		base[i] = byte(rng.IntN(256))
	}
	p := NewPrefixed(base)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 9))
			for range 300 {
				n := []int{0, 100, minPrefix - 1, minPrefix, 4096 * 3, 4097 * 3, r.IntN(len(base) + 1)}[r.IntN(7)]
				src := append(append([]byte(nil), base[:n]...), make([]byte, r.IntN(200))...)
				for i := n; i < len(src); i++ {
					src[i] = byte(r.IntN(256))
				}
				if got, want := p.KeyOf(src, n), KeyOf(src); got != want {
					t.Errorf("prefix %d of %d bytes: %v, want %v", n, len(src), got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	if len(p.states) == 0 {
		t.Error("no prefix state kept")
	}
	short := base[:10]
	if got, want := p.KeyOf(short, len(base)), KeyOf(short); got != want {
		t.Errorf("a prefix longer than the text: %v, want %v", got, want)
	}
}
