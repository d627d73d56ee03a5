// A fix whose changed condition the tests do not need: the branch it
// guards could as well never run.

package repair

import (
	"bytes"
	"context"
	"strings"

	"repair/fitness"
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
// condition; it describes the branch in words when so.
func (st *search) deadBranch(ctx context.Context, pt program.Patch) (string, error) {
	p := st.prog
	for i, e := range pt {
		var variant program.Patch
		var what string
		switch {
		case e.Op == program.Guard:
			v := e
			v.Text = "False"
			variant = append(append(append(program.Patch{}, pt[:i]...), v), pt[i+1:]...)
			what = "the if it adds"
		case e.Op == program.ReplaceText:
			c := headerCond(p, e.Site)
			if c < 0 {
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
		src, ch := p.RenderChange(variant)
		ev, err := st.cache.Eval(ctx, src, func(c context.Context) (*fitness.Outcome, error) {
			return st.runCandidate(c, src, &ch)
		})
		if err != nil {
			return "", err
		}
		if passesVerdicts(ev, st.leftOut) {
			return what + " runs for no test: the tests pass as well with if False", nil
		}
	}
	return "", nil
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
