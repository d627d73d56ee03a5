package program

import (
	"fmt"
	"strings"
)

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
