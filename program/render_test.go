package program

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustParse(t testing.TB, src string) *Program {
	t.Helper()
	p, err := Parse("x.py", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return p
}

// stmtAt finds the statement whose first line text is first (trimmed).
func stmtAt(t testing.TB, p *Program, first string) int {
	t.Helper()
	for i := range p.Stmts {
		if p.FirstLine(i) == first {
			return i
		}
	}
	t.Fatalf("no statement %q", first)
	return -1
}

// siteAt finds the n-th site (0-based) of kind k whose text is text.
func siteAt(t testing.TB, p *Program, k SiteKind, text string, n int) int {
	t.Helper()
	for i := range p.Sites {
		if p.Sites[i].Kind == k && p.SiteText(i) == text {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatalf("no %v site %q", k, text)
	return -1
}

func TestRender(t *testing.T) {
	type edit struct {
		op          Op
		stmt, donor string // first lines of statements
		site        string // text of a site (ReplaceText / SwapText)
		kind        SiteKind
		site2       string
		text        string
	}
	tests := []struct {
		name  string
		src   string
		edits []edit
		want  string
	}{
		{
			name:  "delete simple",
			src:   "def f(x):\n    y = x\n    return y\n",
			edits: []edit{{op: Delete, stmt: "y = x"}},
			want:  "def f(x):\n    return y\n",
		},
		{
			name:  "delete last of block gives pass",
			src:   "if a:\n    b = 1\nc = 2\n",
			edits: []edit{{op: Delete, stmt: "b = 1"}},
			want:  "if a:\n    pass\nc = 2\n",
		},
		{
			name:  "delete whole block gives one pass",
			src:   "while a:\n    b = 1\n    c = 2\nd = 3\n",
			edits: []edit{{op: Delete, stmt: "c = 2"}, {op: Delete, stmt: "b = 1"}},
			want:  "while a:\n    pass\nd = 3\n",
		},
		{
			name:  "delete and insert keep block non-empty",
			src:   "if a:\n    b = 1\nc = 2\n",
			edits: []edit{{op: Delete, stmt: "b = 1"}, {op: InsertAfter, stmt: "b = 1", donor: "c = 2"}},
			want:  "if a:\n    c = 2\nc = 2\n",
		},
		{
			name:  "insert compound re-indented",
			src:   "def f(x):\n    if x:\n        return 1\n    return 2\n\ny = 0\n",
			edits: []edit{{op: InsertBefore, stmt: "y = 0", donor: "if x:"}},
			want:  "def f(x):\n    if x:\n        return 1\n    return 2\n\nif x:\n    return 1\ny = 0\n",
		},
		{
			name:  "insert after compound goes after its body",
			src:   "for i in r:\n    if i:\n        s = 1\nt = 2\n",
			edits: []edit{{op: InsertAfter, stmt: "if i:", donor: "t = 2"}},
			want:  "for i in r:\n    if i:\n        s = 1\n    t = 2\nt = 2\n",
		},
		{
			name: "inserts at one offset: deeper first",
			src:  "if a:\n    b = 1\nc = 2\n",
			edits: []edit{
				{op: InsertBefore, stmt: "c = 2", donor: "c = 2"},
				{op: InsertAfter, stmt: "b = 1", donor: "b = 1"},
				{op: InsertAfter, stmt: "if a:", donor: "c = 2"},
			},
			want: "if a:\n    b = 1\n    b = 1\nc = 2\nc = 2\nc = 2\n",
		},
		{
			name:  "replace",
			src:   "def middle(x, y, z):\n    if x < z:\n        return y\n    return x\n",
			edits: []edit{{op: Replace, stmt: "return y", donor: "return x"}},
			want:  "def middle(x, y, z):\n    if x < z:\n        return x\n    return x\n",
		},
		{
			name:  "swap",
			src:   "a = 1\nif a:\n    b = 2\nc = 3\n",
			edits: []edit{{op: Swap, stmt: "a = 1", donor: "b = 2"}},
			want:  "b = 2\nif a:\n    a = 1\nc = 3\n",
		},
		{
			name:  "swap nested is dropped",
			src:   "if a:\n    b = 2\n",
			edits: []edit{{op: Swap, stmt: "if a:", donor: "b = 2"}},
			want:  "if a:\n    b = 2\n",
		},
		{
			name:  "split one-line if",
			src:   "def f(x):\n    if x < 0: return -x\n    return x\n",
			edits: []edit{{op: InsertBefore, stmt: "return -x", donor: "return x"}},
			want:  "def f(x):\n    if x < 0:\n        return x\n        return -x\n    return x\n",
		},
		{
			name:  "split semicolons",
			src:   "a = 1; b = 2; c = 3\nd = 4\n",
			edits: []edit{{op: Delete, stmt: "b = 2"}},
			want:  "a = 1\nc = 3\nd = 4\n",
		},
		{
			name:  "split one-line block with semicolons",
			src:   "for x in xs: n += 1; t += x\n",
			edits: []edit{{op: Replace, stmt: "t += x", donor: "n += 1"}},
			want:  "for x in xs:\n    n += 1\n    n += 1\n",
		},
		{
			name:  "delete in one-line block gives pass",
			src:   "while n > 10: n -= 1\n",
			edits: []edit{{op: Delete, stmt: "n -= 1"}},
			want:  "while n > 10:\n    pass\n",
		},
		{
			name:  "other one-line clauses untouched",
			src:   "if x: a = 1\nelse: a = 2\n",
			edits: []edit{{op: Delete, stmt: "a = 2"}},
			want:  "if x: a = 1\nelse:\n    pass\n",
		},
		{
			name:  "tabs",
			src:   "def f(xs):\n\tfor x in xs:\n\t\tif x:\n\t\t\tcontinue\n\treturn 1\n",
			edits: []edit{{op: InsertBefore, stmt: "return 1", donor: "if x:"}},
			want:  "def f(xs):\n\tfor x in xs:\n\t\tif x:\n\t\t\tcontinue\n\tif x:\n\t\tcontinue\n\treturn 1\n",
		},
		{
			name:  "crlf",
			src:   "def f(a):\r\n    if a: return 1\r\n    return 2\r\n",
			edits: []edit{{op: Delete, stmt: "return 1"}},
			want:  "def f(a):\r\n    if a:\r\n        pass\r\n    return 2\r\n",
		},
		{
			name:  "no final newline, insert after last",
			src:   "x = 1\ny = 2",
			edits: []edit{{op: InsertAfter, stmt: "y = 2", donor: "x = 1"}},
			want:  "x = 1\ny = 2\nx = 1",
		},
		{
			name:  "no final newline, replace last",
			src:   "x = 1\ny = 2",
			edits: []edit{{op: Replace, stmt: "y = 2", donor: "x = 1"}},
			want:  "x = 1\nx = 1",
		},
		{
			name:  "multi-line string is not re-indented",
			src:   "def f():\n    s = \"\"\"\n  keep\n\"\"\"\n    return s\n",
			edits: []edit{{op: InsertBefore, stmt: "def f():", donor: "s = \"\"\""}},
			want:  "s = \"\"\"\n  keep\n\"\"\"\ndef f():\n    s = \"\"\"\n  keep\n\"\"\"\n    return s\n",
		},
		{
			name:  "replace text",
			src:   "def f(x, y):\n    return x < y\n",
			edits: []edit{{op: ReplaceText, kind: SiteCmpOp, site: "<", text: "<="}},
			want:  "def f(x, y):\n    return x <= y\n",
		},
		{
			name:  "swap text",
			src:   "d = f(a, b)\n",
			edits: []edit{{op: SwapText, kind: SiteExpr, site: "a", site2: "b"}},
			want:  "d = f(b, a)\n",
		},
		{
			name:  "swapped operators keep words apart",
			src:   "n = a is not b\nc = d<=e\n",
			edits: []edit{{op: SwapText, kind: SiteCmpOp, site: "<=", site2: "is not"}},
			want:  "n = a <= b\nc = d is not e\n",
		},
		{
			name:  "a keyword operator between names gets spaces",
			src:   "c = d<e\n",
			edits: []edit{{op: ReplaceText, kind: SiteCmpOp, site: "<", text: "not in"}},
			want:  "c = d not in e\n",
		},
		{
			name:  "adjacent replacements see each other",
			src:   "c = d<-e\n",
			edits: []edit{{op: ReplaceText, kind: SiteCmpOp, site: "<", text: "is"}, {op: ReplaceText, kind: SiteUnaryOp, site: "-", text: "not"}},
			want:  "c = d is not e\n",
		},
		{
			name: "edit inside deleted statement is dropped",
			src:  "if a:\n    b = a + 1\nc = 2\n",
			edits: []edit{
				{op: Delete, stmt: "if a:"},
				{op: ReplaceText, kind: SiteBinOp, site: "+", text: "-"},
				{op: InsertAfter, stmt: "b = a + 1", donor: "c = 2"},
			},
			want: "c = 2\n",
		},
		{
			name: "text edit then statement edit on the same line",
			src:  "if a:\n    b = a + 1\nc = 2\n",
			edits: []edit{
				{op: ReplaceText, kind: SiteBinOp, site: "+", text: "-"},
				{op: Delete, stmt: "b = a + 1"},
			},
			want: "if a:\n    b = a - 1\nc = 2\n",
		},
		{
			name:  "decorated definition moves with its decorators",
			src:   "@dec\ndef f():\n    pass\n\nclass C:\n    x = 1\n",
			edits: []edit{{op: InsertAfter, stmt: "x = 1", donor: "@dec"}},
			want:  "@dec\ndef f():\n    pass\n\nclass C:\n    x = 1\n    @dec\n    def f():\n        pass\n",
		},
		{
			name:  "insert adapted copy",
			src:   "def f(a, b, r):\n    r.extend(a)\n    return r\n",
			edits: []edit{{op: InsertAfter, stmt: "r.extend(a)", donor: "r.extend(a)", kind: SiteIdent, site: "a", text: "b"}},
			want:  "def f(a, b, r):\n    r.extend(a)\n    r.extend(b)\n    return r\n",
		},
		{
			name:  "replace by adapted copy of itself",
			src:   "if x:\n    y = a + 1\n",
			edits: []edit{{op: Replace, stmt: "y = a + 1", donor: "y = a + 1", kind: SiteBinOp, site: "+", text: "-"}},
			want:  "if x:\n    y = a - 1\n",
		},
		{
			name:  "guard two statements and the comment between them",
			src:   "def f(x):\n    a = 1\n    # note\n    b = 2\n    return a\n",
			edits: []edit{{op: Guard, stmt: "a = 1", donor: "b = 2", text: "x"}},
			want:  "def f(x):\n    if x:\n        a = 1\n        # note\n        b = 2\n    return a\n",
		},
		{
			name:  "guard keeps the lines of a multi-line string",
			src:   "def f():\n    s = \"\"\"\nkeep\n\"\"\"\n    return s\n",
			edits: []edit{{op: Guard, stmt: "s = \"\"\"", donor: "return s", text: "c"}},
			want:  "def f():\n    if c:\n        s = \"\"\"\nkeep\n\"\"\"\n        return s\n",
		},
		{
			name:  "guard splits a one-line block",
			src:   "if a: b = 1; c = 2\n",
			edits: []edit{{op: Guard, stmt: "c = 2", donor: "c = 2", text: "x"}},
			want:  "if a:\n    b = 1\n    if x:\n        c = 2\n",
		},
		{
			name:  "guard with tabs, no final newline",
			src:   "def f():\n\treturn 1",
			edits: []edit{{op: Guard, stmt: "return 1", donor: "return 1", text: "x is not None"}},
			want:  "def f():\n\tif x is not None:\n\t\treturn 1",
		},
		{
			name: "inserts inside a guard are dropped, next to it kept, site edits applied",
			src:  "a = 1\nb = 2\nc = 3\n",
			edits: []edit{
				{op: Guard, stmt: "a = 1", donor: "b = 2", text: "x"},
				{op: InsertAfter, stmt: "a = 1", donor: "c = 3"},
				{op: InsertBefore, stmt: "b = 2", donor: "c = 3"},
				{op: InsertBefore, stmt: "a = 1", donor: "c = 3"},
				{op: InsertAfter, stmt: "b = 2", donor: "c = 3"},
				{op: ReplaceText, kind: SiteLiteral, site: "2", text: "5"},
			},
			want: "c = 3\nif x:\n    a = 1\n    b = 5\nc = 3\nc = 3\n",
		},
		{
			name: "statement edits inside a guard and overlapping guards are dropped",
			src:  "def f(x):\n    a = 1\n    b = 2\n    c = 3\n",
			edits: []edit{
				{op: Guard, stmt: "a = 1", donor: "b = 2", text: "x"},
				{op: Delete, stmt: "b = 2"},
				{op: Guard, stmt: "b = 2", donor: "c = 3", text: "y"},
				{op: Guard, stmt: "c = 3", donor: "c = 3", text: "z"},
				{op: InsertAfter, stmt: "def f(x):", donor: "a = 1"},
			},
			want: "def f(x):\n    if x:\n        a = 1\n        b = 2\n    if z:\n        c = 3\na = 1\n",
		},
		{
			name: "a guard after what is inserted after the statement before it",
			src:  "if t:\n    a = 1\nb = 2\n",
			edits: []edit{
				{op: Guard, stmt: "b = 2", donor: "b = 2", text: "x"},
				{op: InsertAfter, stmt: "a = 1", donor: "a = 1"},
				{op: InsertAfter, stmt: "if t:", donor: "a = 1"},
				{op: InsertBefore, stmt: "b = 2", donor: "a = 1"},
			},
			want: "if t:\n    a = 1\n    a = 1\na = 1\na = 1\nif x:\n    b = 2\n",
		},
		{
			name:  "insert text",
			src:   "def f(n):\n    if n: return n.v\n",
			edits: []edit{{op: InsertText, stmt: "return n.v", text: "if n.v is None: return 0"}},
			want:  "def f(n):\n    if n:\n        if n.v is None: return 0\n        return n.v\n",
		},
		{
			name:  "replace a line by composed lines, indented as it is, in a one-line block too",
			src:   "def f(d):\n\tif d: s = d.decode()\n\treturn s\n",
			edits: []edit{{op: ReplaceLine, stmt: "s = d.decode()", text: "try:\n\ts = d.decode()\nexcept UnicodeError:\n\traise E"}},
			want:  "def f(d):\n\tif d:\n\t\ttry:\n\t\t\ts = d.decode()\n\t\texcept UnicodeError:\n\t\t\traise E\n\treturn s\n",
		},
		{
			name:  "rename every read in a statement",
			src:   "def f(a, b):\n    y = g(a, h(a)) + b\n    return a\n",
			edits: []edit{{op: Rename, stmt: "y = g(a, h(a)) + b", kind: SiteIdent, site: "a", text: "b"}},
			want:  "def f(a, b):\n    y = g(b, h(b)) + b\n    return a\n",
		},
		{
			name: "rename in a function, with an insert inside it",
			src:  "def f(a, b):\n    x = a\n    return a\n",
			edits: []edit{
				{op: Rename, stmt: "def f(a, b):", kind: SiteIdent, site: "a", text: "b"},
				{op: InsertBefore, stmt: "return a", donor: "x = a"},
				{op: Delete, stmt: "x = a"},
			},
			want: "def f(a, b):\n    x = b\n    x = a\n    return b\n",
		},
		{
			name:  "byte order mark kept",
			src:   "\xef\xbb\xbfx = 1\ny = 2\n",
			edits: []edit{{op: Delete, stmt: "x = 1"}},
			want:  "\xef\xbb\xbfy = 2\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParse(t, tt.src)
			var pt Patch
			for _, e := range tt.edits {
				ed := Edit{Op: e.op}
				if e.stmt != "" {
					ed.Stmt = stmtAt(t, p, e.stmt)
				}
				if e.donor != "" {
					ed.Donor = stmtAt(t, p, e.donor)
				}
				if e.site != "" {
					ed.Site = siteAt(t, p, e.kind, e.site, 0)
				}
				if e.site2 != "" {
					ed.Site2 = siteAt(t, p, e.kind, e.site2, 0)
				}
				ed.Text = e.text
				pt = append(pt, ed)
			}
			got := string(p.Render(pt))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("render mismatch (-want +got):\n%s", diff)
			}
			if _, err := Parse("out.py", []byte(got)); err != nil {
				t.Errorf("rendered text does not parse: %v", err)
			}
		})
	}
}

// corpus returns the programs of testdata/corpus.
func corpus(t testing.TB) map[string]*Program {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.py")
	if err != nil || len(files) < 15 {
		t.Fatalf("corpus: %v (%d files)", err, len(files))
	}
	out := map[string]*Program{}
	for _, f := range files {
		p, err := ParseFile(f)
		if err != nil {
			t.Fatalf("%v", err)
		}
		out[f] = p
	}
	return out
}

// SingleEdits returns, for a program, one edit of every kind at every site
// and statement it applies to (inserts and replacements with a few donors
// each), all of which must render to code that compiles.
func singleEdits(p *Program) []Edit {
	var out []Edit
	n := len(p.Stmts)
	for s := 0; s < n; s++ {
		if p.CanRemove(s) {
			out = append(out, Edit{Op: Delete, Stmt: s})
		}
		for k := 1; k <= 3; k++ {
			d := (s*7 + k*13) % n
			if p.CanPlace(d, s) {
				out = append(out,
					Edit{Op: InsertBefore, Stmt: s, Donor: d},
					Edit{Op: InsertAfter, Stmt: s, Donor: d})
				if d != s && p.CanRemove(s) {
					out = append(out, Edit{Op: Replace, Stmt: s, Donor: d})
				}
			}
			if d != s && p.CanPlace(d, s) && p.CanPlace(s, d) && p.CanRemove(s) && p.CanRemove(d) && !p.Contains(s, d) && !p.Contains(d, s) {
				out = append(out, Edit{Op: Swap, Stmt: s, Donor: d})
			}
		}
	}
	for i := range p.Sites {
		if text, ok := replacementFor(p, i); ok {
			out = append(out, Edit{Op: ReplaceText, Site: i, Text: text})
		}
	}
	for s := 0; s < n; s++ {
		if !p.Movable(s) {
			continue
		}
		out = append(out, Edit{Op: InsertText, Stmt: s, Text: "pass"})
		blk := p.Blocks[p.Stmts[s].Block].Stmts
		k := slices.Index(blk, s)
		for j := k; j < len(blk) && j < k+3 && p.Movable(blk[j]); j++ {
			out = append(out, Edit{Op: Guard, Stmt: s, Donor: blk[j], Text: "x"})
		}
	}
	for i := range p.Sites {
		if s := &p.Sites[i]; s.Kind == SiteIdent && !s.Store {
			out = append(out, Edit{Op: Rename, Stmt: s.Stmt, Site: i, Text: "zz_name"})
			if top := outermost(p, s.Stmt); top != s.Stmt {
				out = append(out, Edit{Op: Rename, Stmt: top, Site: i, Text: "zz_name"})
			}
		}
	}
	return out
}

// outermost returns the statement of the module's block that holds s.
func outermost(p *Program, s int) int {
	for p.Stmts[s].Parent >= 0 {
		s = p.Stmts[s].Parent
	}
	return s
}

// replacementFor returns a syntactically valid replacement for a site.
func replacementFor(p *Program, i int) (string, bool) {
	s := &p.Sites[i]
	text := p.SiteText(i)
	switch s.Kind {
	case SiteBinOp:
		if text == "+" {
			return "-", true
		}
		return "+", true
	case SiteCmpOp:
		if text == "<=" {
			return "<", true
		}
		return "<=", true
	case SiteBoolOp:
		if text == "and" {
			return "or", true
		}
		return "and", true
	case SiteUnaryOp:
		switch text {
		case "-":
			return "+", true
		case "+", "~":
			return "-", true
		}
		return "", false
	case SiteAugOp:
		if text == "+=" {
			return "-=", true
		}
		return "+=", true
	case SiteLiteral:
		return "None", true
	case SiteIdent:
		return "zz_name", !s.Pinned
	case SiteExpr:
		return "(1)", true
	case SiteCond:
		return s.Fit("not ("+text+")", PrecNot), true
	}
	return "", false
}

// pythonCompile compiles each source with CPython and returns the error
// (or "") for each. It skips the test when python3 is missing.
func pythonCompile(t *testing.T, srcs []string) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	data, _ := json.Marshal(srcs)
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import json, sys
out = []
for s in json.load(open(sys.argv[1], encoding="utf-8")):
    try:
        compile(s.encode("utf-8"), "<candidate>", "exec")
        out.append("")
    except SyntaxError as e:
        out.append("%s: line %s: %s" % (type(e).__name__, e.lineno, e.msg))
json.dump(out, sys.stdout)
`
	cmd := exec.Command(py, "-c", script, in)
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var errs []string
	if err := json.Unmarshal(res, &errs); err != nil {
		t.Fatal(err)
	}
	return errs
}

// TestRenderCorpus applies every single edit to every corpus program: the
// result must re-parse and compile with CPython.
func TestRenderCorpus(t *testing.T) {
	var srcs, names []string
	total := 0
	for f, p := range corpus(t) {
		for _, e := range singleEdits(p) {
			total++
			out := p.Render(Patch{e})
			name := fmt.Sprintf("%s: %s", filepath.Base(f), p.Describe(e))
			if _, err := Parse("out.py", out); err != nil {
				t.Errorf("%s: rendered text does not parse: %v\n%s", name, err, out)
				continue
			}
			srcs = append(srcs, string(out))
			names = append(names, name)
		}
	}
	t.Logf("%d edits rendered", total)
	if t.Failed() {
		return
	}
	for i, msg := range pythonCompile(t, srcs) {
		if msg != "" {
			t.Errorf("%s: CPython: %s\n%s", names[i], msg, srcs[i])
		}
	}
}

func TestRenderEmptyPatchIsIdentity(t *testing.T) {
	for f, p := range corpus(t) {
		if got := p.Render(nil); string(got) != string(p.Src) {
			t.Errorf("%s: empty patch changed the text", f)
		}
	}
}

func TestDescribe(t *testing.T) {
	p := mustParse(t, "def middle(x, y, z):\n    if x < z:\n        return y\n    return x\n")
	e := Edit{Op: Replace, Stmt: stmtAt(t, p, "return y"), Donor: stmtAt(t, p, "return x")}
	want := "line 3: replaced `return y` with `return x` (from line 4)"
	if got := p.Describe(e); got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	e = Edit{Op: ReplaceText, Site: siteAt(t, p, SiteIdent, "y", 0), Text: "x"}
	want = "line 3: replaced `y` with `x`"
	if got := p.Describe(e); got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	e = Edit{Op: ReplaceLine, Stmt: stmtAt(t, p, "return x"), Text: "try:\n    return x\nexcept KeyError:\n    raise E"}
	want = "line 4: replaced `return x` with `try: return x except KeyError: raise E`"
	if got := p.Describe(e); got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}
