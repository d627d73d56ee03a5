package cpython

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"repair/fitness"
	"repair/internal/testutil/proctest"
	"repair/sandbox"
)

// TestHarnessModules: every module of the harness is short enough to
// read, says what it owns, and the bootstrap says what the process is
// (repair's tests find servers by it).
func TestHarnessModules(t *testing.T) {
	ents, err := fs.ReadDir(harnessFS, "harness")
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) < 10 {
		t.Fatalf("%d modules", len(ents))
	}
	for _, ent := range ents {
		data, err := fs.ReadFile(harnessFS, "harness/"+ent.Name())
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		if strings.HasPrefix(src, "# Code generated ") {
			src = src[strings.Index(src, "\n")+1:] // protocol.py (internal/protogen)
		}
		if n := strings.Count(src, "\n"); n > 800 {
			t.Errorf("%s: %d lines; at most 800", ent.Name(), n)
		}
		if ent.Name() == "boot.py" {
			if !strings.Contains(src, "fork server of the repair cpython engine") {
				t.Error("boot.py does not say it is the fork server of the repair cpython engine")
			}
			continue
		}
		if !strings.HasPrefix(src, `"""`) {
			t.Errorf("%s: no module docstring", ent.Name())
		}
		if !strings.Contains(src[:strings.Index(src[3:], `"""`)+3], "Own") {
			t.Errorf("%s: its docstring does not say what it owns", ent.Name())
		}
	}
	_, harnessSources := harness()
	if strings.Contains(string(harnessSources), "\x00\x00") || strings.Count(string(harnessSources), "\x00") != 2*(len(ents)-1) {
		t.Error("a module's source holds a NUL byte")
	}
}

// harnessImport is an import of a module of the harness package:
// "from . import a, b" or "from .a import x", at any indentation (an
// import inside a function counts: it runs too).
var harnessImport = regexp.MustCompile(`(?m)^[ \t]*from \.(\w*) import \(?([\w, ]*)`)

// harnessImports are the modules of the harness that src imports.
func harnessImports(src string) []string {
	var deps []string
	for _, m := range harnessImport.FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			deps = append(deps, m[1])
			continue
		}
		for _, name := range strings.Split(m[2], ",") {
			if name = strings.TrimSpace(name); name != "" {
				deps = append(deps, name)
			}
		}
	}
	return deps
}

// importCycle is a cycle of imports in graph (module -> the modules it
// imports), as the modules along it with the first repeated at the end,
// or nil.
func importCycle(graph map[string][]string) []string {
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	var stack, cycle []string
	var visit func(string)
	visit = func(m string) {
		state[m] = visiting
		stack = append(stack, m)
		for _, d := range graph[m] {
			if cycle != nil {
				return
			}
			switch state[d] {
			case visiting:
				i := slices.Index(stack, d)
				cycle = append(slices.Clone(stack[i:]), d)
				return
			case 0:
				visit(d)
			}
		}
		stack = stack[:len(stack)-1]
		state[m] = done
	}
	names := slices.Sorted(maps.Keys(graph))
	for _, m := range names {
		if state[m] == 0 && cycle == nil {
			visit(m)
		}
	}
	return cycle
}

// TestHarnessImports: the modules of the harness import one another
// without a cycle (a module that builds on another is not imported by
// it), and the cycle finder finds one where there is.
func TestHarnessImports(t *testing.T) {
	ents, err := fs.ReadDir(harnessFS, "harness")
	if err != nil {
		t.Fatal(err)
	}
	harnessGraph := map[string][]string{}
	for _, ent := range ents {
		data, err := fs.ReadFile(harnessFS, "harness/"+ent.Name())
		if err != nil {
			t.Fatal(err)
		}
		harnessGraph[strings.TrimSuffix(ent.Name(), ".py")] = harnessImports(string(data))
	}
	if deps := harnessGraph["collected"]; !slices.Contains(deps, "real_pytest") || !slices.Contains(deps, "candidate") {
		t.Fatalf("collected.py imports %v: the import lines are not read", deps)
	}
	rows := []struct {
		name  string
		graph map[string][]string
		want  []string
	}{
		{"the harness", harnessGraph, nil},
		{"a chain", map[string][]string{"a": {"b"}, "b": {"c"}, "c": nil}, nil},
		{"a diamond", map[string][]string{"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": nil}, nil},
		{"two modules", map[string][]string{"a": {"b"}, "b": {"a"}}, []string{"a", "b", "a"}},
		{"through a third", map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"b"}}, []string{"b", "c", "b"}},
		{"itself", map[string][]string{"a": {"a"}}, []string{"a", "a"}},
	}
	for _, r := range rows {
		if got := importCycle(r.graph); !slices.Equal(got, r.want) {
			t.Errorf("%s: import cycle %v, want %v", r.name, got, r.want)
		}
	}
	if got := harnessImports("from . import a, b\nfrom .c import (\n    X,\n)\ndef f():\n    from .d import y\n"); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("harnessImports = %v, want [a b c d]", got)
	}
}

// TestHarnessUnseen: a candidate sees the harness as it saw the one-file
// harness: argv, no module of the harness importable, the import system
// as the interpreter made it; and a server started after the first runs
// the code the first compiled.
func TestHarnessUnseen(t *testing.T) {
	python(t)
	src := `import sys
def f():
    try:
        import repair_harness
        imported = "imported"
    except ImportError as e:
        imported = type(e).__name__
    h = sys.modules["__main__"]
    return [
        sys.argv,
        sorted(k for k in sys.modules if "harness" in k),
        [getattr(f, "__name__", type(f).__name__) for f in sys.meta_path],
        imported,
        [h.__name__, h.__package__, hasattr(h, "__file__"), hasattr(h, "__spec__") and h.__spec__],
        sorted(n for n in ("CUR", "HDR", "JOB", "REC", "SHM", "CASES") if hasattr(h, n)),
    ]
`
	want := `[["-c", "3", "4"], [], ["BuiltinImporter", "FrozenImporter", "PathFinder"], "ModuleNotFoundError",
		["__main__", null, false, null], ["CASES", "CUR", "HDR", "JOB", "REC", "SHM"]]`
	py := python(t)
	for _, kept := range []bool{false, true} {
		if !kept {
			harnessCode.Delete(py.Path)
		}
		out := runOne(t, src, []fitness.Case{call("f", "", want)}, sandbox.RunOptions{}, config{})
		if r := out.Results[0]; r.Verdict != fitness.Passed {
			t.Errorf("kept code %v: %v %s", kept, r.Verdict, r.Detail)
		}
		if _, ok := harnessCode.Load(py.Path); !ok {
			t.Error("no code kept after a server started")
		}
	}
}

// TestGuardCoversHarnessModules: with the static check off, a candidate
// that changes a global of one of the harness's modules, or a method of
// one of its classes, is refused a reused child by the guard: the next
// candidates run as if it had never run.
func TestGuardCoversHarnessModules(t *testing.T) {
	python(t)
	double := []fitness.Case{call("f", "[1]", "2"), call("f", "[3]", "6"), call("f", "[10]", "20")}
	reach := `    g = f.__globals__["__builtins__"]
    g = g if type(g) is dict else g.__dict__
    h = g["__import__"]("sys").modules["__main__"]
    c = h.candidate
`
	rows := []struct{ name, poison string }{
		{"a module's global", `def f(x):
` + reach + `    orig = c.RET_INT
    class Shifted:
        def pack(self, t, r, z):
            return orig.pack(t, r + 1, z)
    if type(c.RET_INT).__name__ != "Shifted":
        c.RET_INT = Shifted()
    return x * 2
`},
		{"a method of a class", `def f(x):
` + reach + `    orig = c.Ctx.run_call_in
    def shifted(self, case, d):
        status, payload, detail = orig(self, case, d)
        return status, c.RET_INT.pack(b"i", 1 + c.RET_INT.unpack(payload)[1], 0), detail
    if c.Ctx.run_call_in.__name__ != "shifted":
        c.Ctx.run_call_in = shifted
    return x * 2
`},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: double},
				Target: target(t, "cand.py", nil), Workers: 1}, config{noStaticCheck: true})
			for k, s := range []struct {
				src  string
				want fitness.Verdict
			}{
				{"def f(x):\n    return x * 2\n", fitness.Passed},
				{row.poison, fitness.Passed},
				{"def f(x):\n    return x * 2 - 1\n", fitness.WrongAnswer},
				{"def f(x):\n    return x * 2\n", fitness.Passed},
			} {
				out, err := e.Run(context.Background(), []byte(s.src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for j, r := range out.Results {
					if k != 1 && r.Verdict != s.want {
						t.Errorf("candidate %d, case %d: %v (%s); want %v", k, j, r.Verdict, r.Detail, s.want)
					}
				}
			}
			if st := e.Stats(); st.Reused == 0 {
				t.Errorf("%+v: no child reused: the test tests nothing", st)
			}
		})
	}
}

// BenchmarkServerStart measures starting one server up to its hello (the
// shim, the interpreter, the harness, the suite of examples/middle, its
// middle() padded to 13 or 5,000 lines), then kills it: "kept" with the
// code of the harness and of the original an earlier server compiled,
// "compile" without (in memory or in the cache). cpu-ms/op is the CPU the
// server used (its own and its children's, once reaped).
func BenchmarkServerStart(b *testing.B) {
	_, suite := middleSuite(b)
	for _, lines := range []int{13, 5000} {
		tgt := filepath.Join(b.TempDir(), "middle.py")
		if err := os.WriteFile(tgt, paddedMiddle(b, lines), 0o644); err != nil {
			b.Fatal(err)
		}
		e := newTestEngine(b, sandbox.Options{Suite: suite, Target: tgt, Workers: 1}, config{})
		for _, kept := range []bool{true, false} {
			name := fmt.Sprintf("lines=%d/kept", lines)
			if !kept {
				name = fmt.Sprintf("lines=%d/compile", lines)
			}
			serverStart(b, e, name, kept)
		}
	}
}

// serverStart is BenchmarkServerStart's run of name on engine e.
func serverStart(b *testing.B, e *Engine, name string, kept bool) {
	b.Run(name, func(b *testing.B) {
		if !kept {
			b.Setenv("REPAIR_CACHE_DIR", "off")
		}
		var ru0, ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru0)
		n := 0
		for b.Loop() {
			if !kept {
				harnessCode.Delete(e.python.Path)
				originals.Delete(e.origKey)
			}
			s, err := e.start(nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			s.kill()
			b.StartTimer()
			n++
		}
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru1)
		cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
		b.ReportMetric(cpu.Seconds()*1e3/float64(n), "cpu-ms/op")
	})
}

// TestBootstrapNotInArgv: a server's command line carries a one-line
// loader, not the bootstrap (ps would show pages of code), and the
// server runs all the same.
func TestBootstrapNotInArgv(t *testing.T) {
	python(t)
	e := newTestEngine(t, sandbox.Options{
		Suite:  &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{call("f", "[2]", "4")}},
		Target: target(t, "cand.py", nil),
	}, config{})
	out, err := e.Run(context.Background(), []byte("def f(x):\n    return x * 2\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Results[0]; r.Verdict != fitness.Passed {
		t.Fatalf("%v %s", r.Verdict, r.Detail)
	}
	pids := serverPIDs(e)
	if len(pids) == 0 {
		t.Fatal("no server")
	}
	for _, pid := range pids {
		for _, p := range append([]int{pid}, descendants(pid)...) {
			args := proctest.Cmdline(p)
			line := strings.Join(args, " ")
			if len(line) > 300 || strings.Contains(line, "fork server") {
				t.Errorf("process %d's command line is %d bytes: %.120q", p, len(line), line)
			}
		}
	}
}
