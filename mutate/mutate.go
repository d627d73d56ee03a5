// The Operator type, the list of operators, --operators specs, and the
// Mutator that draws operators by weight.

package mutate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"repair/program"
)

// Operator is a mutation operator. It changes one kind of target — a
// statement, or a site of some kind — and at a given target it proposes a
// small set of edits (its neighbourhood there).
type Operator struct {
	// Name is flag-safe (lowercase, digits and '-').
	Name string
	// Doc's first line is a lowercase title without a final period; more
	// lines may follow.
	Doc string
	// Weight is the operator's default weight (Default).
	Weight float64
	// Targets returns the operator's targets with their weights: the
	// statements or sites it changes, weighted by the suspiciousness of the
	// statement that holds them. A shared sampler of the context
	// (stmtTargets, siteTargets) or the operator's own, a fact declared
	// with newTargets (keptSites, keptStmts, sitesWhere) that Prepare
	// prepares and Weigh weighs.
	Targets func(c *Context) *Sampler
	// Edits emits every edit the operator proposes at target t (a
	// statement or a site id, per Targets). Every emitted edit is valid.
	Edits func(c *Context, t int, emit func(program.Edit))
	// NeedsDonors: the operator proposes edits only for a program with
	// donor files (program.ParseWithDonors).
	NeedsDonors bool
	// NeedsCrash: the operator proposes edits only where a failing case
	// crashed in a way it repairs (init-unbound: Context.SetUnbound).
	NeedsCrash bool
	// From, for an operator each of whose edits copies a donor statement
	// (Edit.Donor, one of the context's donors) into target Edit.Stmt, is
	// Edits split by donor: From(c, t) emits the edits at t that copy
	// donor d (nil: none at t), and Edits at t is From's edits of each
	// donor in order. The neighbourhood counts a far donor's edits
	// (Context.Scope) and makes only those it keeps. Nil for other
	// operators.
	From func(c *Context, t int) func(d int, emit func(program.Edit))
	// Count, optional with From, returns how many edits From(c, t) emits
	// for donor d, without making them, when the context denies nothing
	// (Context.denied): the neighbourhood counts far donors' edits so.
	Count func(c *Context, t int) func(d int) int
	// Applies, for an operator that changes sites, reports whether it
	// changes site id (whatever its weight): Refine uses it on the sites of
	// an inserted copy. Nil for statement operators.
	Applies func(c *Context, id int) bool
}

// Apply draws a target by weight and one of the operator's edits there,
// uniformly or by the weights of their ingredients (Context.Scope). It returns false when the operator has nothing to change.
func (o *Operator) Apply(c *Context, rng *rand.Rand) (program.Edit, bool) {
	s := o.Targets(c)
	if s.empty() {
		return program.Edit{}, false
	}
	bp := editBufs.Get().(*[]program.Edit)
	defer editBufs.Put(bp)
	buf := *bp
	defer func() { *bp = buf[:0] }()
	for try := 0; try < tries; try++ {
		t := s.draw(rng)
		buf = buf[:0]
		o.Edits(c, t, func(e program.Edit) {
			if !c.skipped(e) {
				buf = append(buf, e)
			}
		})
		if len(buf) > 0 {
			return c.pick(buf, rng), true
		}
	}
	return program.Edit{}, false
}

// tries bounds the targets an operator draws before giving up.
const tries = 16

// All lists every operator, statement operators first.
var All = []Operator{
	opDelete, opInsert, opInsertRenamed, opReplace, opSwap,
	opCondReplace, opCondNegate, opCondExtend,
	opCmp, opArith, opBool, opAug,
	opLiteral, opIdent,
	opExprReplace, opSwapArgs, opDropOperand, opShift, opAddTerm,
	opSibling, opAttr,
	opCondName, opWrap, opSwapOperands, opSlice, opAssign, opInsertChanged,
	opStringChar, opModuleConst, opSimilarName, opRename, opAddCall,
	opGuard, opEarlyExit, opCondExpr, opDefaultArg, opItemCall,
	opReplaceFunction,
	opRegex, opRaiseGuard, opTryExcept, opRenameAlike, opAddArg, opDomainString,
	opTypeSelf, opTypeTuple, opRaiseCall, opSameCall, opAddEntry, opAttrAlike, opInitUnbound,
	opStopAfter, opUseLocal, opGetattrDunder, opYieldNonEmpty,
}

// ByName returns the operator with the given name.
func ByName(name string) (Operator, bool) {
	for _, o := range All {
		if o.Name == name {
			return o, true
		}
	}
	return Operator{}, false
}

// Weighted is an operator with its selection weight.
type Weighted struct {
	Op     Operator
	Weight float64
}

// drawn reports whether the operator takes part in draws on context c:
// it weighs something and has a target there. The Mutator and the
// neighbourhood (eachEdit) share the rule.
func (o Weighted) drawn(c *Context) bool { return o.Weight > 0 && !o.Op.Targets(c).empty() }

// Default are the default operators and weights (Operator.Weight): the
// finer operators, which fix most one-line bugs of small programs, weigh
// more than the statement operators; the operators of developers' edits
// weigh little, so that the search's first draws stay where most small
// bugs are fixed.
func Default() []Weighted {
	out := make([]Weighted, 0, len(All))
	for _, o := range All {
		out = append(out, Weighted{o, o.Weight})
	}
	return out
}

// ParseSpec parses an --operators value: "default", "all", or a
// comma-separated list of NAME or NAME=WEIGHT ("delete,insert=2,cmp-op=3");
// a name without a weight weighs 1.
func ParseSpec(spec string) ([]Weighted, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "default" {
		return Default(), nil
	}
	if spec == "all" {
		var out []Weighted
		for _, o := range All {
			out = append(out, Weighted{o, 1})
		}
		return out, nil
	}
	var out []Weighted
	seen := map[string]bool{}
	for _, item := range strings.Split(spec, ",") {
		name, ws, hasW := strings.Cut(strings.TrimSpace(item), "=")
		o, ok := ByName(name)
		if !ok {
			return nil, fmt.Errorf("unknown operator %q (see 'repair operators')", name)
		}
		if seen[name] {
			return nil, fmt.Errorf("operator %q given twice", name)
		}
		seen[name] = true
		w := 1.0
		if hasW {
			v, err := strconv.ParseFloat(ws, 64)
			if err != nil || v < 0 || v != v || v > 1e6 {
				return nil, fmt.Errorf("operator %q: weight %q must be a number from 0 to 1e6", name, ws)
			}
			w = v
		}
		out = append(out, Weighted{o, w})
	}
	total := 0.0
	for _, x := range out {
		total += x.Weight
	}
	if total == 0 {
		return nil, fmt.Errorf("operators %q: every weight is 0", spec)
	}
	return out, nil
}

// Mutator draws operators by weight and applies them.
//
// It draws only among the operators with targets in the context: one
// that cannot change the program takes no draw, so that adding an
// operator leaves the search unchanged on programs it does not apply to
// (the same seed then makes the same candidates).
type Mutator struct {
	ops []Weighted
	// table is the draw table of the last context (drawTable).
	table atomic.Pointer[drawTable]
}

// drawTable is a Mutator's draw over the operators with targets in one
// context, as weighed at version ver (Context.ver).
type drawTable struct {
	c   *Context
	ver uint64
	ops []int // indexes into Mutator.ops
	cum []float64
}

// NewMutator returns a mutator over the given operators.
func NewMutator(ops []Weighted) *Mutator { return &Mutator{ops: slices.Clone(ops)} }

// drawable returns the draw table of context c, made on first use and
// again after c is weighed anew.
func (m *Mutator) drawable(c *Context) *drawTable {
	ver := c.ver.Load()
	if t := m.table.Load(); t != nil && t.c == c && t.ver == ver {
		return t
	}
	t := &drawTable{c: c, ver: ver}
	total := 0.0
	for i, o := range m.ops {
		if !o.drawn(c) {
			continue
		}
		total += o.Weight
		t.ops = append(t.ops, i)
		t.cum = append(t.cum, total)
	}
	m.table.Store(t)
	return t
}

// Mutate proposes one edit, retrying other operators when one has nothing
// to change. It returns the operator's name too.
func (m *Mutator) Mutate(c *Context, rng *rand.Rand) (program.Edit, string, bool) {
	t := m.drawable(c)
	if len(t.ops) == 0 {
		return program.Edit{}, "", false
	}
	for try := 0; try < 4*len(t.ops); try++ {
		x := rng.Float64() * t.cum[len(t.cum)-1]
		i := sort.Search(len(t.cum), func(i int) bool { return t.cum[i] > x })
		if i >= len(t.ops) {
			i = len(t.ops) - 1
		}
		o := &m.ops[t.ops[i]].Op
		if e, ok := o.Apply(c, rng); ok {
			return e, o.Name, true
		}
	}
	return program.Edit{}, "", false
}
