package program

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

// Diff returns a unified diff from original to rendered, with
// "--- a/PATH" and "+++ b/PATH" headers, hunks with three lines of context,
// and "\ No newline at end of file" markers where a side lacks a final
// newline, as `git apply` and `patch -p1` expect. Lines are compared and
// printed byte for byte (a CRLF line keeps its CR). Empty when the texts are
// equal.
func Diff(path string, original, rendered []byte) string {
	if string(original) == string(rendered) {
		return ""
	}
	a, b := splitLines(string(original)), splitLines(string(rendered))
	ops := lineOps(a, b)

	var sb strings.Builder
	path = strings.TrimPrefix(path, "./")
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", path, path)

	// Group the ops into hunks: runs of changes separated by more than
	// 2*Context equal lines.
	type op struct {
		kind byte // ' ', '-', '+'
		line string
	}
	var all []op
	for _, o := range ops {
		for _, l := range o.lines {
			all = append(all, op{o.kind, l})
		}
	}
	i := 0
	ai, bi := 0, 0 // lines of a and b consumed before all[i]
	for i < len(all) {
		// Find the next change.
		j := i
		aj, bj := ai, bi
		for j < len(all) && all[j].kind == ' ' {
			j++
			aj++
			bj++
		}
		if j == len(all) {
			break
		}
		// Hunk start: up to Context equal lines before the change.
		start := max(j-Context, i)
		as, bs := aj-(j-start), bj-(j-start)
		// Extend the hunk over changes closer than 2*Context equal lines.
		end := j
		for end < len(all) {
			if all[end].kind != ' ' {
				end++
				continue
			}
			k := end
			for k < len(all) && all[k].kind == ' ' {
				k++
			}
			if k == len(all) || k-end > 2*Context {
				end = min(end+Context, k)
				break
			}
			end = k
		}
		var na, nb int
		for _, o := range all[start:end] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(as, na), hunkRange(bs, nb))
		for _, o := range all[start:end] {
			sb.WriteByte(o.kind)
			sb.WriteString(o.line)
			if !strings.HasSuffix(o.line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		// Advance the line counters past the hunk.
		for _, o := range all[i:end] {
			if o.kind != '+' {
				ai++
			}
			if o.kind != '-' {
				bi++
			}
		}
		i = end
	}
	return sb.String()
}

// hunkRange formats the "start,count" of a hunk header: start is 1-based,
// and for an empty range it is the line before it.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits text after each "\n"; the last line may lack one.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

type lineOp struct {
	kind  byte
	lines []string
}

// lineOps computes a line diff with diffmatchpatch: each distinct line is
// mapped to one rune, the rune strings are diffed, and the runes are mapped
// back.
func lineOps(a, b []string) []lineOp {
	index := map[string]rune{}
	var table []string
	enc := func(lines []string) []rune {
		rs := make([]rune, len(lines))
		for i, l := range lines {
			r, ok := index[l]
			if !ok {
				r = rune(len(table))
				// Skip the surrogate range, which is not a valid rune.
				if r >= 0xD800 {
					r += 0x800
				}
				index[l] = r
				table = append(table, l)
			}
			rs[i] = r
		}
		return rs
	}
	ra, rb := enc(a), enc(b)
	dec := func(r rune) string {
		if r >= 0xD800+0x800 {
			r -= 0x800
		}
		return table[r]
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffMainRunes(ra, rb, false)
	var ops []lineOp
	for _, d := range diffs {
		var k byte
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			k = ' '
		case diffmatchpatch.DiffDelete:
			k = '-'
		case diffmatchpatch.DiffInsert:
			k = '+'
		}
		var lines []string
		for _, r := range d.Text {
			lines = append(lines, dec(r))
		}
		// Within a change, show deletions before insertions.
		if n := len(ops); n > 0 && k == '-' && ops[n-1].kind == '+' {
			ins := ops[n-1]
			ops[n-1] = lineOp{k, lines}
			ops = append(ops, ins)
			continue
		}
		ops = append(ops, lineOp{k, lines})
	}
	return ops
}
