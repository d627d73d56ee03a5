package gpython

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-python/gpython/py"
	"github.com/google/go-cmp/cmp"
)

func TestInstrument(t *testing.T) {
	tests := []struct {
		name, src, want string
		ok              bool
	}{
		{"simple", "x = 1\ny = x\n", "P(1);x = 1\nP(2);y = x\n", true},
		{"semicolons", "a = 1; b = 2;\n", "P(1);a = 1; P(1);b = 2;\n", true},
		{"if elif else",
			"if a < b:\n    return a\nelif a > b: return b\nelse:\n    pass\n",
			"if P(1) or (a < b):\n    P(2);return a\nelif P(3) or (a > b): P(3);return b\nelse:\n    P(5);pass\n", true},
		{"while", "while n:\n    n -= 1\n", "while P(1) or (n):\n    P(2);n -= 1\n", true},
		{"for", "for x in a, b:\n    s += x\n", "for x in P(1) or (a, b):\n    P(2);s += x\n", true},
		{"for tuple target", "for (i, x) in enumerate(xs): pass\n", "for (i, x) in P(1) or (enumerate(xs)): P(1);pass\n", true},
		{"with", "with open(p) as f:\n    d = f.read()\n", "with P(1) or open(p) as f:\n    P(2);d = f.read()\n", true},
		{"def", "def f(a, b=lambda: 1):\n    return a\n", "def f(a, b=lambda: 1) -> P(1):\n    P(2);return a\n", true},
		{"def annotated", "def f(a) -> int:\n    return a\n", "def f(a) -> P(1) or (int):\n    P(2);return a\n", true},
		{"decorated", "@d\n@e(1)\ndef f():\n    pass\n", "@d\n@e(1)\ndef f() -> P(1, 3):\n    P(4);pass\n", true},
		{"class with docstring", "class C(B):\n    \"\"\"Doc.\"\"\"\n    k = 1\n", "class C(B):\n    \"\"\"Doc.\"\"\";P(2, 1)\n    P(3);k = 1\n", true},
		{"method", "class C:\n    def m(self):\n        return 1\n", "class C:\n    def m(self) -> P(2, 1):\n        P(3);return 1\n", true},
		{"try", "try:\n    x = 1\nexcept E as e:\n    x = 2\nfinally: y = 3\n",
			"try:\n    P(2, 1);x = 1\nexcept E as e:\n    P(4);x = 2\nfinally: P(5);y = 3\n", true},
		{"docstring and globals", "\"\"\"Module.\"\"\"\nfrom __future__ import x\ndef f():\n    'doc'\n    global g\n    g = 1\n",
			"\"\"\"Module.\"\"\";P(1)\nfrom __future__ import x\ndef f() -> P(3):\n    'doc'\n    global g\n    P(6);g = 1\n", true},
		{"lambda in condition", "if f(lambda: 1) and (lambda: 2):\n    pass\n", "if P(1) or (f(lambda: 1) and (lambda: 2)):\n    P(2);pass\n", true},
		{"lambda at depth 0", "if lambda: 0:\n    pass\n", "if P(1) or (lambda: 0):\n    P(2);pass\n", true},
		{"continuation lines",
			"x = (1 +\n     2)\ny = 3 + \\\n    4\nz = 5\n",
			"P(1);x = (1 +\n     2)\nP(3);y = 3 + \\\n    4\nP(5);z = 5\n", true},
		{"multi-line string",
			"s = '''a\nb'''\nt = 1\n", "P(1);s = '''a\nb'''\nP(3);t = 1\n", true},
		{"comment and colon in string", "if x == ':': # c: d\n    pass\n", "if P(1) or (x == ':'): # c: d\n    P(2);pass\n", true},
		{"dict and slice colons", "if d[1:2] == {1: 2}:\n    pass\n", "if P(1) or (d[1:2] == {1: 2}):\n    P(2);pass\n", true},
		{"walrus", "if (n := f()):\n    pass\n", "if P(1) or ((n := f())):\n    P(2);pass\n", true},
		{"crlf", "x = 1\r\ny = 2\r\n", "P(1);x = 1\r\nP(2);y = 2\r\n", true},
		{"unterminated string", "x = 'abc\n", "x = 'abc\n", false},
		{"unbalanced", "x = (1\n", "x = (1\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := instrument([]byte(tt.src), "P", true)
			want := tt.want
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(want, string(got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if bytes.Count(got, []byte("\n")) != bytes.Count([]byte(tt.src), []byte("\n")) {
				t.Errorf("line count changed")
			}
		})
	}
}

// TestInstrumentBudget checks the probes without coverage: only the first
// statement of every function and loop body.
func TestInstrumentBudget(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"function", "x = 1\ndef f(a):\n    \"\"\"Doc.\"\"\"\n    b = a\n    return b\n",
			"x = 1\ndef f(a):\n    \"\"\"Doc.\"\"\"\n    P(4);b = a\n    return b\n"},
		{"compound first", "def f(a):\n    if a:\n        return 1\n    return 2\n",
			"def f(a):\n    if P(2) or (a):\n        return 1\n    return 2\n"},
		{"loops", "while n:\n    n -= 1\nfor x in y: s += x\nelse:\n    z = 1\n",
			"while n:\n    P(2);n -= 1\nfor x in y: P(3);s += x\nelse:\n    z = 1\n"},
		{"try and nested def", "def f():\n    try:\n        def g(): return 1\n    except E:\n        pass\n",
			"def f():\n    try:\n        def g() -> P(3): P(3);return 1\n    except E:\n        pass\n"},
		{"global first", "def f():\n    global g\n    g = 1\n", "def f():\n    global g\n    P(3);g = 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := instrument([]byte(tt.src), "P", false)
			if !ok {
				t.Fatal("not instrumented")
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRewriteDecorators(t *testing.T) {
	tests := []struct {
		src, want string
		paths     []string
	}{
		{"@d\ndef f(): pass\n", "@d\ndef f(): pass\n", nil},
		{"@pytest.mark.parametrize('a', [1])\ndef f(a): pass\n@a.b\nclass C: pass\n",
			"@D0('a', [1])\ndef f(a): pass\n@D1\nclass C: pass\n", []string{"pytest.mark.parametrize", "a.b"}},
		{"x = a.b @ c.d\n", "x = a.b @ c.d\n", nil},
	}
	for _, tt := range tests {
		got, paths := rewriteDecorators([]byte(tt.src), "D")
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("rewriteDecorators(%q) mismatch (-want +got):\n%s", tt.src, diff)
		}
		if diff := cmp.Diff(tt.paths, paths); diff != "" {
			t.Errorf("rewriteDecorators(%q) paths mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestProbeName(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 1", "_p_"},
		{"_p_ = 1", "_p0_"},
		{"_p_ = _p0_", "_p1_"},
	}
	for _, tt := range tests {
		if got := probeName([]byte(tt.src)); got != tt.want {
			t.Errorf("probeName(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestInstrumentCorpus instruments every Python file of examples/ and of
// the shared benchmark: each one that gpython compiles must still compile,
// with its line count unchanged.
func TestInstrumentCorpus(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../examples/*/*.py", "/work/shared/bench/*/*.py", "testdata/*.py"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, cov := range []bool{true, false} {
			got, ok := instrument(src, probeName(src), cov)
			if !ok {
				t.Errorf("%s: not instrumented", f)
				continue
			}
			if bytes.Count(got, []byte("\n")) != bytes.Count(src, []byte("\n")) {
				t.Errorf("%s: line count changed", f)
			}
			if _, err := py.Compile(string(src), f, py.ExecMode, 0, true); err != nil {
				continue // gpython cannot compile the original either
			}
			if _, err := py.Compile(string(got), f, py.ExecMode, 0, true); err != nil {
				t.Errorf("%s: the instrumented source (coverage %v) does not compile: %v\n%s", f, cov, err, got)
			}
		}
	}
}
