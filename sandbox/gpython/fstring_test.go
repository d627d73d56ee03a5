package gpython

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-python/gpython/py"

	"repair/internal/pygen"
)

const fstringSetup = `x = 3.14159
n = 1234567
s = 'hé'
w = 10
p = 3
neg = -42
b = True
big = 2**70
z = -0.0
lst = [1, 'a']
d = {'k': 'v'}
u = 'ü日'
class C:
    def __format__(self, spec):
        return 'C<' + spec + '>'
class R:
    def __repr__(self):
        return 'R()'
    def __str__(self):
        return 'r-str'
`

// fstringCases are f-string expressions; gpython must give what CPython
// gives (the value, or the exception's type), except for limit cases,
// where it must raise NotImplementedError (a limitation the engine
// reports).
var fstringCases = []struct {
	expr  string
	limit bool
}{
	{expr: `f""`}, {expr: `f"plain"`}, {expr: `f"{x}"`}, {expr: `f"{n}"`}, {expr: `f"{s}"`},
	{expr: `f"a{x}b{s!r}c{n:>{w}}"`}, {expr: `f"{{x}} {{{x}}}"`}, {expr: `f'{d["k"]}'`},
	{expr: `f"{'yes' if n > 1 else 'no'}"`}, {expr: `"a" f"{n}" 'b'`}, {expr: `f"{n}" "{x}"`},
	{expr: `rf"\d{n}\n"`}, {expr: `fr'{s}\\'`}, {expr: `f"tab\t{s}\x41"`}, {expr: `f"\{n}"`},
	{expr: "f'''\n  {n}\n    {x * 2}\n'''"}, {expr: "f'''a'{s}'''"}, {expr: "f\"\"\"{s}\"\"\""},
	{expr: "f'''{s}\"'''"}, {expr: "(f'{n}'\n f'{x}'\n 'end')"}, {expr: `f"{n!s:>12}|{s!a}|{u!a}|{u!r}"`},
	{expr: `f"{R()} {R()!r} {R()!s:>8}"`}, {expr: `f"{C():abc} {C()}"`}, {expr: `f"{lst} {d} {None} {b}"`},
	{expr: `f"{n=} {x = } {s=!s} {x=:.2f} {n=!r:>10}"`}, {expr: `f"{n + 1=}"`},
	{expr: `f"{x:.2f}|{x:10.3f}|{x:<10.1f}|{x:^10.2f}|{x:+.3e}|{x:E}|{x:g}|{x:.3g}|{x:%}|{x:.1%}"`},
	{expr: `f"{n:,}|{n:_}|{n:,d}|{n:015,}|{n:+}|{neg:d}|{neg: }|{n: }|{neg:=10}|{neg:010}|{n:010}"`},
	{expr: `f"{n:x}|{n:#x}|{n:X}|{n:#X}|{n:o}|{n:#o}|{n:b}|{n:#b}|{n:_b}|{n:#_x}|{255:#010x}"`},
	{expr: `f"{65:c}|{n:e}|{n:.2f}|{n:%}|{n:g}|{big}|{big:,}|{big:x}|{big:.3e}"`},
	{expr: `f"{s:>5}|{s:<5}|{s:^6}|{s:*^7}|{s:.1}|{s:5.1}|{s:05}|{'ab':s}|{s:}"`},
	{expr: `f"{b:>5}|{b:d}|{b}|{b!r}|{b:x}|{False:5}"`},
	{expr: `f"{z}|{z:.1f}|{z:+}|{0.0:+}|{1e16}|{1e-5}|{1.5e-7:.3}|{12.0:.2}|{12.0:.3}|{1.0:.3}|{123456789.0:.4}"`},
	{expr: `f"{1e100:g}|{0.0001:g}|{0.00001:g}|{100000.0:g}|{1000000.0:g}|{2.5:.0f}|{3.5:.0f}|{0.125:.2f}"`},
	{expr: `f"{1234.5:010,.1f}|{1234.5:,.2f}|{-1234.5:_.1f}|{x:#.0f}|{x:#.0e}|{1.0:#g}|{x:010.3f}|{-x:010.3f}"`},
	{expr: `f"{float('inf')}|{float('-inf'):>6}|{float('nan'):F}|{float('inf'):010}|{float('inf'):+}"`},
	{expr: `f"{1.5}|{2.0}|{1/3}|{1e22}|{123456789012345678.0}|{0.1+0.2}|{-1.5:8}|{1.5:<8}|{1.5:08}"`},
	{expr: `f"{n:{'>' if w else '<'}{w}}|{x:{w}.{p}f}|{s:{'*'}^{w}}"`},
	{expr: `f"{f'{n}' + f'{s!r}'}"`}, {expr: `f"{[f'{i:02d}' for i in range(3)]}"`},
	{expr: `len(f"{n}") + 1`}, {expr: `f"{n}".strip() + f'{s}'.strip()`}, {expr: `[f"{i}" for i in range(3)]`},
	{expr: `f"{n, s}"`}, {expr: `f"{ n }|{n !r}"`}, {expr: `f"{n:{w}}{n:{w}d}"`}, {expr: `f"{x!r:>12}"`},
	{expr: `f"{n:.2}"`}, {expr: `f"{s:d}"`}, {expr: `f"{s:+}"`}, {expr: `f"{lst:>5}"`}, {expr: `f"{n:,x}"`},
	{expr: `f"{x:q}"`}, {expr: `f"{n:z}"`, limit: true}, {expr: `f"{x:n}"`, limit: true}, {expr: `f"{1j:>5}"`, limit: true},
	{expr: `F"{n}" FR"{s}\n" Rf'{w}'`}, {expr: `f"{d['k']!r:^9}|{lst[1]}|{lst[0]:03}"`},
	{expr: `f"{n!s}{s!s}"` + "\n"}, {expr: `f"{'{'}{'}'}"`}, {expr: `f"{(lambda q: q * 2)(n)}"`},
	{expr: `f"{n if n != 3 else 0}{n == 3}"`},
}

// gpythonEval runs setup, then r = expr, in a fresh context.
func gpythonEval(t *testing.T, expr string) (string, string) {
	t.Helper()
	src := fstringSetup + "r = (" + expr + ")\n"
	out, changed := rewriteFStrings([]byte(src), "_p_f")
	if strings.Contains(expr, "f") && strings.ContainsAny(expr, `"'`) && !changed && strings.Contains(expr, `f"`) {
		t.Errorf("%s: not rewritten", expr)
	}
	if bytes.Count(out, []byte("\n")) != strings.Count(src, "\n") {
		t.Errorf("%s: lines changed:\n%s", expr, out)
	}
	code, err := py.Compile(string(out), "t.py", py.ExecMode, 0, true)
	if err != nil {
		t.Errorf("%s: rewritten to\n%s\ndoes not compile: %v", expr, out[len(fstringSetup):], err)
		return "", "compile"
	}
	ctx := py.NewContext(py.DefaultContextOpts())
	defer ctx.Close()
	m, err := ctx.Store().NewModule(ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	m.Globals["_p_f"] = fstringFormat
	if _, err := ctx.RunCode(code, m.Globals, m.Globals, nil); err != nil {
		if exc := excOf(err); exc != nil {
			return "", exc.Base.Name
		}
		return "", err.Error()
	}
	r, err := py.ReprAsString(m.Globals["r"])
	if err != nil {
		t.Fatal(err)
	}
	return r, ""
}

// cpythonEval evaluates every expr after setup with python3; nil when
// there is no python3.
func cpythonEval(t *testing.T, exprs []string) [][2]string {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Log("no python3: checking that the cases run, not their values")
		return nil
	}
	script := `import json, sys
setup, exprs = json.load(sys.stdin)
out = []
for e in exprs:
    g = {}
    exec(setup, g)
    try:
        out.append([repr(eval(compile(e, "e", "eval"), g)), ""])
    except Exception as ex:
        out.append(["", type(ex).__name__])
json.dump(out, sys.stdout)
`
	in, _ := json.Marshal([]any{fstringSetup, exprs})
	cmd := exec.Command(python, "-I", "-S", "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var res [][2]string
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFStringValues(t *testing.T) {
	var exprs []string
	for _, c := range fstringCases {
		exprs = append(exprs, c.expr)
	}
	want := cpythonEval(t, exprs)
	for i, c := range fstringCases {
		got, exc := gpythonEval(t, c.expr)
		switch {
		case exc == "compile":
		case c.limit:
			if exc != "NotImplementedError" {
				t.Errorf("%s = %s %s, want NotImplementedError (a limitation)", c.expr, got, exc)
			}
		case want == nil:
			if exc != "" && !strings.Contains(c.expr, ":") {
				t.Errorf("%s raised %s", c.expr, exc)
			}
		case got != want[i][0] || exc != want[i][1]:
			t.Errorf("%s\n got %s %s\nwant %s %s (CPython)", c.expr, got, exc, want[i][0], want[i][1])
		}
	}
}

func TestRewriteFStrings(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"x = 'no f-string'\n", "x = 'no f-string'\n"},
		{`y = f"a{x}b{y!r}c{z:>{w}}"`, `y = ("a" + N((x), '') + "b" + N((y), '', 'r') + "c" + N((z), ">" + N((w), '')))`},
		{`print("a" f"{b}")`, `print(("a" + N((b), '')))`},
		{"s = f'''x\n{a}\n'''", "s = ('''x\n''' + N((a), '') + '''\n''')"},
		{`# f"{x}"` + "\nx = 1", `# f"{x}"` + "\nx = 1"},
		{`f"{x=}"`, `('x=' + N((x), '', 'r'))`},
		{`rf"\{x}"`, `('\\' + N((x), ''))`},
		{`f"{x:{y}.{z}}"`, `(N((x), N((y), '') + "." + N((z), '')))`},
		{`f"{x"`, `f"{x"`}, // malformed: left for the compiler
	} {
		got, _ := rewriteFStrings([]byte(tt.src), "N")
		if string(got) != tt.want {
			t.Errorf("rewriteFStrings(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestFStringCorpus: every program of the parser corpus and of pygen whose
// only gpython-unsupported syntax is f-strings compiles once rewritten,
// with its lines where they were.
func TestFStringCorpus(t *testing.T) {
	var srcs [][]byte
	names := []string{}
	files, _ := filepath.Glob("../../program/testdata/corpus/*.py")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs, names = append(srcs, b), append(names, filepath.Base(f))
	}
	n := 400
	if testing.Short() {
		n = 50
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		srcs = append(srcs, pygen.Generate(rand.New(rand.NewPCG(seed, 7)), pygen.Config{NoMatch: true}))
		names = append(names, "pygen seed "+string(rune('0'+seed%10)))
	}
	rewritten, compiled := 0, 0
	for i, src := range srcs {
		out, changed := rewriteFStrings(src, probeName(src)+"f")
		if !changed {
			continue
		}
		rewritten++
		if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Errorf("%s: the rewrite moved lines", names[i])
		}
		if _, err := py.Compile(string(out), "t.py", py.ExecMode, 0, true); err == nil {
			compiled++
			continue
		}
		if _, err := py.Compile(string(src), "t.py", py.ExecMode, 0, true); err == nil {
			t.Errorf("%s: compiles, but not rewritten:\n%s", names[i], out)
			continue
		}
		// Something else gpython does not compile must remain: the same
		// program with plain strings for f-strings fails on the same line.
		// Or what fails is in a replacement field (1_000 in f"{1_000}").
		got, want := compileErrLine(out), compileErrLine(unF(src))
		if c, l := syntaxConstruct(out, got); got != want && (c == "" || l != got) {
			t.Errorf("%s: the rewrite fails to compile on line %d, the program without f-strings on %d:\n%s", names[i], got, want, out)
		}
	}
	t.Logf("%d of %d sources had f-strings; %d compile under gpython once rewritten", rewritten, len(srcs), compiled)
}

// compileErrLine is the line of gpython's compile error for src, -1 if it
// compiles.
func compileErrLine(src []byte) int {
	_, err := py.Compile(string(src), "t.py", py.ExecMode, 0, true)
	if err == nil {
		return -1
	}
	if exc := excOf(err); exc != nil {
		if l, ok := exc.Dict["lineno"].(py.Int); ok {
			return int(l)
		}
	}
	return 0
}

// unF drops the f of every f-string prefix.
func unF(src []byte) []byte {
	lines, ok := logicalLines(src)
	if !ok {
		return src
	}
	out := append([]byte(nil), src...)
	for _, toks := range lines {
		for _, t := range toks {
			if t.kind != tString {
				continue
			}
			for i := t.start; i < t.end && out[i] != '"' && out[i] != '\''; i++ {
				if out[i] == 'f' || out[i] == 'F' {
					out[i] = ' '
				}
			}
		}
	}
	return out
}

// BenchmarkRewriteFStrings: the cost for a source without f-strings (the
// byte scan) and with them.
func BenchmarkRewriteFStrings(b *testing.B) {
	plain, err := os.ReadFile("../../examples/middle/middle.py")
	if err != nil {
		b.Skip(err)
	}
	with := []byte(string(plain) + "\ndef show(x, w):\n    return f\"{x!r:>{w}} and {x:.2f}\"\n")
	for _, c := range []struct {
		name string
		src  []byte
	}{{"plain", plain}, {"fstrings", with}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				rewriteFStrings(c.src, "_p_f")
			}
		})
	}
}

// FuzzRewriteFStrings: on any source the rewrite does not panic, keeps
// every line on its line, leaves a source without f-strings as it is, and
// is idempotent once it has rewritten (no f-string is left to rewrite).
func FuzzRewriteFStrings(f *testing.F) {
	for _, s := range []string{
		`x = f"a{x}b{y!r}c{z:>{w}}"`,
		"s = f'''\n{a}\n{b=}\n'''",
		`t = "a" f"{b}" rf'\d{c}'`,
		`u = f"{'{'}}}{{"`,
		`v = f"{f"{x}"}"`,
		`w = f"{x`,
		"def f(x):\n    return f\"{x:,.2f}\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, changed := rewriteFStrings(src, "N__f")
		if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Fatalf("lines moved:\n%s\n->\n%s", src, out)
		}
		if !changed && !bytes.Equal(out, src) {
			t.Fatalf("unchanged but different:\n%s\n->\n%s", src, out)
		}
		if changed {
			if again, ch := rewriteFStrings(out, "N__f"); ch && !bytes.Equal(again, out) {
				t.Fatalf("f-strings left after a rewrite:\n%s\n->\n%s\n->\n%s", src, out, again)
			}
		}
	})
}
