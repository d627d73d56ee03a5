// The builder's names: what each scope and statement binds, the builtins
// a file reads, and the bindings a nested nonlocal pins.

package program

import (
	"sort"
	"strings"
)

// bindParams binds the parameter names of a def in its scope.
func (b *builder) bindParams(params *node, scope int) {
	src := b.p.Src[b.base:]
	var walk func(n *node)
	walk = func(n *node) {
		switch n.Type() {
		case "identifier":
			b.names[scope][n.Content(src)] = true
			return
		case "default_parameter", "typed_default_parameter":
			if nn := n.ChildByFieldName("name"); nn != nil {
				walk(nn)
			}
			return
		case "typed_parameter":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if c := n.NamedChild(i); c.Type() != "type" {
					walk(c)
				}
			}
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(params)
}

// bind records that statement stmt binds name in scope.
func (b *builder) bind(scope, stmt int, name string) {
	b.names[scope][name] = true
	if b.binds[stmt] == nil {
		b.binds[stmt] = map[string]bool{}
	}
	b.binds[stmt][name] = true
}

// pin marks the statements that are the only binding of a name some nested
// function declares nonlocal (and the statements holding them): removing
// one is a compile error ("no binding for nonlocal").
func (b *builder) pin() {
	p := b.p
	for sc, names := range b.nonlocals {
		if len(names) > 0 && p.Scopes[sc].Stmt >= 0 {
			// A function declaring nonlocal names only compiles where it is.
			p.Stmts[p.Scopes[sc].Stmt].needs |= never
		}
		for name := range names {
			// The nearest enclosing function scope that binds the name.
			t := p.Scopes[sc].Parent
			for t > 0 && (p.Scopes[t].Kind != "function" || !b.names[t][name]) {
				t = p.Scopes[t].Parent
			}
			if t <= 0 {
				continue
			}
			binding := -1
			count := 0
			for i := range p.Stmts {
				if p.Stmts[i].Scope == t && b.binds[i][name] && i != p.Scopes[t].Stmt {
					binding = i
					count++
				}
			}
			if count != 1 {
				continue // a parameter, or several bindings
			}
			for s := binding; s >= 0 && s != p.Scopes[t].Stmt; s = p.Stmts[s].Parent {
				p.Stmts[s].Pinned = true
			}
			for i := range p.Sites {
				st := &p.Sites[i]
				if st.Stmt == binding && st.Kind == SiteIdent && st.Store && p.SiteText(i) == name {
					st.Pinned = true
				}
			}
		}
	}
	for i := range p.Stmts {
		sc := &p.Scopes[p.Stmts[i].Scope]
		if p.Stmts[i].needs&yieldExpr != 0 {
			sc.yields = true
		}
		if p.Stmts[i].needs&returnValue != 0 {
			sc.returnsValue = true
		}
	}
}

// bindImports binds the names an import statement defines.
func (b *builder) bindImports(n *node, stmt, scope int) {
	src := b.p.Src[b.base:]
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.FieldNameForChild(i) != "name" {
			continue
		}
		c := n.Child(i)
		switch c.Type() {
		case "aliased_import":
			if a := c.ChildByFieldName("alias"); a != nil {
				b.bind(scope, stmt, a.Content(src))
			}
		case "dotted_name":
			name := c.Content(src)
			if n.Type() == "import_statement" {
				name, _, _ = strings.Cut(name, ".")
			} else if j := strings.LastIndexByte(name, '.'); j >= 0 {
				name = name[j+1:]
			}
			b.bind(scope, stmt, name)
		}
	}
}

// finishScopes sorts each scope's names (the visible ones are made on
// demand: Program.ScopeVisible).
func (b *builder) finishScopes() {
	p := b.p
	for i := range p.Scopes {
		p.Scopes[i].Names = sortedKeys(b.names[i])
		for _, m := range []map[string]bool{b.globals[i], b.nonlocals[i]} {
			for n := range m {
				if p.Scopes[i].declared == nil {
					p.Scopes[i].declared = map[string]bool{}
				}
				p.Scopes[i].declared[n] = true
			}
		}
	}
	p.builtins = sortedKeys(b.usedBI)
	// A statement's annotated names are its own and those of the
	// statements nested in it in its scope.
	for s, names := range b.annotates {
		for a := s; a >= 0 && p.Stmts[a].Scope == p.Stmts[s].Scope; a = p.Stmts[a].Parent {
			p.Stmts[a].annotates = append(p.Stmts[a].annotates, names...)
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pyBuiltins are the builtin names an identifier mutation may use when the
// file already uses them.
var pyBuiltins = map[string]bool{
	"abs": true, "all": true, "any": true, "bool": true, "chr": true, "dict": true,
	"divmod": true, "enumerate": true, "filter": true, "float": true, "int": true,
	"isinstance": true, "len": true, "list": true, "map": true, "max": true, "min": true,
	"ord": true, "pow": true, "print": true, "range": true, "reversed": true, "round": true,
	"set": true, "sorted": true, "str": true, "sum": true, "tuple": true, "zip": true,
	"iter": true, "next": true, "hash": true, "id": true, "type": true, "repr": true,
	"ValueError": true, "TypeError": true, "KeyError": true, "IndexError": true,
	"Exception": true, "ZeroDivisionError": true, "StopIteration": true,
}
