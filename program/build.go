// The builder: a Program's statements and blocks from a tree-sitter tree,
// their layout (indentation, one-line blocks, ';' lines) and what each
// needs from where it stands.

package program

import (
	"bytes"
	"cmp"
	"math/bits"
	"slices"
	"sort"
	"strings"
)

// builder fills a Program from a tree-sitter tree.
type builder struct {
	p    *Program
	base int          // offset of the parsed text in Src (3 after a byte order mark)
	err  *SyntaxError // the first indentation error found

	names     []map[string]bool // per scope
	binds     []map[string]bool // per statement: names its own text binds
	nonlocals []map[string]bool // per scope: names declared nonlocal
	globals   []map[string]bool // per scope: names declared global
	annotates map[int][]string  // per statement: the names its annotated assignments bind (x: T = v)
	usedBI    map[string]bool   // builtins the file reads
	headerOf  map[int]int       // block id -> byte offset of the start of its header's line
	lambdas   int               // lambdas around the node visitSites visits
}

var simpleStatements = map[string]bool{
	"expression_statement": true, "return_statement": true, "pass_statement": true,
	"break_statement": true, "continue_statement": true, "delete_statement": true,
	"raise_statement": true, "global_statement": true, "nonlocal_statement": true,
	"import_statement": true, "import_from_statement": true, "future_import_statement": true,
	"assert_statement": true, "type_alias_statement": true,
}

var compoundStatements = map[string]bool{
	"if_statement": true, "for_statement": true, "while_statement": true,
	"try_statement": true, "with_statement": true, "function_definition": true,
	"class_definition": true, "decorated_definition": true, "match_statement": true,
}

func isStatement(t string) bool { return simpleStatements[t] || compoundStatements[t] }

func (b *builder) start(n *node) int { return int(n.StartByte()) + b.base }
func (b *builder) end(n *node) int   { return int(n.EndByte()) + b.base }

func (b *builder) build(root *node) {
	p := b.p
	b.usedBI = map[string]bool{}
	b.headerOf = map[int]int{}
	p.Scopes = append(p.Scopes, Scope{ID: 0, Kind: "module", Stmt: -1, Parent: -1})
	b.names = append(b.names, map[string]bool{})
	b.nonlocals = append(b.nonlocals, nil)
	b.globals = append(b.globals, nil)
	b.annotates = map[int][]string{}
	p.Blocks = append(p.Blocks, Block{ID: 0, Owner: -1})
	// Fewer sites than named nodes, as a rule: one allocation instead of
	// a growing copy of the largest table.
	p.Sites = make([]Site, 0, len(root.t.named))
	p.Stmts = make([]Stmt, 0, root.t.stmts)
	b.visitBlock(root, 0, -1, 0, 0)
	sortSites(p.Sites)
	for i := range p.Sites {
		p.Sites[i].ID = i
	}
	b.checkIndent()
	if b.err != nil {
		return
	}
	b.detectIndentUnit()
	b.markInline()
	b.indexStrings(root)
	b.finishScopes()
	b.pin()
}

// sortSites puts sites in document order, outer before inner at the same
// start, and else in the order they were made (a stable sort). It sorts
// small keys and moves each Site once: a Site is large and holds pointers.
func sortSites(sites []Site) {
	// from[j] is the index of the site that goes to j.
	from := make([]int, len(sites))
	maxEnd := 0
	for i := range sites {
		maxEnd = max(maxEnd, sites[i].End)
	}
	if pb, ib := bits.Len(uint(maxEnd)), bits.Len(uint(len(sites))); 2*pb+ib <= 64 {
		// Start, end reversed and index in one integer: a sort without a
		// comparison function.
		keys := make([]uint64, len(sites))
		for i := range sites {
			keys[i] = uint64(sites[i].Start)<<(pb+ib) | uint64(maxEnd-sites[i].End)<<ib | uint64(i)
		}
		slices.Sort(keys)
		for j, k := range keys {
			from[j] = int(k & (1<<ib - 1))
		}
	} else {
		type key struct{ start, end, i int }
		keys := make([]key, len(sites))
		for i := range sites {
			keys[i] = key{sites[i].Start, sites[i].End, i}
		}
		slices.SortFunc(keys, func(a, c key) int {
			if a.start != c.start {
				return cmp.Compare(a.start, c.start)
			}
			if a.end != c.end {
				return cmp.Compare(c.end, a.end)
			}
			return cmp.Compare(a.i, c.i)
		})
		for j, k := range keys {
			from[j] = k.i
		}
	}
	// Follow each cycle of the permutation.
	for j := range from {
		if from[j] < 0 {
			continue
		}
		tmp := sites[j]
		at := j
		for {
			f := from[at]
			from[at] = -1
			if f == j {
				sites[at] = tmp
				break
			}
			sites[at] = sites[f]
			at = f
		}
	}
}

// visitBlock adds the statements of a block node (or the module) to block
// bid.
func (b *builder) visitBlock(n *node, bid, parent, scope int, ctx place) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if !c.isStatement() {
			continue
		}
		b.addStmt(c, bid, parent, scope, ctx)
	}
}

func (b *builder) addStmt(n *node, bid, parent, scope int, ctx place) {
	p := b.p
	id := len(p.Stmts)
	start, end := b.start(n), b.end(n)
	s := Stmt{
		ID: id, Kind: n.Type(), Start: start, End: end,
		Line: p.LineOf(start), EndLine: p.LineOf(max(start, end-1)),
		Compound: compoundStatements[n.Type()],
		Block:    bid, Parent: parent, Scope: scope, ctx: ctx,
	}
	if len(p.Blocks[bid].Stmts) == 0 && n.Type() == "expression_statement" && n.NamedChildCount() == 1 {
		switch n.NamedChild(0).Type() {
		case "string", "concatenated_string":
			s.Docstring = true
		}
	}
	s.needs = b.needs(n)
	if n.Type() == "future_import_statement" {
		// Only a docstring and other future imports may stand before a
		// future import: nothing may be placed at them.
		for _, prev := range p.Blocks[bid].Stmts {
			p.Stmts[prev].needs |= never
		}
	}
	p.Stmts = append(p.Stmts, s)
	b.binds = append(b.binds, nil)
	p.Blocks[bid].Stmts = append(p.Blocks[bid].Stmts, id)

	// Expression sites and bound names of the statement's own text.
	b.visitSites(n, id, scope, false, false)

	if !s.Compound {
		return
	}
	def := n
	if n.Type() == "decorated_definition" {
		def = n.ChildByFieldName("definition")
		if def == nil {
			return
		}
	}
	switch def.Type() {
	case "function_definition", "class_definition":
		name := ""
		if nn := def.ChildByFieldName("name"); nn != nil {
			name = nn.Content(b.p.Src[b.base:])
			b.bind(scope, id, name)
		}
		kind := "class"
		inner := place(0)
		async := false
		if def.Type() == "function_definition" {
			kind = "function"
			inner = inFunc
			if ctx&inFunc != 0 {
				inner |= inNested
			}
			if firstToken(def) == "async" {
				inner |= inAsync
				async = true
			}
		}
		q := name
		if pn := p.Scopes[scope].Name; pn != "" {
			q = pn + "." + name
		}
		sid := len(p.Scopes)
		p.Scopes = append(p.Scopes, Scope{ID: sid, Kind: kind, Name: q, Stmt: id, Parent: scope, async: async})
		b.names = append(b.names, map[string]bool{})
		b.nonlocals = append(b.nonlocals, nil)
		b.globals = append(b.globals, nil)
		if params := def.ChildByFieldName("parameters"); params != nil {
			b.bindParams(params, sid)
		}
		if body := def.ChildByFieldName("body"); body != nil {
			b.addBlock(body, def, id, sid, inner)
		}
	case "for_statement", "while_statement":
		for i := 0; i < int(def.NamedChildCount()); i++ {
			c := def.NamedChild(i)
			switch c.Type() {
			case "block":
				b.addBlock(c, def, id, scope, ctx|inLoop)
			case "else_clause":
				b.clauseBlocks(c, id, scope, ctx)
			}
		}
	case "match_statement":
		body := def.ChildByFieldName("body")
		if body == nil {
			return
		}
		var first *node
		for i := 0; i < int(body.NamedChildCount()); i++ {
			if c := body.NamedChild(i); c.Type() == "case_clause" {
				if first == nil {
					first = c
				} else {
					b.alignCase(c, first)
				}
				b.visitSites(c, id, scope, false, false)
				b.clauseBlocks(c, id, scope, ctx)
			}
		}
	default: // if, try, with
		for i := 0; i < int(def.NamedChildCount()); i++ {
			c := def.NamedChild(i)
			switch c.Type() {
			case "block":
				b.addBlock(c, def, id, scope, ctx)
			case "elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause":
				b.clauseBlocks(c, id, scope, ctx)
			}
		}
	}
}

// clauseBlocks adds the body blocks of a clause node.
func (b *builder) clauseBlocks(clause *node, owner, scope int, ctx place) {
	b.checkClause(clause, owner)
	for i := 0; i < int(clause.NamedChildCount()); i++ {
		if c := clause.NamedChild(i); c.Type() == "block" {
			b.addBlock(c, clause, owner, scope, ctx)
		}
	}
}

// addBlock adds a block node whose header is the statement or clause node
// header.
func (b *builder) addBlock(n, header *node, owner, scope int, ctx place) {
	p := b.p
	bid := len(p.Blocks)
	p.Blocks = append(p.Blocks, Block{ID: bid, Owner: owner})
	p.Stmts[owner].Blocks = append(p.Stmts[owner].Blocks, bid)
	b.headerOf[bid] = p.lineStarts[p.LineOf(b.start(header))-1]
	b.visitBlock(n, bid, owner, scope, ctx)
	if len(p.Blocks[bid].Stmts) == 0 {
		// The grammar accepts a header without a body; Python does not.
		b.fail(b.end(header), "expected an indented block")
		p.Blocks = p.Blocks[:bid]
		p.Stmts[owner].Blocks = p.Stmts[owner].Blocks[:len(p.Stmts[owner].Blocks)-1]
	}
}

// fail records a syntax error at byte offset off unless an earlier one was
// recorded.
func (b *builder) fail(off int, msg string) {
	line, col := b.p.position(min(off, len(b.p.Src)))
	if b.err != nil && (b.err.Line < line || b.err.Line == line && b.err.Col <= col) {
		return
	}
	b.err = &SyntaxError{Path: b.p.Path, Line: line, Col: col, Msg: msg}
}

// checkClause reports a clause (elif, else, except, finally, case) that
// does not start its own line at its statement's indentation (a case: one
// level deeper than its match), which the grammar lets through.
func (b *builder) checkClause(clause *node, owner int) {
	p := b.p
	off := b.start(clause)
	ls := p.lineStarts[p.LineOf(off)-1]
	if !isBlank(p.Src[ls:off]) {
		b.fail(off, "invalid syntax")
		return
	}
	c8, c1 := indentCols(p.Src[ls:off])
	s := &p.Stmts[owner]
	h8, h1 := indentCols(leadingSpace(p.Src[p.lineStarts[s.Line-1]:]))
	if clause.Type() == "case_clause" {
		if c8 <= h8 || c1 <= h1 {
			b.fail(off, "expected an indented block")
		}
		return
	}
	if c8 != h8 || c1 != h1 {
		b.fail(off, "invalid syntax (clause not aligned with its statement)")
	}
}

// alignCase reports a case clause not at the indentation of its match's
// first case: the cases are the statements of one block to Python.
func (b *builder) alignCase(c, first *node) {
	p := b.p
	at := func(n *node) (int, []byte) {
		off := b.start(n)
		return off, afterCR(p.Src[p.lineStarts[p.LineOf(off)-1]:off])
	}
	off, ind := at(c)
	_, find := at(first)
	if !isBlank(ind) || !isBlank(find) {
		return // checkClause reports a case that does not start its line
	}
	c8, c1 := indentCols(ind)
	f8, f1 := indentCols(find)
	switch {
	case c8 == f8 && c1 == f1:
	case c8 > f8 && c1 > f1:
		b.fail(off, "unexpected indent")
	case c8 < f8 && c1 < f1:
		b.fail(off, "unindent does not match any outer indentation level")
	default:
		b.fail(off, "inconsistent use of tabs and spaces in indentation")
	}
}

// indentCols returns the column of an indentation with tabs to multiples of
// 8 and of 1: Python requires both to order the same way (else TabError).
func indentCols(ind []byte) (c8, c1 int) {
	for _, c := range ind {
		if c == '\t' {
			c8 = (c8/8 + 1) * 8
		} else if c == '\f' {
			c8, c1 = 0, 0 // CPython's tokenizer starts the line's columns again
			continue
		} else {
			c8++
		}
		c1++
	}
	return c8, c1
}

// checkIndent reports the indentation errors the grammar lets through: a
// block not indented deeper than its header, statements of one block at
// different indentations, an indented module statement.
func (b *builder) checkIndent() {
	p := b.p
	for bi := range p.Blocks {
		blk := &p.Blocks[bi]
		if len(blk.Stmts) == 0 || blk.Inline {
			continue
		}
		first := &p.Stmts[blk.Stmts[0]]
		ind := afterCR(p.Src[p.lineStarts[first.Line-1]:first.Start])
		c8, c1 := indentCols(ind)
		if bi == 0 {
			if c1 != 0 {
				b.fail(first.Start, "unexpected indent")
			}
		} else if isBlank(ind) {
			// (Not a body on its header's line, which may be the last
			// line of a header that a string spans: while s == """a
			// b""": f().)
			h8, h1 := indentCols(leadingSpace(p.Src[b.headerOf[bi]:]))
			if c8 <= h8 || c1 <= h1 {
				b.fail(first.Start, "expected an indented block")
			}
		}
		for _, id := range blk.Stmts[1:] {
			s := &p.Stmts[id]
			ind := afterCR(p.Src[p.lineStarts[s.Line-1]:s.Start])
			if !isBlank(ind) {
				continue
			}
			s8, s1 := indentCols(ind)
			switch {
			case s8 == c8 && s1 == c1:
			case s8 > c8 && s1 > c1:
				b.fail(s.Start, "unexpected indent")
			case s8 < c8 && s1 < c1:
				b.fail(s.Start, "unindent does not match any outer indentation level")
			default:
				b.fail(s.Start, "inconsistent use of tabs and spaces in indentation")
			}
		}
	}
}

func firstToken(n *node) string {
	if n.ChildCount() == 0 {
		return ""
	}
	return n.Child(0).Type()
}

// needs computes what a statement's text requires from where it stands.
func (b *builder) needs(n *node) place {
	var need place
	var walk func(n *node, loop bool)
	walk = func(n *node, loop bool) {
		switch n.Type() {
		case "function_definition", "class_definition", "lambda":
			// What a nested definition's body needs, it finds inside it;
			// its decorators, defaults and bases still run out here.
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				if c.Type() != "block" {
					walk(c, loop)
				}
			}
			return
		case "return_statement":
			need |= inFunc
			if n.NamedChildCount() > 0 {
				need |= returnValue
			}
		case "yield":
			need |= inFunc | yieldExpr
			for i := 0; i < int(n.ChildCount()); i++ {
				if n.Child(i).Type() == "from" {
					need |= yieldFrom
				}
			}
		case "await":
			need |= inFunc | inAsync
		case "break_statement", "continue_statement":
			if !loop {
				need |= inLoop
			}
		case "nonlocal_statement":
			need |= inFunc | inNested | never
		case "global_statement", "future_import_statement":
			need |= never
		case "wildcard_import":
			need |= never // import * only compiles at module level
		case "for_statement", "with_statement", "for_in_clause":
			if firstToken(n) == "async" {
				need |= inFunc | inAsync
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			inner := loop
			if (n.Type() == "for_statement" || n.Type() == "while_statement") && c.Type() == "block" {
				inner = true
			}
			walk(c, inner)
		}
	}
	walk(n, false)
	return need
}

// detectIndentUnit finds the file's indentation step from its first
// indented block.
func (b *builder) detectIndentUnit() {
	p := b.p
	for _, blk := range p.Blocks[1:] {
		s := &p.Stmts[blk.Stmts[0]]
		ls := p.lineStarts[s.Line-1]
		if !isBlank(p.Src[ls:s.Start]) {
			continue
		}
		inner := string(p.Src[ls:s.Start])
		outer := string(leadingSpace(p.Src[b.headerOf[blk.ID]:]))
		if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
			p.IndentUnit = inner[len(outer):]
			return
		}
	}
}

// markInline sets Stmt.Inline, Stmt.Indent and Block.Indent/Inline, and
// records the glue points that split one-line blocks and ';' lines.
func (b *builder) markInline() {
	p := b.p
	for bi := range p.Blocks {
		blk := &p.Blocks[bi]
		if len(blk.Stmts) == 0 {
			continue // an empty module
		}
		first := &p.Stmts[blk.Stmts[0]]
		ls := p.lineStarts[first.Line-1]
		switch {
		case bi == 0:
			blk.Indent = ""
		case isBlank(p.Src[ls:first.Start]):
			blk.Indent = string(p.Src[ls:first.Start])
		default:
			// The body starts on the header's line: it gets one more level
			// than the header when split.
			blk.Inline = true
			blk.Indent = string(leadingSpace(p.Src[b.headerOf[bi]:])) + p.IndentUnit
			colon := first.Start
			for colon > 0 && (p.Src[colon-1] == ' ' || p.Src[colon-1] == '\t') {
				colon--
			}
			p.glue = append(p.glue, glue{start: colon, end: first.Start, line: first.Line, indent: blk.Indent})
		}
		for i, id := range blk.Stmts {
			s := &p.Stmts[id]
			s.Indent = blk.Indent
			if bi == 0 {
				// Module statements are never indented.
				s.Indent = ""
			}
			if blk.Inline {
				s.Inline = true
			}
			if i+1 < len(blk.Stmts) {
				next := &p.Stmts[blk.Stmts[i+1]]
				if next.Line == s.EndLine {
					s.Inline, next.Inline = true, true
					p.glue = append(p.glue, glue{start: s.End, end: next.Start, line: next.Line, indent: blk.Indent})
				}
			}
		}
		if !blk.Inline && bi > 0 {
			// A statement after a multi-line string on the same line etc.
			for _, id := range blk.Stmts {
				s := &p.Stmts[id]
				ls := p.lineStarts[s.Line-1]
				if !isBlank(p.Src[ls:s.Start]) {
					s.Inline = true
				}
			}
		}
	}
	sort.Slice(p.glue, func(i, j int) bool { return p.glue[i].start < p.glue[j].start })
}

// indexStrings marks the lines that start inside a string token, whose
// leading whitespace is part of the string and must never be re-indented.
func (b *builder) indexStrings(root *node) {
	p := b.p
	p.inString = make([]bool, len(p.lineStarts))
	var walk func(n *node)
	walk = func(n *node) {
		if n.StartPoint().Row == n.EndPoint().Row {
			return
		}
		if n.Type() == "string" {
			first, last := p.LineOf(b.start(n)), p.LineOf(b.end(n))
			for l := first + 1; l <= last; l++ {
				p.inString[l-1] = true
			}
			// Replacement fields of an f-string hold expressions; the lines
			// they span are still inside the string token.
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(root)
}

// afterCR is what follows the last carriage return of the text before a
// statement on its line: Python ends a line at a lone '\r' too, so only
// what follows it indents the statement ("\r0" is "0" on a line after an
// empty one).
func afterCR(b []byte) []byte {
	return b[bytes.LastIndexByte(b, '\r')+1:]
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\f' {
			return false
		}
	}
	return true
}

func leadingSpace(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\f') {
		i++
	}
	return b[:i]
}
