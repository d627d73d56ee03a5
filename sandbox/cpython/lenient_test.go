package cpython

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"repair/fitness"
	"repair/lenient"
	"repair/sandbox"
)

// lenientRun runs src once with the plan predicted from it by the rules.
func lenientRun(t *testing.T, src string, cases []fitness.Case, cov bool) *fitness.Outcome {
	t.Helper()
	plan, err := lenient.NewPlan([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return runOne(t, src, cases, sandbox.RunOptions{Lenient: plan, Coverage: cov}, config{})
}

type lenientResult struct {
	Verdict    fitness.Verdict
	Detail     string
	Injections []fitness.Injection
}

func lenientResults(out *fitness.Outcome) []lenientResult {
	var r []lenientResult
	for _, x := range out.Results {
		r = append(r, lenientResult{x.Verdict, x.Detail, x.Injections})
	}
	return r
}

func inj(line int, kind, name string, class lenient.Class) fitness.Injection {
	return fitness.Injection{Line: line, Kind: kind, Name: name, Class: string(class)}
}

var lenientTests = []struct {
	name  string
	src   string
	cases []fitness.Case
	want  []lenientResult
}{
	{
		name: "names that exist are never replaced",
		src: `import math
total = 10
class B:
    def __init__(self):
        self.__secret = 0
class C(B):
    k = 2
    def __init__(self):
        super().__init__()
        self.__secret = 1
    def m(self):
        return self.k + self.__secret - 1
def f(x):
    y = x + total + C().m()
    return math.floor(abs(y))
`,
		cases: []fitness.Case{call("f", "[1]", "13")},
		want:  []lenientResult{{Verdict: fitness.Passed}},
	},
	{
		name: "a missing global gets the class of its name",
		src: `def f(x):
    return x + offset
`,
		cases: []fitness.Case{call("f", "[2]", "3")},
		want:  []lenientResult{{Verdict: fitness.Passed, Injections: []fitness.Injection{inj(2, "name", "offset", lenient.IntPos)}}},
	},
	{
		name: "a missing module, its attributes and calls",
		src: `import numpy as np
from grading.metrics import timed

@timed("scores")
def f(xs):
    a = np.array(xs)
    return len(xs)
`,
		cases: []fitness.Case{call("f", "[[1, 2]]", "2")},
		want: []lenientResult{{Verdict: fitness.Passed, Injections: []fitness.Injection{
			inj(1, "import", "numpy", "module"),
			inj(2, "import", "grading.metrics", "module"),
			inj(2, "attribute", "grading.metrics.timed", lenient.Callable),
			inj(4, "call", "timed", lenient.Callable),
			inj(4, "decorator", "timed", "identity"),
			inj(6, "attribute", "numpy.array", lenient.Callable),
			inj(6, "call", "array", lenient.ListNonEmpty),
		}}},
	},
	{
		name: "a name a module lacks, and a relative import",
		src: `from math import sqrt, tau_squared
from .helpers import clean

def f(x):
    return [sqrt(x), tau_squared is not None, clean is not None]
`,
		cases: []fitness.Case{call("f", "[4]", "[2.0, true, true]")},
		want: []lenientResult{{Verdict: fitness.Passed, Injections: []fitness.Injection{
			inj(1, "attribute", "math.tau_squared", lenient.Object),
			inj(2, "import", ".helpers", "module"),
			inj(2, "attribute", ".helpers.clean", lenient.Object),
		}}},
	},
	{
		name: "a missing attribute of the program's own class",
		src: `class Model:
    def __init__(self):
        self.name = "m"
    def describe(self):
        return self.name + self.suffix
def f():
    return Model().describe()
`,
		cases: []fitness.Case{call("f", "", `"ma"`)},
		want:  []lenientResult{{Verdict: fitness.Passed, Injections: []fitness.Injection{inj(5, "attribute", "suffix", lenient.StrNonEmpty)}}},
	},
	{
		name: "one object per name within a case",
		src: `def f():
    a = pending
    a.append(1)
    return len(pending), pending is a
`,
		cases: []fitness.Case{call("f", "", "[2, true]"), call("f", "", "[2, true]")},
		want: []lenientResult{
			{Verdict: fitness.Passed, Injections: []fitness.Injection{inj(2, "name", "pending", lenient.ListNonEmpty), inj(4, "name", "pending", lenient.ListNonEmpty)}},
			{Verdict: fitness.Passed, Injections: []fitness.Injection{inj(2, "name", "pending", lenient.ListNonEmpty), inj(4, "name", "pending", lenient.ListNonEmpty)}},
		},
	},
	{
		name: "other exceptions are untouched",
		src: `def div():
    return 1 / 0
def raises():
    raise NameError("mine")
def unbound():
    print(v)
    v = 1
def builtin_attr():
    return [].push
def none_attr():
    return None.size
def key():
    return {}["k"]
`,
		cases: []fitness.Case{call("div", "", "0"), call("raises", "", "0"), call("unbound", "", "0"),
			call("builtin_attr", "", "0"), call("none_attr", "", "0"), call("key", "", "0")},
		want: []lenientResult{
			{Verdict: fitness.RuntimeError, Detail: "ZeroDivisionError: division by zero (line 2)"},
			{Verdict: fitness.RuntimeError, Detail: "NameError: mine (line 4)"},
			{Verdict: fitness.RuntimeError, Detail: "UnboundLocalError"}, // the message depends on the version
			{Verdict: fitness.RuntimeError, Detail: "AttributeError: 'list' object has no attribute 'push' (line 9)"},
			{Verdict: fitness.RuntimeError, Detail: "AttributeError: 'NoneType' object has no attribute 'size' (line 11)"},
			{Verdict: fitness.RuntimeError, Detail: "KeyError: 'k' (line 13)"},
		},
	},
	{
		name: "a snippet run as a program",
		src: `for row in rows:
    if row.is_active:
        print(row.name)
`,
		cases: []fitness.Case{ioCase("", "a\n")},
		want: []lenientResult{{Verdict: fitness.Passed, Injections: []fitness.Injection{
			inj(1, "name", "rows", lenient.ListNonEmpty),
			inj(2, "attribute", "is_active", lenient.True),
			inj(3, "attribute", "name", lenient.StrNonEmpty),
		}}},
	},
	{
		name: "a resource used with with",
		src: `def f():
    with open_session() as s:
        s.commit()
    return 1
`,
		cases: []fitness.Case{call("f", "", "1")},
		want: []lenientResult{{Verdict: fitness.Passed, Injections: []fitness.Injection{
			inj(2, "name", "open_session", lenient.Callable),
			inj(2, "call", "open_session", lenient.Resource),
			inj(3, "attribute", "commit", lenient.Callable),
			inj(3, "call", "commit", lenient.Object),
		}}},
	},
}

// TestLenientMatch checks that match patterns stay attribute lookups
// (the instrumentation must not turn math.pi in a pattern into a call).
func TestLenientMatch(t *testing.T) {
	py := python(t)
	var major, minor int
	fmt.Sscanf(py.Version, "%d.%d", &major, &minor)
	if major == 3 && minor < 10 {
		t.Skipf("no match statement in Python %s", py.Version)
	}
	src := `import math
def f(x):
    match x:
        case math.inf:
            return "inf"
        case _ if x > math.pi:
            return "big"
    return "small"
`
	got := lenientResults(lenientRun(t, src, []fitness.Case{call("f", "[4]", `"big"`), call("f", "[1]", `"small"`)}, false))
	want := []lenientResult{{Verdict: fitness.Passed}, {Verdict: fitness.Passed}}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestLenientObjects(t *testing.T) {
	python(t)
	src := `from acme.schema import BaseModel
class Item(BaseModel):
    def label(self):
        return self.name
def f():
    i = Item()
    i.price = 2
    return [isinstance(i, BaseModel), i.price, i.label()]
def g():
    obj = make_thing()
    obj.size = 3
    return obj.size
`
	got := lenientResults(lenientRun(t, src, []fitness.Case{call("f", "", `[false, 2, "a"]`), call("g", "", "3")}, false))
	want := []lenientResult{
		{Verdict: fitness.Passed, Injections: []fitness.Injection{
			inj(1, "import", "acme.schema", "module"),
			inj(1, "attribute", "acme.schema.BaseModel", lenient.Callable),
			inj(4, "attribute", "name", lenient.StrNonEmpty),
		}},
		{Verdict: fitness.Passed, Injections: []fitness.Injection{
			inj(1, "import", "acme.schema", "module"),
			inj(1, "attribute", "acme.schema.BaseModel", lenient.Callable),
			inj(10, "name", "make_thing", lenient.Callable),
			inj(10, "call", "make_thing", lenient.Object),
		}},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestLenientCoverage checks that instrumented code reports the
// original's lines, and that a lenient run goes on where a plain one
// stops.
func TestLenientCoverage(t *testing.T) {
	python(t)
	src := `import acme.arrays as np

def f(xs):
    arr = np.asarray(xs)
    total = arr.sum()
    if total == 0:
        return 0
    return len(xs)
`
	cases := []fitness.Case{call("f", "[[1, 2]]", "2")}
	plain := runOne(t, src, cases, sandbox.RunOptions{Coverage: true}, config{})
	if diff := cmp.Diff([]int{1}, plain.Results[0].Lines); diff != "" {
		t.Errorf("plain lines mismatch (-want +got):\n%s", diff)
	}
	if plain.Results[0].Injections != nil {
		t.Errorf("a plain run has injections: %v", plain.Results[0].Injections)
	}
	got := lenientRun(t, src, cases, true)
	if diff := cmp.Diff([]int{1, 3, 4, 5, 6, 8}, got.Results[0].Lines); diff != "" {
		t.Errorf("lenient lines mismatch (-want +got):\n%s", diff)
	}
	if got.Results[0].Verdict != fitness.Passed {
		t.Errorf("lenient: %v %s", got.Results[0].Verdict, got.Results[0].Detail)
	}
}

// TestLenientDeterministic runs a candidate twice on two engines: the same
// verdicts and injections.
func TestLenientDeterministic(t *testing.T) {
	python(t)
	src := `import acme
def f(n):
    out = []
    for row in acme.fetch_rows(n):
        out.append(row.label + suffix)
    return out
`
	cases := []fitness.Case{call("f", "[1]", `["aa"]`), call("f", "[2]", `["aa"]`)}
	a := lenientResults(lenientRun(t, src, cases, false))
	b := lenientResults(lenientRun(t, src, cases, false))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
	if a[0].Verdict != fitness.Passed || len(a[0].Injections) == 0 {
		t.Errorf("first run: %+v", a[0])
	}
}

func TestDecodeInjections(t *testing.T) {
	rec := func(inj []byte) []byte {
		b := []byte{0, 0, 0, 0, byte(fitness.Passed), 4, 0, 0, 0, 0, 0, 0, 0, 0}
		return append(b, inj...)
	}
	good := append([]byte{1, 0, 7, 0, 0, 0, 4, 'n', 'a', 'm', 'e', 1, 'x', 7}, "int_pos"...)
	tests := []struct {
		name string
		p    []byte
		want []fitness.Injection
		err  bool
	}{
		{"one", rec(good), []fitness.Injection{{Line: 7, Kind: "name", Name: "x", Class: "int_pos"}}, false},
		{"none", rec([]byte{0, 0}), []fitness.Injection{}, false},
		{"no count", rec(nil), nil, true},
		{"truncated line", rec([]byte{1, 0, 7, 0}), nil, true},
		{"truncated string", rec(good[:len(good)-2]), nil, true},
		{"invalid UTF-8 is replaced", rec([]byte{1, 0, 1, 0, 0, 0, 1, 0xff, 1, 'x', 1, 'o'}), []fitness.Injection{{Line: 1, Kind: "\uFFFD", Name: "x", Class: "o"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results := make([]fitness.Result, 1)
			checks, _ := fitness.NewChecks([]fitness.Case{{Kind: fitness.Test}}, 0)
			err := decodeRecords(tt.p, checks, fitness.NewMemo(1), results, make([]bool, 1), false)
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error: %v", err, tt.err)
			}
			if err == nil {
				if diff := cmp.Diff(tt.want, results[0].Injections); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestLenient(t *testing.T) {
	python(t)
	for _, tt := range lenientTests {
		t.Run(tt.name, func(t *testing.T) {
			got := lenientResults(lenientRun(t, tt.src, tt.cases, false))
			for i := range got {
				if i < len(tt.want) && !strings.Contains(tt.want[i].Detail, ":") {
					got[i].Detail, _, _ = strings.Cut(got[i].Detail, ":")
				}
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkLenientMiddle measures examples/middle (one candidate, 200
// cases, one worker) run plainly, plainly with a fresh fork per candidate
// (lenient candidates never reuse a child), and leniently.
func BenchmarkLenientMiddle(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	plan, err := lenient.NewPlan(src, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts sandbox.RunOptions
		cfg  config
	}{
		{"plain", sandbox.RunOptions{}, config{}},
		{"plain/fork-per-candidate", sandbox.RunOptions{}, config{noReuse: true}},
		{"lenient", sandbox.RunOptions{Lenient: plan}, config{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := newTestEngine(b, sandbox.Options{Suite: suite, Target: target, Workers: 1}, bc.cfg)
			ctx := context.Background()
			if _, err := e.Run(ctx, src, bc.opts); err != nil {
				b.Fatal(err)
			}
			n := 0
			cpu0 := engineCPU(e)
			start := time.Now()
			for b.Loop() {
				out, err := e.Run(ctx, src, bc.opts)
				if err != nil {
					b.Fatal(err)
				}
				if out.Results[0].Verdict != fitness.Passed {
					b.Fatal(out.Results[0])
				}
				n++
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "evals/s")
			b.ReportMetric((engineCPU(e)-cpu0).Seconds()*1e6/float64(n), "cpu-µs/eval")
		})
	}
}
