// The builder's sites: the expressions, conditions, operators, names and
// literals of a statement's text, with the precedence each place needs.

package program

// atomic node types need no parentheses in any expression position.
var atomic = map[string]bool{
	"identifier": true, "integer": true, "float": true, "string": true,
	"concatenated_string": true, "true": true, "false": true, "none": true,
	"call": true, "attribute": true, "subscript": true, "list": true, "tuple": true,
	"dictionary": true, "set": true, "parenthesized_expression": true,
	"list_comprehension": true, "dictionary_comprehension": true,
	"set_comprehension": true, "ellipsis": true, "generator_expression": true,
}

// literal node types.
var literals = map[string]bool{
	"integer": true, "float": true, "string": true, "true": true, "false": true, "none": true,
}

// notReplaceable are expression node types that cannot stand in an
// arbitrary expression position, nor be replaced by an arbitrary expression.
var notReplaceable = map[string]bool{
	"expression_list": true, "yield": true, "list_splat": true, "dictionary_splat": true,
	"keyword_argument": true, "slice": true,
	"pattern_list": true, "assignment": true, "augmented_assignment": true,
	"parenthesized_list_splat": true, "comment": true, "lambda": true,
	"named_expression": true, "conditional_expression": true, "as_pattern": true,
}

// visitSites records the sites and bound names of the text of statement
// node n (not of the statements nested in its blocks). store says n is an
// assignment target; inString that n is inside an f-string.
func (b *builder) visitSites(n *node, stmt, scope int, store, inString bool) {
	src := b.p.Src[b.base:]
	annotated := false // the identifier visited is the target of an annotated assignment
	var visit func(n *node, store, inString bool)
	visit = func(n *node, store, inString bool) {
		t := n.Type()
		if n.isStatement() && b.start(n) != b.p.Stmts[stmt].Start {
			return // a nested statement: its own sites
		}
		if t == "lambda" {
			// A lambda's body is no async function's (Site.Async).
			b.lambdas++
			defer func() { b.lambdas-- }()
		}
		switch t {
		case "block", "comment", "parameters", "lambda_parameters", "type",
			"import_statement", "import_from_statement", "future_import_statement",
			"global_statement", "nonlocal_statement", "case_pattern", "format_specifier",
			"decorator", "type_parameter", "escape_sequence", "string_content":
			switch t {
			case "import_statement", "import_from_statement":
				b.bindImports(n, stmt, scope)
			case "nonlocal_statement", "global_statement":
				// A nonlocal's names are bound in an enclosing function
				// (see pin); neither kind may be annotated in the scope.
				declared := b.nonlocals
				if t == "global_statement" {
					declared = b.globals
				}
				for i := 0; i < int(n.NamedChildCount()); i++ {
					if c := n.NamedChild(i); c.Type() == "identifier" {
						if declared[scope] == nil {
							declared[scope] = map[string]bool{}
						}
						declared[scope][c.Content(src)] = true
					}
				}
			}
			return
		case "function_definition", "class_definition":
			// Only the header: name and parameters are bound elsewhere;
			// superclasses and decorators are not mutated.
			return
		case "decorated_definition":
			return
		case "identifier":
			name := n.Content(src)
			if store {
				b.bind(scope, stmt, name)
			} else if pyBuiltins[name] {
				b.usedBI[name] = true
			}
			b.addSite(SiteIdent, n, stmt, func(s *Site) {
				s.Store, s.Annotated, s.InString, s.Prec = store, annotated, inString, PrecAtom
			})
			if annotated {
				b.annotates[stmt] = append(b.annotates[stmt], name)
			}
			return
		case "integer", "float", "true", "false", "none":
			b.addSite(SiteLiteral, n, stmt, func(s *Site) { s.InString = inString; s.Prec = PrecAtom })
			return
		case "string", "concatenated_string":
			// A string is one literal site (a concatenation too: its parts
			// could only be replaced by other strings); the expressions of
			// f-string replacement fields are sites of their own.
			if !b.p.Stmts[stmt].Docstring && !inString {
				b.addSite(SiteLiteral, n, stmt, func(s *Site) { s.Prec = PrecAtom })
			}
			strs := []*node{n}
			if t == "concatenated_string" {
				strs = strs[:0]
				for i := 0; i < int(n.NamedChildCount()); i++ {
					strs = append(strs, n.NamedChild(i))
				}
			}
			for _, sn := range strs {
				for i := 0; i < int(sn.NamedChildCount()); i++ {
					c := sn.NamedChild(i)
					if c.Type() == "interpolation" {
						if e := c.ChildByFieldName("expression"); e != nil {
							// The value formatted is an argument of format():
							// f"{n} B" into f"{int(n)} B".
							b.expr(e, stmt, RoleArg, PrecTernary, true)
							visit(e, false, true)
						}
					}
				}
			}
			return
		case "attribute":
			if o := n.ChildByFieldName("object"); o != nil {
				visit(o, false, inString)
			}
			if a := n.ChildByFieldName("attribute"); a != nil && a.Type() == "identifier" {
				b.addSite(SiteAttr, a, stmt, func(s *Site) { s.InString = inString; s.Prec = PrecAtom })
			}
			return
		case "keyword_argument":
			if v := n.ChildByFieldName("value"); v != nil {
				b.expr(v, stmt, RoleArg, PrecTernary, inString)
				visit(v, false, inString)
			}
			return
		case "as_pattern_target":
			// with ... as x, except E as x: binds x.
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if c := n.NamedChild(i); c.Type() == "identifier" {
					b.bind(scope, stmt, c.Content(src))
				}
			}
			return
		case "case_clause":
			// The pattern is skipped; the guard is a condition.
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				if c.Type() == "if_clause" {
					visit(c, false, inString)
				}
			}
			return
		}

		// Sites of operators, conditions and expression positions.
		switch t {
		case "binary_operator":
			lmin, rmin := PrecAtom, PrecAtom
			if op := n.ChildByFieldName("operator"); op != nil {
				b.addSite(SiteBinOp, op, stmt, func(s *Site) { s.InString = inString })
				lmin, rmin = binaryMins(op.Type())
			}
			b.operands(n, stmt, inString, []int{lmin, rmin}, n.ChildByFieldName("left"), n.ChildByFieldName("right"))
		case "boolean_operator":
			lmin, rmin := PrecAtom, PrecAtom
			if op := n.ChildByFieldName("operator"); op != nil {
				b.addSite(SiteBoolOp, op, stmt, func(s *Site) { s.InString = inString })
				lmin, rmin = binaryMins(op.Type())
			}
			b.operands(n, stmt, inString, []int{lmin, rmin}, n.ChildByFieldName("left"), n.ChildByFieldName("right"))
		case "comparison_operator":
			var ops []*node
			for i := 0; i < int(n.ChildCount()); i++ {
				c := n.Child(i)
				if c.IsNamed() {
					ops = append(ops, c)
				} else if n.FieldNameForChild(i) == "operators" {
					b.addSite(SiteCmpOp, c, stmt, func(s *Site) { s.InString = inString })
				}
			}
			b.operands(n, stmt, inString, []int{PrecBitOr}, ops...)
		case "not_operator", "unary_operator":
			if n.ChildCount() > 0 {
				b.addSite(SiteUnaryOp, n.Child(0), stmt, func(s *Site) { s.InString = inString })
			}
			min := PrecUnary
			if t == "not_operator" {
				min = PrecNot
			}
			b.operands(n, stmt, inString, []int{min}, n.ChildByFieldName("argument"))
		case "augmented_assignment":
			if op := n.ChildByFieldName("operator"); op != nil {
				b.addSite(SiteAugOp, op, stmt, func(s *Site) { s.InString = inString })
			}
			if r := n.ChildByFieldName("right"); r != nil {
				b.expr(r, stmt, RoleValue, PrecTernary, inString)
			}
		case "assignment":
			if r := n.ChildByFieldName("right"); r != nil {
				b.expr(r, stmt, RoleValue, PrecTernary, inString)
			}
		case "return_statement":
			if n.NamedChildCount() == 1 {
				b.expr(n.NamedChild(0), stmt, RoleReturn, PrecTernary, inString)
			}
		case "yield":
			// yield x and yield from x: the value given out, as a return's.
			if n.NamedChildCount() == 1 {
				b.expr(n.NamedChild(0), stmt, RoleReturn, PrecTernary, inString)
			}
		case "if_statement", "elif_clause", "while_statement":
			if c := n.ChildByFieldName("condition"); c != nil {
				b.cond(c, stmt, PrecTernary, inString)
			}
		case "assert_statement":
			if n.NamedChildCount() > 0 {
				b.cond(n.NamedChild(0), stmt, PrecTernary, inString)
			}
		case "if_clause":
			if n.NamedChildCount() > 0 {
				b.cond(n.NamedChild(0), stmt, PrecOr, inString)
			}
		case "conditional_expression":
			if n.NamedChildCount() == 3 {
				b.cond(n.NamedChild(1), stmt, PrecOr, inString)
				b.operands(n, stmt, inString, []int{PrecOr, PrecTernary}, n.NamedChild(0), n.NamedChild(2))
			}
		case "list_comprehension", "set_comprehension", "generator_expression":
			// The element computed: [m[i][j] for ...] into [m[j][i] for ...].
			if body := n.ChildByFieldName("body"); body != nil {
				b.expr(body, stmt, RoleValue, PrecTernary, inString)
			}
		case "subscript":
			for i := 0; i < int(n.ChildCount()); i++ {
				if n.FieldNameForChild(i) != "subscript" {
					continue
				}
				c := n.Child(i)
				if c.Type() == "slice" {
					for j := 0; j < int(c.NamedChildCount()); j++ {
						b.expr(c.NamedChild(j), stmt, RoleIndex, PrecTernary, inString)
					}
				} else {
					b.expr(c, stmt, RoleIndex, PrecTernary, inString)
				}
			}
		case "call":
			if args := n.ChildByFieldName("arguments"); args != nil && args.Type() == "argument_list" {
				var pos []Span
				for i := 0; i < int(args.NamedChildCount()); i++ {
					c := args.NamedChild(i)
					if c.Type() == "comment" || c.Type() == "keyword_argument" {
						continue
					}
					if !notReplaceable[c.Type()] {
						pos = append(pos, Span{b.start(c), b.end(c)})
					}
					b.expr(c, stmt, RoleArg, PrecTernary, inString)
				}
				if len(pos) >= 2 {
					if sid := b.addSite(SiteArgs, args, stmt, func(s *Site) { s.InString = inString }); sid >= 0 {
						b.p.Sites[sid].Parts = pos
					}
				}
			}
		}

		// Children, with the store flag for assignment targets.
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if !c.IsNamed() {
				continue
			}
			f := n.FieldNameForChild(i)
			st := false
			switch t {
			case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
				st = f == "left"
			case "named_expression":
				st = f == "name"
			case "pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern",
				"parenthesized_expression", "tuple", "list":
				st = store
			case "delete_statement", "expression_list":
				st = store
			}
			// x: T = v binds x as an annotated name: no global or
			// nonlocal declaration of x may stand in its scope.
			annotated = t == "assignment" && f == "left" && c.Type() == "identifier" && n.ChildByFieldName("type") != nil
			visit(c, st, inString)
			annotated = false
		}
	}
	visit(n, store, inString)
}

// operands records the operands of an operation as operand expressions and
// as the Parts of the operation's own expression site, if it has one.
// mins are the lowest precedences the operands accept (the last one
// repeats).
func (b *builder) operands(op *node, stmt int, inString bool, mins []int, nodes ...*node) {
	var parts []Span
	for i, c := range nodes {
		if c == nil {
			continue
		}
		parts = append(parts, Span{b.start(c), b.end(c)})
		b.expr(c, stmt, RoleOperand, mins[min(i, len(mins)-1)], inString)
	}
	// The operation itself may already be a site (e.g. a return value):
	// give every SiteExpr with its exact range the operand spans.
	s, e := b.start(op), b.end(op)
	for i := len(b.p.Sites) - 1; i >= 0; i-- {
		st := &b.p.Sites[i]
		if st.Stmt != stmt {
			break
		}
		if (st.Kind == SiteExpr || st.Kind == SiteCond) && st.Start == s && st.End == e {
			st.Parts = parts
		}
	}
}

// binaryMins returns the lowest precedences the left and right operands of
// a binary operator accept (left-associative, but ** is right-associative
// and takes a unary operand on its right).
func binaryMins(op string) (left, right int) {
	p := BinaryPrec(op)
	if op == "**" {
		return PrecAwait, PrecUnary
	}
	return p, p + 1
}

// precOf returns the precedence of an expression node.
func precOf(n *node) int {
	switch n.Type() {
	case "lambda", "named_expression":
		return PrecLambda
	case "conditional_expression":
		return PrecTernary
	case "boolean_operator", "binary_operator":
		if op := n.ChildByFieldName("operator"); op != nil {
			return BinaryPrec(op.Type())
		}
		return PrecLambda
	case "not_operator":
		return PrecNot
	case "comparison_operator":
		return PrecCompare
	case "unary_operator":
		return PrecUnary
	case "await":
		return PrecAwait
	}
	if atomic[n.Type()] {
		return PrecAtom
	}
	return PrecLambda
}

// expr records an expression position that accepts expressions of
// precedence minPrec or higher.
func (b *builder) expr(n *node, stmt int, role Role, minPrec int, inString bool) {
	if notReplaceable[n.Type()] || n.Type() == "comment" {
		return
	}
	b.addSite(SiteExpr, n, stmt, func(s *Site) {
		s.Role, s.MinPrec, s.InString, s.Prec = role, minPrec, inString, precOf(n)
	})
}

// cond records a condition.
func (b *builder) cond(n *node, stmt int, minPrec int, inString bool) {
	if notReplaceable[n.Type()] && n.Type() != "named_expression" && n.Type() != "conditional_expression" {
		return
	}
	b.addSite(SiteCond, n, stmt, func(s *Site) {
		s.Role, s.MinPrec, s.InString, s.Prec = RoleCond, minPrec, inString, precOf(n)
	})
}

// addSite records a site of kind k at node n unless n is empty, set
// filling in the rest; it returns the site's index, -1 for none.
func (b *builder) addSite(k SiteKind, n *node, stmt int, set func(*Site)) int {
	start, end := b.start(n), b.end(n)
	if start >= end {
		return -1
	}
	id := len(b.p.Sites)
	// Set in place: a Site handed to set would escape to the heap.
	b.p.Sites = append(b.p.Sites, Site{ID: id, Kind: k, Start: start, End: end, Stmt: stmt, Node: n.Type(),
		Async: b.p.Stmts[stmt].ctx&inAsync != 0 && b.lambdas == 0})
	if set != nil {
		set(&b.p.Sites[id])
	}
	return id
}
