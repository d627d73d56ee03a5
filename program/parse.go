package program

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"repair/internal/inputerr"
	"repair/internal/userfile"
)

// Program is a parsed Python file: its original bytes, its statement table
// and its expression sites. A Program is read-only after Parse and may be
// shared by any number of goroutines.
type Program struct {
	// Path is the file name used in messages and diffs.
	Path string
	// Src is the original text. Never modified.
	Src []byte
	// Stmts is the statement table, in document order; Stmts[i].ID == i.
	Stmts []Stmt
	// Blocks are the statement lists: Blocks[0] is the module, the others
	// the bodies of compound statements and their clauses, in document order.
	Blocks []Block
	// Sites are the expression sites, in document order; Sites[i].ID == i.
	Sites []Site
	// Scopes are the module (Scopes[0]), the functions and the classes.
	Scopes []Scope
	// NL is the file's line ending ("\n" or "\r\n"), used for generated lines.
	NL string
	// IndentUnit is one level of indentation in the file's own style
	// ("    " unless the file shows otherwise).
	IndentUnit string
	// Files are the files of a joined program (ParseFiles), in order;
	// empty for a single file.
	Files []File

	lineStarts []int  // byte offset of each line start; lineStarts[0] == 0
	inString   []bool // inString[l]: line l (0-based) starts inside a string token
	glue       []glue // split points of one-line blocks and ';' lines, by offset
	builtins   []string
}

// SyntaxError is a position in a file that does not parse.
type SyntaxError struct {
	Path      string
	Line, Col int // 1-based; Col counts characters
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: syntax error: %s", e.Path, e.Line, e.Col, e.Msg)
}

// MaxSize is the largest file Parse accepts.
const MaxSize = 16 << 20

// ParseFile reads and parses a Python file.
func ParseFile(path string) (*Program, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// ReadFile reads a Python file as ParseFile does: a directory, a file of
// more than MaxSize bytes, a FIFO or a device is refused (an inputerr
// error), never read without end.
func ReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, inputerr.Wrap(fmt.Errorf("%s: %w", path, unwrapPathError(err)))
	}
	if fi.IsDir() {
		return nil, inputerr.New("%s: is a directory, not a Python file", path)
	}
	if fi.Size() > MaxSize {
		return nil, inputerr.New("%s: file too large (%d MB; at most %d MB)", path, fi.Size()>>20, MaxSize>>20)
	}
	// A FIFO or a device (/dev/zero) is refused, not read without end.
	src, err := userfile.Read(path, MaxSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		return nil, inputerr.Wrap(fmt.Errorf("%s: %w", path, unwrapPathError(err)))
	}
	return src, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Parse parses src as Python 3. A file that is not UTF-8 text or does not
// parse is refused with an inputerr error (a *SyntaxError for syntax).
func Parse(path string, src []byte) (*Program, error) {
	if len(src) > MaxSize {
		return nil, inputerr.New("%s: file too large (%d MB; at most %d MB)", path, len(src)>>20, MaxSize>>20)
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return nil, inputerr.New("%s:%d: binary file (NUL byte), not Python source", path, 1+bytes.Count(src[:i], []byte("\n")))
	}
	if !utf8.Valid(src) {
		i := firstInvalidUTF8(src)
		return nil, inputerr.New("%s:%d: not UTF-8 text (invalid byte 0x%02x); save the file as UTF-8", path, 1+bytes.Count(src[:i], []byte("\n")), src[i])
	}
	p := &Program{Path: path, Src: src, NL: "\n", IndentUnit: "    "}
	p.indexLines()
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		p.lineStarts[0] = 3 // the first line starts after the byte order mark
	}
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		p.NL = "\r\n"
	}

	// A UTF-8 byte order mark is valid Python but not valid input for the
	// grammar: parse what follows it and shift every offset.
	base := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		base = 3
	}
	tree, err := parseTree(src[base:])
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	root := tree.root()
	if e := p.firstError(root, base); e != nil {
		return nil, inputerr.Wrap(e)
	}
	if i := nonPrintable(tree, src[base:]); i >= 0 {
		line, col := p.position(i + base)
		return nil, inputerr.Wrap(&SyntaxError{Path: path, Line: line, Col: col,
			Msg: fmt.Sprintf("invalid non-printable character U+%04X", src[base+i])})
	}
	if n := keywordAsName(root, src[base:]); n != nil {
		line, col := p.position(int(n.StartByte()) + base)
		return nil, inputerr.Wrap(&SyntaxError{Path: path, Line: line, Col: col,
			Msg: fmt.Sprintf("invalid syntax near %q (a keyword)", n.Content(src[base:]))})
	}
	b := builder{p: p, base: base}
	b.build(root)
	if b.err != nil {
		return nil, inputerr.Wrap(b.err)
	}
	return p, nil
}

// nonPrintable returns the offset of the first control character of src
// (but tab, line feed, carriage return and form feed) outside its strings
// and comments, or -1. Python refuses them there ("invalid non-printable
// character"); the grammar takes a vertical tab for a space, so a file
// with one parsed, and deleting what stood before it left text that did
// not.
func nonPrintable(t *tree, src []byte) int {
	bad := func(c byte) bool {
		return c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f
	}
	if !slices.ContainsFunc(src, bad) {
		return -1
	}
	var spans [][2]int // strings and comments, in document order
	for i := range t.nodes {
		n := &t.nodes[i]
		if k := n.Type(); k == "string" || k == "comment" {
			if l := len(spans); l > 0 && int(n.StartByte()) < spans[l-1][1] {
				continue // inside the last (a string in an f-string)
			}
			spans = append(spans, [2]int{int(n.StartByte()), int(n.EndByte())})
		}
	}
	for i, c := range src {
		if !bad(c) {
			continue
		}
		j, _ := slices.BinarySearchFunc(spans, i, func(s [2]int, i int) int { return s[1] - 1 - i })
		if j == len(spans) || i < spans[j][0] {
			return i
		}
	}
	return -1
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

func (p *Program) indexLines() {
	p.lineStarts = append(p.lineStarts[:0], 0)
	for i, c := range p.Src {
		if c == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
}

// LineOf returns the 1-based line of byte offset off.
func (p *Program) LineOf(off int) int {
	lo, hi := 0, len(p.lineStarts)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if p.lineStarts[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo + 1
}

// Lines returns the number of lines (a final line without newline counts).
func (p *Program) Lines() int {
	n := len(p.lineStarts)
	if n > 1 && p.lineStarts[n-1] == len(p.Src) {
		n--
	}
	return n
}

// LineText returns line l (1-based) without its line ending.
func (p *Program) LineText(l int) string {
	if l < 1 || l > len(p.lineStarts) {
		return ""
	}
	s := p.lineStarts[l-1]
	e := len(p.Src)
	if l < len(p.lineStarts) {
		e = p.lineStarts[l]
	}
	return strings.TrimRight(string(p.Src[s:e]), "\r\n")
}

// position converts a byte offset to a 1-based line and character column.
func (p *Program) position(off int) (line, col int) {
	line = p.LineOf(off)
	col = 1 + utf8.RuneCount(p.Src[p.lineStarts[line-1]:off])
	return line, col
}

// firstError returns the first syntax error in document order, or nil.
func (p *Program) firstError(root *node, base int) *SyntaxError {
	if !root.HasError() && !hasPython2(root) {
		return nil
	}
	var found *node
	var walk func(n *node) bool
	walk = func(n *node) bool {
		if n.IsMissing() || n.Type() == "ERROR" || n.Type() == "print_statement" || n.Type() == "exec_statement" {
			found = n
			return true
		}
		if !n.HasError() && !hasPython2(n) {
			return false
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if walk(n.Child(i)) {
				return true
			}
		}
		return false
	}
	walk(root)
	if found == nil {
		found = root
	}
	off := int(found.StartByte()) + base
	line, col := p.position(off)
	var msg string
	switch {
	case found.IsMissing():
		msg = fmt.Sprintf("missing %q", found.Type())
	case found.Type() == "print_statement":
		msg = "Python 2 print statement (use print(...))"
	case found.Type() == "exec_statement":
		msg = "Python 2 exec statement (use exec(...))"
	default:
		text := strings.TrimSpace(string(p.Src[off:min(int(found.EndByte())+base, len(p.Src))]))
		if i := strings.IndexAny(text, "\r\n"); i >= 0 {
			text = text[:i]
		}
		if len(text) > 40 {
			text = text[:40] + "..."
		}
		if text == "" {
			msg = "invalid syntax"
		} else {
			msg = fmt.Sprintf("invalid syntax near %q", text)
		}
	}
	return &SyntaxError{Path: p.Path, Line: line, Col: col, Msg: msg}
}

// keywords are Python's hard keywords, which the grammar's error recovery
// sometimes accepts as names.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true, "finally": true,
	"for": true, "from": true, "global": true, "if": true, "import": true, "in": true,
	"is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true,
	"raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// keywordAsName returns the first identifier node spelled like a hard
// keyword, or nil.
func keywordAsName(n *node, src []byte) *node {
	if n.Type() == "identifier" {
		if keywords[n.Content(src)] {
			return n
		}
		return nil
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if k := keywordAsName(n.NamedChild(i), src); k != nil {
			return k
		}
	}
	return nil
}

// hasPython2 reports whether the subtree holds a Python 2 print or exec
// statement, which the grammar accepts but Python 3 does not.
func hasPython2(n *node) bool {
	switch n.Type() {
	case "print_statement", "exec_statement":
		return true
	case "module", "block", "if_statement", "elif_clause", "else_clause", "for_statement",
		"while_statement", "try_statement", "except_clause", "except_group_clause",
		"finally_clause", "with_statement", "function_definition", "class_definition",
		"decorated_definition", "match_statement", "case_clause":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if hasPython2(n.NamedChild(i)) {
				return true
			}
		}
	}
	return false
}
