package fitness

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"repair/internal/inputerr"
)

// CheckTarget reports, as an [inputerr.Error], the first call case whose
// function the target does not define. target is the target's path (its
// base name is used in the message) and defined lists the names the target
// defines at its top level (functions, classes, assignments, imports). For a
// dotted callee ("Stack.push") the first part must be defined.
//
//	tests.json: tests[4].function: "midle" is not defined in middle.py (did you mean "middle"?)
//
// A callee that the suite object sets is reported at the suite's "function"
// key.
func (s *Suite) CheckTarget(target string, defined []string) error {
	set := make(map[string]bool, len(defined))
	for _, d := range defined {
		set[d] = true
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		if c.Kind != Call {
			continue
		}
		head, _, _ := strings.Cut(c.Function, ".")
		if set[head] {
			continue
		}
		l := s.caseLoc(i).key("function")
		if s.Function != "" && c.Function == s.Function {
			l = loc{file: s.Path, path: "function"}
		}
		msg := fmt.Sprintf("%q is not defined in %s", head, filepath.Base(target))
		if sug := suggest(head, defined); sug != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", sug)
		}
		return inputerr.Wrap(l.errorf("%s", msg))
	}
	return nil
}

// CheckRepairable refuses, as an [inputerr.Error] wrapping a
// [*NothingToRepair], a suite that the original program already passes:
// there is nothing to repair.
func (s *Suite) CheckRepairable(original *Outcome) error {
	if original.Passed() && len(original.Results) > 0 {
		return inputerr.Wrap(&NothingToRepair{Suite: s.Path, Cases: len(original.Results)})
	}
	return nil
}

// NothingToRepair is the error of a suite the original program passes
// whole: a command tells it apart from bad input (its own exit code).
type NothingToRepair struct {
	Suite string
	Cases int
}

func (e *NothingToRepair) Error() string {
	return fmt.Sprintf("%s: nothing to repair: all %d cases pass", e.Suite, e.Cases)
}

// Where locates case i the way error messages do: "tests.json: tests[3]",
// "tests.json: [3]" (a bare array), "tests.jsonl:7", "test_middle.py:12".
func (s *Suite) Where(i int) string { return s.caseLoc(i).String() }

func (s *Suite) caseLoc(i int) loc {
	c := &s.Cases[i]
	if p, j := s.partOf(i); p != nil {
		return p.caseLoc(j)
	}
	if c.Path == "" && c.Line > 0 {
		return loc{file: s.Path, line: c.Line}
	}
	return loc{file: s.Path, path: c.Path}
}

var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true,
	"not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true,
}

// isIdentifier reports whether s is a Python identifier that is not a
// keyword (letters, digits and underscores, not starting with a digit;
// Unicode letters count as letters).
func isIdentifier(s string) bool {
	if s == "" || pythonKeywords[s] {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)):
		default:
			return false
		}
	}
	return true
}

// isDottedName reports whether s is one or more identifiers joined by dots
// ("ValueError", "json.JSONDecodeError", "Stack.push").
func isDottedName(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if !isIdentifier(part) {
			return false
		}
	}
	return true
}

// suggest returns the candidate closest in spelling to word, or "" when
// none is close: at most 2 edits, and at most half of word's length.
func suggest(word string, candidates []string) string {
	// Distances are doubled; an odd one breaks ties in favour of the
	// candidate spelt with the same case.
	best, bestD := "", 6
	for _, c := range candidates {
		if c == word {
			continue
		}
		if len(word) >= 4 && strings.HasPrefix(c, word) && bestD > 4 {
			best, bestD = c, 4 // a truncated key: "memory" for "memory_mb"
			continue
		}
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if 2*d > len([]rune(word)) {
			continue
		}
		d2 := 2 * d
		if editDistance(word, c) > d {
			d2++
		}
		if d2 < bestD {
			best, bestD = c, d2
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in runes, with
// a transposition of two neighbours counting as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
