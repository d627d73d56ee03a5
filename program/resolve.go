// Which edits of a patch apply: what each claims of the original, and the
// first-wins rule that drops conflicting ones.

package program

import "strings"

// claim is what an accepted edit occupies: byte ranges of the original
// (statements or sites) and, for inserts, the anchor statement.
type claim struct {
	spans  [2]Span
	n      int  // spans used
	stmts  bool // spans are whole statements
	s1, s2 int  // the statements claimed, or -1
	anchor int  // insert anchor statement, or -1
	ins    Op   // the op of an insert (InsertBefore, InsertAfter, InsertText)
	guard  bool // a Guard: s1 through s2 are a range of one block
	// soft: a Guard of statements on lines of their own, which only
	// indents them (spans unused): edits of their sites still apply, not
	// edits of its statements.
	soft bool
}

// valid reports whether e refers to existing statements and sites and
// makes sense on its own.
func (p *Program) valid(e Edit) bool {
	ns, nsite := len(p.Stmts), len(p.Sites)
	okS := func(i int) bool { return i >= 0 && i < ns }
	okSite := func(i int) bool { return i >= 0 && i < nsite }
	switch e.Op {
	case Delete:
		return okS(e.Stmt)
	case InsertBefore, InsertAfter:
		return okS(e.Stmt) && okS(e.Donor) && p.okAdapt(e)
	case Replace:
		return okS(e.Stmt) && okS(e.Donor) && (e.Stmt != e.Donor || e.Text != "") && p.okAdapt(e)
	case Swap:
		if !okS(e.Stmt) || !okS(e.Donor) || e.Stmt == e.Donor {
			return false
		}
		return !p.Contains(e.Stmt, e.Donor) && !p.Contains(e.Donor, e.Stmt)
	case ReplaceText:
		return okSite(e.Site) && (p.Sites[e.Site].Async || !AsyncText(e.Text))
	case Guard:
		if !okS(e.Stmt) || !okS(e.Donor) || !oneLine(e.Text) || !p.asyncFits(e.Stmt, e.Text) {
			return false
		}
		a, b := &p.Stmts[e.Stmt], &p.Stmts[e.Donor]
		return a.Block == b.Block && a.Start <= b.Start
	case InsertText:
		return okS(e.Stmt) && oneLine(e.Text) && p.asyncFits(e.Stmt, e.Text)
	case ReplaceLine:
		if !okS(e.Stmt) || !someLines(e.Text) || !p.asyncFits(e.Stmt, e.Text) {
			return false
		}
		st := &p.Stmts[e.Stmt]
		return !st.Compound && !strings.ContainsAny(p.StmtText(e.Stmt), "\r\n") && strings.TrimSpace(p.StmtText(e.Stmt)) != strings.TrimSpace(e.Text)
	case Rename:
		if !okS(e.Stmt) || !okSite(e.Site) || !oneLine(e.Text) {
			return false
		}
		s, st := &p.Sites[e.Site], &p.Stmts[e.Stmt]
		return s.Kind == SiteIdent && !s.Store && s.Start >= st.Start && s.End <= st.End && p.SiteText(e.Site) != e.Text
	case SwapText:
		if !okSite(e.Site) || !okSite(e.Site2) {
			return false
		}
		a, b := &p.Sites[e.Site], &p.Sites[e.Site2]
		if a.End > b.Start && b.End > a.Start {
			return false // overlapping
		}
		return p.fits(e.Site, b) && p.fits(e.Site2, a)
	}
	return false
}

// asyncFits reports whether text may stand in a statement at statement
// s's place: text with an await or an async comprehension only in an
// async function.
func (p *Program) asyncFits(s int, text string) bool { return p.InAsync(s) || !AsyncText(text) }

// someLines reports whether text is one or more lines, none of them
// blank, with \n between them.
func someLines(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if !oneLine(l) {
			return false
		}
	}
	return true
}

// oneLine reports whether text is non-empty and on one line.
func oneLine(text string) bool {
	return strings.TrimSpace(text) != "" && !strings.ContainsAny(text, "\r\n")
}

// fits reports whether the text of site from can replace the text of site
// to without breaking the syntax or its meaning: sites of the same kind,
// precedence high enough for the place, no quotes or line breaks inside an
// f-string.
func (p *Program) fits(from int, to *Site) bool {
	f := &p.Sites[from]
	if f.Kind != to.Kind {
		return false
	}
	if f.Prec < to.MinPrec {
		return false
	}
	if to.InString && strings.ContainsAny(p.SiteText(from), "'\"\\\r\n") {
		return false
	}
	return to.Async || !AsyncText(p.SiteText(from))
}

// okAdapt checks the adaptation of a copied statement: none, or a one-line
// site inside the donor replaced by one-line text.
func (p *Program) okAdapt(e Edit) bool {
	if e.Text == "" {
		return true
	}
	if e.Site < 0 || e.Site >= len(p.Sites) || strings.ContainsAny(e.Text, "\r\n") {
		return false
	}
	s, d := &p.Sites[e.Site], &p.Stmts[e.Donor]
	// The copy stands at e.Stmt: text with an await only where both the
	// site in the donor and the target's place are async.
	if AsyncText(e.Text) && !(s.Async && p.InAsync(e.Stmt)) {
		return false
	}
	return s.Start >= d.Start && s.End <= d.End && !strings.ContainsAny(p.SiteText(e.Site), "\r\n")
}

func (p *Program) claimOf(e Edit) claim {
	c := claim{s1: -1, s2: -1, anchor: -1}
	st := func(i int) Span { return Span{p.Stmts[i].Start, p.Stmts[i].End} }
	si := func(i int) Span { return Span{p.Sites[i].Start, p.Sites[i].End} }
	switch e.Op {
	case Delete, Replace, ReplaceLine:
		c.spans[0], c.n, c.stmts, c.s1 = st(e.Stmt), 1, true, e.Stmt
	case Swap:
		c.spans[0], c.spans[1], c.n, c.stmts, c.s1, c.s2 = st(e.Stmt), st(e.Donor), 2, true, e.Stmt, e.Donor
	case InsertBefore, InsertAfter, InsertText:
		c.anchor, c.ins = e.Stmt, e.Op
	case Guard:
		c.s1, c.s2, c.guard, c.stmts = e.Stmt, e.Donor, true, true
		if p.guardsLines(e) {
			c.soft = true
		} else {
			c.spans[0], c.n = Span{p.Stmts[e.Stmt].Start, p.Stmts[e.Donor].End}, 1
		}
	case Rename:
		// The statement's bytes, but not its statements: an insert inside
		// it still applies.
		c.spans[0], c.n = st(e.Stmt), 1
	case ReplaceText:
		c.spans[0], c.n = si(e.Site), 1
	case SwapText:
		c.spans[0], c.spans[1], c.n = si(e.Site), si(e.Site2), 2
	}
	return c
}

// conflicts reports whether two claims cannot both be applied: their byte
// ranges overlap, or an insert is anchored strictly inside a statement that
// the other deletes, replaces or swaps.
func (p *Program) conflicts(a, b claim) bool {
	if a.soft || b.soft {
		return p.softConflicts(a, b)
	}
	for i := 0; i < a.n; i++ {
		for j := 0; j < b.n; j++ {
			if a.spans[i].Start < b.spans[j].End && b.spans[j].Start < a.spans[i].End {
				return true
			}
		}
	}
	inside := func(ins claim, c claim) bool {
		anchor := ins.anchor
		if anchor < 0 || !c.stmts {
			return false
		}
		if c.guard {
			return p.inGuard(anchor, ins.ins, c.s1, c.s2)
		}
		return (c.s1 >= 0 && p.Contains(c.s1, anchor)) || (c.s2 >= 0 && p.Contains(c.s2, anchor))
	}
	return inside(a, b) || inside(b, a)
}

// softConflicts reports whether a soft Guard's claim and another clash:
// another guard of overlapping statements, an edit of statements that
// overlap its own, an insert among them. Edits of sites inside it do not.
func (p *Program) softConflicts(a, b claim) bool {
	g, o := a, b
	if !g.soft {
		g, o = b, a
	}
	sp := Span{p.Stmts[g.s1].Start, p.Stmts[g.s2].End}
	overlap := func(x Span) bool { return x.Start < sp.End && sp.Start < x.End }
	switch {
	case o.guard:
		return overlap(Span{p.Stmts[o.s1].Start, p.Stmts[o.s2].End})
	case o.anchor >= 0:
		return p.inGuard(o.anchor, o.ins, g.s1, g.s2)
	case o.stmts:
		for i := 0; i < o.n; i++ {
			if overlap(o.spans[i]) {
				return true
			}
		}
	}
	return false
}

// guardsLines reports whether a Guard wraps statements that stand on
// lines of their own (none shares a line with its block's header or a
// sibling): it only indents their lines then.
func (p *Program) guardsLines(e Edit) bool {
	for _, s := range p.guarded(e.Stmt, e.Donor) {
		if p.Stmts[s].Inline {
			return false
		}
	}
	return true
}

// inGuard reports whether an insert (op) at statement anchor lands inside
// the statements first through last that a Guard wraps: at a statement of
// the range or nested in one, except before the first and after the last.
func (p *Program) inGuard(anchor int, op Op, first, last int) bool {
	if op == InsertAfter && anchor == last || op != InsertAfter && anchor == first {
		return false
	}
	blk, lo, hi := p.Stmts[first].Block, p.Stmts[first].Start, p.Stmts[last].Start
	for s := anchor; s >= 0; s = p.Stmts[s].Parent {
		if p.Stmts[s].Block == blk {
			return p.Stmts[s].Start >= lo && p.Stmts[s].Start <= hi
		}
	}
	return false
}

// guarded returns the statements a Guard from first to last wraps.
func (p *Program) guarded(first, last int) []int {
	stmts := p.Blocks[p.Stmts[first].Block].Stmts
	var out []int
	for _, s := range stmts {
		if p.Stmts[s].Start >= p.Stmts[first].Start && p.Stmts[s].Start <= p.Stmts[last].Start {
			out = append(out, s)
		}
	}
	return out
}

// Resolve returns, for each edit of the patch, whether Render applies it.
//
// The rule, deterministic and documented: edits are taken in patch order;
// an edit is dropped when it refers to a statement or site that does not
// exist, swaps a statement with one nested in it, or conflicts with an edit
// taken before it — their byte ranges overlap (an edit inside a statement
// that an earlier edit deletes, replaces or swaps; two edits of the same
// site) or it inserts next to a statement nested inside one that an
// earlier edit deletes, replaces or swaps. Earlier edits win.
func (p *Program) Resolve(pt Patch) []bool {
	ok := make([]bool, len(pt))
	var taken []claim
	for i, e := range pt {
		if !p.valid(e) {
			continue
		}
		c := p.claimOf(e)
		clash := false
		for _, t := range taken {
			if p.conflicts(c, t) {
				clash = true
				break
			}
		}
		if !clash {
			ok[i] = true
			taken = append(taken, c)
		}
	}
	return ok
}

// Applied returns the edits of the patch that Render applies, in order.
func (p *Program) Applied(pt Patch) Patch {
	ok := p.Resolve(pt)
	out := make(Patch, 0, len(pt))
	for i, e := range pt {
		if ok[i] {
			out = append(out, e)
		}
	}
	return out
}
