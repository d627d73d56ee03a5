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
	a, b := string(original), string(rendered)
	if a, b, skip, ok := trimEqual(a, b); ok {
		return diffLines(path, a, b, skip)
	}
	return diffLines(path, a, b, 0)
}

// trimEqual leaves out of a and b, when it can, the equal lines at both
// ends but for the Context lines next to the rest: in a large file a
// change is a few lines of it. Each end left out becomes one line of its
// own (a sentinel, in both texts); skip is the number of lines before
// what is kept, the first sentinel included. The diff of what it returns
// is then the whole texts': the line diff (diffmatchpatch) takes the
// equal lines at the ends off first, and it moves an edit across an
// equal end only when the edit ends (or starts) with all of that end's
// lines, which the sentinels rule out here and which, in the whole texts,
// would need an edit longer than the end: so it applies only when every
// line that differs is fewer than either end's lines.
func trimEqual(a, b string) (string, string, int, bool) {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	// The equal lines at the start end before the first line that
	// differs.
	pre := strings.LastIndexByte(a[:n], '\n') + 1
	// Those at the end, after them, start after the first newline of the
	// equal bytes at the end (conservatively: a line of them may be left).
	m, most := 0, min(len(a), len(b))-pre
	for m < most && a[len(a)-1-m] == b[len(b)-1-m] {
		m++
	}
	i := strings.IndexByte(a[len(a)-m:], '\n')
	if i < 0 {
		return a, b, 0, false
	}
	sufA := len(a) - m + i + 1 // where they start in a
	sufB := len(b) - (len(a) - sufA)
	nPre := strings.Count(a[:pre], "\n")
	nSuf := strings.Count(a[sufA:], "\n")
	if len(a)-sufA > 0 && a[len(a)-1] != '\n' {
		nSuf++ // a last line without a newline
	}
	mid := strings.Count(a[pre:sufA], "\n") + strings.Count(b[pre:sufB], "\n")
	if mid >= nPre || mid >= nSuf || nPre <= Context+1 && nSuf <= Context+1 {
		return a, b, 0, false
	}
	if strings.Contains(a, diffSentinel) || strings.Contains(b, diffSentinel) {
		return a, b, 0, false
	}
	// Context equal lines kept before and after.
	start := pre
	for k := 0; k < Context && start > 0; k++ {
		start = strings.LastIndexByte(a[:start-1], '\n') + 1
	}
	endA := sufA
	for k := 0; k < Context && endA < len(a); k++ {
		if j := strings.IndexByte(a[endA:], '\n'); j >= 0 {
			endA += j + 1
		} else {
			endA = len(a)
		}
	}
	endB := len(b) - (len(a) - endA)
	skip := 0
	var ka, kb strings.Builder
	if start > 0 {
		ka.WriteString(diffSentinel)
		kb.WriteString(diffSentinel)
		skip = strings.Count(a[:start], "\n") - 1
	}
	ka.WriteString(a[start:endA])
	kb.WriteString(b[start:endB])
	if endA < len(a) {
		ka.WriteString(diffSentinel)
		kb.WriteString(diffSentinel)
	}
	return ka.String(), kb.String(), skip, true
}

// diffSentinel stands for the equal lines trimEqual leaves out.
const diffSentinel = "\x00repair: equal lines left out\x00\n"

// diffLines is Diff of a and b, whose hunks' line numbers start after
// skip lines.
func diffLines(path, a, b string, skip int) string {
	as0, bs0 := splitLines(a), splitLines(b)
	ops := lineOps(as0, bs0)

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
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(skip+as, na), hunkRange(skip+bs, nb))
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
