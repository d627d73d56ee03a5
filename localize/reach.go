// Which cases of the original's run reached which statements: test
// selection's input.

package localize

import (
	"math/bits"

	"repair/fitness"
	"repair/program"
)

// Reach is, for each statement of a program, the cases whose run of the
// original reached it, from the run's coverage: a bit set of cases per
// statement (statements × cases / 8 bytes). A case reached a statement
// when it executed one of the statement's own lines ([Executed]; for a
// compound statement, its header or any statement inside it). Statements
// that compile to no code and so never show in coverage (docstrings,
// global and nonlocal declarations) count as reached by every case that
// reached the statement whose block holds them, and at module level by
// every case.
type Reach struct {
	n, words int
	bits     []uint64
}

// NewReach computes the Reach of p from the original's outcome o, which
// must have coverage.
func NewReach(p *program.Program, o *fitness.Outcome) *Reach {
	n := len(o.Results)
	words := (n + 63) / 64
	r := &Reach{n: n, words: words, bits: make([]uint64, len(p.Stmts)*words)}
	// The cases of each path (executions.of returns one slice for each
	// distinct set of lines), then each path's statements.
	execs := newExecutions(p)
	var paths [][]bool
	var cases [][]uint64 // per path, its cases
	pathOf := map[*bool]int{}
	for c, res := range o.Results {
		ex := execs.of(res.Lines)
		k, ok := pathOf[first(ex)]
		if !ok {
			k = len(paths)
			pathOf[first(ex)] = k
			paths, cases = append(paths, ex), append(cases, make([]uint64, words))
		}
		cases[k][c/64] |= 1 << (c % 64)
	}
	for k, ex := range paths {
		for s, ok := range ex {
			if ok {
				for i, w := range cases[k] {
					r.bits[s*words+i] |= w
				}
			}
		}
	}
	// Statements without code take their block's owner's cases; owners
	// come before what they hold.
	for s := range p.Stmts {
		st := &p.Stmts[s]
		if !NoCode(st) {
			continue
		}
		row := r.bits[s*words : (s+1)*words]
		owner := p.Blocks[st.Block].Owner
		if owner < 0 {
			for i := range row {
				row[i] = ^uint64(0)
			}
			if n%64 != 0 {
				row[words-1] = 1<<(n%64) - 1
			}
			continue
		}
		for i, w := range r.bits[owner*words : (owner+1)*words] {
			row[i] |= w
		}
	}
	return r
}

// NoCode reports whether a statement compiles to no code of its own, so
// that no line event shows that it was reached.
func NoCode(st *program.Stmt) bool {
	return st.Docstring || st.Kind == "global_statement" || st.Kind == "nonlocal_statement" ||
		st.Kind == "future_import_statement"
}

// Cases is the number of cases.
func (r *Reach) Cases() int { return r.n }

// Union sets into[c] for every case c that reached one of stmts (into
// has one entry per case) and returns how many it set that were not set.
func (r *Reach) Union(stmts []int, into []bool) int {
	added := 0
	for _, s := range stmts {
		if s < 0 || (s+1)*r.words > len(r.bits) {
			continue
		}
		for i, w := range r.bits[s*r.words : (s+1)*r.words] {
			for w != 0 {
				c := i*64 + bits.TrailingZeros64(w)
				w &= w - 1
				if !into[c] {
					into[c] = true
					added++
				}
			}
		}
	}
	return added
}
