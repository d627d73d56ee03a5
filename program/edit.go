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
	// Guard wraps statements Stmt through Donor, siblings of one block
	// (Stmt first, or the same statement), in a new "if Text:" one level
	// deeper. Text is a one-line condition that fits an if header.
	Guard
	// InsertText inserts Text, a one-line statement the caller composed
	// ("if node is None: return"), before statement Stmt, in Stmt's block.
	InsertText
	// Rename replaces every name read (SiteIdent, not a binding) inside
	// statement Stmt — its own text and its nested statements' — whose
	// text is that of site Site, which must be one of them, by Text: one
	// name changed consistently at every use.
	Rename
	// ReplaceLine replaces statement Stmt, a simple statement on one
	// line, by Text, one or more lines the caller composed
	// ("xs.append(v)" for "xs[0] = v"; "try:\n    x = f()\nexcept
	// E:\n    raise F"): lines after the first are separated by \n and
	// get the statement's indentation before their own.
	ReplaceLine
)

var opNames = [...]string{"delete", "insert-before", "insert-after", "replace", "swap", "replace-text", "swap-text",
	"guard", "insert-text", "rename", "replace-line"}

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
	// Donor is also the last statement a Guard wraps.
	// Site and Site2 are the sites of ReplaceText and SwapText; Site is
	// the name a Rename changes.
	Site  int `json:"site,omitempty"`
	Site2 int `json:"site2,omitempty"`
	// Text replaces Site's text (ReplaceText). For Insert* and Replace, a
	// non-empty Text adapts the copy: Site is a one-line site inside Donor
	// whose text the copy gets as Text (a copy with one name changed).
	// It is the condition of a Guard, the statement of an InsertText and
	// the new name of a Rename (one line each).
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

// repl is one replacement of a byte range of the document being rendered.
type repl struct {
	start, end int
	text       string
	// Insertions at the same offset: rank 0 = after-inserts (deeper
	// indentation first), rank 1 = before-inserts; then edit order.
	rank, depth, idx int
	// word: the text replaces a token, and gets a space on a side where
	// it would otherwise run into a neighbouring name, number or keyword
	// (a < b with "<" swapped for "is not": a is not b, not ais notb).
	word bool
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
	src, _ := p.render(pt, p.Resolve(pt), nil)
	return src
}

// render is Render of the edits ok says apply, and the offsets of the
// rendered text where the given offsets of the original (which no edit
// replaces, sorted) went; text inserted at such an offset comes before
// it.
func (p *Program) render(pt Patch, ok []bool, points []int) ([]byte, []int) {
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
		case InsertText:
			a, _ := d.span(p, e.Stmt)
			rs = append(rs, repl{start: a, end: a, text: p.Stmts[e.Stmt].Indent + e.Text + p.NL, rank: 1, idx: i})
		case ReplaceLine:
			a, b := d.span(p, e.Stmt)
			ind := p.Stmts[e.Stmt].Indent
			text := ind + strings.ReplaceAll(e.Text, "\n", p.NL+ind) + p.NL
			rs = append(rs, repl{start: a, end: b, text: fitEnd(text, d.b, b), idx: i})
		case Guard:
			if p.guardsLines(e) {
				rs = append(rs, p.guardLines(e, d, i)...)
				break
			}
			a, _ := d.span(p, e.Stmt)
			_, b := d.span(p, e.Donor)
			rs = append(rs, repl{start: a, end: b, text: fitEnd(p.guard(e), d.b, b), idx: i})
		case Rename:
			st := &p.Stmts[e.Stmt]
			old := p.SiteText(e.Site)
			for j := range p.Sites {
				s := &p.Sites[j]
				if s.Kind == SiteIdent && !s.Store && s.Start >= st.Start && s.End <= st.End && p.SiteText(j) == old {
					rs = append(rs, repl{start: d.pos(s.Start), end: d.pos(s.End), text: e.Text, idx: i})
				}
			}
		case ReplaceText:
			s := &p.Sites[e.Site]
			rs = append(rs, repl{start: d.pos(s.Start), end: d.pos(s.End), text: e.Text, idx: i, word: true})
		case SwapText:
			s1, s2 := &p.Sites[e.Site], &p.Sites[e.Site2]
			t1, t2 := p.Text(s1.Start, s1.End), p.Text(s2.Start, s2.End)
			rs = append(rs,
				repl{start: d.pos(s1.Start), end: d.pos(s1.End), text: t2, idx: i, word: true},
				repl{start: d.pos(s2.Start), end: d.pos(s2.End), text: t1, idx: i, word: true})
		}
	}
	out := apply(d.b, rs)
	if len(points) == 0 {
		return out, nil
	}
	// rs is sorted by apply: add the growth of every replacement that
	// ends at or before a point.
	mapped := make([]int, len(points))
	k, delta := 0, 0
	for i, o := range points {
		at := d.pos(o)
		for k < len(rs) && rs[k].end <= at {
			delta += len(rs[k].text) - (rs[k].end - rs[k].start)
			k++
		}
		mapped[i] = at + delta
	}
	return out, mapped
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
		case InsertBefore, InsertAfter, InsertText:
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
	spaceWords(b, rs)
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

// spaceWords pads the text of each word replacement (sorted rs) with a
// space on a side where it would run into a word: the neighbour is the
// text of an adjacent replacement, else the byte of b beside it. The
// texts change in place, so callers that measure growth see the padding.
func spaceWords(b []byte, rs []repl) {
	for i := range rs {
		r := &rs[i]
		if !r.word || r.text == "" {
			continue
		}
		var before, after byte
		if i > 0 && rs[i-1].end == r.start && rs[i-1].text != "" {
			before = rs[i-1].text[len(rs[i-1].text)-1]
		} else if r.start > 0 {
			before = b[r.start-1]
		}
		if i+1 < len(rs) && rs[i+1].start == r.end && rs[i+1].text != "" {
			after = rs[i+1].text[0]
		} else if r.end < len(b) {
			after = b[r.end]
		}
		if wordByte(before) && wordByte(r.text[0]) {
			r.text = " " + r.text
		}
		if wordByte(r.text[len(r.text)-1]) && wordByte(after) {
			r.text += " "
		}
	}
}

// wordByte reports whether c can be part of a Python name, number or
// keyword (any non-ASCII byte may be part of a name).
func wordByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
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
		case Delete, Replace, InsertBefore, InsertAfter, InsertText, ReplaceLine:
			touch(e.Stmt)
		case Swap:
			touch(e.Stmt)
			touch(e.Donor)
		case Guard:
			for _, s := range p.guarded(e.Stmt, e.Donor) {
				touch(s) // only inline ones split: the others are indented
			}
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

// guardLines returns the replacements of a Guard of statements on lines
// of their own: "if Text:" inserted before the first, at its indentation
// (after the inserts before it and after the statement before it), and
// one more level of indentation at the start of each of their lines (the
// lines between them too, comments included), except the lines that start
// inside a multi-line string. Edits of their sites apply as well.
func (p *Program) guardLines(e Edit, d *doc, idx int) []repl {
	first := &p.Stmts[e.Stmt]
	indent := first.Indent
	a := d.lineStart(d.pos(first.Start))
	out := []repl{{start: a, end: a, text: indent + "if " + e.Text + ":" + p.NL, rank: 2, idx: idx}}
	for l := first.Line; l <= p.Stmts[e.Donor].EndLine; l++ {
		ls := p.lineStarts[l-1]
		le := len(p.Src)
		if l < len(p.lineStarts) {
			le = p.lineStarts[l]
		}
		line := p.Src[ls:le]
		if p.inString[l-1] || isBlank(trimEOL(line)) {
			continue
		}
		at := ls
		if strings.HasPrefix(string(line), indent) {
			at += len(indent)
		}
		out = append(out, repl{start: d.pos(at), end: d.pos(at), text: p.IndentUnit, rank: 3, idx: idx})
	}
	return out
}

// guard returns the text of a Guard of statements split off a one-line
// block or a ';' line: "if Text:" at the first statement's indentation,
// and the statements copied one by one, one level deeper.
func (p *Program) guard(e Edit) string {
	indent := p.Stmts[e.Stmt].Indent
	var sb strings.Builder
	sb.WriteString(indent + "if " + e.Text + ":" + p.NL)
	for _, s := range p.guarded(e.Stmt, e.Donor) {
		sb.WriteString(p.donor(s, indent+p.IndentUnit, nil))
	}
	return sb.String()
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
	r := []repl{{start: sb.start - ls, end: sb.end - ls, text: sb.text, word: true}}
	spaceWords(line, r)
	out := make([]byte, 0, len(line)+len(r[0].text))
	out = append(out, line[:sb.start-ls]...)
	out = append(out, r[0].text...)
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
