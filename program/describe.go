// Edits in words, for summaries and reports.

package program

import (
	"fmt"
	"strings"
)

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
	case Guard:
		n := len(p.guarded(e.Stmt, e.Donor))
		if n == 1 {
			return fmt.Sprintf("%s: wrapped %s in %s", line(e.Stmt), st(e.Stmt), q("if "+e.Text+":"))
		}
		if n == 2 {
			return fmt.Sprintf("%s: wrapped %s and the statement after it in %s", line(e.Stmt), st(e.Stmt), q("if "+e.Text+":"))
		}
		return fmt.Sprintf("%s: wrapped %s and the %d statements after it in %s", line(e.Stmt), st(e.Stmt), n-1, q("if "+e.Text+":"))
	case InsertText:
		return fmt.Sprintf("%s: inserted %s before %s", line(e.Stmt), q(e.Text), st(e.Stmt))
	case ReplaceLine:
		if rest, ok := strings.CutPrefix(e.Text, strings.TrimSpace(p.StmtText(e.Stmt))+"\n"); ok {
			// The statement kept, lines added after it.
			return fmt.Sprintf("%s: inserted %s after %s", line(e.Stmt), q(oneLineOf(rest)), st(e.Stmt))
		}
		return fmt.Sprintf("%s: replaced %s with %s", line(e.Stmt), st(e.Stmt), q(oneLineOf(e.Text)))
	case Rename:
		return fmt.Sprintf("%s: renamed %s to %s in %s", line(e.Stmt), q(p.SiteText(e.Site)), q(e.Text), st(e.Stmt))
	}
	return e.Op.String()
}

// replaced says what Replace edit e (statement e.Stmt by a copy of
// e.Donor) changes, for Describe: the first lines of both, and when they
// read alike (a whole function replaced by a donor's version of it) the
// lines that differ.
func (p *Program) replaced(e Edit, q func(string) string) string {
	from, to := p.FirstLine(e.Stmt), p.FirstLine(e.Donor)
	where := p.Where(p.Stmts[e.Stmt].Line)
	donor := p.Where(p.Stmts[e.Donor].Line)
	if from != to {
		return fmt.Sprintf("%s: replaced %s with %s (from %s)", where, q(from), q(to), donor)
	}
	a, b := bodyLines(p.StmtText(e.Stmt)), bodyLines(p.StmtText(e.Donor))
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	gone, added := a[i:len(a)-j], b[i:len(b)-j]
	if len(gone) == 0 && len(added) == 0 {
		return fmt.Sprintf("%s: replaced %s with the same text from %s (indentation only)", where, q(from), donor)
	}
	var what string
	switch {
	case len(gone) == 0:
		what = "adds " + lines(added, q)
	case len(added) == 0:
		what = "drops " + lines(gone, q)
	default:
		what = "changes " + lines(gone, q) + " into " + lines(added, q)
	}
	return fmt.Sprintf("%s: replaced %s with its version from %s, which %s", where, q(from), donor, what)
}

// bodyLines are the lines of a statement's text, trimmed, blank ones left
// out.
func bodyLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// lines shows a run of lines: the one, or how many and the first.
func lines(ls []string, q func(string) string) string {
	if len(ls) == 1 {
		return "1 line " + q(ls[0])
	}
	return fmt.Sprintf("%d lines %s ...", len(ls), q(ls[0]))
}

// oneLineOf writes the lines of a composed text on one line, their
// indentation dropped ("try: x = f() except E: raise F").
func oneLineOf(text string) string {
	ls := strings.Split(text, "\n")
	for i := range ls {
		ls[i] = strings.TrimSpace(ls[i])
	}
	return strings.Join(ls, " ")
}
