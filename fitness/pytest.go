package fitness

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"repair/program"
)

// parsePython reads a Python test file: every top-level "def test*(" or
// "async def test*(" at column 0 is one Test case (the names pytest
// collects). It is a line scanner, not a parser: it skips comments and the
// contents of strings (triple-quoted ones may span lines) and nothing else.
// A file whose tests are all in classes ("class Test...", unittest) gives a
// suite with no cases: only the real pytest runs it, and the engine
// replaces the cases with what pytest collects (sandbox/cpython).
func parsePython(path string, data []byte) (*Suite, error) {
	return parseTestFile(path, data, false)
}

// parseTestFile is parsePython; a part of a suite of several files
// (LoadFiles) may show the scanner no test and import nothing: tests
// defined under an if, which only pytest collects, or a file that does
// not test the target (pytest runs it all the same).
func parseTestFile(path string, data []byte, part bool) (*Suite, error) {
	base := filepath.Base(path)
	module := strings.TrimSuffix(base, filepath.Ext(base))
	if !isIdentifier(module) {
		return nil, fmt.Errorf("%s: a test file's name must be a Python module name (letters, digits and _), got %q", path, module)
	}
	// The sandbox imports the file: its syntax errors are the suite's, not
	// a failure of the sandbox.
	if _, err := program.Parse(path, data); err != nil {
		return nil, err
	}
	var cases []Case
	first := make(map[string]int)
	imports, classes := false, false
	var sc pyScanner
	for n, line := range bytes.SplitAfter(data, []byte("\n")) {
		lineNo := n + 1
		atTop := sc.quote == 0 // the line starts outside any string
		code := sc.scan(line)
		if !atTop {
			continue
		}
		if name, ok := testFunc(line); ok {
			if prev, dup := first[name]; dup {
				return nil, fmt.Errorf("%s:%d: %s is defined twice (first on line %d)", path, lineNo, name, prev)
			}
			first[name] = lineNo
			cases = append(cases, Case{
				Name: name, Kind: Test, Function: name, Line: lineNo,
				Weight: DefaultWeight, Timeout: DefaultTestTimeout, Tolerance: DefaultTolerance,
			})
		}
		if isImport(code) {
			imports = true
		}
		if testClass(line) {
			classes = true
		}
	}
	if len(cases) == 0 && !classes && !part {
		return nil, fmt.Errorf(`%s: no tests: define top-level "def test_...():" functions or "class Test...:" classes`, path)
	}
	if !imports && !part {
		return nil, fmt.Errorf("%s: imports nothing: a test file imports the target (import NAME or from NAME import ...)", path)
	}
	return &Suite{
		Path:       path,
		MemoryMB:   DefaultMemoryMB,
		Cases:      cases,
		TestSource: data,
		TestModule: module,
	}, nil
}

// testFunc matches "def test_NAME(" or "async def test_NAME(" at column 0.
func testFunc(line []byte) (string, bool) {
	s := string(line)
	if rest, ok := strings.CutPrefix(s, "async"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		s = strings.TrimLeft(rest, " \t")
	}
	rest, ok := strings.CutPrefix(s, "def")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	rest = strings.TrimLeft(rest, " \t")
	name, _, ok := strings.Cut(rest, "(")
	name = strings.TrimRight(name, " \t")
	if !ok || !strings.HasPrefix(name, "test") || !isIdentifier(name) {
		return "", false
	}
	return name, true
}

// testClass matches a class pytest collects at column 0: "class Test..."
// or a class with TestCase among its bases.
func testClass(line []byte) bool {
	rest, ok := strings.CutPrefix(string(line), "class")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	return strings.HasPrefix(rest, "Test") || strings.Contains(rest, "TestCase")
}

// isImport reports whether a line's code (strings and comments blanked)
// is an import statement, at any indentation.
func isImport(code []byte) bool {
	s := strings.TrimLeft(string(code), " \t")
	for _, kw := range []string{"import", "from"} {
		if rest, ok := strings.CutPrefix(s, kw); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return true
		}
	}
	return false
}

// pyScanner tracks whether a physical line starts inside a triple-quoted
// string.
type pyScanner struct {
	quote byte // the quote character of an open triple-quoted string, or 0
}

// scan consumes one physical line and returns the line with the contents
// of strings and comments replaced by spaces.
func (sc *pyScanner) scan(line []byte) []byte {
	code := bytes.Clone(line)
	blank := func(from, to int) {
		for k := from; k < to && k < len(code); k++ {
			if code[k] != '\n' {
				code[k] = ' '
			}
		}
	}
	i := 0
	if sc.quote != 0 {
		end := closeQuote(line, 0, sc.quote, true)
		if end < 0 {
			blank(0, len(line))
			return code
		}
		blank(0, end)
		sc.quote = 0
		i = end
	}
	for i < len(line) {
		switch c := line[i]; c {
		case '#':
			blank(i, len(line))
			return code
		case '\'', '"':
			if i+2 < len(line) && line[i+1] == c && line[i+2] == c {
				end := closeQuote(line, i+3, c, true)
				if end < 0 {
					sc.quote = c
					blank(i, len(line))
					return code
				}
				blank(i, end)
				i = end
				continue
			}
			end := closeQuote(line, i+1, c, false)
			if end < 0 {
				blank(i, len(line))
				return code
			}
			blank(i, end)
			i = end
		default:
			i++
		}
	}
	return code
}

// closeQuote returns the offset just past the quote that closes a string
// opened by q (tripled when triple), searching line from i and skipping
// backslash escapes; -1 when the line ends first.
func closeQuote(line []byte, i int, q byte, triple bool) int {
	for i < len(line) {
		switch line[i] {
		case '\\':
			i += 2
			continue
		case q:
			if !triple {
				return i + 1
			}
			if i+2 < len(line) && line[i+1] == q && line[i+2] == q {
				return i + 3
			}
		}
		i++
	}
	return -1
}
