// The ingredient scope: where the code an edit copies comes from, and how
// much that weighs in the draw of an edit at a target.

package mutate

import (
	"math/rand/v2"
	"strings"
	"sync"

	"repair/program"
)

// farShare bounds the weight of far ingredients at a target: together
// they weigh at most farShare times the near ones (a fifth of the draws).
const farShare = 0.25

// Scope weighs the ingredients of edits — the statements that inserts,
// replaces and swaps copy, and the expression, condition, literal and
// name texts that replacements paste — by where they come from, the
// "ingredient scope" of Astor (Martinez and Monperrus, "Ingredient Based
// Repair Approaches", 2019) and ARJA: code near the fault first. Near is a
// statement of a function the suite ran (any statement of its body
// executed) or a statement executed outside functions; far is the rest of
// the target files. A text is far when it occurs in far code only (the
// name of a function the suite never calls, say). Donor files' code is
// near: it was picked for its likeness to the target.
//
// At each target, the far edits together weigh at most farShare times
// the near ones, so padding a file with functions the suite never calls
// leaves the draws near the fault about as likely as in the small file,
// while a program whose code all runs draws exactly as without a scope.
// Copies of statements get their names renamed only to names near code
// reads or binds (renames).
//
// executed is per statement (localize.ExecutedAny: any case executed it);
// call Scope before the context is shared.
func (c *Context) Scope(executed []bool) {
	p := c.Prog
	if len(executed) != len(p.Stmts) {
		return
	}
	dl := p.DonorLine()
	outer := c.outer      // the outermost function around each statement (Prepare)
	ran := map[int]bool{} // functions whose body ran
	for i, e := range executed {
		if e && outer[i] >= 0 {
			ran[outer[i]] = true
		}
	}
	near := make([]bool, len(p.Stmts))
	anyFar := false
	for i := range p.Stmts {
		near[i] = executed[i] && outer[i] < 0 || outer[i] >= 0 && ran[outer[i]] ||
			dl > 0 && p.Stmts[i].Line >= dl
		anyFar = anyFar || !near[i]
	}
	if !anyFar {
		return
	}
	c.farStmt = make([]bool, len(p.Stmts))
	for i := range near {
		c.farStmt[i] = !near[i]
	}
	// The texts of near sites (in a large file, few): a text is far when
	// it is a site's (Prepare's siteTexts) and not among them.
	textNear := map[string]bool{}
	nearNames := map[string]bool{}
	for i := range p.Sites {
		s := &p.Sites[i]
		if !near[s.Stmt] {
			continue
		}
		b := p.Src[s.Start:s.End]
		if !textNear[string(b)] {
			textNear[string(b)] = true
		}
		if s.Kind == program.SiteIdent && !nearNames[string(b)] {
			nearNames[string(b)] = true
		}
	}
	c.near = nearCode{texts: textNear, names: nearNames, visible: map[int][]string{}}
}

// nearCode is what the ingredient scope finds near the fault besides its
// statements: the texts of near sites, the names near code reads or binds,
// and per scope its visible names among them (renames), under mu.
type nearCode struct {
	texts, names map[string]bool
	mu           sync.Mutex
	visible      map[int][]string
}

// far reports whether edit e's ingredient is far from the fault.
func (c *Context) far(e program.Edit) bool {
	switch e.Op {
	case program.InsertBefore, program.InsertAfter, program.Replace, program.Swap:
		return c.farStmt[e.Donor] || e.Text != "" && c.farText(e.Text)
	case program.ReplaceText:
		if c.farText(e.Text) {
			return true
		}
		if t, ok := strings.CutPrefix(e.Text, "("); ok {
			return c.farText(strings.TrimSuffix(t, ")"))
		}
	}
	return false
}

// farText reports whether text occurs in far code only: a site has it
// and no near site does (never without a scope).
func (c *Context) farText(text string) bool {
	return c.farStmt != nil && c.siteTexts[text] && !c.near.texts[text]
}

// weights returns the weights of a near and a far edit among buf: 1 and
// 1 when the scope sets none apart.
func (c *Context) weights(buf []program.Edit) (nearW, farW float64) {
	if c.farStmt == nil {
		return 1, 1
	}
	nFar := 0
	for _, e := range buf {
		if c.far(e) {
			nFar++
		}
	}
	return c.weightsOf(len(buf), nFar)
}

// weightsOf is weights of n edits of which nFar are far.
func (c *Context) weightsOf(n, nFar int) (nearW, farW float64) {
	nNear := n - nFar
	if c.farStmt == nil || nFar == 0 || nNear == 0 {
		return 1, 1
	}
	return 1, min(1, farShare*float64(nNear)/float64(nFar))
}

// visible is Program.Visible(stmt), the last scope's kept.
func (c *Context) visible(stmt int) []string {
	sc := c.Prog.Stmts[stmt].Scope
	l := lastVisible.get(c)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.names == nil || l.scope != sc {
		l.scope, l.names = sc, c.Prog.ScopeVisible(sc)
	}
	return l.names
}

// lastVisible is the scope visible asked for last and its names
// (program.Program.ScopeVisible merges them at each call; statements come
// in document order, mostly a scope at a time), under mu.
var lastVisible = newFact(func(*Context) *scopeNames { return &scopeNames{} })

type scopeNames struct {
	mu    sync.Mutex
	scope int
	names []string
}

// renames are the names a copied statement's name may become at
// statement s: the names visible there without a scope, else those of
// them that code near the fault reads or binds. A module's names are
// visible everywhere, so in a large file the copies times their names
// times the names visible would be millions of edits at each target,
// nearly all of them names of code the suite never runs.
//
// Neither holds a module's dunder names (__all__, __version__): a copy
// that reads a module's metadata for a variable is no fix (ident leaves
// them out too).
func (c *Context) renames(s int) []string {
	sc := c.Prog.Stmts[s].Scope
	c.near.mu.Lock()
	defer c.near.mu.Unlock()
	if c.near.visible == nil {
		c.near.visible = map[int][]string{}
	}
	names, ok := c.near.visible[sc]
	if !ok {
		names = []string{}
		for _, n := range c.Prog.ScopeVisible(sc) {
			if (c.near.names == nil || c.near.names[n]) && !dunder(n) {
				names = append(names, n)
			}
		}
		c.near.visible[sc] = names
	}
	return names
}

// dunder reports whether name is a dunder name (__all__, __name__).
func dunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// editBufs recycles the edit buffers of Apply: an operator may propose
// thousands of edits at a target of a large file.
var editBufs = sync.Pool{New: func() any { return new([]program.Edit) }}

// pick draws one of buf's edits: uniformly when the scope weighs them all
// alike (one draw, as without a scope), else in proportion to their
// weights.
func (c *Context) pick(buf []program.Edit, rng *rand.Rand) program.Edit {
	nearW, farW := c.weights(buf)
	if nearW == farW {
		return buf[rng.IntN(len(buf))]
	}
	total := 0.0
	for _, e := range buf {
		if c.far(e) {
			total += farW
		} else {
			total += nearW
		}
	}
	x := rng.Float64() * total
	for _, e := range buf {
		if c.far(e) {
			x -= farW
		} else {
			x -= nearW
		}
		if x < 0 {
			return e
		}
	}
	return buf[len(buf)-1]
}
