// The statement operators (GenProg's): delete, insert, replace, swap,
// and replace-function from a donor file.

package mutate

import (
	"bytes"
	"strings"

	"repair/program"
)

var opDelete = Operator{
	Name:    "delete",
	Doc:     "delete a statement\n\nA block left empty gets pass.",
	Targets: stmtTargets,
	Weight:  1,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		if c.Prog.CanRemove(s) {
			emit(program.Edit{Op: program.Delete, Stmt: s})
		}
	},
}

var opInsert = Operator{
	Name:    "insert",
	Doc:     "insert a copy of another statement of the file before or after a statement",
	Targets: stmtTargets,
	Weight:  1,
	Edits:   byDonor(insertFrom),
	From:    insertFrom,
	Count:   insertCount,
}

// insertCount counts insertFrom's edits: the places of a copy that fits.
func insertCount(c *Context, s int) func(d int) int {
	return func(d int) int {
		if !c.Prog.CanPlace(d, s) {
			return 0
		}
		before, after := c.places(s, d)
		return b2i(before) + b2i(after)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func insertFrom(c *Context, s int) func(d int, emit func(program.Edit)) {
	return func(d int, emit func(program.Edit)) {
		if c.Prog.CanPlace(d, s) {
			c.inserts(s, d, 0, "", emit)
		}
	}
}

var opInsertRenamed = Operator{
	Name:    "insert-renamed",
	Doc:     "insert a copy of another statement with one name changed\n\nThe new name is one visible where the copy goes: result.extend(first[k:])\nbecomes result.extend(second[k:]).",
	Targets: stmtTargets,
	Weight:  1,
	Edits:   byDonor(insertRenamedFrom),
	From:    insertRenamedFrom,
	Count:   insertRenamedCount,
}

func insertRenamedCount(c *Context, s int) func(d int) int {
	return copiesAt(c, s, c.renamedCopies(s))
}

// copiesAt counts the edits at target s that insert one of per[d]
// copies of statement d, before s, after it or both (inserts' places).
func copiesAt(c *Context, s int, per []int) func(d int) int {
	p := c.Prog
	return func(d int) int {
		n := per[d]
		if n == 0 || !p.CanPlace(d, s) {
			return 0
		}
		before, after := c.places(s, d)
		if !before && !after {
			return 0
		}
		if before && after {
			n *= 2
		}
		return n
	}
}

// renamedCopies returns, per donor statement, the renamed copies of it
// that insert-renamed makes at one place at statement s: those at a
// statement depend only on its scope's renames, so they are counted once
// per scope (a target's count looked at every donor's names again).
func (c *Context) renamedCopies(s int) []int {
	p := c.Prog
	sc := p.Stmts[s].Scope
	return renamed.get(c).get(sc, func() []int { return c.scopeRenamedCopies(s) })
}

// renamed caches renamedCopies' counts per scope.
var renamed = newCache[int, []int]()

// scopeRenamedCopies is renamedCopies for the scope of statement s.
func (c *Context) scopeRenamedCopies(s int) []int {
	p := c.Prog
	sc := p.Stmts[s].Scope
	names := c.renames(s)
	out := make([]int, len(p.Stmts))
	for _, d := range c.donors {
		n := 0
		for _, site := range c.idents[d] {
			if p.Sites[site].Pinned {
				continue
			}
			n += len(names)
			cur := p.SiteText(site)
			for _, x := range names {
				if x == cur || p.Sites[site].Annotated && p.Declared(sc, x) {
					n--
				}
			}
		}
		out[d] = n
	}
	return out
}

func insertRenamedFrom(c *Context, s int) func(d int, emit func(program.Edit)) {
	p := c.Prog
	names := c.renames(s)
	sc := p.Stmts[s].Scope
	return func(d int, emit func(program.Edit)) {
		if !p.CanPlace(d, s) {
			return
		}
		before, after := c.places(s, d)
		if !before && !after {
			return
		}
		for _, site := range c.idents[d] {
			if p.Sites[site].Pinned {
				continue // renaming the binding a nested nonlocal needs cannot compile
			}
			cur := p.SiteText(site)
			for _, n := range names {
				if n == cur || p.Sites[site].Annotated && p.Declared(sc, n) {
					continue // the same copy, or an annotated name its new scope declares global
				}
				insertsAt(s, d, site, n, before, after, emit)
			}
		}
	}
}

var opReplace = Operator{
	Name:    "replace",
	Doc:     "replace a statement by a copy of another statement of the file",
	Targets: stmtTargets,
	Weight:  1,
	Edits:   byDonor(replaceFrom),
	From:    replaceFrom,
	Count:   func(c *Context, s int) func(d int) int { return counted(replaces(c, s)) },
}

func replaceFrom(c *Context, s int) func(d int, emit func(program.Edit)) {
	ok := replaces(c, s)
	if ok == nil {
		return nil
	}
	return func(d int, emit func(program.Edit)) {
		if ok(d) {
			emit(program.Edit{Op: program.Replace, Stmt: s, Donor: d})
		}
	}
}

// replaces reports whether replace copies donor d over statement s (nil:
// no donor, s cannot go).
func replaces(c *Context, s int) func(d int) bool {
	p := c.Prog
	if !p.CanRemove(s) {
		return nil
	}
	text := p.StmtSrc(s)
	return func(d int) bool {
		return d != s && p.CanPlace(d, s) && !p.Contains(s, d) && !bytes.Equal(p.StmtSrc(d), text)
	}
}

// counted is an operator's Count from whether it makes the one edit of
// each donor (nil: none).
func counted(ok func(d int) bool) func(d int) int {
	return func(d int) int {
		if ok != nil && ok(d) {
			return 1
		}
		return 0
	}
}

// opReplaceFunction transplants a whole function from a donor file
// (program.ParseWithDonors): the last resort when the fix needs more than
// an edit can make. Only functions of the same name are replaced, and
// only with donors present.
var opReplaceFunction = Operator{
	Name:        "replace-function",
	Doc:         "replace a function by a donor file's function of the same name (only with --donors)",
	NeedsDonors: true,
	Targets:     funcTargets.get,
	Weight:      0.2,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		p := c.Prog
		if !p.CanRemove(s) {
			return
		}
		for _, d := range donorFuncs.get(c)[funcName(p.StmtText(s))] {
			if p.CanPlace(d, s) && !bytes.Equal(p.StmtSrc(d), p.StmtSrc(s)) {
				emit(program.Edit{Op: program.Replace, Stmt: s, Donor: d})
			}
		}
	},
}

// inserts emits the copies of donor d (adapted at site to text when text
// is not empty) before and after statement s. A copy of a return, raise,
// break or continue goes only after the last statement of a block: anywhere
// else it leaves the statements after it dead (return new; return old),
// which a replace says better. No copy goes where it never runs: after a
// statement that always leaves its block (a return, an if whose every
// branch returns), or among statements that follow one (reach.go).
func (c *Context) inserts(s, d, site int, text string, emit func(program.Edit)) {
	before, after := c.places(s, d)
	insertsAt(s, d, site, text, before, after, emit)
}

// places reports where inserts puts copies of donor d at statement s:
// before it, after it.
func (c *Context) places(s, d int) (before, after bool) {
	switch c.Prog.Stmts[d].Kind {
	case "return_statement", "raise_statement", "break_statement", "continue_statement":
		return false, c.last[s] && c.after(s)
	}
	return c.before(s), c.after(s)
}

// insertsAt emits the inserts of donor d at statement s that before and
// after allow (Context.places).
func insertsAt(s, d, site int, text string, before, after bool, emit func(program.Edit)) {
	if before {
		emit(program.Edit{Op: program.InsertBefore, Stmt: s, Donor: d, Site: site, Text: text})
	}
	if after {
		emit(program.Edit{Op: program.InsertAfter, Stmt: s, Donor: d, Site: site, Text: text})
	}
}

// donorFuncs are the donor files' function definitions by name (nil
// without donors).
var donorFuncs = newFact(func(c *Context) map[string][]int {
	p := c.Prog
	dl := p.DonorLine()
	if dl == 0 {
		return nil
	}
	out := map[string][]int{}
	for i := range p.Stmts {
		st := &p.Stmts[i]
		if st.Kind == "function_definition" && st.Line >= dl {
			name := funcName(p.StmtText(i))
			out[name] = append(out[name], i)
		}
	}
	return out
})

// funcTargets are replace-function's: the target's function definitions
// that a donor file also defines, weighted by the most suspicious
// statement they hold.
var funcTargets = newTargets(func(c *Context) *Sampler {
	p := c.Prog
	s := &Sampler{span: true}
	dl := p.DonorLine()
	if dl == 0 {
		return s
	}
	donors := donorFuncs.get(c)
	for i := range p.Stmts {
		st := &p.Stmts[i]
		if st.Kind != "function_definition" || st.Line >= dl || len(donors[funcName(p.StmtText(i))]) == 0 {
			continue
		}
		s.add(i, i)
	}
	return s
})

// funcName is the name a "def NAME(" statement defines.
func funcName(text string) string {
	text = strings.TrimSpace(text)
	text = strings.TrimPrefix(text, "async ")
	text, ok := strings.CutPrefix(text, "def ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(text, "(")
	return strings.TrimSpace(name)
}

var opSwap = Operator{
	Name:    "swap",
	Doc:     "swap a statement with another statement of the file",
	Targets: stmtTargets,
	Weight:  0.5,
	Edits:   byDonor(swapFrom),
	From:    swapFrom,
	Count:   func(c *Context, s int) func(d int) int { return counted(swaps(c, s)) },
}

func swapFrom(c *Context, s int) func(d int, emit func(program.Edit)) {
	ok := swaps(c, s)
	if ok == nil {
		return nil
	}
	return func(d int, emit func(program.Edit)) {
		if ok(d) {
			emit(program.Edit{Op: program.Swap, Stmt: s, Donor: d})
		}
	}
}

// swaps reports whether swap exchanges statement s with donor d (nil: no
// donor, s cannot move).
func swaps(c *Context, s int) func(d int) bool {
	p := c.Prog
	if !p.CanRemove(s) {
		return nil
	}
	text := p.StmtSrc(s)
	return func(d int) bool {
		return !(d == s || p.Contains(s, d) || p.Contains(d, s) || !p.CanRemove(d) ||
			!p.CanPlace(d, s) || !p.CanPlace(s, d) || bytes.Equal(p.StmtSrc(d), text))
	}
}

// byDonor is the Edits of an operator split by donor (Operator.From):
// from's edits for each donor in order.
func byDonor(from func(c *Context, t int) func(d int, emit func(program.Edit))) func(c *Context, t int, emit func(program.Edit)) {
	return func(c *Context, t int, emit func(program.Edit)) {
		f := from(c, t)
		if f == nil {
			return
		}
		for _, d := range c.donors {
			f(d, emit)
		}
	}
}
