// What operators prepare: facts of the program computed once per
// Context, declared next to the operator that needs them.

package mutate

import (
	"slices"
	"sync"

	"repair/program"
)

// A fact is what an operator computes once per Context from the program
// alone — its targets, the names or classes it draws from, a cache — as an
// analyzer of golang.org/x/tools/go/analysis declares the result type it
// computes once per package: the operator declares the fact next to its
// Edits (newFact), and get returns it, computed on first use. Prepare
// computes every operator's targets (newTargets), so that a repair
// prepares them while the original runs. get is safe for concurrent use.
//
// A fact's prepare depends on nothing but the program and the context's
// shared facts (not on Weights or Scope); it may get other facts, none of
// which gets it back. A fact is a package variable, so its id is fixed
// before any context is made.
type fact[T any] struct {
	id      int
	prepare func(c *Context) T
}

// nFacts counts the declared facts: their ids are 0 to nFacts-1.
var nFacts int

// newFact declares a fact computed by prepare.
func newFact[T any](prepare func(c *Context) T) *fact[T] {
	f := &fact[T]{id: nFacts, prepare: prepare}
	nFacts++
	return f
}

// factSlot holds one fact of a context.
type factSlot struct {
	once sync.Once
	v    any
}

// get returns the fact of c, computing it on first use.
func (f *fact[T]) get(c *Context) T {
	s := &c.facts[f.id]
	s.once.Do(func() { s.v = f.prepare(c) })
	return s.v.(T)
}

// targets are the facts that are samplers of an operator's targets, which
// Weigh weighs.
var targets []*fact[*Sampler]

// newTargets declares an operator's own targets: a sampler that prepare
// fills (Sampler.add), which Weigh weighs.
func newTargets(prepare func(c *Context) *Sampler) *fact[*Sampler] {
	f := newFact(prepare)
	targets = append(targets, f)
	return f
}

// keptSites declares the targets of an operator that changes the sites of
// the given kinds for which keep holds: keep is asked lazily, on weighing,
// of sites of some weight only (Sampler.keep) — in a large file most
// sites lie in code the suite never runs.
func keptSites(keep func(c *Context, id int) bool, kinds ...program.SiteKind) *fact[*Sampler] {
	return siteTargetsOf(kinds, nil, keep)
}

// sitesWhere declares the targets of an operator that changes the sites
// of the given kinds for which is holds (its Applies), all tested on
// preparing.
func sitesWhere(is func(c *Context, id int) bool, kinds ...program.SiteKind) *fact[*Sampler] {
	return siteTargetsOf(kinds, is, nil)
}

// keptReads declares the targets of a name operator: the name reads it
// may change (readSite) for which keep holds, asked as keptSites' keep is.
func keptReads(keep func(c *Context, id int) bool) *fact[*Sampler] {
	read := func(c *Context, id int) bool { return readSite(c.Prog, id) }
	return siteTargetsOf([]program.SiteKind{program.SiteIdent}, read, keep)
}

// siteTargetsOf declares the targets among the sites of the given kinds
// for which is holds (nil: all), tested on preparing, and keep holds (nil:
// all), tested on weighing. The sites come from the context's samplers by
// kind, in the program's order.
func siteTargetsOf(kinds []program.SiteKind, is, keep func(c *Context, id int) bool) *fact[*Sampler] {
	return newTargets(func(c *Context) *Sampler {
		p := c.Prog
		s := &Sampler{}
		if keep != nil {
			s.keep = func(id int) bool { return keep(c, id) }
		}
		// The sites of the kinds, merged in order.
		lists := make([][]int, len(kinds))
		n := 0
		for k, kind := range kinds {
			lists[k] = c.sites[kind].cands
			n += len(lists[k])
		}
		if is == nil {
			s.cands, s.at = make([]int, 0, n), make([]int, 0, n)
		}
		for {
			next := -1
			for k := range lists {
				if len(lists[k]) > 0 && (next < 0 || lists[k][0] < lists[next][0]) {
					next = k
				}
			}
			if next < 0 {
				return s
			}
			id := lists[next][0]
			lists[next] = lists[next][1:]
			if is == nil || is(c, id) {
				s.add(id, p.Sites[id].Stmt)
			}
		}
	})
}

// keptStmts declares the targets of an operator that changes the movable
// statements for which keep holds, asked as keptSites' keep is.
func keptStmts(keep func(c *Context, s int) bool) *fact[*Sampler] {
	return newTargets(func(c *Context) *Sampler {
		// The movable statements, each weighted by itself.
		s := &Sampler{keep: func(i int) bool { return keep(c, i) }}
		s.cands, s.at = slices.Clone(c.stmts.cands), slices.Clone(c.stmts.at)
		return s
	})
}

// cache is a map an operator fills as it goes (per scope, per name),
// safe for concurrent use.
type cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// newCache declares a cache fact: an empty cache per context.
func newCache[K comparable, V any]() *fact[*cache[K, V]] {
	return newFact(func(*Context) *cache[K, V] { return &cache[K, V]{m: map[K]V{}} })
}

// get returns the value of k, computing it with f, under the lock, when
// the cache lacks it.
func (m *cache[K, V]) get(k K, f func() V) V {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.m[k]; ok {
		return v
	}
	v := f()
	m.m[k] = v
	return v
}

// replacing is op with the Targets, Applies and Edits of an operator that
// replaces the text of a site of the given kinds by each text texts
// proposes there: its targets are the sites where texts proposes any
// (keptSites), and its edits those texts, in order.
func replacing(op Operator, texts func(c *Context, id int) []string, kinds ...program.SiteKind) Operator {
	op.Targets = keptSites(func(c *Context, id int) bool { return len(texts(c, id)) > 0 }, kinds...).get
	op.Applies = func(c *Context, id int) bool { return len(texts(c, id)) > 0 }
	op.Edits = func(c *Context, id int, emit func(program.Edit)) {
		for _, t := range texts(c, id) {
			emit(replaceText(id, t))
		}
	}
	return op
}
