package program

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Op is the kind of an edit.
type Op uint8

const (
	// Delete removes statement Stmt.
	Delete Op = iota
	// InsertBefore inserts a copy of statement Donor before statement Stmt,
	// in Stmt's block.
	InsertBefore
	// InsertAfter inserts a copy of statement Donor after statement Stmt
	// (after its whole body, for a compound statement), in Stmt's block.
	InsertAfter
	// Replace replaces statement Stmt by a copy of statement Donor.
	Replace
	// Swap exchanges statements Stmt and Donor.
	Swap
	// ReplaceText replaces the text of site Site by Text. The caller makes
	// Text fit the site (see Site.Fit and Site.InString).
	ReplaceText
	// SwapText exchanges the texts of sites Site and Site2, which must be of
	// the same kind, non-overlapping, and fit each other's place (an
	// operand position takes only an atom).
	SwapText
)

var opNames = [...]string{"delete", "insert-before", "insert-after", "replace", "swap", "replace-text", "swap-text"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// MarshalText encodes an op by its name.
func (o Op) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText decodes an op name.
func (o *Op) UnmarshalText(b []byte) error {
	for i, n := range opNames {
		if n == string(b) {
			*o = Op(i)
			return nil
		}
	}
	return fmt.Errorf("unknown edit op %q", b)
}

// Edit is one change to the ORIGINAL program, by statement and site ids
// (GenProg's patch representation): every edit of a patch refers to the
// original text, never to the result of an earlier edit.
type Edit struct {
	Op Op `json:"op"`
	// Stmt is the target statement (Delete, Insert*, Replace, Swap).
	Stmt int `json:"stmt"`
	// Donor is the statement copied (Insert*, Replace) or the other one
	// swapped (Swap).
	Donor int `json:"donor,omitempty"`
	// Site and Site2 are the sites of ReplaceText and SwapText.
	Site  int `json:"site,omitempty"`
	Site2 int `json:"site2,omitempty"`
	// Text replaces Site's text (ReplaceText). For Insert* and Replace, a
	// non-empty Text adapts the copy: Site is a one-line site inside Donor
	// whose text the copy gets as Text (a copy with one name changed).
	Text string `json:"text,omitempty"`
}

// Patch is an ordered list of edits: a candidate.
type Patch []Edit

// Key returns a compact string that identifies the patch's edits, in order.
func (pt Patch) Key() string {
	var sb strings.Builder
	for _, e := range pt {
		fmt.Fprintf(&sb, "%d:%d:%d:%d:%d:%q;", e.Op, e.Stmt, e.Donor, e.Site, e.Site2, e.Text)
	}
	return sb.String()
}

// glue is a place where a one-line block or a ';' line is split: its byte
// range is replaced by a line break and the indentation of the statement
// that follows.
type glue struct {
	start, end int
	line       int // the line it is on
	indent     string
}

// claim is what an accepted edit occupies: byte ranges of the original
// (statements or sites) and, for inserts, the anchor statement.
type claim struct {
	spans  [2]Span
	n      int  // spans used
	stmts  bool // spans are whole statements
	s1, s2 int  // the statements claimed, or -1
	anchor int  // insert anchor statement, or -1
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
		return okSite(e.Site)
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
	return true
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
	return s.Start >= d.Start && s.End <= d.End && !strings.ContainsAny(p.SiteText(e.Site), "\r\n")
}

func (p *Program) claimOf(e Edit) claim {
	c := claim{s1: -1, s2: -1, anchor: -1}
	st := func(i int) Span { return Span{p.Stmts[i].Start, p.Stmts[i].End} }
	si := func(i int) Span { return Span{p.Sites[i].Start, p.Sites[i].End} }
	switch e.Op {
	case Delete, Replace:
		c.spans[0], c.n, c.stmts, c.s1 = st(e.Stmt), 1, true, e.Stmt
	case Swap:
		c.spans[0], c.spans[1], c.n, c.stmts, c.s1, c.s2 = st(e.Stmt), st(e.Donor), 2, true, e.Stmt, e.Donor
	case InsertBefore, InsertAfter:
		c.anchor = e.Stmt
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
	for i := 0; i < a.n; i++ {
		for j := 0; j < b.n; j++ {
			if a.spans[i].Start < b.spans[j].End && b.spans[j].Start < a.spans[i].End {
				return true
			}
		}
	}
	inside := func(anchor int, c claim) bool {
		if anchor < 0 || !c.stmts {
			return false
		}
		return (c.s1 >= 0 && p.Contains(c.s1, anchor)) || (c.s2 >= 0 && p.Contains(c.s2, anchor))
	}
	return inside(a.anchor, b) || inside(b.anchor, a)
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

// repl is one replacement of a byte range of the document being rendered.
type repl struct {
	start, end int
	text       string
	// Insertions at the same offset: rank 0 = after-inserts (deeper
	// indentation first), rank 1 = before-inserts; then edit order.
	rank, depth, idx int
}

// doc is the text edits apply to: the original, or the original with some
// one-line blocks and ';' lines split (explode).
type doc struct {
	b      []byte
	bom    int
	shifts []shift // offset shifts after split points, by original offset
}

type shift struct{ at, delta int }

// pos maps an offset of the original to the document.
func (d *doc) pos(o int) int {
	n := o
	for _, s := range d.shifts {
		if s.at > o {
			break
		}
		n += s.delta
	}
	return n
}

func (d *doc) lineStart(o int) int {
	for o > d.bom && d.b[o-1] != '\n' {
		o--
	}
	return o
}

func (d *doc) lineEnd(o int) int {
	for o < len(d.b) {
		if d.b[o] == '\n' {
			return o + 1
		}
		o++
	}
	return o
}

// span returns the whole lines of statement s in the document.
func (d *doc) span(p *Program, s int) (int, int) {
	st := &p.Stmts[s]
	return d.lineStart(d.pos(st.Start)), d.lineEnd(d.pos(st.End))
}

// Render returns the program text with the patch applied. It never fails:
// edits that cannot apply are dropped (see Resolve). Untouched lines are
// byte-identical to the original. A one-line block (if x: y) or a ';' line
// is split into proper lines when one of its statements is edited; inserted
// and moved statements are re-indented to their new block; a block emptied
// by deletions gets "pass".
func (p *Program) Render(pt Patch) []byte {
	ok := p.Resolve(pt)
	d := p.explode(pt, ok)

	var rs []repl
	passAt := p.emptied(pt, ok)

	for i, e := range pt {
		if !ok[i] {
			continue
		}
		switch e.Op {
		case Delete:
			a, b := d.span(p, e.Stmt)
			text := ""
			if passAt[e.Stmt] {
				text = fitEnd(p.Stmts[e.Stmt].Indent+"pass"+p.NL, d.b, b)
			}
			rs = append(rs, repl{start: a, end: b, text: text, idx: i})
		case Replace:
			a, b := d.span(p, e.Stmt)
			rs = append(rs, repl{start: a, end: b, text: fitEnd(p.donorOf(e, p.Stmts[e.Stmt].Indent), d.b, b), idx: i})
		case Swap:
			a1, b1 := d.span(p, e.Stmt)
			a2, b2 := d.span(p, e.Donor)
			rs = append(rs,
				repl{start: a1, end: b1, text: fitEnd(p.donor(e.Donor, p.Stmts[e.Stmt].Indent, nil), d.b, b1), idx: i},
				repl{start: a2, end: b2, text: fitEnd(p.donor(e.Stmt, p.Stmts[e.Donor].Indent, nil), d.b, b2), idx: i})
		case InsertBefore:
			a, _ := d.span(p, e.Stmt)
			rs = append(rs, repl{start: a, end: a, text: p.donorOf(e, p.Stmts[e.Stmt].Indent), rank: 1, idx: i})
		case InsertAfter:
			_, b := d.span(p, e.Stmt)
			ind := p.Stmts[e.Stmt].Indent
			text := p.donorOf(e, ind)
			if b == len(d.b) && (b == 0 || d.b[b-1] != '\n') {
				// After the last line of a file without a final newline.
				text = p.NL + strings.TrimSuffix(text, p.NL)
			}
			rs = append(rs, repl{start: b, end: b, text: text, rank: 0, depth: -len(ind), idx: i})
		case ReplaceText:
			s := &p.Sites[e.Site]
			rs = append(rs, repl{start: d.pos(s.Start), end: d.pos(s.End), text: e.Text, idx: i})
		case SwapText:
			s1, s2 := &p.Sites[e.Site], &p.Sites[e.Site2]
			t1, t2 := p.Text(s1.Start, s1.End), p.Text(s2.Start, s2.End)
			rs = append(rs,
				repl{start: d.pos(s1.Start), end: d.pos(s1.End), text: t2, idx: i},
				repl{start: d.pos(s2.Start), end: d.pos(s2.End), text: t1, idx: i})
		}
	}
	return apply(d.b, rs)
}

// emptied returns the statements whose deletion must leave "pass": the
// first deleted statement of each block that the patch empties (the module
// may be empty). Nil when the patch deletes nothing.
func (p *Program) emptied(pt Patch, ok []bool) map[int]bool {
	var delta map[int]int // block -> inserted minus deleted statements
	var deleted map[int]bool
	for i, e := range pt {
		if ok[i] && e.Op == Delete {
			if delta == nil {
				delta, deleted = map[int]int{}, map[int]bool{}
			}
			deleted[e.Stmt] = true
		}
	}
	if delta == nil {
		return nil
	}
	for i, e := range pt {
		if !ok[i] {
			continue
		}
		switch e.Op {
		case Delete:
			delta[p.Stmts[e.Stmt].Block]--
		case InsertBefore, InsertAfter:
			delta[p.Stmts[e.Stmt].Block]++
		}
	}
	var at map[int]bool
	for b, n := range delta {
		if b == 0 || len(p.Blocks[b].Stmts)+n > 0 {
			continue
		}
		for _, s := range p.Blocks[b].Stmts {
			if deleted[s] {
				if at == nil {
					at = map[int]bool{}
				}
				at[s] = true
				break
			}
		}
	}
	return at
}

// fitEnd drops the final line break of text when the span it replaces ends
// the file without one, so a file without a final newline keeps that.
func fitEnd(text string, b []byte, end int) string {
	if end == len(b) && (end == 0 || b[end-1] != '\n') {
		text = strings.TrimSuffix(text, "\n")
		text = strings.TrimSuffix(text, "\r")
	}
	return text
}

func apply(b []byte, rs []repl) []byte {
	sort.SliceStable(rs, func(i, j int) bool {
		a, c := &rs[i], &rs[j]
		if a.start != c.start {
			return a.start < c.start
		}
		ai, ci := a.end == a.start, c.end == c.start
		if ai != ci {
			return ai // insertions before a range that starts there
		}
		if a.rank != c.rank {
			return a.rank < c.rank
		}
		if a.depth != c.depth {
			return a.depth < c.depth
		}
		return a.idx < c.idx
	})
	n := len(b)
	for _, r := range rs {
		n += len(r.text) - (r.end - r.start)
	}
	out := make([]byte, 0, max(n, 0))
	cur := 0
	for _, r := range rs {
		if r.start < cur {
			continue // cannot happen for resolved edits; never break the text
		}
		out = append(out, b[cur:r.start]...)
		out = append(out, r.text...)
		cur = r.end
	}
	return append(out, b[cur:]...)
}

// explode returns the document the edits apply to: the original, with the
// one-line blocks and ';' lines of edited statements split into lines.
func (p *Program) explode(pt Patch, ok []bool) *doc {
	d := &doc{b: p.Src}
	if len(p.Src) >= 3 && p.lineStarts[0] == 3 {
		d.bom = 3
	}
	if len(p.glue) == 0 {
		return d
	}
	var lines map[int]bool
	touch := func(s int) {
		st := &p.Stmts[s]
		if !st.Inline {
			return
		}
		if lines == nil {
			lines = map[int]bool{}
		}
		// The whole logical line is split: the siblings sharing a line
		// with the statement, and theirs (a statement continued over
		// lines shares its last line with the next one).
		lo, hi := st.Line, st.EndLine
		for grown := true; grown; {
			grown = false
			for _, id := range p.Blocks[st.Block].Stmts {
				o := &p.Stmts[id]
				if o.Inline && o.Line <= hi && o.EndLine >= lo && (o.Line < lo || o.EndLine > hi) {
					lo, hi, grown = min(lo, o.Line), max(hi, o.EndLine), true
				}
			}
		}
		for l := lo; l <= hi; l++ {
			lines[l] = true
		}
	}
	for i, e := range pt {
		if !ok[i] {
			continue
		}
		switch e.Op {
		case Delete, Replace, InsertBefore, InsertAfter:
			touch(e.Stmt)
		case Swap:
			touch(e.Stmt)
			touch(e.Donor)
		}
	}
	if lines == nil {
		return d
	}
	var rs []repl
	for _, g := range p.glue {
		if !lines[g.line] {
			continue
		}
		text := p.NL + g.indent
		rs = append(rs, repl{start: g.start, end: g.end, text: text})
		d.shifts = append(d.shifts, shift{at: g.end, delta: len(text) - (g.end - g.start)})
		// The statement after the glue now starts a line at g.indent; its
		// continuation lines must not start left of it (see shallow).
		for s := range p.Stmts {
			st := &p.Stmts[s]
			if st.Start != g.end {
				continue
			}
			for l := st.Line + 1; l <= st.EndLine; l++ {
				if ls := p.lineStarts[l-1]; p.shallow(l, g.indent) {
					rs = append(rs, repl{start: ls, end: ls, text: g.indent})
					d.shifts = append(d.shifts, shift{at: ls, delta: len(g.indent)})
				}
			}
		}
	}
	sort.SliceStable(d.shifts, func(i, j int) bool { return d.shifts[i].at < d.shifts[j].at })
	d.b = apply(p.Src, rs)
	return d
}

// shallow reports whether line l (1-based), a continuation line of a
// statement that now starts at indent, would start left of it. Python
// ignores the indentation of lines continued in brackets or after a
// backslash, but tree-sitter's scanner takes some of them for a dedent
// (a line "a," at column 0 after "from m import (" in a block), so such
// lines get indent in front. A line that starts inside a string is never
// shallow: its leading whitespace is part of the string.
func (p *Program) shallow(l int, indent string) bool {
	if p.inString[l-1] {
		return false
	}
	ls, le := p.lineStarts[l-1], len(p.Src)
	if l < len(p.lineStarts) {
		le = p.lineStarts[l]
	}
	line := p.Src[ls:le]
	return !isBlank(trimEOL(line)) && scanWidth(leadingSpace(line)) < scanWidth([]byte(indent))
}

// scanWidth is the indentation of leading whitespace as tree-sitter's
// scanner counts it: a space 1, a tab 8, a form feed starts again.
func scanWidth(ws []byte) int {
	n := 0
	for _, c := range ws {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8
		case '\f':
			n = 0
		}
	}
	return n
}

// donorOf returns the copy an Insert* or Replace edit puts in, adapted
// when the edit says so.
func (p *Program) donorOf(e Edit, indent string) string {
	if e.Text == "" {
		return p.donor(e.Donor, indent, nil)
	}
	s := &p.Sites[e.Site]
	return p.donor(e.Donor, indent, &subst{start: s.Start, end: s.End, text: e.Text})
}

// subst replaces a one-line byte range of the original in a copy.
type subst struct {
	start, end int
	text       string
}

// apply returns line (which starts at offset ls of the original) with the
// substitution made if it falls in the line.
func (sb *subst) apply(line []byte, ls int) []byte {
	if sb == nil || sb.start < ls || sb.end > ls+len(line) {
		return line
	}
	out := make([]byte, 0, len(line)+len(sb.text))
	out = append(out, line[:sb.start-ls]...)
	out = append(out, sb.text...)
	return append(out, line[sb.end-ls:]...)
}

// donor returns the text of statement s re-indented to indent, as whole
// lines ending with a line break, with an optional substitution.
func (p *Program) donor(s int, indent string, sub *subst) string {
	st := &p.Stmts[s]
	var sb strings.Builder
	if st.Inline {
		// The statement's own text; its continuation lines must not start
		// left of indent (see shallow).
		sb.WriteString(indent)
		text := sub.apply(p.Src[st.Start:st.End], st.Start)
		for l := st.Line; len(text) > 0; l++ {
			i := bytes.IndexByte(text, '\n') + 1
			if i == 0 {
				i = len(text)
			}
			if l > st.Line && p.shallow(l, indent) {
				sb.WriteString(indent)
			}
			sb.Write(text[:i])
			text = text[i:]
		}
		return sb.String() + p.NL
	}
	for l := st.Line; l <= st.EndLine; l++ {
		ls := p.lineStarts[l-1]
		le := len(p.Src)
		if l < len(p.lineStarts) {
			le = p.lineStarts[l]
		}
		line := sub.apply(p.Src[ls:le], ls)
		if !p.inString[l-1] && strings.HasPrefix(string(line), st.Indent) && !isBlank(trimEOL(line)) {
			sb.WriteString(indent)
			sb.Write(line[len(st.Indent):])
		} else {
			sb.Write(line)
		}
	}
	out := sb.String()
	if !strings.HasSuffix(out, "\n") {
		out += p.NL
	}
	return out
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// Describe says in words what an edit does, for summaries:
// "line 8: replaced `return y` with `return x`".
func (p *Program) Describe(e Edit) string {
	if !p.valid(e) {
		return fmt.Sprintf("invalid edit %v", e.Op)
	}
	q := func(s string) string {
		if i := strings.IndexAny(s, "\r\n"); i >= 0 {
			s = s[:i] + " ..."
		}
		s = strings.TrimSpace(s)
		if len(s) > 60 {
			s = s[:57] + "..."
		}
		return "`" + s + "`"
	}
	st := func(i int) string { return q(p.FirstLine(i)) }
	line := func(i int) string { return p.Where(p.Stmts[i].Line) }
	if e.Text != "" && (e.Op == InsertBefore || e.Op == InsertAfter || e.Op == Replace) {
		// An adapted copy: show the copy as it is inserted.
		copyText := strings.TrimSpace(p.donorOf(e, ""))
		from := fmt.Sprintf("(from %s, with %s as %s)", line(e.Donor), q(p.SiteText(e.Site)), q(e.Text))
		switch e.Op {
		case InsertBefore:
			return fmt.Sprintf("%s: inserted %s %s before %s", line(e.Stmt), q(copyText), from, st(e.Stmt))
		case InsertAfter:
			return fmt.Sprintf("%s: inserted %s %s after %s", line(e.Stmt), q(copyText), from, st(e.Stmt))
		default:
			return fmt.Sprintf("%s: replaced %s with %s %s", line(e.Stmt), st(e.Stmt), q(copyText), from)
		}
	}
	switch e.Op {
	case Delete:
		return fmt.Sprintf("%s: deleted %s", line(e.Stmt), st(e.Stmt))
	case InsertBefore:
		return fmt.Sprintf("%s: inserted %s (from %s) before %s", line(e.Stmt), st(e.Donor), line(e.Donor), st(e.Stmt))
	case InsertAfter:
		return fmt.Sprintf("%s: inserted %s (from %s) after %s", line(e.Stmt), st(e.Donor), line(e.Donor), st(e.Stmt))
	case Replace:
		return p.replaced(e, q)
	case Swap:
		if len(p.Files) < 2 {
			return fmt.Sprintf("lines %d and %d: swapped %s and %s", p.Stmts[e.Stmt].Line, p.Stmts[e.Donor].Line, st(e.Stmt), st(e.Donor))
		}
		return fmt.Sprintf("%s and %s: swapped %s and %s", line(e.Stmt), line(e.Donor), st(e.Stmt), st(e.Donor))
	case ReplaceText:
		s := &p.Sites[e.Site]
		return fmt.Sprintf("%s: replaced %s with %s", p.Where(p.LineOf(s.Start)), q(p.SiteText(e.Site)), q(e.Text))
	case SwapText:
		return fmt.Sprintf("%s: swapped %s and %s", p.Where(p.LineOf(p.Sites[e.Site].Start)), q(p.SiteText(e.Site)), q(p.SiteText(e.Site2)))
	}
	return e.Op.String()
}
