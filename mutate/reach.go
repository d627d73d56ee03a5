// Reachability: the statements that always leave their block (return,
// raise, break, continue, and compound statements all of whose ways out
// do), and the statements after them, which never run. Code inserted
// there can change no result.

package mutate

import (
	"strings"

	"repair/program"
)

// findReach fills exits and dead.
func (c *Context) findReach() {
	p := c.Prog
	c.exits = make([]bool, len(p.Stmts))
	c.dead = make([]bool, len(p.Stmts))
	// Nested statements come after their parents in document order:
	// decide exits bottom-up.
	for i := len(p.Stmts) - 1; i >= 0; i-- {
		c.exits[i] = c.leaves(i)
	}
	for i := range p.Stmts {
		st := &p.Stmts[i]
		if st.Parent >= 0 && c.dead[st.Parent] {
			c.dead[i] = true
			continue
		}
		for _, j := range p.Blocks[st.Block].Stmts {
			if j == i {
				break
			}
			if c.exits[j] {
				c.dead[i] = true
				break
			}
		}
	}
}

// leaves reports whether statement s always leaves its block: a jump, an
// if with an else whose every branch leaves, a with whose body leaves, a
// try whose finally leaves or whose body and every handler leave.
// (Loops are taken to finish: a while True without break is rare.)
func (c *Context) leaves(s int) bool {
	p := c.Prog
	st := &p.Stmts[s]
	switch st.Kind {
	case "return_statement", "raise_statement", "break_statement", "continue_statement":
		return true
	case "if_statement", "try_statement", "with_statement":
	default:
		return false
	}
	kws := c.clauses(s)
	blockLeaves := func(b int) bool {
		for _, j := range p.Blocks[b].Stmts {
			if c.exits[j] {
				return true
			}
		}
		return false
	}
	switch st.Kind {
	case "with_statement":
		return len(st.Blocks) > 0 && blockLeaves(st.Blocks[0])
	case "if_statement":
		if len(kws) < 2 || kws[len(kws)-1] != "else" {
			return false
		}
		for _, b := range st.Blocks {
			if !blockLeaves(b) {
				return false
			}
		}
		return true
	}
	// try
	all := true
	for k, b := range st.Blocks {
		switch kws[k] {
		case "finally":
			if blockLeaves(b) {
				return true
			}
		case "try", "except":
			all = all && blockLeaves(b)
		}
	}
	return all
}

// clauses returns the keyword of each block of compound statement s: its
// own keyword for the first, then elif, else, except, finally... read
// from the text between the blocks (comments skipped).
func (c *Context) clauses(s int) []string {
	p := c.Prog
	st := &p.Stmts[s]
	out := make([]string, len(st.Blocks))
	for k, b := range st.Blocks {
		from := st.Start
		if k > 0 {
			prev := p.Blocks[st.Blocks[k-1]].Stmts
			from = p.Stmts[prev[len(prev)-1]].End
		}
		to := p.Stmts[p.Blocks[b].Stmts[0]].Start
		out[k] = firstWord(p.Text(from, to))
	}
	return out
}

// firstWord returns the first word of text outside comments.
func firstWord(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		end := strings.IndexFunc(line, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		})
		if end < 0 {
			end = len(line)
		}
		return line[:end]
	}
	return ""
}

// before reports whether code inserted before statement s may run, and
// after whether code inserted after it may: not after a statement that
// always leaves its block, nor anywhere in code that never runs.
func (c *Context) before(s int) bool { return !c.dead[s] }
func (c *Context) after(s int) bool  { return !c.dead[s] && !c.exits[s] }

// insertOK reports whether an insert edit at its statement may run.
func (c *Context) insertOK(op program.Op, s int) bool {
	if op == program.InsertAfter {
		return c.after(s)
	}
	return c.before(s)
}
