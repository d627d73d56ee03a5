// Ranking the plausible fixes of a run: after the first one the search
// goes on for a share of the remaining budget (Options.Alternatives), and
// the fix delivered is the best of those found, by the criteria a
// developer reviewing the patch applies (docs/architecture.md, "Ranked
// alternatives").

package repair

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"

	"repair/guard"
	"repair/program"
)

// Rank is what the ranking of a run's plausible fixes saw of one fix.
type Rank struct {
	// DeletesCheck says the fix removes a raise, an assert, an if
	// statement or a call of a checking function (a check the code made)
	// without putting one back, or puts one of the code's raises or
	// asserts under a condition it adds (wrapsCheck).
	DeletesCheck bool `json:"deletes_check"`
	// Naming is the fix's naming penalty: a point for each name or value
	// it brings in that the code around does not use (two in a
	// condition: a builtin such as range, always truthy, or a name from
	// elsewhere; 0, 1, -1 and "" are anyone's), for an operation that
	// changes nothing (x // 1), for a name renamed at some sites only,
	// or for one of the statement's names left out of a renaming the fix
	// applies to another; a point off for one renaming made at every
	// site of a statement (never below 0). Lower is better.
	Naming int `json:"naming"`
	// Notes say what made up Naming, in words.
	Notes []string `json:"naming_notes,omitempty"`
	// Tokens counts the Python tokens the fix removes and adds; Added
	// those it adds (of two fixes that change as many, the one that adds
	// fewer reads simpler: len(xs) for (len(xs) + 1), not len(xs[1:]) + 1).
	Tokens int `json:"changed_tokens"`
	Added  int `json:"added_tokens"`
	// DeadBranch says, in words, that the tests pass as well when the
	// condition the fix changes or adds is False (search.deadBranch): to
	// them the fix deletes that branch. It counts as DeletesCheck.
	DeadBranch string `json:"dead_branch,omitempty"`
	// Discards names a parameter the fix assigns before the function
	// reads it (`period = 1` at the top of throttle(period)): the
	// caller's argument no longer counts, which makes the tests' one
	// value pass and no other. Such a first fix makes the search go on
	// for another (openWindow).
	Discards string `json:"discards_argument,omitempty"`
}

// DiscardPoints is the naming penalty of a fix that assigns a parameter
// before the function reads it (Rank.Discards).
const DiscardPoints = 3

// DefaultAlternatives is the default of Options.Alternatives.
const DefaultAlternatives = 0.25

// MaxAlternatives bounds the plausible fixes the search collects after
// the first one (without Options.All): beyond it the search stops.
const MaxAlternatives = 8

// rankFix measures a fix, whose stripped source is fixed, against the
// original's stripped source orig.
func rankFix(orig, fixed []byte) *Rank {
	r := &Rank{}
	origLines := splitLines(string(orig))
	hs := hunks(string(orig), string(fixed))
	newValues := map[string]bool{}
	for _, h := range hs {
		rem, add := tokensOf(h.removed), tokensOf(h.added)
		common := lcs(texts(rem), texts(add))
		r.Tokens += len(rem) + len(add) - 2*common
		r.Added += len(add) - common
		if checks(rem) > checks(add) || wrapsCheck(h) || skipsCheck(origLines, h) || negatesCheck(origLines, h) || dropsFallback(h) {
			r.DeletesCheck = true
		}
		scope := scopeAt(origLines, h.at)
		r.naming(h, rem, add, scope, newValues)
		if name := discards(origLines, h); name != "" && r.Discards == "" {
			r.Discards = name
			r.note(DiscardPoints, "%s: the argument assigned before the function reads it", name)
		}
	}
	r.partialLiterals(origLines, splitLines(string(fixed)), hs)
	// A consistent renaming makes up for what it brings in, never more:
	// it beats half of itself, not a fix that renames nothing.
	r.Naming = max(r.Naming, 0)
	return r
}

// discards is the parameter an added line of hunk h assigns (`name =
// value`, the value not reading it) in the function that holds it, when
// no line of the function before the hunk reads it; "" when none.
func discards(lines []string, h hunk) string {
	def := -1
	for i := min(h.at, len(lines)) - 1; i >= 0; i-- {
		t := strings.TrimLeft(lines[i], " \t")
		if strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") {
			def = i
			break
		}
		if strings.TrimSpace(t) != "" && !strings.HasPrefix(t, "#") && len(lines[i])-len(t) == 0 {
			return "" // a top-level statement first: not in a function
		}
	}
	if def < 0 {
		return ""
	}
	// The parameters: the names of the header at depth 1 that follow
	// "(", "," or a star, up to the colon that ends it.
	params := map[string]bool{}
	depth, body := 0, def
	for i := def; i < min(h.at, len(lines)); i++ {
		ts := lineTokens(lines[i])
		done := false
		for k, t := range ts {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ":":
				done = done || depth == 0
			}
			if depth == 1 && t.kind == 'n' && k > 0 && (ts[k-1].text == "(" || ts[k-1].text == "," || ts[k-1].text == "*" || ts[k-1].text == "**") {
				params[t.text] = true
			}
		}
		if done {
			body = i + 1
			break
		}
	}
	for _, l := range h.added {
		ts := lineTokens(l)
		if len(ts) < 3 || ts[0].kind != 'n' || ts[1].text != "=" || !params[ts[0].text] {
			continue
		}
		name, read := ts[0].text, false
		for _, t := range ts[2:] {
			read = read || t.kind == 'n' && !t.attr && t.text == name
		}
		for i := body; i < h.at && !read; i++ {
			for _, t := range lineTokens(lines[i]) {
				read = read || t.kind == 'n' && !t.attr && t.text == name
			}
		}
		if !read {
			return name
		}
	}
	return ""
}

// hunk is one run of changed lines: the original's lines removed
// (starting at line index at, 0-based) and the lines added in their place.
type hunk struct {
	at             int
	removed, added []string
}

// hunks is the line diff of a and b, as runs of changed lines.
func hunks(a, b string) []hunk {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var out []hunk
	line := 0
	var cur *hunk
	for _, d := range diffs {
		ls := splitLines(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			if cur != nil {
				out = append(out, *cur)
				cur = nil
			}
			line += len(ls)
		case diffmatchpatch.DiffDelete:
			if cur == nil {
				cur = &hunk{at: line}
			}
			cur.removed = append(cur.removed, ls...)
			line += len(ls)
		case diffmatchpatch.DiffInsert:
			if cur == nil {
				cur = &hunk{at: line}
			}
			cur.added = append(cur.added, ls...)
		}
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// token is a Python token of a line: a name, a number, a string, an
// operator or a bracket.
type token struct {
	text string
	kind byte // 'n' name, 'v' value (number, string), 'o' other
	// attr: the name follows a dot (an attribute, not a variable);
	// target: it is left of the line's assignment.
	attr, target bool
	cond         bool // the line is an if, elif, while or assert header
}

func texts(ts []token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.text
	}
	return out
}

// multiOps are Python's operators of more than one character, longest
// first.
var multiOps = []string{"**=", "//=", ">>=", "<<=", "...", "==", "!=", "<=", ">=", "->", "**", "//", "<<", ">>",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="}

// tokensOf tokenizes lines (a line scanner: comments dropped, a string
// that does not close on its line runs to the line's end).
func tokensOf(lines []string) []token {
	var out []token
	for _, l := range lines {
		out = append(out, lineTokens(l)...)
	}
	return out
}

func lineTokens(l string) []token {
	var ts []token
	i := 0
	isName := func(r byte) bool { return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 }
	for i < len(l) {
		c := l[i]
		switch {
		case c == '#':
			i = len(l)
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\':
			i++
		case c == '"' || c == '\'':
			j := stringEnd(l, i)
			ts = append(ts, token{text: l[i:j], kind: 'v'})
			i = j
		case isName(c):
			j := i
			for j < len(l) && (isName(l[j]) || l[j] >= '0' && l[j] <= '9') {
				j++
			}
			if j < len(l) && (l[j] == '"' || l[j] == '\'') && len(l[i:j]) <= 3 && strings.Trim(strings.ToLower(l[i:j]), "rbuf") == "" {
				k := stringEnd(l, j)
				ts = append(ts, token{text: l[i:k], kind: 'v'})
				i = k
				continue
			}
			ts = append(ts, token{text: l[i:j], kind: 'n'})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(l) && l[i+1] >= '0' && l[i+1] <= '9':
			j := i + 1
			for j < len(l) && (isName(l[j]) || l[j] >= '0' && l[j] <= '9' || l[j] == '.' ||
				(l[j] == '+' || l[j] == '-') && (l[j-1] == 'e' || l[j-1] == 'E')) {
				j++
			}
			ts = append(ts, token{text: l[i:j], kind: 'v'})
			i = j
		default:
			op := l[i : i+1]
			for _, m := range multiOps {
				if strings.HasPrefix(l[i:], m) {
					op = m
					break
				}
			}
			ts = append(ts, token{text: op, kind: 'o'})
			i += len(op)
		}
	}
	cond := len(ts) > 0 && (ts[0].text == "if" || ts[0].text == "elif" || ts[0].text == "while" || ts[0].text == "assert")
	depth, assign := 0, -1
	for k := range ts {
		ts[k].cond = cond
		if ts[k].kind == 'n' && k > 0 && ts[k-1].text == "." {
			ts[k].attr = true
		}
		switch ts[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case "=":
			if depth == 0 && assign < 0 {
				assign = k
			}
		}
	}
	for k := 0; k < assign; k++ {
		ts[k].target = true
	}
	return ts
}

// stringEnd is the offset past the string literal that opens at l[i]
// (a quote), or the line's end.
func stringEnd(l string, i int) int {
	q := l[i]
	if strings.HasPrefix(l[i:], strings.Repeat(string(q), 3)) {
		if k := strings.Index(l[i+3:], strings.Repeat(string(q), 3)); k >= 0 {
			return i + 3 + k + 3
		}
		return len(l)
	}
	for j := i + 1; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(l)
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case cur[j] > prev[j+1]:
				cur[j+1] = cur[j]
			default:
				cur[j+1] = prev[j+1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checks counts the checks among tokens: raise, assert, and if and elif
// (a test whose failure the code acts on), and calls of a function or
// method whose name says it checks (check, valid, verify, ensure,
// require: self._type_check(x), validate(v)).
func checks(ts []token) int {
	n := 0
	for i, t := range ts {
		if t.kind != 'n' {
			continue
		}
		switch t.text {
		case "raise", "assert", "if", "elif":
			n++
			continue
		}
		if checkCall(ts, i) {
			n++
		}
	}
	return n
}

// dupValues are the literal values that stand twice as elements of one
// bracketed display of ts ((a, 1, 1), ["x", "x"], {2, 2}), in order.
func dupValues(ts []token) []string {
	var out []string
	type group struct {
		seen  map[string]bool
		start bool // at an element's first token
		lit   string
		n     int // tokens of the element so far
	}
	var stack []*group
	end := func(g *group) {
		if g.seen != nil && g.n == 1 && g.lit != "" {
			if g.seen[g.lit] {
				out = append(out, g.lit)
			}
			g.seen[g.lit] = true
		}
		g.n, g.lit = 0, ""
	}
	for k, t := range ts {
		if len(stack) > 0 {
			g := stack[len(stack)-1]
			switch {
			case t.kind == 'o' && (t.text == "," || t.text == ")" || t.text == "]" || t.text == "}"):
				end(g)
			default:
				g.n++
				if t.kind == 'v' && g.n == 1 {
					g.lit = t.text
				}
			}
		}
		switch t.text {
		case "(", "[", "{":
			if t.kind == 'o' {
				// A call's arguments or a subscript are no display: a
				// value twice there may be meant (Point(0, 0)).
				var seen map[string]bool
				if !(t.text != "{" && k > 0 && (ts[k-1].kind == 'n' && !keyword(ts[k-1].text) || ts[k-1].text == ")" || ts[k-1].text == "]" || t.text == "[" && ts[k-1].kind == 'v')) {
					seen = map[string]bool{}
				}
				stack = append(stack, &group{seen: seen})
			}
		case ")", "]", "}":
			if t.kind == 'o' && len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return out
}

// wrapsCheck reports whether hunk h puts a raise or an assert the code
// had under a condition it adds (`raise E(...)` into `if current: raise
// E(...)`): the check no longer holds where the new condition is false,
// which is how a fix can pass a test that trips it. Qi et al. (ISSTA
// 2015) found most plausible patches of generate-and-validate tools to
// delete functionality the suite does not check; this is the same deletion,
// made only where the failing test needs it.
func wrapsCheck(h hunk) bool {
	for i, a := range h.added {
		t := strings.TrimSpace(a)
		if !strings.HasPrefix(t, "raise") && !strings.HasPrefix(t, "assert") {
			continue
		}
		if !slices.ContainsFunc(h.removed, func(r string) bool { return strings.TrimSpace(r) == t && indentOf(r) < indentOf(a) }) {
			continue
		}
		// An if added above it, less indented.
		for j := i - 1; j >= 0; j-- {
			if u := strings.TrimSpace(h.added[j]); (strings.HasPrefix(u, "if ") || strings.HasPrefix(u, "if(")) && indentOf(h.added[j]) < indentOf(a) {
				return true
			}
		}
	}
	return false
}

// skipsCheck reports whether hunk h adds, right before a raise or an
// assert the code has, an if whose body leaves (`if not current:
// return` before `raise E(...)`): the check no longer runs where the new
// condition holds, as with wrapsCheck.
func skipsCheck(lines []string, h hunk) bool {
	if len(h.removed) > 0 || len(h.added) == 0 || h.at >= len(lines) {
		return false
	}
	next := strings.TrimSpace(lines[h.at])
	if !strings.HasPrefix(next, "raise") && !strings.HasPrefix(next, "assert") {
		return false
	}
	at := indentOf(lines[h.at])
	for i, a := range h.added {
		t := strings.TrimSpace(a)
		if indentOf(a) != at || !(strings.HasPrefix(t, "if ") || strings.HasPrefix(t, "if(")) {
			continue
		}
		body := ""
		if _, after, ok := strings.Cut(t, ":"); ok && strings.TrimSpace(after) != "" {
			body = strings.TrimSpace(after) // if c: return
		} else if i+1 < len(h.added) && indentOf(h.added[i+1]) > at {
			body = strings.TrimSpace(h.added[i+1])
		}
		for _, w := range []string{"return", "continue", "break"} {
			if body == w || strings.HasPrefix(body, w+" ") {
				return true
			}
		}
	}
	return false
}

// dropsFallback reports whether hunk h drops the fallback of a value
// (`t_aligns = aligns or [stralign] * len(headers)` into `t_aligns =
// aligns`): what a falsy value gets instead is gone, as a deleted check's
// handling is. Not in a condition, where or joins two tests.
func dropsFallback(h hunk) bool {
	if len(h.removed) != 1 || len(h.added) != 1 {
		return false
	}
	rem, add := lineTokens(h.removed[0]), lineTokens(h.added[0])
	if len(rem) == 0 || rem[0].cond || len(add) >= len(rem) {
		return false
	}
	i := 0
	for i < len(add) && add[i].text == rem[i].text {
		i++
	}
	if i == 0 || rem[i].text != "or" {
		return false
	}
	tail := len(rem) - (len(add) - i) // rem[tail:] must be add[i:]
	return slices.EqualFunc(rem[tail:], add[i:], func(a, b token) bool { return a.text == b.text })
}

// negatesCheck reports whether hunk h negates the condition of an if or
// elif whose body checks (`if allowed_types: self._type_check(...)` into
// `if not allowed_types:`, `if x == y: raise` into `if x != y:`): the
// check then runs only where it did not, and the failing test passes by
// skipping it, as with wrapsCheck.
func negatesCheck(lines []string, h hunk) bool {
	if len(h.removed) != 1 || len(h.added) != 1 || h.at+1 >= len(lines) {
		return false
	}
	rem, add := lineTokens(h.removed[0]), lineTokens(h.added[0])
	if len(rem) == 0 || len(add) == 0 || rem[0].text != add[0].text || rem[0].text != "if" && rem[0].text != "elif" {
		return false
	}
	// The condition without its negations: equal, the two differ in a
	// not, or in == for != (is not, not in: a not).
	bare := func(ts []token) (out []string, nots int) {
		for _, t := range ts {
			switch t.text {
			case "not":
				nots++
				continue
			case "!=":
				nots++
				out = append(out, "==")
				continue
			}
			out = append(out, t.text)
		}
		return out, nots
	}
	br, nr := bare(rem)
	ba, na := bare(add)
	if !slices.Equal(br, ba) || nr%2 == na%2 {
		return false
	}
	at := indentOf(h.removed[0])
	for _, l := range lines[h.at+1:] {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if indentOf(l) <= at {
			break
		}
		if strings.HasPrefix(t, "raise") || strings.HasPrefix(t, "assert") {
			return true
		}
		ts := lineTokens(l)
		for i := range ts {
			if checkCall(ts, i) {
				return true
			}
		}
	}
	return false
}

// checkCall reports whether token i of ts calls a function or method
// whose name says it checks (checkName).
func checkCall(ts []token, i int) bool {
	return ts[i].kind == 'n' && i+1 < len(ts) && ts[i+1].text == "(" && checkName(ts[i].text)
}

// indentOf is the width of line l's leading blanks.
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// checkName reports whether a function's name says it checks.
func checkName(name string) bool {
	l := strings.ToLower(name)
	for _, w := range []string{"check", "valid", "verify", "ensure", "require", "assert"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// scope is what the code around a change uses: the names and the values
// of the function that holds it (or of the module, at the top level).
type scope struct {
	names, values map[string]bool
}

// scopeAt is the scope of line index at of the original's lines: the
// innermost def (at column 0 or deeper) that holds it, with its body;
// the whole module when none does.
func scopeAt(lines []string, at int) scope {
	first, end, ok := funcRange(lines, at)
	if !ok {
		first, end = 0, len(lines)
	}
	sc := scope{names: map[string]bool{}, values: map[string]bool{}}
	if first >= end {
		return sc
	}
	for _, t := range tokensOf(lines[first:end]) {
		switch t.kind {
		case 'n':
			sc.names[t.text] = true
		case 'v':
			sc.values[t.text] = true
		}
	}
	return sc
}

// funcRange is the line range [first, end) of the innermost def (at
// column 0 or deeper) that holds line index at of lines, with its body;
// false when none does.
func funcRange(lines []string, at int) (first, end int, ok bool) {
	for i := min(at, len(lines)-1); i >= 0; i-- {
		t := strings.TrimLeft(lines[i], " \t")
		if !strings.HasPrefix(t, "def ") && !strings.HasPrefix(t, "async def ") {
			continue
		}
		ind := len(lines[i]) - len(t)
		j := i + 1
		for j < len(lines) {
			u := strings.TrimLeft(lines[j], " \t")
			if strings.TrimSpace(u) != "" && !strings.HasPrefix(u, "#") && len(lines[j])-len(u) <= ind {
				break
			}
			j++
		}
		if j > at {
			return i, j, true
		}
	}
	return 0, 0, false
}

// partialLiterals adds to r's naming penalty a point for each string
// literal of five characters or more (quotes included: a pattern, a
// format, a key; not "" or ",") that the fix changes at some of its
// sites in a function and leaves as it was at others: the same value
// written twice in one function is one decision, and a fix that changes
// one copy leaves half of the bug (two branches' r'\d+\.\d+', of which
// the failing test reaches one). hs are the hunks of orig into fixed.
func (r *Rank) partialLiterals(orig, fixed []string, hs []hunk) {
	// shift is how many lines the hunks before line index at of orig
	// add.
	shift := func(at int) int {
		n := 0
		for _, h := range hs {
			if h.at < at {
				n += len(h.added) - len(h.removed)
			}
		}
		return n
	}
	count := func(ts []token, lit string) int {
		n := 0
		for _, t := range ts {
			if t.text == lit {
				n++
			}
		}
		return n
	}
	done := map[string]bool{}
	for _, h := range hs {
		first, end, ok := funcRange(orig, h.at)
		if !ok {
			continue
		}
		rem, add := tokensOf(h.removed), tokensOf(h.added)
		for _, t := range rem {
			lit := t.text
			body := strings.TrimLeft(lit, "rRbBuUfF")
			if t.kind != 'v' || len(body) < 5 || body[0] != '"' && body[0] != '\'' || count(rem, lit) <= count(add, lit) {
				continue
			}
			key := fmt.Sprint(first, "\x00", lit)
			if done[key] {
				continue
			}
			done[key] = true
			f0, f1 := first+shift(first), end+shift(end)
			if f0 < 0 || f1 > len(fixed) || f0 >= f1 {
				continue
			}
			n0, n1 := count(tokensOf(orig[first:end]), lit), count(tokensOf(fixed[f0:f1]), lit)
			if n1 > 0 && n1 < n0 {
				r.note(1, "%s changed at %d of its %d sites in the function", lit, n0-n1, n0)
			}
		}
	}
}

// naming adds to r's naming penalty what hunk h (tokens rem removed, add
// added) brings in, judged against scope sc. newValues are the values
// new to the code around that the fix's hunks before h put in.
func (r *Rank) naming(h hunk, rem, add []token, sc scope, newValues map[string]bool) {
	had := map[string]int{}
	for _, t := range rem {
		if t.kind != 'o' {
			had[t.text]++
		}
	}
	has := map[string]int{}
	for _, t := range add {
		if t.kind != 'o' {
			has[t.text]++
		}
	}
	// The function a removed call called, if any (f of "f(x)"), and that
	// the hunk calls less (not a call wrapped in another).
	callee := ""
	for i, t := range rem {
		if called(rem, i) && had[t.text] > has[t.text] {
			callee = t.text
			break
		}
	}
	seen := map[string]bool{}
	for i, t := range add {
		if had[t.text] > 0 || seen[t.text] || t.kind == 'o' || t.attr || keyword(t.text) {
			continue
		}
		seen[t.text] = true
		w := 0
		if t.cond {
			w = 1
		}
		switch {
		case t.kind == 'v' && !sc.values[t.text] && !neutral[t.text]:
			// Once per fix: the same value put at two sites is one
			// choice.
			if !newValues[t.text] {
				newValues[t.text] = true
				r.note(1+w, "%s: a value the code around does not use", t.text)
			}
		case t.kind == 'n' && builtins[t.text] && !sc.names[t.text] && callee != "" && called(add, i):
			// A builtin called in place of the code's function (len for
			// hash) weighs as another function called would.
			r.note(2, "%s: a builtin the code around does not use, called in place of %s", t.text, callee)
		case t.kind == 'n' && builtins[t.text] && !sc.names[t.text]:
			r.note(1+w, "%s: a builtin the code around does not use", t.text)
		case t.kind == 'n' && !sc.names[t.text] && w > 0:
			r.note(2, "%s: a name the code around does not use, in a condition", t.text)
		case t.kind == 'n' && !sc.names[t.text] && callee != "" && called(add, i):
			// Another function called in place of the one there: one
			// the code around never calls (a module's command-line
			// main for hash) is a name that made the tests pass.
			r.note(2, "%s: a function the code around does not use, called in place of %s", t.text, callee)
		}
	}
	// A collection display given a value it already holds (("True",
	// "False") into ("False", "False")): the value it replaced is no
	// longer in it, which is a deletion, and the copy says nothing.
	if d := dupValues(add); len(d) > len(dupValues(rem)) {
		r.note(2, "%s: a value the collection already holds", d[len(d)-1])
	}
	// An operation that throws its operand away (x * 0): the value the
	// code computed no longer counts.
	for i := 0; i+1 < len(add); i++ {
		op, v := add[i].text, add[i+1].text
		if add[i].kind == 'o' && add[i+1].kind == 'v' && v == "0" && (op == "*" || op == "&") && !hasPair(rem, op, v) &&
			(i+2 == len(add) || add[i+2].kind == 'o' && (add[i+2].text == ")" || add[i+2].text == "]" || add[i+2].text == ",")) {
			r.note(2, "%s %s: an operation that throws its operand away", op, v)
		}
	}
	// An operation that changes nothing (x // 1, n + 0): the fix meant
	// to drop the term, and says so in a roundabout way.
	for i := 0; i+1 < len(add); i++ {
		op, v := add[i].text, add[i+1].text
		if add[i].kind != 'o' || add[i+1].kind != 'v' || (i+2 < len(add) && add[i+2].kind == 'o' && add[i+2].text != ")" && add[i+2].text != "]" && add[i+2].text != ",") {
			continue
		}
		if (v == "1" && (op == "*" || op == "/" || op == "//" || op == "**")) || (v == "0" && (op == "+" || op == "-" || op == "|" || op == "^")) {
			if !hasPair(rem, op, v) {
				r.note(1, "%s %s: an operation that changes nothing", op, v)
			}
		}
	}
	// Renamings: a name the hunk drops reads (some or all of them) in
	// favour of a new name made from it with an affix ("b" to "b_user").
	type renaming struct{ from, to, pre, suf string }
	var rens []renaming
	for to := range seen {
		for from, n := range had {
			if from == to || n <= has[from] || keyword(from) || !isIdent(from) {
				continue
			}
			i := strings.Index(to, from)
			if i < 0 || len(to) == len(from) {
				continue
			}
			pre, suf := to[:i], to[i+len(from):]
			// An affix of its own, not letters run into the name ("m" and
			// "x" of "max" around "a").
			if (pre == "" || strings.HasSuffix(pre, "_")) && (suf == "" || suf[0] == '_' || unicode.IsUpper(rune(suf[0]))) {
				rens = append(rens, renaming{from, to, pre, suf})
			}
		}
	}
	sort.Slice(rens, func(i, j int) bool {
		return rens[i].from < rens[j].from || rens[i].from == rens[j].from && rens[i].to < rens[j].to
	})
	affixes := map[string]int{}
	for _, rn := range rens {
		reads := 0
		for _, t := range add {
			if t.text == rn.from && t.kind == 'n' && !t.attr && !t.target {
				reads++
			}
		}
		if reads > 0 {
			r.note(1, "%s renamed %s at some of its sites only", rn.from, rn.to)
			continue
		}
		affixes[rn.pre+"\x00"+rn.suf]++
	}
	for affix, n := range affixes {
		pre, suf, _ := strings.Cut(affix, "\x00")
		left := false
		reads := map[string]bool{}
		for _, t := range add {
			if t.kind == 'n' && !t.attr && !t.target && !keyword(t.text) {
				reads[t.text] = true
			}
		}
		for name := range reads {
			if other := pre + name + suf; sc.names[other] && has[other] == 0 {
				r.note(1, "%s left as it is where the same renaming makes it %s", name, other)
				left = true
			}
		}
		if !left && n >= 1 {
			r.note(-1, "renamed to %s...%s consistently at every site", pre, suf)
		}
	}
}

// called reports whether ts[i] is the name of a function a call calls
// (a plain name, not an attribute, before an opening parenthesis).
func called(ts []token, i int) bool {
	return ts[i].kind == 'n' && !ts[i].attr && !keyword(ts[i].text) && i+1 < len(ts) && ts[i+1].text == "("
}

// hasPair reports whether tokens a, b follow each other in ts.
func hasPair(ts []token, a, b string) bool {
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].text == a && ts[i+1].text == b {
			return true
		}
	}
	return false
}

// neutral are the values any code may use without standing out.
var neutral = setOf("0", "1", "-1", `""`, "''")

func (r *Rank) note(points int, format string, args ...any) {
	r.Naming += points
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || unicode.IsLetter(c) || i > 0 && unicode.IsDigit(c)) {
			return false
		}
	}
	return s != ""
}

// keyword reports Python's keywords (and soft keywords' common names).
func keyword(s string) bool { return keywords[s] }

var keywords = setOf("False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
	"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "self", "cls")

// builtins are Python 3's builtin functions and types (not the
// exceptions: raising a builtin exception is ordinary code).
var builtins = setOf("abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
	"callable", "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod", "enumerate", "eval",
	"exec", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
	"input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview", "min",
	"next", "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr", "reversed", "round", "set",
	"setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip",
	"__import__", "NotImplemented", "Ellipsis", "__name__", "__file__", "__doc__")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// criterion is one rule of the ranking: less says a beats b by it, and
// why says so in words.
type criterion struct {
	name string
	less func(p *program.Program, a, b *Fix) bool
	why  func(a, b *Fix) string
}

// criteria are the rules of the ranking, the first that tells two fixes
// apart decides: (a) the overfitting guard's inputs broken (every fix
// passes the whole suite); (b) no check deleted; no function replaced
// whole by a donor's; (c, d) the lowest cost, changed tokens and the
// naming penalty together (Rank.cost); fewest tokens added; then fewest
// generated inputs whose behaviour changed, and fewest changed lines. A
// changed input comes late: where the original is wrong next to the
// tests, the fix changes it (middle(1, 0, 3) returns 0, the bug, under
// the original and under y * x, and 1 under the developer's x), while an
// input the fix makes fail is a behaviour lost. Consistency goes before size: renaming a
// name at every site of a statement changes more tokens than renaming it
// at one.
var criteria = []criterion{
	{"guard", func(_ *program.Program, a, b *Fix) bool { return broken(a.Guard) < broken(b.Guard) },
		func(a, b *Fix) string { return fmt.Sprintf("the overfitting guard (%s, against %s)", a.Guard, b.Guard) }},
	{"checks", func(_ *program.Program, a, b *Fix) bool { return !a.Rank.DeletesCheck && b.Rank.DeletesCheck },
		func(a, b *Fix) string {
			return "keeping the code's checks (the other deletes a raise, an assert, an if or a call that checks, puts a raise under a new condition, or leaves a branch no test runs)"
		}},
	{"transplant", func(p *program.Program, a, b *Fix) bool { return !transplant(p, a.Patch) && transplant(p, b.Patch) },
		func(a, b *Fix) string { return "not replacing a whole function by a donor's" }},
	{"verbatim", func(_ *program.Program, a, b *Fix) bool { return adapts(b.Patch, a.Patch) },
		func(a, b *Fix) string {
			return "copying the same statements as they are (the other also changes a copy, which no test asked for)"
		}},
	{"cost", func(_ *program.Program, a, b *Fix) bool { return a.Rank.cost() < b.Rank.cost() },
		func(a, b *Fix) string {
			return fmt.Sprintf("a smaller change with names and values consistent with the code around (cost %d, against %d: %d changed tokens and %s)",
				a.Rank.cost(), b.Rank.cost(), b.Rank.Tokens, notes(b.Rank))
		}},
	{"added", func(_ *program.Program, a, b *Fix) bool { return a.Rank.Added < b.Rank.Added },
		func(a, b *Fix) string {
			return fmt.Sprintf("as many changed tokens, fewer of them added (%d, against %d)", a.Rank.Added, b.Rank.Added)
		}},
	{"changed", func(_ *program.Program, a, b *Fix) bool { return guard.Less(a.Guard, b.Guard) },
		func(a, b *Fix) string {
			return fmt.Sprintf("fewer generated inputs whose behaviour changed (%s, against %s)", a.Guard, b.Guard)
		}},
	{"lines", func(_ *program.Program, a, b *Fix) bool { return changedLines(a.Diff) < changedLines(b.Diff) },
		func(a, b *Fix) string {
			return fmt.Sprintf("fewer changed lines (%d, against %d)", changedLines(a.Diff), changedLines(b.Diff))
		}},
}

// NamingWeight is what a point of naming penalty weighs against changed
// tokens in a fix's cost: a builtin put into a condition (two points)
// costs as much as six more tokens of a fix that puts none, a value
// nudged in a bound (89 for 90, two points in a condition) less than a
// donor's block of twenty tokens.
const NamingWeight = 3

// cost is the fix's size and naming together: changed tokens plus
// NamingWeight per point of naming penalty.
func (r *Rank) cost() int { return r.Tokens + NamingWeight*r.Naming }

// broken counts the generated inputs a fix breaks (0 when the guard did
// not check it).
func broken(r *guard.Report) int {
	if r == nil {
		return 0
	}
	return r.Broken
}

func notes(r *Rank) string {
	if len(r.Notes) == 0 {
		return "nothing of note"
	}
	return strings.Join(r.Notes, "; ")
}

// decideFixes is the first criterion that tells a and b apart (-1:
// none) and whether a wins by it.
func decideFixes(p *program.Program, a, b *Fix) (int, bool) {
	for k, c := range criteria {
		if c.less(p, a, b) {
			return k, true
		}
		if c.less(p, b, a) {
			return k, false
		}
	}
	return -1, false
}

// rankFixes orders fixes the best first by the criteria (stable: a tie
// keeps the order they were found in) and says why the first beats each
// of the others, or "" with fewer than two.
func rankFixes(p *program.Program, fixes []Fix) string {
	orig := p.Strip(p.Src)
	for i := range fixes {
		if fixes[i].Rank == nil {
			fixes[i].Rank = rankFix(orig, fixes[i].Source)
		}
	}
	decide := func(a, b *Fix) (int, bool) { return decideFixes(p, a, b) }
	sort.SliceStable(fixes, func(i, j int) bool {
		_, less := decide(&fixes[i], &fixes[j])
		return less
	})
	if len(fixes) < 2 {
		return ""
	}
	// Alternatives in a row beaten for the same reason are said once
	// ("alternatives 2 to 23: keeping the code's checks ...").
	var why []string
	from, last := 0, ""
	flush := func(to int) {
		switch {
		case from == to:
			why = append(why, fmt.Sprintf("alternative %d: %s", from+1, last))
		case from+1 == to:
			why = append(why, fmt.Sprintf("alternatives %d and %d: %s", from+1, to+1, last))
		default:
			why = append(why, fmt.Sprintf("alternatives %d to %d: %s", from+1, to+1, last))
		}
	}
	for j := 1; j < len(fixes); j++ {
		k, _ := decide(&fixes[0], &fixes[j])
		r := "a tie, and the delivered fix was found first"
		if k >= 0 {
			r = criteria[k].why(&fixes[0], &fixes[j])
		}
		if j > 1 && r != last {
			flush(j - 1)
		}
		if j == 1 || r != last {
			from, last = j, r
		}
	}
	flush(len(fixes) - 1)
	return "the delivered fix beats " + strings.Join(why, "; ")
}

// adapts reports whether patch b is patch a with some of a's copies of
// statements adapted (an Edit with a Donor and a Text: "with out as
// list(out)"): the same edits, at the same statements, from the same
// donors, where a copies as it is and b changes at least one copy. Both
// pass every test, so b's change is one no test asked for, though a
// token diff may count it smaller (list(out) shares list( ) with a
// removed return list(set(lst))).
func adapts(b, a program.Patch) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	more := false
	for i := range a {
		x, y := a[i], b[i]
		if x.Op != y.Op || x.Stmt != y.Stmt || x.Donor != y.Donor {
			return false
		}
		if x.Op != program.Replace && x.Op != program.InsertBefore && x.Op != program.InsertAfter {
			if x != y {
				return false
			}
			continue
		}
		switch {
		case x.Text == y.Text:
		case x.Text == "":
			more = true
		default:
			return false
		}
	}
	return more
}
