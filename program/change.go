// What a patch changes: the statements an execution must reach to see a
// difference, and the top-level definitions whose text it changes.

package program

import (
	"bytes"
	"slices"
)

// Change is what a patch changes of the original program, for the
// engines' shortcuts (test selection and partial re-execution, see
// docs/architecture.md, "Cost that follows the change").
type Change struct {
	// Reach are the statements of the original (sorted, without
	// duplicates) that an execution must reach for the candidate to
	// behave differently from the original, provided that the edits change
	// no variable's scope and no function's kind: the statements an edit
	// deletes, replaces, swaps, wraps (the first and last a Guard wraps),
	// renames in or inserts next to, and those holding an edited site. An
	// execution of the candidate equals the original's until it reaches
	// the position of one of them. Every statement, for an edit of a kind
	// it does not know.
	Reach []int
	// Defs are the top-level definitions (def and class statements, with
	// their decorators) that hold every applied edit strictly inside their
	// bodies, in document order; nil when an edit is at module level (or
	// the patch applies no edit). Orig and Cand are their whole lines in
	// the original and in the rendered candidate: outside them the two
	// texts are byte-identical.
	Defs       []int
	Orig, Cand []Span
}

// RenderChange is [Program.Render] with the [Change] of the patch.
func (p *Program) RenderChange(pt Patch) ([]byte, Change) {
	ok := p.Resolve(pt)
	var ch Change
	// The statements reached and the top-level definitions, collected
	// then sorted: a patch names a few statements of a file of tens of
	// thousands.
	var reach, tops []int
	inside, all := true, false
	add := func(s int) {
		reach = append(reach, s)
		t := s
		for p.Stmts[t].Parent >= 0 {
			t = p.Stmts[t].Parent
		}
		if t == s || !isDef(p.Stmts[t].Kind) {
			inside = false // a module-level statement, or inside one that is not a definition
			return
		}
		tops = append(tops, t)
	}
	n := 0
	for i, e := range pt {
		if !ok[i] {
			continue
		}
		n++
		switch e.Op {
		case Delete, Replace, InsertBefore, InsertAfter, ReplaceLine:
			add(e.Stmt)
		case Swap:
			add(e.Stmt)
			add(e.Donor)
		case ReplaceText:
			add(p.Sites[e.Site].Stmt)
		case SwapText:
			add(p.Sites[e.Site].Stmt)
			add(p.Sites[e.Site2].Stmt)
		case InsertText:
			add(e.Stmt) // inserted before it
		case Guard:
			// An execution reaches the wrapped statements through the
			// first of them.
			add(e.Stmt)
			add(e.Donor)
		case Rename:
			// The reads renamed lie in it or in statements nested in it,
			// which an execution reaches through its header.
			add(e.Stmt)
		default:
			all = true
		}
	}
	if all {
		for s := range p.Stmts {
			ch.Reach = append(ch.Reach, s)
		}
		inside = false // an edit this does not know: every case, compiled whole
	} else if len(reach) > 0 {
		slices.Sort(reach)
		ch.Reach = slices.Compact(reach)
	}
	var points []int
	if inside && n > 0 {
		slices.Sort(tops)
		for _, s := range slices.Compact(tops) {
			st := &p.Stmts[s]
			ch.Defs = append(ch.Defs, s)
			a, b := p.lineStarts[st.Line-1], p.lineEndAt(st.End)
			ch.Orig = append(ch.Orig, Span{a, b})
			points = append(points, a, b)
		}
	}
	src, mapped := p.render(pt, ok, points)
	for i := range ch.Defs {
		ch.Cand = append(ch.Cand, Span{mapped[2*i], mapped[2*i+1]})
	}
	return src, ch
}

// isDef reports whether a statement kind is a def or class statement.
// KeepsLines reports whether c changes only top-level definitions and
// each keeps its number of lines, between the original text orig and the
// candidate cand rendered with c. Every statement of cand is then on the
// line of the original's: a candidate compiled one changed definition at
// a time over the original's code (partial re-execution) is exactly the
// whole candidate compiled, line numbers included, so that the final
// validation of a fix may run it so.
func (c *Change) KeepsLines(orig, cand []byte) bool {
	if c == nil || c.Defs == nil || len(c.Orig) != len(c.Cand) {
		return false
	}
	for i, o := range c.Orig {
		n := c.Cand[i]
		if o.Start < 0 || o.End > len(orig) || o.Start > o.End || n.Start < 0 || n.End > len(cand) || n.Start > n.End {
			return false
		}
		if bytes.Count(orig[o.Start:o.End], lineFeed) != bytes.Count(cand[n.Start:n.End], lineFeed) {
			return false
		}
	}
	return true
}

var lineFeed = []byte{'\n'}

func isDef(kind string) bool {
	return kind == "function_definition" || kind == "class_definition" || kind == "decorated_definition"
}

// lineEndAt is the offset after the line break of the line holding offset
// o (the end of the text when that line has none).
func (p *Program) lineEndAt(o int) int {
	for o < len(p.Src) {
		if p.Src[o] == '\n' {
			return o + 1
		}
		o++
	}
	return o
}
