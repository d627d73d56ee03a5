package cpython

import "testing"

// snippetsScript prints, for each row's definition, what
// collected.snippets_isolated says with the definition's compiled code
// (Partial.defs) while ast.parse fails, and without the code.
const snippetsScript = `import ast, json, os, sys
sys.argv = ["-c", "3", "4"]  # what protocol.py reads
sys.path.insert(0, os.environ["H_DIR"])
from h import collected

rows = json.loads(sys.stdin.read())
out = {}
parse = ast.parse
for name, text in rows:
    text = text.encode()
    span = [(0, len(text), 0, 0)]
    code = compile(text, "cand.py", "exec")

    def refuse(*a, **k):
        raise RuntimeError("parsed")

    ast.parse = refuse
    fast = collected.snippets_isolated(text, span, (code,))
    ast.parse = parse
    out[name] = [fast, collected.snippets_isolated(text, span)]
print(json.dumps(out))
`

// TestSnippetsIsolated: whether a candidate's changed definitions keep
// a pytest session isolated (they store attributes only on a method's
// self, and declare no global) is read from their code, without a parse,
// when it stores and deletes nothing (a parse was 78 us of every
// candidate of pytest-2000's); anything else is parsed, and judged as
// before.
func TestSnippetsIsolated(t *testing.T) {
	py := python(t)
	rows := []struct {
		name, text string
		fast, slow bool // with the code and no parse; parsed
	}{
		{"plain", "def f(x):\n    return x + 1\n", true, true},
		{"locals only", "def f(x):\n    y = [i for i in x]\n    return (lambda: y)()\n", true, true},
		{"attribute stored", "def f(o):\n    o.a = 1\n", false, false},
		{"attribute deleted", "def f(o):\n    del o.a\n", false, false},
		{"attribute augmented", "def f(o):\n    o.a += 1\n", false, false},
		{"attribute as a loop target", "def f(o, y):\n    return [0 for o.a in y]\n", false, false},
		{"attribute in a nested function", "def f(o):\n    def g():\n        o.a = 1\n    return g\n", false, false},
		{"self of a method", "class K:\n    def m(self):\n        self.a = 1\n", false, true},
		{"global declared", "def f():\n    global g\n    return g\n", false, false},
		{"item stored", "def f(d):\n    d['g'] = 1\n", true, true},
		{"globals named", "def f():\n    return globals()\n", false, true},
		{"not ASCII", "def f(o):\n    return 'é'\n", false, true},
		// Code the compiler drops never runs: the code says nothing is
		// stored, the parse refused it.
		{"after return", "def f(o):\n    return 1\n    o.a = 2\n", true, false},
	}
	var in [][2]string
	for _, r := range rows {
		in = append(in, [2]string{r.name, r.text})
	}
	var got map[string][2]bool
	harnessScript(t, py, snippetsScript, in, &got)
	for _, r := range rows {
		if g := got[r.name]; g != [2]bool{r.fast, r.slow} {
			t.Errorf("%s: isolated with the code and no parse %v, parsed %v; want %v, %v", r.name, g[0], g[1], r.fast, r.slow)
		}
	}
}
