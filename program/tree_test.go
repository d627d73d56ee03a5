package program

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"

	"repair/internal/pygen"
)

// treeInputs returns the Python texts the flat tree is checked on: every
// Python file of the repository (and of the shared benchmark suite when
// present), the fuzz corpus and generated programs.
func treeInputs(t *testing.T) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	add := func(into map[string][]byte, root string, keep func(path string) bool) {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == ".git" || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if !keep(path) {
				return nil
			}
			if src, err := os.ReadFile(path); err == nil && len(src) <= MaxSize {
				into[path] = src
			}
			return nil
		})
	}
	isPy := func(path string) bool { return strings.HasSuffix(path, ".py") }
	add(in, "..", isPy)
	add(in, "/work/shared/bench", isPy)
	// Fuzz corpus entries: their []byte and string values.
	corpus := map[string][]byte{}
	add(corpus, "testdata/fuzz", func(string) bool { return true })
	for path, src := range corpus {
		for i, v := range corpusValues(src) {
			in[fmt.Sprintf("%s#%d", path, i)] = v
		}
	}
	rng := rand.New(rand.NewPCG(25, 25))
	for i := range 200 {
		src := pygen.Generate(rng, pygen.Config{})
		in[fmt.Sprintf("gen%d", i)] = src
		// Broken copies: a span cut out, a bracket, colon, backslash or
		// indentation put in.
		a := rng.IntN(len(src))
		b := min(len(src), a+rng.IntN(20))
		in[fmt.Sprintf("gen%d-cut", i)] = append(src[:a:a], src[b:]...)
		ins := []string{"(", ")", ":", "\\\n", "\n  ", "\t", "[", "'", "# c\n", "\\"}[i%10]
		in[fmt.Sprintf("gen%d-ins", i)] = append(append(src[:a:a], ins...), src[a:]...)
	}
	// Syntax errors, extras in odd places, a byte order mark.
	for i, s := range []string{
		"", "\n", "x = (1 +\n", "def f(:\n  pass\n", "print 'x'\n", "if x:\npass\n",
		"a = (1 + # c\n 2)\n", "f(a, # c\n b)\n", "x = 1 \\\n + 2\n", "class A: # c\n  pass\n",
		"for x in y: # c\n  pass\nelse: # d\n  pass\n", "x[1:2, # c\n 3]\n",
		"import a.b as c, d # e\n", "from . import (a, # b\n c)\n", "a < # c\n b\n",
		"\xef\xbb\xbfx = 1\n", "try:\n  pass\nexcept* E as e:\n  pass\n",
		"match x:\n  case [a, *b] if a: # c\n    pass\n", "lambda: (yield)\n",
		"f'{x!r:>{w}} {y=}'\n", "async def f():\n  async with a as b: await c\n",
		"def f[T](x: T) -> T: return x\n", "type A = int\n", "del a, (b, c)\n",
		"x = 1; y = 2;\n", "x[1 \\\n]\n", "x[a:b \\\n]\n", "x \\\n = 1\n", "if a: b\nelif c: d\nelse: e\n", "@d\n# c\ndef f(): pass\n",
		"(a not # c\n in b > (yield) < c)\n", "x = (a is # c\n not (yield))\n",
	} {
		in[fmt.Sprintf("inline%d", i)] = []byte(s)
	}
	return in
}

// corpusValues returns the []byte and string values of a Go fuzz corpus
// file.
func corpusValues(src []byte) [][]byte {
	var out [][]byte
	for _, line := range strings.Split(string(src), "\n") {
		for _, prefix := range []string{"[]byte(", "string("} {
			if v, ok := strings.CutPrefix(line, prefix); ok {
				v = strings.TrimSuffix(v, ")")
				if s, err := strconv.Unquote(v); err == nil {
					out = append(out, []byte(s))
				}
			}
		}
	}
	return out
}

// builderFields are the fields the builder asks a node for.
var builderFields = map[string]bool{
	"alias": true, "argument": true, "arguments": true, "attribute": true, "body": true,
	"condition": true, "definition": true, "expression": true, "left": true, "name": true,
	"object": true, "operator": true, "parameters": true, "right": true, "value": true,
	"operators": true, "subscript": true,
}

// TestFlatTreeMatchesBinding checks that the flat tree has, for every
// input, exactly the nodes, children, flags and fields the binding's Node
// API reports.
func TestFlatTreeMatchesBinding(t *testing.T) {
	var st treeStats
	for name, src := range treeInputs(t) {
		compareTrees(t, name, src, &st)
	}
	t.Logf("extra nodes the binding gives a field name: %d; fields it finds below a child: %v", st.extraFields, st.deepFields)
}

// FuzzFlatTree: the flat tree matches the binding's on arbitrary bytes.
func FuzzFlatTree(f *testing.F) {
	addCorpus(f)
	f.Add([]byte("a < # c\n b\n"))
	f.Add([]byte("x[1 \\\n]\n"))
	f.Add([]byte("match x:\n  case [a, *b] if a: # c\n    pass\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		compareTrees(t, "fuzz", src, &treeStats{})
	})
}

// treeStats counts where the binding and the flat tree differ by design.
type treeStats struct {
	extraFields int             // extras the binding names a field
	deepFields  map[string]bool // type.field the binding finds below a child
}

// compareTrees checks the flat tree of src against the binding's.
func compareTrees(t *testing.T, name string, src []byte, st *treeStats) {
	t.Helper()
	if st.deepFields == nil {
		st.deepFields = map[string]bool{}
	}
	lang := python.GetLanguage()
	var fields []string
	for f := 1; f < len(pythonLang().fields); f++ {
		fields = append(fields, lang.FieldName(f))
	}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		src = src[3:]
	}
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(lang)
	want, err := parser.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer want.Close()
	got, err := parseTree(src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Too little room at first: the copy is made again.
	small, err := parseTreeSized(src, 1+len(got.nodes)/3)
	if err != nil || len(small.nodes) != len(got.nodes) || !slices.Equal(small.kids, got.kids) || !slices.Equal(small.named, got.named) {
		t.Fatalf("%s: %d nodes with room for a third, %d with room for all (%v)", name, len(small.nodes), len(got.nodes), err)
	}
	for i := range got.nodes {
		if small.nodes[i].c != got.nodes[i].c {
			t.Fatalf("%s: node %d differs with room for a third", name, i)
		}
	}
	if len(got.nodes) == 0 {
		t.Fatalf("%s: no nodes", name)
	}
	byID := map[uintptr]*node{}
	var pairs [][2]any
	var compare func(path string, a *sitter.Node, b *node) bool
	compare = func(path string, a *sitter.Node, b *node) bool {
		fail := func(what string, w, g any) bool {
			t.Errorf("%s: node %s (%s %d-%d): %s: binding %.80v, flat %.80v", name, path, a.Type(), a.StartByte(), a.EndByte(), what, w, g)
			return false
		}
		switch {
		case a.Type() != b.Type():
			return fail("Type", a.Type(), b.Type())
		case a.StartByte() != b.StartByte() || a.EndByte() != b.EndByte():
			return fail("bytes", [2]uint32{a.StartByte(), a.EndByte()}, [2]uint32{b.StartByte(), b.EndByte()})
		case a.StartPoint() != sitter.Point(b.StartPoint()) || a.EndPoint() != sitter.Point(b.EndPoint()):
			return fail("points", [2]sitter.Point{a.StartPoint(), a.EndPoint()}, [2]point{b.StartPoint(), b.EndPoint()})
		case a.IsNamed() != b.IsNamed():
			return fail("IsNamed", a.IsNamed(), b.IsNamed())
		case a.IsMissing() != b.IsMissing():
			return fail("IsMissing", a.IsMissing(), b.IsMissing())
		case a.IsExtra() != b.IsExtra():
			return fail("IsExtra", a.IsExtra(), b.IsExtra())
		case a.HasError() != b.HasError():
			return fail("HasError", a.HasError(), b.HasError())
		case a.ChildCount() != b.ChildCount():
			return fail("ChildCount", a.ChildCount(), b.ChildCount())
		case a.NamedChildCount() != b.NamedChildCount():
			return fail("NamedChildCount", a.NamedChildCount(), b.NamedChildCount())
		}
		byID[a.ID()] = b
		// Children by position: the binding's node ids and the flat ones.
		ids := map[uintptr]int{}
		flat := map[*node]int{}
		for i := 0; i < int(a.ChildCount()); i++ {
			ac, bc := a.Child(i), b.Child(i)
			ids[ac.ID()] = i
			flat[bc] = i
			if bc.Parent() != b {
				return fail("Parent of child", i, bc.Parent())
			}
			if !compare(fmt.Sprintf("%s.%d", path, i), ac, bc) {
				return false
			}
			if wf, gf := a.FieldNameForChild(i), b.FieldNameForChild(i); wf != gf {
				if !ac.IsExtra() {
					return fail("FieldNameForChild", wf, gf)
				}
				st.extraFields++ // the binding's version names fields of extras
			}
		}
		pairs = append(pairs, [2]any{a, b})
		for _, f := range fields {
			ac, bc := a.ChildByFieldName(f), b.ChildByFieldName(f)
			w, ok := -1, true
			if ac != nil {
				w, ok = ids[ac.ID()]
			}
			g := -1
			if bc != nil {
				g = flat[bc]
			}
			if !ok {
				// The binding finds a field a visible child (an
				// aliased block) inherits among that child's children:
				// the cases of a match. The builder asks for none.
				if builderFields[f] {
					return fail("ChildByFieldName("+f+") below a child", ac.Type(), g)
				}
				st.deepFields[a.Type()+"."+f] = true
				continue
			}
			if w != g {
				return fail("ChildByFieldName("+f+")", w, g)
			}
		}
		return true
	}
	compare("root", want.RootNode(), got.root())
	for _, pr := range pairs {
		a, b := pr[0].(*sitter.Node), pr[1].(*node)
		for i := 0; i < int(a.NamedChildCount()); i++ {
			if w, g := byID[a.NamedChild(i).ID()], b.NamedChild(i); w != g {
				t.Errorf("%s: %s %d-%d: NamedChild(%d): binding %v, flat %v", name, a.Type(), a.StartByte(), a.EndByte(), i, w, g)
			}
		}
	}
	if got.root().Parent() != nil {
		t.Errorf("%s: the root has a parent", name)
	}
}
