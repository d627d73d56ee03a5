package gpython

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/localize"
	"repair/program"
	"repair/sandbox"
	"repair/sandbox/cpython"
	"repair/sandbox/enginetest"
)

var update = flag.Bool("update", false, "rewrite testdata/conformance.golden")

// confRow is one program and suite of the conformance table.
type confRow struct {
	name   string
	target string // path of the target file
	src    []byte // the program run (the target's source, or a reference)
	suite  *fitness.Suite
	cover  bool // also compare the statements each case executed
}

// TestConformance runs the same programs and suites under both engines:
// wherever gpython accepts the program (its source compiles and no case
// runs into a gpython limitation), the verdicts must be the same; for the
// examples and the benchmark the statements each case executes too. The
// outcome of every row (same verdicts, or the construct gpython refuses)
// is testdata/conformance.golden, which docs/engines.md summarizes;
// regenerate it with -update. The bench/ rows need /work/shared/bench.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every row under both engines")
	}
	if _, err := cpython.FindPython(context.Background(), ""); err != nil {
		t.Skipf("no CPython to compare with: %v", err)
	}
	rows := corpusRows(t)
	rows = append(rows, featureRows(t)...)
	rows = append(rows, hostileConfRows(t)...)
	if len(rows) < 40 {
		t.Fatalf("only %d rows", len(rows))
	}
	got := map[string]string{}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			got[row.name] = conform(t, row)
		})
	}
	golden := filepath.Join("testdata", "conformance.golden")
	if *update {
		var lines []string
		for name, status := range got {
			lines = append(lines, fmt.Sprintf("%-44s %s", name, status))
		}
		sort.Strings(lines)
		if err := os.WriteFile(golden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		for _, sep := range []string{" same", " refused:"} {
			if i := strings.Index(line, sep); i > 0 {
				want[strings.TrimSpace(line[:i])] = line[i+1:]
				break
			}
		}
	}
	for name, status := range got {
		if w, ok := want[name]; !ok {
			t.Errorf("%s: %s; not in %s (rerun with -update)", name, status, golden)
		} else if w != status {
			t.Errorf("%s: %s; %s says %s (rerun with -update if intended)", name, status, golden, w)
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok && !strings.HasPrefix(name, "bench/") {
			t.Errorf("%s: in %s but not run", name, golden)
		}
	}
}

// conform runs one row under both engines and returns its status line.
func conform(t *testing.T, row confRow) string {
	ctx := context.Background()
	opts := sandbox.Options{Suite: row.suite, Target: row.target, Workers: 1}
	ce, err := cpython.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ce.Close()
	want, err := ce.Run(ctx, row.src, sandbox.RunOptions{Coverage: row.cover})
	if err != nil {
		t.Fatal(err)
	}

	original, err := os.ReadFile(row.target)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSyntax(row.target, original, row.suite); err != nil {
		var ue *UnsupportedError
		if !errors.As(err, &ue) {
			t.Fatal(err)
		}
		return "refused: " + ue.Construct
	}
	ge := newTestEngine(t, opts, config{noCheck: true})
	res, err := ge.evaluate(ctx, row.src, runCheck, 0, sandbox.CaseRange{})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range res.unsupported {
		if u != "" {
			t.Logf("case %d: %s (%s); cpython: %v", i, res.out.Results[i].Verdict, res.out.Results[i].Detail, want.Results[i].Verdict)
			return "refused: " + u
		}
	}
	if want.CompileError != "" || res.out.CompileError != "" {
		if (want.CompileError == "") != (res.out.CompileError == "") {
			t.Errorf("compile error: cpython %q, gpython %q", want.CompileError, res.out.CompileError)
		}
		return "same (does not compile)"
	}
	compare := func(what string, got *fitness.Outcome) {
		for i := range want.Results {
			w, g := want.Results[i], got.Results[i]
			if w.Verdict != g.Verdict {
				t.Errorf("%s case %d (%s): cpython %v (%s), gpython %v (%s)", what, i, row.suite.Cases[i].Name, w.Verdict, w.Detail, g.Verdict, g.Detail)
			} else if w.Detail != g.Detail {
				t.Logf("%s case %d: details differ: cpython %q, gpython %q", what, i, w.Detail, g.Detail)
			}
		}
	}
	compare("", res.out)
	if row.cover {
		got, err := ge.Run(ctx, row.src, sandbox.RunOptions{Coverage: true})
		if err != nil {
			t.Fatal(err)
		}
		compare("with coverage:", got)
		p, err := program.Parse(row.target, row.src)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want.Results {
			w := localize.Executed(p, want.Results[i].Lines)
			g := localize.Executed(p, got.Results[i].Lines)
			if diff := cmp.Diff(executedLines(p, w), executedLines(p, g)); diff != "" {
				t.Errorf("case %d: statements executed (lines) differ (-cpython +gpython):\n%s", i, diff)
			}
		}
	}
	pass, fail := res.out.Counts()
	return fmt.Sprintf("same (%d passed, %d failed)", pass, fail)
}

func executedLines(p *program.Program, ex []bool) []int {
	var lines []int
	for i, e := range ex {
		if e {
			lines = append(lines, p.Stmts[i].Line)
		}
	}
	return lines
}

// corpusRows are the examples and the shared benchmark: every buggy
// program and its reference, with its own suite.
func corpusRows(t *testing.T) []confRow {
	var rows []confRow
	dirs, _ := filepath.Glob("../../examples/*")
	bench, _ := filepath.Glob("/work/shared/bench/*")
	for _, dir := range append(dirs, bench...) {
		name := filepath.Base(dir)
		target := filepath.Join(dir, name+".py")
		if _, err := os.Stat(target); err != nil {
			continue
		}
		suitePath := filepath.Join(dir, "tests.json")
		if _, err := os.Stat(suitePath); err != nil {
			m, _ := filepath.Glob(filepath.Join(dir, "test_*.py"))
			if len(m) == 0 {
				continue
			}
			suitePath = m[0]
		}
		suite, err := fitness.Load(suitePath)
		if err != nil {
			t.Fatal(err)
		}
		prefix := "examples/"
		if strings.HasPrefix(dir, "/work/shared/bench") {
			prefix = "bench/"
		}
		for _, f := range []string{name + ".py", "reference.py"} {
			src, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				continue
			}
			rows = append(rows, confRow{name: prefix + name + "/" + f, target: target, src: src, suite: suite, cover: true})
		}
	}
	return rows
}

// featureRows exercise each case kind and comparison rule on small
// programs gpython runs.
func featureRows(t *testing.T) []confRow {
	row := func(name, src string, cases ...fitness.Case) confRow {
		return confRow{name: "feature/" + name, target: target(t, "cand.py", map[string]string{"cand.py": src}), src: []byte(src),
			suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, cover: true}
	}
	named := func(c fitness.Case, name string) fitness.Case { c.Name = name; return c }
	kw := func(fn, kwargs, expected string) fitness.Case {
		c := call(fn, "", expected)
		c.Kwargs = []byte(kwargs)
		return c
	}
	raises := func(c fitness.Case, exc string) fitness.Case { c.Raises = exc; return c }
	inPlace := func(fn, args, after string) fitness.Case {
		c := call(fn, args, "")
		c.ExpectedArgs = []byte(after)
		return c
	}
	tol := func(c fitness.Case, t float64) fitness.Case { c.Tolerance = t; return c }
	rows := []confRow{
		row("return values", "def f(x):\n    if x == 0:\n        return None\n    if x == 1:\n        return (1, 2)\n    if x == 2:\n        return {'a': [1, 2.5]}\n    if x == 3:\n        return 'text'\n    return [True, False]\n",
			call("f", "[0]", "null"), call("f", "[1]", "[1, 2]"), call("f", `[2]`, `{"a": [1, 2.5]}`),
			call("f", "[3]", `"text"`), call("f", "[4]", "[true, false]"), call("f", "[4]", "[1, 0]"), call("f", "[3]", `"other"`)),
		row("keyword arguments", "def f(a, b=2, *, c=3):\n    return a * 100 + b * 10 + c\n",
			kw("f", `{"a": 1}`, "123"), kw("f", `{"a": 1, "c": 5}`, "125"), kw("f", `{"b": 1}`, "0")),
		row("raises", "class Empty(LookupError):\n    pass\ndef f(x):\n    if x < 0:\n        raise ValueError('negative')\n    if x == 0:\n        raise Empty('zero')\n    return x\n",
			raises(call("f", "[-1]", ""), "ValueError"), raises(call("f", "[0]", ""), "LookupError"),
			raises(call("f", "[0]", ""), "Empty"), raises(call("f", "[1]", ""), "ValueError"), raises(call("f", "[-1]", ""), "KeyError")),
		row("in-place", "def push(xs, x):\n    xs.append(x)\n    xs.sort()\n",
			inPlace("push", "[[3, 1], 2]", "[[1, 2, 3], 2]"), inPlace("push", "[[3], 1]", "[[3, 1], 1]")),
		row("floats", "def root(x, eps):\n    r = x\n    while abs(r * r - x) > eps:\n        r = (r + x / r) / 2\n    return r\n",
			tol(call("root", "[2, 0.01]", "1.4142"), 0.01), tol(call("root", "[2, 1e-12]", "1.41421356237"), 1e-9), call("root", "[9, 1e-12]", "3")),
		row("generator result", "def evens(n):\n    for i in range(n):\n        if i % 2 == 0:\n            yield i\ndef r(n):\n    return range(n)\n",
			call("evens", "[5]", "[0, 2, 4]"), call("evens", "[0]", "[]"), call("r", "[3]", "[0, 1, 2]"), call("evens", "[3]", "[0, 1]")),
		row("fresh import per case", "count = 0\ndef bump():\n    global count\n    count += 1\n    return count\n",
			call("bump", "", "1"), call("bump", "", "1"), call("bump", "", "2")),
		row("mutable default", "def add(x, acc=[]):\n    acc.append(x)\n    return len(acc)\n",
			call("add", "[1]", "1"), call("add", "[1]", "1")),
		row("dotted callee", "class Stack:\n    def __init__(self):\n        self.items = []\n    @staticmethod\n    def make(n):\n        return list(range(n))\n",
			call("Stack.make", "[2]", "[0, 1]"), call("Stack.make", "[0]", "[]")),
		row("missing function", "def f():\n    return 1\n", call("g", "", "1"), call("f", "", "1")),
		func() confRow {
			r := row("does not compile", "def f():\n    return 1\n", call("f", "", "1"))
			r.src = []byte("def f(:\n    return 1\n")
			return r
		}(),
		row("runtime errors", "def f(x):\n    return [1, 2][x] // (x - 1)\n",
			call("f", "[5]", "0"), call("f", "[1]", "0"), call("f", "[0]", "0"), call("f", "[-1]", "0")),
		row("self-referential result", "def grow(n):\n    xs = []\n    for _ in range(n):\n        xs.append(xs)\n    return xs\ndef loop():\n    d = {}\n    d['d'] = d\n    return [d]\n",
			call("grow", "[1]", "[[]]"), call("grow", "[0]", "[]"), call("grow", "[3]", "[1, 2, 3]"), call("loop", "", `[{"d": {}}]`)),
		row("module-level error", "x = 1 / 0\ndef f():\n    return 1\n", call("f", "", "1")),
		row("recursion", "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\ndef loop(n):\n    return loop(n + 1)\n",
			call("fact", "[10]", "3628800"), call("fact", "[500]", ""), call("loop", "[0]", "0"), call("fact", "[3]", "6")),
		row("timeout", "def spin(n):\n    while n != 0:\n        n -= 2\n    return n\n",
			call("spin", "[4]", "0"), secs(call("spin", "[3]", "0"), 0.5), call("spin", "[2]", "0")),
		row("big ints", "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
			call("fib", "[100]", "354224848179261915075"), call("fib", "[90]", "2880067194370816120"), call("fib", "[100]", "1")),
		row("strings", "def shout(s):\n    return s + '!' * 3\ndef first(s):\n    return s.split()[0]\n",
			call("shout", `["hi"]`, `"hi!!!"`), call("first", `["a b"]`, `"a"`), call("first", `[""]`, `"x"`)),
		row("io echo", "import sys\ndata = sys.stdin.read().split()\nprint(len(data), data[-1] if data else '-')\n",
			named(ioCase("a b c\n", "3 c\n"), "three"), named(ioCase("", "0 -\n"), "empty"), named(ioCase("x\n", "2 x\n"), "wrong")),
		row("io input", "n = int(input())\ntotal = 0\nfor _ in range(n):\n    total += int(input())\nprint('total', total)\nprint(total / n)\n",
			ioCase("2\n3\n4\n", "total 7\n3.5\n"), ioCase("1\n5\n", "total 5\n5.000000001\n"), ioCase("2\n1\n", "total 1\n"), ioCase("1\n1\n", "total 2\n1\n")),
		row("io exit", "import sys\nprint('a')\nif sys.stdin.read() == 'x':\n    sys.exit(0)\nsys.exit(2)\n",
			ioCase("x", "a\n"), ioCase("y", "a\n")),
		row("io iterate stdin", "import sys\nfor line in sys.stdin:\n    print(line.strip()[::-1])\n",
			ioCase("ab\ncd\n", "ba\ndc\n"), ioCase("", ""), ioCase("x\n", "y\n")),
		row("output cap", "def f():\n    print('x' * 100000)\n    return 1\n", call("f", "", "1")),
		row("classes", "class Point(object):\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\ndef f(x, y):\n    return Point(x, y).norm1()\n",
			call("f", "[1, -2]", "3"), call("f", "[0, 0]", "0"), call("f", "[1, 1]", "3")),
		row("exceptions handled", "def safe_div(a, b):\n    try:\n        return a / b\n    except ZeroDivisionError:\n        return None\n    finally:\n        pass\n",
			call("safe_div", "[1, 2]", "0.5"), call("safe_div", "[1, 0]", "null")),
		row("unsupported method", "def f(s):\n    return s.title()\n", call("f", `["a"]`, `"A"`)),
		row("unsupported module", "import collections\ndef f(xs):\n    return collections.Counter(xs)['a']\n", call("f", `[["a"]]`, "1")),
		row("f-string", "def f(x):\n    return f'{x}!'\n", call("f", "[1]", `"1!"`)),
		// gpython runs f-strings rewritten (fstring.go).
		row("f-string formats", "def fmt(name, x, n, w):\n    head = f\"{name!r:>{w}}|{x:,.2f}|{n:#06x}|{n:+d}|{x:.3e}|{x:.1%}|{name!a}|{x:g}\"\n    body = f\"\"\"\n{name:*^9}\n  {[f'{i:02d}' for i in range(n % 4)]} {{braces}} {n=} {x = :.1f}\n\"\"\"\n    return head + body\n",
			call("fmt", `["ab", 1234.5678, 42, 8]`, `"    'ab'|1,234.57|0x002a|+42|1.235e+03|123456.8%|'ab'|1234.57\n***ab****\n  ['00', '01'] {braces} n=42 x = 1234.6\n"`),
			call("fmt", `["\u00e9", -0.5, 7, 0]`, `"'\u00e9'|-0.50|0x0007|+7|-5.000e-01|-50.0%|'\\xe9'|-0.5\n****\u00e9****\n  ['00', '01', '02'] {braces} n=7 x = -0.5\n"`),
			call("fmt", `["", 1e-07, 0, 3]`, `" ''|0.00|0x0000|+0|1.000e-07|0.0%|''|1e-07\n*********\n  [] {braces} n=0 x = 0.0\n"`),
			call("fmt", `["ab", 1, 1, 1]`, `"'ab'|1.00|0x0001|+1|1.000e+00|100.0%|'ab'|1\n"`)),
		row("unsupported dict keys", "def f(xs):\n    d = {}\n    for x in xs:\n        d[x] = d.get(x, 0) + 1\n    return d[1]\n", call("f", "[[1, 1]]", "2")),
		// gpython left such parameters unbound until fixes.go filled Cell2arg.
		row("closure over a parameter", "def f(xs, k):\n    return [x for x in xs if x > k]\ndef g(n, *rest, scale=2):\n    add = lambda x: x + n\n    def total():\n        return sum(rest) * scale\n    return add(total())\ndef h(k):\n    del k\n    return (lambda: k)()\n",
			call("f", "[[1, 5], 2]", "[5]"), call("f", "[[1, 5], 0]", "[1]"), call("g", "[1, 2, 3]", "11"), kw("g", `{"n": 0, "scale": 3}`, "0"), call("h", "[1]", "1")),
	}
	// Methods gpython lacks and the engine adds (compat.go): the suites'
	// expected values are CPython's.
	for _, name := range []string{"strings", "lists", "dicts"} {
		suite, err := fitness.Load(filepath.Join("testdata", "compat", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		tgt := filepath.Join("testdata", "compat", name+".py")
		src, err := os.ReadFile(tgt)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, confRow{name: "feature/added " + name + " methods", target: tgt, src: src, suite: suite, cover: true})
	}
	rows = append(rows, testFileRow(t, "python test file", ""),
		testFileRow(t, "python test file with approx", "def test_approx():\n    assert 0.1 + 0.2 == pytest.approx(0.3)\n"),
		testFileRow(t, "python test file with f-strings", "def test_fstring():\n    q = Queue()\n    q.put(2.5)\n    assert f'{q.items!r:>7}|{q.get():06.2f}' == '  [2.5]|002.50'\n\n"+
			"def test_fstring_wrong():\n    assert f'{Queue().items}' == '[0]'\n"))
	return rows
}

// testFileRow is a Python test file with the pytest stand-in (and more
// tests).
func testFileRow(t *testing.T, name, more string) confRow {
	src := "class Queue(object):\n    def __init__(self):\n        self.items = []\n    def put(self, x):\n        self.items.append(x)\n" +
		"    def get(self):\n        if not self.items:\n            raise IndexError('empty')\n        x = self.items[0]\n        self.items = self.items[1:]\n        return x\n"
	tests := "import pytest\nfrom queue_ import Queue\n\n" +
		"def test_fifo():\n    q = Queue()\n    q.put(1)\n    q.put(2)\n    assert q.get() == 1\n\n" +
		"def test_empty():\n    with pytest.raises(IndexError):\n        Queue().get()\n\n" +
		"def test_wrong():\n    assert Queue().items == [0]\n\n" +
		"@pytest.mark.parametrize('n', [1, 2, 3])\ndef test_many(n):\n    q = Queue()\n    for i in range(n):\n        q.put(i)\n    assert q.get() == 0\n\n" +
		"@pytest.mark.parametrize('a,b', [(1, 1), (2, 3)])\ndef test_pairs(a, b):\n    assert a == b\n\n" +
		"@pytest.mark.skip\ndef test_skipped():\n    assert False\n\n" +
		"def test_error():\n    Queue().get()\n" + more
	tgt := target(t, "queue_.py", map[string]string{"queue_.py": src, "test_queue_.py": tests})
	suitePath := filepath.Join(filepath.Dir(tgt), "test_queue_.py")
	suite, err := fitness.Load(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	return confRow{name: "feature/" + name, target: tgt, src: []byte(src), suite: suite, cover: true}
}

// hostileConfRows are the rows of the hostile table that both engines can
// run (not the attacks on gpython's own file descriptors).
func hostileConfRows(t *testing.T) []confRow {
	dir := t.TempDir()
	tgt := filepath.Join(dir, "cand.py")
	if err := os.WriteFile(tgt, []byte("# original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	env := enginetest.HostileEnv{Dir: dir, Target: tgt, Escape: filepath.Join(dir, "escaped.txt"), Port: port,
		TmpFile: filepath.Join(os.TempDir(), fmt.Sprintf("repair-conformance-%d.txt", os.Getpid()))}
	var rows []confRow
	for _, h := range hostileRows(env) {
		if gpythonOnly[h.Name] {
			continue
		}
		rows = append(rows, confRow{name: "hostile/" + h.Name, target: tgt, src: []byte(h.Src), suite: &fitness.Suite{MemoryMB: 256, Cases: h.Cases}})
	}
	return rows
}
