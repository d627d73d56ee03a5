package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// concreteEngines are the packages of the engines themselves and of the
// package that opens them by name: what the search and the other callers
// reach only through sandbox.Engine and its capabilities.
var concreteEngines = []string{"sandbox/cpython", "sandbox/gpython", "sandbox/remote", "sandbox/engines"}

// TestSearchImportsTheContract: the search (package repair) depends on
// the sandbox's contract alone, never on an engine: it runs candidates
// through sandbox.Engine and asks what an engine can do through the
// capabilities of sandbox/capability.go. And serve, an execution service,
// does not import the search to open an engine.
func TestSearchImportsTheContract(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := map[string][]string{
		"repair": concreteEngines,
		"serve":  {"repair"},
	}
	seen := map[string]bool{}
	for _, p := range listPackages(t, root) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		deny, ok := forbidden[rel]
		if !ok {
			continue
		}
		seen[rel] = true
		for _, dep := range p.Deps {
			for _, d := range deny {
				if dep == module+"/"+d {
					t.Errorf("%s depends on %s: it must reach engines through package sandbox's contract", rel, d)
				}
			}
		}
	}
	for rel := range forbidden {
		if !seen[rel] {
			t.Errorf("package %s is not in the module: update the rule", rel)
		}
	}
}

// TestNoConcreteEngineOutsideSandbox: outside sandbox/, no code casts an
// engine to its concrete type (a type assertion or a type switch case on
// a pointer to a type of an engine's package, or to sandbox.Multi), asserts
// an anonymous interface for one of an engine's methods, or compares an
// engine's Name with an engine's name to decide what to do: an engine says
// what it can do through the capabilities of sandbox/capability.go.
func TestNoConcreteEngineOutsideSandbox(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == "sandbox" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		found, err := engineCasts(rel, src)
		if err != nil {
			return err
		}
		bad = append(bad, found...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// engineMethods are the methods of the engines beyond sandbox.Engine: an
// anonymous interface with one of them stands in for a capability.
var engineMethods = map[string]bool{
	"Describe": true, "Capacity": true, "Grow": true, "RealPytest": true, "PlainPytest": true,
	"Executable": true, "Counts": true, "Features": true, "Stats": true, "Python": true,
	"Confinement": true, "Parts": true,
}

// engineNames are what an engine's Name answers.
var engineNames = map[string]bool{"cpython": true, "gpython": true, "hybrid": true, "remote": true}

// engineCasts lists what in one file reaches past the engine contract.
func engineCasts(name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	// The file's names of the engines' packages, and of package sandbox.
	concrete := map[string]bool{}
	sandboxName := ""
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		for _, c := range concreteEngines {
			if path == module+"/"+c {
				concrete[local] = true
			}
		}
		if path == module+"/sandbox" {
			sandboxName = local
		}
	}
	isConcrete := func(e ast.Expr) bool {
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && (concrete[pkg.Name] || pkg.Name == sandboxName && sel.Sel.Name == "Multi")
	}
	anonymous := func(e ast.Expr) bool {
		it, ok := e.(*ast.InterfaceType)
		if !ok || it.Methods == nil {
			return false
		}
		for _, m := range it.Methods.List {
			for _, n := range m.Names {
				if engineMethods[n.Name] {
					return true
				}
			}
		}
		return false
	}
	nameCall := func(e ast.Expr) bool {
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) > 0 {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Name"
	}
	engineName := func(e ast.Expr) bool {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		s, _ := strconv.Unquote(lit.Value)
		return engineNames[s]
	}
	var out []string
	say := func(n ast.Node, format string, args ...any) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, args...)))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.TypeAssertExpr:
			switch {
			case x.Type == nil: // x.(type): its cases are below
			case isConcrete(x.Type):
				say(x, "a cast to a concrete engine (%s): use a capability of package sandbox", types(x.Type))
			case anonymous(x.Type):
				say(x, "an anonymous interface for an engine's method: use a capability of package sandbox")
			}
		case *ast.CaseClause:
			for _, e := range x.List {
				if isConcrete(e) {
					say(e, "a type switch case on a concrete engine (%s): use a capability of package sandbox", types(e))
				}
			}
		case *ast.BinaryExpr:
			if (x.Op == token.EQL || x.Op == token.NEQ) &&
				(nameCall(x.X) && engineName(x.Y) || nameCall(x.Y) && engineName(x.X)) {
				say(x, "an engine's Name decides what to do: use sandbox.FeaturesOf or another capability")
			}
		}
		return true
	})
	return out, nil
}

// types renders *pkg.T.
func types(e ast.Expr) string {
	star := e.(*ast.StarExpr)
	sel := star.X.(*ast.SelectorExpr)
	return "*" + sel.X.(*ast.Ident).Name + "." + sel.Sel.Name
}

// TestEngineCasts: what the check above reports, and what it lets be.
func TestEngineCasts(t *testing.T) {
	const head = "package p\n\nimport (\n\t\"context\"\n\n\t\"repair/sandbox\"\n\t\"repair/sandbox/cpython\"\n\tgp \"repair/sandbox/gpython\"\n)\n\nvar _ context.Context\n\n"
	tests := []struct {
		name string
		body string
		want int
	}{
		{"a cast", "func f(e sandbox.Engine) { _, _ = e.(*cpython.Engine) }", 1},
		{"a renamed package", "func f(e sandbox.Engine) { _, _ = e.(*gp.Engine) }", 1},
		{"sandbox.Multi", "func f(e sandbox.Engine) { _, _ = e.(*sandbox.Multi) }", 1},
		{"a type switch", "func f(e sandbox.Engine) {\n\tswitch e.(type) {\n\tcase *cpython.Engine, *gp.Engine:\n\t}\n}", 2},
		{"an anonymous interface", "func f(e sandbox.Engine) { _, _ = e.(interface{ Capacity() int }) }", 1},
		{"an anonymous Grow", "func f(e sandbox.Engine) {\n\t_, _ = e.(interface {\n\t\tGrow(context.Context, int) (int, error)\n\t})\n}", 1},
		{"a name decides", "func f(e sandbox.Engine) bool { return e.Name() == \"cpython\" }", 1},
		{"a name, the other way", "func f(e sandbox.Engine) bool { return \"gpython\" != e.Name() }", 1},
		{"a capability", "func f(e sandbox.Engine) { _, _ = e.(sandbox.Sizer); _ = sandbox.FeaturesOf(e).Verify }", 0},
		{"a name in a message", "func f(e sandbox.Engine) string { return \"engine \" + e.Name() }", 0},
		{"another interface", "func f(err error) { _, _ = err.(interface{ Timeout() bool }) }", 0},
		{"a file's name", "func f(d interface{ Name() string }) bool { return d.Name() == \"lib\" }", 0},
		{"a constructor", "var _ = cpython.New", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := engineCasts("p.go", []byte(head+tt.body+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.want {
				t.Errorf("got %d reports, want %d: %q", len(got), tt.want, got)
			}
		})
	}
}
