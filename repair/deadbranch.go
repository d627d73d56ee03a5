// A fix whose changed condition the tests do not need: the branch it
// guards could as well never run.

package repair

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"repair/program"
)

// deadBranch reports whether fix pt, which passes the suite, passes it as
// well with the condition it changes or adds replaced by False: an if
// wrapped around a statement (if not encoding: xml_input = ...encode(...))
// or an if's condition changed (maxsplit == 0 into not maxsplit == 0)
// so that no test runs the branch. To the tests such a fix deletes the
// branch, whatever the condition says, and its condition is one of many
// that make it dead (boltons' split_iter took nine); the ranking counts it
// as a deleted check. It costs one run, made once per fix that changes a
// condition; it describes the branch in words when so, with the source
// of the fix with that condition False (for liveBranch).
func (st *search) deadBranch(ctx context.Context, pt program.Patch) (string, []byte, error) {
	p := st.prog
	for i, e := range pt {
		var variant program.Patch
		var what string
		switch {
		case e.Op == program.Guard:
			variant = slices.Clone(pt)
			variant[i].Text = "False"
			what = "the if it adds"
		case e.Op == program.ReplaceText:
			c := headerCond(p, e.Site)
			if c < 0 || boundary(p, e) {
				continue
			}
			cs := &p.Sites[c]
			for j, o := range pt {
				if j != i && (o.Op == program.ReplaceText || o.Op == program.SwapText) && inSite(p, o.Site, c) {
					continue // replaced with the condition
				}
				if j != i {
					variant = append(variant, o)
				}
			}
			variant = append(variant, program.Edit{Op: program.ReplaceText, Site: c, Text: cs.Fit("False", program.PrecAtom)})
			what = "the branch of `" + oneLine(p.SiteText(c)) + "`"
		default:
			continue
		}
		ok, src, err := st.passesAs(ctx, variant)
		if err != nil {
			return "", nil, err
		}
		if ok {
			return what + " runs for no test: the tests pass as well with if False", src, nil
		}
	}
	return "", nil, nil
}

// liveBranch clears fix's dead branch when the overfitting guard tells
// the branch's condition apart where the tests do not: on the inputs it
// makes next to the tests', the fix with its condition False behaves
// otherwise than the fix (check_age(151) returns where the fix, `age >
// 150`, raises; an empty queue raises IndexError where the fix answers
// None). The guard's run of the variant is made only for such a fix.
func (st *search) liveBranch(ctx context.Context, fix *Fix, side *beside) error {
	if fix.Rank == nil || fix.Rank.DeadBranch == "" || fix.Guard == nil || st.guard == nil || fix.Guard.Inputs+fix.Guard.Examples == 0 {
		return nil
	}
	vr, _, err := st.check(ctx, side.deadVariant, nil)
	if err != nil || vr == nil {
		return err
	}
	if vr.Changed != fix.Guard.Changed || vr.Broken != fix.Guard.Broken {
		fix.Rank.DeadBranch, fix.Rank.DeletesCheck = "", side.checkDeleted
	}
	return nil
}

// boundary reports whether e moves a comparison's bound by its own
// value (< into <=, >= into >): the branch still tests what it tested,
// and a suite whose tests sit at the bound, on its passing side, does not
// enter it (check_age(150) == 150 beside age >= 150 into age > 150).
func boundary(p *program.Program, e program.Edit) bool {
	if e.Site < 0 || e.Site >= len(p.Sites) || p.Sites[e.Site].Kind != program.SiteCmpOp {
		return false
	}
	pair := func(a, b string) bool {
		return strings.TrimRight(a, "=") == strings.TrimRight(b, "=") && (a == "<" || a == ">" || a == "<=" || a == ">=")
	}
	return pair(p.SiteText(e.Site), e.Text)
}

// headerCond returns the condition of an if, elif or while header that
// holds site id (the condition itself or a part of it), or -1.
func headerCond(p *program.Program, id int) int {
	if id < 0 || id >= len(p.Sites) {
		return -1
	}
	s := &p.Sites[id]
	best := -1
	for c := range p.Sites {
		cs := &p.Sites[c]
		if cs.Kind != program.SiteCond || cs.Stmt != s.Stmt || cs.Start > s.Start || s.End > cs.End {
			continue
		}
		line := bytes.LastIndexByte(p.Src[:cs.Start], '\n') + 1
		switch strings.TrimSpace(string(p.Src[line:cs.Start])) {
		case "if", "elif", "while":
			best = c
		}
	}
	return best
}

// inSite reports whether site id lies inside site c.
func inSite(p *program.Program, id, c int) bool {
	if id < 0 || id >= len(p.Sites) {
		return false
	}
	return p.Sites[c].Start <= p.Sites[id].Start && p.Sites[id].End <= p.Sites[c].End
}
