package program

import (
	"bytes"
	"slices"
	"strings"
)

// Stmt is one statement of the program. Compound statements own blocks;
// clauses (elif, else, except, finally, case) are parts of their statement,
// not statements.
type Stmt struct {
	ID int
	// Kind is the grammar's node type: "return_statement",
	// "expression_statement", "if_statement", "decorated_definition", ...
	Kind string
	// Start and End are the statement's byte range in Program.Src (for a
	// compound statement, through the end of its last clause).
	Start, End int
	// Line and EndLine are the 1-based lines of Start and End.
	Line, EndLine int
	// Indent is the statement's indentation once it stands on its own lines:
	// the leading whitespace of its line, or for a statement of a one-line
	// block or a ';' line, the indentation it gets when that line is split.
	Indent string
	// Inline is true when the statement shares a line with its block's
	// header (if x: y) or with a sibling (a; b). Rendering splits such a
	// line before editing the statement.
	Inline bool
	// Compound is true for statements that own blocks.
	Compound bool
	// Block is the block the statement belongs to.
	Block int
	// Parent is the compound statement whose block holds this one, or -1.
	Parent int
	// Blocks are the blocks a compound statement owns, in order.
	Blocks []int
	// Scope is the innermost scope (module, function or class) holding it.
	Scope int
	// Docstring is true for a string-only expression statement that opens a
	// module, class or function body.
	Docstring bool
	// Pinned is true when removing the statement (deleting, replacing or
	// swapping it away) cannot compile: it is the only binding of a name
	// that a nested function declares nonlocal.
	Pinned bool

	ctx   place // where the statement stands
	needs place // what its text needs from where it is placed
	// annotates are the names the annotated assignments of the statement
	// (nested ones of its scope included) bind: a copy cannot go to a
	// scope that declares one of them global or nonlocal.
	annotates []string
}

// place is a set of syntactic contexts a statement may need: return and
// yield need a function, break and continue a loop, await an async
// function, nonlocal a nested function.
type place uint8

const (
	inFunc place = 1 << iota
	inLoop
	inAsync
	inNested
	never       // future imports, global and nonlocal declarations: never moved
	yieldExpr   // the text yields (not a context: see CanPlace)
	returnValue // the text returns a value (not a context)
	yieldFrom   // the text delegates with yield from (not a context)

	contexts = inFunc | inLoop | inAsync | inNested | never
)

// Block is a statement list: the module, a body, or a clause's body.
type Block struct {
	ID int
	// Owner is the compound statement owning the block, or -1 for the module.
	Owner int
	// Stmts are the statements of the block, in order. Never empty.
	Stmts []int
	// Indent is the indentation of the block's statements.
	Indent string
	// Inline is true when the block's first statement stands on the line of
	// its header (if x: y).
	Inline bool
}

// Scope is the module, a function or a class.
type Scope struct {
	ID int
	// Kind is "module", "function" or "class".
	Kind string
	// Name is the qualified name ("" for the module, "C.method" for a method).
	Name string
	// Stmt is the def or class statement, or -1 for the module.
	Stmt int
	// Parent is the enclosing scope, or -1 for the module.
	Parent int
	// Names are the names bound in this scope (parameters, assignment, for
	// and with targets, imports, defs, classes), sorted. (The names it
	// can read: Program.ScopeVisible.)
	Names []string

	async, yields, returnsValue bool
	declared                    map[string]bool // names declared global or nonlocal here
}

// SiteKind says what an expression site is.
type SiteKind uint8

const (
	// SiteCond is a condition: of if, elif, while, assert, a conditional
	// expression or a comprehension's if.
	SiteCond SiteKind = iota
	// SiteBinOp is the operator token of an arithmetic or bitwise binary
	// operation (+ - * / // % ** << >> & | ^ @).
	SiteBinOp
	// SiteCmpOp is one operator token of a comparison (< <= > >= == != in
	// "not in" is "is not").
	SiteCmpOp
	// SiteBoolOp is the "and" or "or" token of a boolean operation.
	SiteBoolOp
	// SiteUnaryOp is the operator token of a unary operation (- + ~ not).
	SiteUnaryOp
	// SiteAugOp is the operator of an augmented assignment (+= -= ...).
	SiteAugOp
	// SiteLiteral is a number, string, True, False or None.
	SiteLiteral
	// SiteIdent is a name read or bound by an expression or an assignment.
	SiteIdent
	// SiteExpr is an expression standing where any expression of the file
	// could stand instead (see Role).
	SiteExpr
	// SiteArgs is the argument list of a call with two or more positional
	// arguments (Parts).
	SiteArgs
	// SiteAttr is the name after the dot of an attribute (x.name,
	// x.method(...)).
	SiteAttr
)

var siteKindNames = [...]string{
	SiteCond: "cond", SiteBinOp: "binop", SiteCmpOp: "cmpop", SiteBoolOp: "boolop",
	SiteUnaryOp: "unaryop", SiteAugOp: "augop", SiteLiteral: "literal",
	SiteIdent: "ident", SiteExpr: "expr", SiteArgs: "args", SiteAttr: "attr",
}

func (k SiteKind) String() string {
	if int(k) < len(siteKindNames) {
		return siteKindNames[k]
	}
	return "?"
}

// Role says where a SiteExpr stands.
type Role uint8

const (
	RoleNone    Role = iota
	RoleArg          // a call argument (positional or keyword value), or an f-string field's value
	RoleIndex        // a subscript index or slice bound
	RoleReturn       // the value of a return statement or a yield
	RoleOperand      // an operand of an operator or conditional expression (see MinPrec)
	RoleValue        // the right-hand side of an assignment
	RoleCond         // a condition (SiteCond)
)

var roleNames = [...]string{"", "arg", "index", "return", "operand", "value", "cond"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "?"
}

// Precedence levels of Python expressions, lowest first (the Python
// Language Reference, 6.17 "Operator precedence").
const (
	PrecLambda  = 0  // lambda, and the walrus operator
	PrecTernary = 1  // x if c else y
	PrecOr      = 2  // or
	PrecAnd     = 3  // and
	PrecNot     = 4  // not x
	PrecCompare = 5  // < <= > >= == != in, not in, is, is not
	PrecBitOr   = 6  // |
	PrecBitXor  = 7  // ^
	PrecBitAnd  = 8  // &
	PrecShift   = 9  // << >>
	PrecAdd     = 10 // + -
	PrecMul     = 11 // * / // % @
	PrecUnary   = 12 // -x +x ~x
	PrecPower   = 13 // **
	PrecAwait   = 14 // await x
	PrecAtom    = 15 // names, literals, calls, subscripts, displays, (...)
)

// BinaryPrec returns the precedence of a binary, boolean or comparison
// operator token.
func BinaryPrec(op string) int {
	switch op {
	case "or":
		return PrecOr
	case "and":
		return PrecAnd
	case "|":
		return PrecBitOr
	case "^":
		return PrecBitXor
	case "&":
		return PrecBitAnd
	case "<<", ">>":
		return PrecShift
	case "+", "-":
		return PrecAdd
	case "*", "/", "//", "%", "@":
		return PrecMul
	case "**":
		return PrecPower
	}
	return PrecCompare
}

// Fit returns text, of precedence prec, parenthesized if needed to stand
// at site s: for its precedence, or in an f-string's replacement field
// when it starts with '{' (at the start of the field "{{" would read as a
// literal brace).
func (s *Site) Fit(text string, prec int) string {
	if prec < s.MinPrec || s.InString && strings.HasPrefix(text, "{") {
		return "(" + text + ")"
	}
	return text
}

// Span is a byte range of Program.Src.
type Span struct{ Start, End int }

// Site is a place inside a statement that the finer mutation operators
// change: an operator token, a literal, a name, a condition or an
// expression.
type Site struct {
	ID   int
	Kind SiteKind
	// Start and End are the site's byte range in Program.Src.
	Start, End int
	// Stmt is the innermost statement holding the site.
	Stmt int
	// Node is the grammar's node type of the site ("identifier",
	// "binary_operator", "<=", ...).
	Node string
	// Role is where a SiteExpr or SiteCond stands.
	Role Role
	// Prec is the precedence of the site's own expression (see Prec*
	// constants); PrecAtom for names, literals, calls, displays.
	Prec int
	// MinPrec is the lowest precedence an expression may have to stand at
	// the site without parentheses: a replacement text of lower precedence
	// must be parenthesized (see Fit).
	MinPrec int
	// Store is true for a name that an assignment, for or walrus binds.
	Store bool
	// Pinned is true for the only binding of a name that a nested function
	// declares nonlocal: renaming it cannot compile.
	Pinned bool
	// Annotated is true for the name an annotated assignment binds (x in
	// x: int = 0): it may not become a name its scope declares global or
	// nonlocal (Program.Declared).
	Annotated bool
	// InString is true inside an f-string replacement field: replacement text
	// must not hold quotes, backslashes or line breaks.
	InString bool
	// Async is true for a site in the body of an async function (not in a
	// lambda, a class or a def inside it): only there may text with an
	// await or an async comprehension stand (AsyncText).
	Async bool
	// Parts are, for SiteArgs, the positional arguments; for a SiteExpr of a
	// binary, boolean, comparison or not operation, its operands.
	Parts []Span
}

// Text returns the original text of a byte range.
func (p *Program) Text(start, end int) string { return string(p.Src[start:end]) }

// StmtText returns the original text of a statement.
func (p *Program) StmtText(id int) string {
	s := &p.Stmts[id]
	return string(p.Src[s.Start:s.End])
}

// StmtSrc is StmtText without a copy: the statement's bytes in Src, to
// read only.
func (p *Program) StmtSrc(id int) []byte {
	s := &p.Stmts[id]
	return p.Src[s.Start:s.End:s.End]
}

// SiteText returns the original text of a site.
func (p *Program) SiteText(id int) string {
	s := &p.Sites[id]
	return string(p.Src[s.Start:s.End])
}

// FirstLine returns the first line of a statement's text, trimmed, for
// listings ("if x < y:").
func (p *Program) FirstLine(id int) string {
	s := &p.Stmts[id]
	t := p.Src[s.Start:s.End]
	if i := bytes.IndexAny(t, "\r\n"); i >= 0 {
		t = t[:i]
	}
	return string(bytes.TrimSpace(t))
}

// StmtsOnLine returns the statements that start on line l (1-based).
func (p *Program) StmtsOnLine(l int) []int {
	var ids []int
	for i := range p.Stmts {
		if p.Stmts[i].Line == l {
			ids = append(ids, i)
		}
	}
	return ids
}

// Contains reports whether statement outer contains statement inner
// (inner nested anywhere in outer's blocks); a statement does not contain
// itself.
func (p *Program) Contains(outer, inner int) bool {
	if outer == inner {
		return false
	}
	for s := p.Stmts[inner].Parent; s >= 0; s = p.Stmts[s].Parent {
		if s == outer {
			return true
		}
	}
	return false
}

// CanPlace reports whether a copy of statement donor may stand where
// statement target stands (insert next to it, replace it) and still compile:
// return and yield need a function, break and continue a loop, await an
// async function, nonlocal a nested function; future imports and
// global/nonlocal declarations are never moved.
//
// In an async function, a yield and a return with a value exclude each
// other, and yield from is never allowed. The target of a replacement must not be Pinned (see CanRemove).
func (p *Program) CanPlace(donor, target int) bool {
	d, t := &p.Stmts[donor], &p.Stmts[target]
	if d.needs&never != 0 || t.needs&never != 0 {
		return false
	}
	if (d.needs&contexts)&^t.ctx != 0 {
		return false
	}
	for _, n := range d.annotates {
		if p.Declared(t.Scope, n) {
			return false // annotated name can't be global (or nonlocal)
		}
	}
	if sc := &p.Scopes[t.Scope]; sc.async {
		if (d.needs&yieldExpr != 0 && sc.returnsValue) || (d.needs&returnValue != 0 && sc.yields) || d.needs&yieldFrom != 0 {
			return false
		}
	}
	return true
}

// Declared reports whether scope declares name global or nonlocal: an
// annotated assignment to it there does not compile.
func (p *Program) Declared(scope int, name string) bool {
	return scope >= 0 && scope < len(p.Scopes) && p.Scopes[scope].declared[name]
}

// CanRemove reports whether statement s may be deleted, replaced or swapped
// away and the program still compile.
func (p *Program) CanRemove(s int) bool {
	return !p.Stmts[s].Pinned
}

// Visible returns the names an expression of statement stmt can read
// (ScopeVisible of its scope).
func (p *Program) Visible(stmt int) []string {
	return p.ScopeVisible(p.Stmts[stmt].Scope)
}

// ScopeVisible returns the names an expression of scope i can read: its
// own, those of enclosing functions, the module's and the builtins the
// file uses; sorted, without duplicates, a new slice. It is made on
// demand: every scope sees the module's names, so keeping each scope's
// list would cost scopes × names (25 MB in a file of 5,000 lines).
func (p *Program) ScopeVisible(i int) []string {
	var lists [][]string
	p.VisibleParts(i, func(_ int, names []string) { lists = append(lists, names) })
	return mergeSorted(lists)
}

// VisibleParts calls f with each list of names ScopeVisible(i) merges and
// the scope it belongs to: the builtins the file uses (scope -1), then
// scope i's names and those of each enclosing scope it sees, innermost
// first. The lists are the program's: f must not change them.
func (p *Program) VisibleParts(i int, f func(scope int, names []string)) {
	f(-1, p.builtins)
	for s := i; s >= 0; s = p.Scopes[s].Parent {
		// Class bodies are not visible from the functions inside them.
		if s != i && p.Scopes[s].Kind == "class" {
			continue
		}
		f(s, p.Scopes[s].Names)
	}
}

// IsVisible reports whether an expression of scope i can read name:
// whether ScopeVisible(i) holds it, without making that list.
func (p *Program) IsVisible(i int, name string) bool {
	if _, ok := slices.BinarySearch(p.builtins, name); ok {
		return true
	}
	for s := i; s >= 0; s = p.Scopes[s].Parent {
		if s != i && p.Scopes[s].Kind == "class" {
			continue
		}
		if _, ok := slices.BinarySearch(p.Scopes[s].Names, name); ok {
			return true
		}
	}
	return false
}

// mergeSorted merges sorted lists into one, without duplicates.
func mergeSorted(lists [][]string) []string {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]string, 0, n)
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// InFunction reports whether statement s stands in a function body, where
// a return compiles.
func (p *Program) InFunction(s int) bool { return p.Stmts[s].ctx&inFunc != 0 }

// InAsync reports whether statement s stands in the body of an async
// function (not of a class or a def inside it), where await compiles.
func (p *Program) InAsync(s int) bool { return p.Stmts[s].ctx&inAsync != 0 }

// AsyncText reports whether an expression's text holds the keyword await
// or async: an await or an async comprehension, which compile only in an
// async function. So no edit moves such text to a site not Async, nor to a
// statement not InAsync. Plain strings and comments are skipped (a
// message "await the lock" moves anywhere); an f-string's text is not, for
// its fields are code.
func AsyncText(text string) bool {
	for i := 0; i < len(text); {
		switch ch := text[i]; {
		case ch == '#':
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return false
			}
			i += nl + 1
		case ch == '\'' || ch == '"':
			i = skipString(text, i)
		case wordByte(ch):
			j := i
			for j < len(text) && wordByte(text[j]) {
				j++
			}
			if w := text[i:j]; w == "await" || w == "async" {
				return true
			}
			if j < len(text) && (text[j] == '\'' || text[j] == '"') && stringPrefix(text[i:j]) {
				end := skipString(text, j)
				if strings.ContainsAny(text[i:j], "fF") && fieldsAsync(text[j:end]) {
					return true
				}
				i = end
				continue
			}
			i = j
		default:
			i++
		}
	}
	return false
}

// fieldsAsync reports whether the replacement fields of an f-string's
// quoted text (quotes included) hold AsyncText.
func fieldsAsync(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			i++ // {{ is a brace
			continue
		}
		depth, j := 1, i+1
		for ; j < len(s) && depth > 0; j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		field := s[i+1 : j]
		if depth == 0 {
			field = s[i+1 : j-1]
		}
		if AsyncText(field) {
			return true
		}
		i = j - 1
	}
	return false
}

// stringPrefix reports whether w is a string literal's prefix (r, b, u,
// f, rb, fr... in any case).
func stringPrefix(w string) bool {
	if len(w) > 2 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !strings.ContainsRune("rRbBuUfF", rune(w[i])) {
			return false
		}
	}
	return true
}

// skipString returns the index after the string literal whose opening
// quote is text[i] (len(text) when it does not end).
func skipString(text string, i int) int {
	q := text[i : i+1]
	if strings.HasPrefix(text[i:], q+q+q) {
		q = q + q + q
	}
	for j := i + len(q); j < len(text); j++ {
		if text[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(text[j:], q) {
			return j + len(q)
		}
	}
	return len(text)
}

// InLoop reports whether statement s stands in a loop body, where break
// and continue compile.
func (p *Program) InLoop(s int) bool { return p.Stmts[s].ctx&inLoop != 0 }

// ReturnsValue reports whether a return with a value compiles where
// statement s stands: in a function that is not an async generator.
func (p *Program) ReturnsValue(s int) bool {
	sc := &p.Scopes[p.Stmts[s].Scope]
	return p.InFunction(s) && !(sc.async && sc.yields)
}

// Movable reports whether statement s may be moved or wrapped in a new
// block and still compile where it stands: not a future import, nor a
// global or nonlocal declaration (nor a statement holding one).
func (p *Program) Movable(s int) bool { return p.Stmts[s].needs&never == 0 }
