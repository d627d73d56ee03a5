// Edits that only disguise another edit: an operand replaced by a copy of
// its sibling, a condition extended by one of its own operands.

package mutate

import (
	"strings"

	"repair/program"
)

// repeats are, per site, the texts (in squeeze's form) that would repeat
// an operand of a boolean operation or a comparison: for an operand, its
// siblings; for a whole boolean operation, itself extended with `and` or
// `or` and one of its operands. Nil when the program has none; a slice,
// not a map, kept in the context (Prepare): redundant asks it of every
// edit the neighbourhood makes.
func repeats(c *Context) [][]string {
	p := c.Prog
	// The operations, and the sites at each byte range one of them needs
	// (an operand's, or the whole's): one pass over the sites.
	var ops []int
	var at map[program.Span][]int
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteExpr && s.Kind != program.SiteCond || len(s.Parts) < 2 ||
			s.Node != "boolean_operator" && s.Node != "comparison_operator" {
			continue
		}
		if at == nil {
			at = map[program.Span][]int{}
		}
		ops = append(ops, i)
		for _, part := range s.Parts {
			at[part] = nil
		}
		at[program.Span{Start: s.Start, End: s.End}] = nil
	}
	if ops == nil {
		return nil
	}
	for j := range p.Sites {
		sp := program.Span{Start: p.Sites[j].Start, End: p.Sites[j].End}
		if sites, ok := at[sp]; ok {
			at[sp] = append(sites, j)
		}
	}
	var out [][]string
	add := func(site int, texts ...string) {
		if out == nil {
			out = make([][]string, len(p.Sites))
		}
		out[site] = append(out[site], texts...)
	}
	for _, i := range ops {
		s := &p.Sites[i]
		parts := make([]string, len(s.Parts))
		for k, part := range s.Parts {
			parts[k] = squeeze(string(p.Src[part.Start:part.End]))
		}
		for k, part := range s.Parts {
			for _, j := range at[part] {
				for m, other := range parts {
					if m != k {
						add(j, other)
					}
				}
			}
		}
		if s.Node == "boolean_operator" {
			cur := squeeze(p.SiteText(i))
			for _, j := range at[program.Span{Start: s.Start, End: s.End}] {
				for _, part := range parts {
					for _, op := range []string{" and ", " or "} {
						for _, whole := range []string{cur, "(" + cur + ")"} {
							add(j, whole+op+part, part+op+whole)
						}
					}
				}
			}
		}
	}
	return out
}

// redundant reports whether edit e repeats an operand of a boolean
// operation or a comparison (repeats): `a and b` into `b and b`,
// `x == y` into `y == y`, `a and b` into `a and b and b`. The result is the
// operation with that operand deleted, or a constant, or the condition
// unchanged, which the deleting and constant edits propose as
// themselves; in disguise it passes the check on deleted conditions and
// reads as a condition nobody would write.
func (c *Context) redundant(e program.Edit) bool {
	// Copies of a statement with a name changed (insert-renamed) are
	// left alone: the far donors' copies are counted, not made
	// (Operator.Count), which a filter on what they make would belie.
	if e.Op != program.ReplaceText {
		return false
	}
	r := c.repeats
	if e.Site < 0 || e.Site >= len(r) || len(r[e.Site]) == 0 {
		return false
	}
	texts := r[e.Site]
	// squeeze only shortens, and a text matches as it is, bare or in
	// parentheses: a text longer than e.Text and its parentheses cannot
	// match (most of the neighbourhood's edits at an operand).
	short := false
	for _, o := range texts {
		short = short || len(o) <= len(e.Text)+2
	}
	if !short {
		return false
	}
	t := squeeze(e.Text)
	bare := t
	if len(t) >= 2 && t[0] == '(' && t[len(t)-1] == ')' {
		bare = t[1 : len(t)-1]
	}
	for _, o := range texts {
		if o == t || o == bare || len(o) == len(bare)+2 && o[0] == '(' && o[len(o)-1] == ')' && o[1:len(o)-1] == bare {
			return true
		}
	}
	return false
}

// squeeze is Python expression text s with each run of spaces, tabs,
// line breaks and line continuations made one space, and none at either
// end.
func squeeze(s string) string {
	plain := len(s) == 0 || s[0] != ' ' && s[len(s)-1] != ' '
	for i := 0; plain && i < len(s); i++ {
		switch s[i] {
		case '\t', '\r', '\n', '\\':
			plain = false
		case ' ':
			plain = i+1 < len(s) && s[i+1] != ' '
		}
	}
	if plain {
		return s
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\\\n", " ")), " ")
}

// skipped reports whether no operator proposes edit e: it brings an
// entry of the deny list in (denied), or it disguises another edit
// (redundant).
func (c *Context) skipped(e program.Edit) bool {
	return c.denied(e) || c.redundant(e)
}
