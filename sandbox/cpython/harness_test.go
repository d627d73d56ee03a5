package cpython

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"repair/fitness"
	"repair/internal/testutil/proctest"
	"repair/sandbox"
)

// goProtocol are the Go side's constants of the protocol, by the name the
// table of docs/engines.md gives them in its Go column.
var goProtocol = map[string]int64{
	"msgModules":                  msgModules,
	"msgCode":                     msgCode,
	"msgSuite":                    msgSuite,
	"msgOriginal":                 msgOriginal,
	"msgRun":                      msgRun,
	"msgDelta":                    msgDelta,
	"msgHello":                    msgHello,
	"msgPing":                     msgPing,
	"msgChunk":                    msgChunk,
	"msgCompile":                  msgCompile,
	"msgDone":                     msgDone,
	"msgFatal":                    msgFatal,
	"msgList":                     msgList,
	"msgWall":                     msgWall,
	"runCoverage":                 runCoverage,
	"runAbandon":                  runAbandon,
	"runLenient":                  runLenient,
	"runRange":                    runRange,
	"runRecord":                   runRecord,
	"runPartial":                  runPartial,
	"runSelect":                   runSelect,
	"runWall":                     runWall,
	"recDetail":                   recDetail,
	"recLines":                    recLines,
	"recInjections":               recInjections,
	"recProgress":                 recProgress,
	"recCalls":                    recCalls,
	"recSize":                     recSize,
	"capSize":                     capSize,
	"rangeSize":                   rangeSize,
	"spanSize":                    spanSize,
	"wallSize":                    wallSize,
	"pingSize":                    pingSize,
	"progressSize":                progressSize,
	"cpuSize":                     cpuSize,
	"recCPU":                      recCPU,
	"recSameLines":                recSameLines,
	"recLinesRef":                 recLinesRef,
	"doneSize":                    doneSize,
	"doneSelected":                doneSelected,
	"donePartial":                 donePartial,
	"doneKept":                    doneKept,
	"forkFirst":                   forkFirst,
	"forkOff":                     forkOff,
	"forkName":                    forkName,
	"forkImport":                  forkImport,
	"forkDunder":                  forkDunder,
	"forkString":                  forkString,
	"forkImpure":                  forkImpure,
	"forkAfter":                   forkAfter,
	"forkGuard":                   forkGuard,
	"forkServed":                  forkServed,
	"forkEnded":                   forkEnded,
	"forkAgain":                   forkAgain,
	"fitness.Passed":              int64(fitness.Passed),
	"fitness.WrongAnswer":         int64(fitness.WrongAnswer),
	"fitness.TimeLimitExceeded":   int64(fitness.TimeLimitExceeded),
	"fitness.RuntimeError":        int64(fitness.RuntimeError),
	"fitness.CompilationError":    int64(fitness.CompilationError),
	"fitness.MemoryLimitExceeded": int64(fitness.MemoryLimitExceeded),
	"fitness.StatusReturned":      int64(fitness.StatusReturned),
	"fitness.StatusRaised":        int64(fitness.StatusRaised),
	"fitness.StatusFinished":      int64(fitness.StatusFinished),
	"fitness.Call":                int64(fitness.Call),
	"fitness.IO":                  int64(fitness.IO),
	"fitness.Test":                int64(fitness.Test),
	"fitness.MaxDepth":            fitness.MaxDepth,
	"fitness.MaxMaterialise":      fitness.MaxMaterialise,
}

// runtimeConstants are the names of protocol.py that are not constants of
// the protocol (the descriptors the server was given).
var runtimeConstants = map[string]bool{"IN_FD": true, "OUT_FD": true}

// TestProtocolTable: the protocol is spelled once, in harness/protocol.py;
// the table of docs/engines.md ("The cpython harness protocol") and the Go
// constants say the same. Every constant of protocol.py is a row of the
// table with its value; every row's Go constant (the Go column) has that
// value (a struct layout's: its size); every Go constant of the protocol
// is in the table; and the layout of the shared memory holds together.
func TestProtocolTable(t *testing.T) {
	doc := docProtocolTable(t)
	src, err := fs.ReadFile(harnessFS, "harness/protocol.py")
	if err != nil {
		t.Fatal(err)
	}
	py, err := pyConstants(string(src))
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range py {
		if runtimeConstants[name] {
			continue
		}
		if _, ok := doc[name]; !ok {
			t.Errorf("protocol.py's %s = %s is not in the table of docs/engines.md", name, v)
		}
	}
	usedGo := map[string]bool{}
	for name, row := range doc {
		v, ok := py[name]
		if !ok {
			t.Errorf("docs/engines.md: %s is not a constant of protocol.py", name)
			continue
		}
		want, err := evalPy(row.value, py)
		if err != nil {
			t.Errorf("docs/engines.md: %s: value %q: %v", name, row.value, err)
			continue
		}
		if !want.equal(v) {
			t.Errorf("%s: docs/engines.md says %s, protocol.py %s", name, want, v)
		}
		if row.goName == "" {
			continue
		}
		usedGo[row.goName] = true
		if row.goName == "fitness.Kind" {
			// KINDS: the names of the kinds in the suite message.
			for _, k := range []fitness.Kind{fitness.Call, fitness.IO, fitness.Test} {
				if n, ok := v.lookup(k.String()); !ok || n != int64(k) {
					t.Errorf("KINDS[%q] = %d, %v; want %d (fitness.%s)", k.String(), n, ok, int64(k), k)
				}
			}
			continue
		}
		g, ok := goProtocol[row.goName]
		if !ok {
			t.Errorf("docs/engines.md: %s: no Go constant %s", name, row.goName)
			continue
		}
		n, ok := v.number()
		if !ok {
			t.Errorf("%s: %s is not a number or a layout", name, v)
			continue
		}
		if n != g {
			t.Errorf("%s: protocol.py %s (%d), Go's %s %d", name, v, n, row.goName, g)
		}
	}
	for name := range goProtocol {
		if !usedGo[name] {
			t.Errorf("Go's %s is in no row of the table of docs/engines.md", name)
		}
	}
	// Every constant of the protocol in server.go is one of goProtocol.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "server.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	protocolName := regexp.MustCompile(`^(msg|run|rec|done)[A-Z]|Size$`)
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if _, ok := goProtocol[id.Name]; !ok && protocolName.MatchString(id.Name) {
						t.Errorf("server.go's %s is not checked against the table (goProtocol)", id.Name)
					}
				}
			}
		}
	}
	// The shared memory: CUR is the start of HDR, JOB follows HDR, the
	// code follows JOB.
	hdr, cur, job := py["HDR"], py["CUR"], py["JOB"]
	if !strings.HasPrefix(hdr.format, cur.format) {
		t.Errorf("CUR %s is not the start of HDR %s", cur, hdr)
	}
	if hdr.size() > py["JOB_OFF"].i {
		t.Errorf("HDR (%d bytes) overlaps JOB at %d", hdr.size(), py["JOB_OFF"].i)
	}
	if py["JOB_OFF"].i+job.size() > py["CODE_OFF"].i {
		t.Errorf("JOB (%d bytes at %d) overlaps the code at %d", job.size(), py["JOB_OFF"].i, py["CODE_OFF"].i)
	}
}

// docRow is a row of the protocol table: the value (a Python expression,
// or a struct layout) and the Go constant, if any.
type docRow struct{ value, goName string }

// docProtocolTable reads the rows of the tables of the section "The
// cpython harness protocol" of docs/engines.md: | `NAME` | `value` | `Go` or — | meaning |.
func docProtocolTable(t *testing.T) map[string]docRow {
	t.Helper()
	f, err := os.Open("../../docs/engines.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]docRow{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.TrimSpace(line[3:]) == "The cpython harness protocol"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 4 {
			t.Fatalf("docs/engines.md: a row of %d cells: %s", len(cells), line)
		}
		name := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if _, dup := rows[name]; dup {
			t.Errorf("docs/engines.md: %s twice", name)
		}
		goName := strings.Trim(strings.TrimSpace(cells[2]), "`")
		if goName == "—" {
			goName = ""
		}
		rows[name] = docRow{value: strings.Trim(strings.TrimSpace(cells[1]), "`"), goName: goName}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal(`docs/engines.md: no section "The cpython harness protocol" with a table`)
	}
	return rows
}

// pyValue is the value of a constant of protocol.py: an int, bytes, a
// struct layout (struct.Struct) or a dict of str to int.
type pyValue struct {
	kind   byte // 'i', 'b', 's' (struct), 'd'
	i      int64
	b      string
	format string
	keys   []string
	vals   []int64
}

func (v pyValue) String() string {
	switch v.kind {
	case 'i':
		return strconv.FormatInt(v.i, 10)
	case 'b':
		return fmt.Sprintf("b%q", v.b)
	case 's':
		return fmt.Sprintf("struct %q", v.format)
	}
	var parts []string
	for k, key := range v.keys {
		parts = append(parts, fmt.Sprintf("%q: %d", key, v.vals[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (v pyValue) equal(w pyValue) bool { return v.String() == w.String() }

// number is an int's value, a one-byte bytes' byte, a layout's size.
func (v pyValue) number() (int64, bool) {
	switch {
	case v.kind == 'i':
		return v.i, true
	case v.kind == 'b' && len(v.b) == 1:
		return int64(v.b[0]), true
	case v.kind == 's':
		return v.size(), true
	}
	return 0, false
}

func (v pyValue) lookup(key string) (int64, bool) {
	for k, kk := range v.keys {
		if kk == key {
			return v.vals[k], true
		}
	}
	return 0, false
}

// size is the size of a struct layout with standard sizes ("<...").
func (v pyValue) size() int64 {
	sizes := map[byte]int64{'x': 1, 'c': 1, 'b': 1, 'B': 1, '?': 1, 'h': 2, 'H': 2, 'i': 4, 'I': 4,
		'l': 4, 'L': 4, 'q': 8, 'Q': 8, 'e': 2, 'f': 4, 'd': 8, 's': 1}
	var n, count int64
	for _, c := range []byte(strings.TrimPrefix(v.format, "<")) {
		if c >= '0' && c <= '9' {
			count = count*10 + int64(c-'0')
			continue
		}
		if count == 0 {
			count = 1
		}
		n += count * sizes[c]
		count = 0
	}
	return n
}

// pyConstants evaluates the top-level assignments of constants of
// protocol.py (NAME = expr, or NAME, NAME = expr, on one line).
func pyConstants(src string) (map[string]pyValue, error) {
	assign := regexp.MustCompile(`^([A-Z][A-Z0-9_]*(?:, [A-Z][A-Z0-9_]*)*) = (.*)$`)
	out := map[string]pyValue{}
	for _, line := range strings.Split(src, "\n") {
		m := assign.FindStringSubmatch(stripComment(line))
		if m == nil {
			continue
		}
		names := strings.Split(m[1], ", ")
		if runtimeConstants[names[0]] {
			out[names[0]] = pyValue{kind: 'i'}
			continue
		}
		vals, err := evalPyList(strings.TrimSpace(m[2]), out)
		if err != nil {
			return nil, fmt.Errorf("protocol.py: %s: %v", line, err)
		}
		if len(vals) != len(names) {
			return nil, fmt.Errorf("protocol.py: %s: %d names, %d values", line, len(names), len(vals))
		}
		for k, name := range names {
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("protocol.py: %s assigned twice", name)
			}
			out[name] = vals[k]
		}
	}
	return out, nil
}

// stripComment removes a # comment outside strings.
func stripComment(line string) string {
	quote := byte(0)
	for k := 0; k < len(line); k++ {
		c := line[k]
		switch {
		case quote != 0 && c == '\\':
			k++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return strings.TrimRight(line[:k], " ")
		}
	}
	return line
}

// evalPy evaluates one value of the table or of protocol.py: a struct
// layout ("<qd"), or an expression evalPyList reads.
func evalPy(s string, names map[string]pyValue) (pyValue, error) {
	if strings.HasPrefix(s, "<") {
		return pyValue{kind: 's', format: s}, nil
	}
	vals, err := evalPyList(s, names)
	if err != nil {
		return pyValue{}, err
	}
	if len(vals) != 1 {
		return pyValue{}, fmt.Errorf("%d values", len(vals))
	}
	return vals[0], nil
}

// evalPyList evaluates the small Python that protocol.py's constants are
// written in: ints (decimal, hex), + - * << and parentheses, b"x",
// struct.Struct("<..."), range(n), names of earlier constants, dicts of
// str to int, and a comma-separated list of those.
func evalPyList(s string, names map[string]pyValue) ([]pyValue, error) {
	var tok []string
	for rest := strings.TrimSpace(s); rest != ""; rest = strings.TrimSpace(rest) {
		m := pyToken.FindString(rest)
		if m == "" {
			return nil, fmt.Errorf("cannot read %q", rest)
		}
		tok = append(tok, m)
		rest = rest[len(m):]
	}
	p := &pyParser{tok: tok, names: names}
	var out []pyValue
	for {
		v, err := p.shift()
		if err != nil {
			return nil, err
		}
		if v.kind == 'r' { // range(n)
			for k := int64(0); k < v.i; k++ {
				out = append(out, pyValue{kind: 'i', i: k})
			}
		} else {
			out = append(out, v)
		}
		if !p.accept(",") {
			break
		}
	}
	if p.pos != len(p.tok) {
		return nil, fmt.Errorf("unexpected %q", p.tok[p.pos])
	}
	return out, nil
}

var pyToken = regexp.MustCompile(`^(0x[0-9A-Fa-f]+|[0-9]+|b?"[^"]*"|[A-Za-z_][A-Za-z_0-9.]*|<<|[-+*(),{}:])`)

type pyParser struct {
	tok   []string
	pos   int
	names map[string]pyValue
}

func (p *pyParser) accept(t string) bool {
	if p.pos < len(p.tok) && p.tok[p.pos] == t {
		p.pos++
		return true
	}
	return false
}

func (p *pyParser) binary(next func() (pyValue, error), ops ...string) (pyValue, error) {
	v, err := next()
	for err == nil {
		op := ""
		for _, o := range ops {
			if p.accept(o) {
				op = o
			}
		}
		if op == "" {
			return v, nil
		}
		var w pyValue
		if w, err = next(); err != nil {
			break
		}
		if v.kind != 'i' || w.kind != 'i' {
			return v, fmt.Errorf("%s on %s and %s", op, v, w)
		}
		switch op {
		case "<<":
			v.i <<= w.i
		case "+":
			v.i += w.i
		case "-":
			v.i -= w.i
		case "*":
			v.i *= w.i
		}
	}
	return v, err
}

func (p *pyParser) shift() (pyValue, error) { return p.binary(p.sum, "<<") }
func (p *pyParser) sum() (pyValue, error)   { return p.binary(p.product, "+", "-") }
func (p *pyParser) product() (pyValue, error) {
	return p.binary(p.atom, "*")
}

func (p *pyParser) atom() (pyValue, error) {
	if p.pos >= len(p.tok) {
		return pyValue{}, fmt.Errorf("unexpected end")
	}
	t := p.tok[p.pos]
	p.pos++
	switch {
	case t == "(":
		v, err := p.shift()
		if err == nil && !p.accept(")") {
			err = fmt.Errorf("no )")
		}
		return v, err
	case t == "-":
		v, err := p.atom()
		v.i = -v.i
		return v, err
	case t == "{":
		d := pyValue{kind: 'd'}
		for !p.accept("}") {
			if p.pos >= len(p.tok) || !strings.HasPrefix(p.tok[p.pos], `"`) {
				return d, fmt.Errorf("a dict's key must be a str")
			}
			key, _ := strconv.Unquote(p.tok[p.pos])
			p.pos++
			if !p.accept(":") {
				return d, fmt.Errorf("no : in a dict")
			}
			v, err := p.shift()
			if err != nil || v.kind != 'i' {
				return d, fmt.Errorf("a dict's value must be an int")
			}
			d.keys, d.vals = append(d.keys, key), append(d.vals, v.i)
			p.accept(",")
		}
		return d, nil
	case t == "struct.Struct" || t == "range":
		if !p.accept("(") || p.pos >= len(p.tok) {
			return pyValue{}, fmt.Errorf("%s without (", t)
		}
		arg := p.tok[p.pos]
		p.pos++
		if !p.accept(")") {
			return pyValue{}, fmt.Errorf("%s: one argument", t)
		}
		if t == "range" {
			n, err := strconv.ParseInt(arg, 0, 64)
			return pyValue{kind: 'r', i: n}, err
		}
		f, err := strconv.Unquote(arg)
		if err != nil || !strings.HasPrefix(f, "<") {
			return pyValue{}, fmt.Errorf("struct.Struct(%s): a little-endian layout", arg)
		}
		return pyValue{kind: 's', format: f}, nil
	case strings.HasPrefix(t, `b"`):
		b, err := strconv.Unquote(t[1:])
		return pyValue{kind: 'b', b: b}, err
	case t[0] >= '0' && t[0] <= '9':
		n, err := strconv.ParseInt(t, 0, 64)
		return pyValue{kind: 'i', i: n}, err
	}
	name, attr, _ := strings.Cut(t, ".")
	v, ok := p.names[name]
	if !ok {
		return pyValue{}, fmt.Errorf("unknown name %s", t)
	}
	switch attr {
	case "":
		return v, nil
	case "size":
		if v.kind == 's' {
			return pyValue{kind: 'i', i: v.size()}, nil
		}
	}
	return pyValue{}, fmt.Errorf("cannot read %s", t)
}

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
