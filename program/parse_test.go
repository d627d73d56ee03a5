package program

import (
	stdcmp "cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/internal/inputerr"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"unclosed paren", "def f(x:\n    return x\n", "x.py:1:"},
		{"missing body", "def f():\nreturn 1\n", "x.py:1:9: syntax error: expected an indented block"},
		{"bad dedent", "if x:\n    a = 1\n  b = 2\n", "x.py:3:3: syntax error: unexpected indent"},
		{"uneven block", "if x:\n    a = 1\n      b = 2\n", "x.py:3:7: syntax error: unexpected indent"},
		{"case deeper than the first case", "match m:\n  case 1: a\n   case 2: b\n", "x.py:3:4: syntax error: unexpected indent"},
		{"case shallower than the first case", "match m:\n   case 1: a\n  case 2: b\n", "x.py:3:3: syntax error:"},
		{"indented module", "  a = 1\n", "x.py:1:3: syntax error: unexpected indent"},
		{"tabs and spaces", "if x:\n        a = 1\n\tb = 2\n", "x.py:3:2: syntax error: inconsistent use of tabs and spaces"},
		{"python 2 print", "print \"hi\"\n", "x.py:1:1: syntax error: Python 2 print statement (use print(...))"},
		{"stray token", "x = = 1\n", "x.py:1:"},
		{"binary", "x = 1\n\x00\x01", "x.py:2: binary file (NUL byte), not Python source"},
		{"vertical tab", "x = 1\n\v0\n", "x.py:2:1: syntax error: invalid non-printable character U+000B"},
		{"form feed, then a statement less indented", "if x:\n    \fy = 1\n", "x.py:1:6: syntax error: expected an indented block"},
		{"latin-1", "x = 1\ns = '\xe9'\n", "x.py:2: not UTF-8 text (invalid byte 0xe9); save the file as UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.py", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			if !inputerr.Is(err) {
				t.Errorf("error %v is not a bad-input error", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want prefix %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, err := Parse("m.py", []byte("def f():\n    x = (1,\n    return x\n"))
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *SyntaxError", err)
	}
	if se.Line < 2 || se.Line > 3 {
		t.Errorf("line = %d, want 2 or 3", se.Line)
	}
}

func TestParseFileErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.py")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := ParseFile(empty); err != nil || len(p.Stmts) != 0 {
		t.Errorf("empty file: %v, %v", p, err)
	}
	for _, path := range []string{filepath.Join(dir, "missing.py"), dir} {
		_, err := ParseFile(path)
		if err == nil || !inputerr.Is(err) || !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("ParseFile(%s) = %v, want a bad-input error naming the file", path, err)
		}
	}
}

// TestStatementTable checks the statement table of a program holding every
// statement and block kind.
func TestStatementTable(t *testing.T) {
	src := `import os
from x import y as z
def f(a, b=1):
    """doc"""
    global g
    for i in a:
        if i: continue
        elif b:
            break
        else:
            pass
    else:
        x = 1; y = 2
    while b:
        b -= 1
    try:
        raise ValueError
    except ValueError as e:
        del e
    finally:
        assert a
    with open(a) as fh:
        return fh.read()
@dec
class C:
    def m(self):
        match self:
            case 1:
                yield 1
            case _:
                pass
`
	p := mustParse(t, src)
	var got []string
	for _, s := range p.Stmts {
		got = append(got, fmt.Sprintf("%d %s L%d-%d indent=%q inline=%v parent=%d scope=%s",
			s.ID, s.Kind, s.Line, s.EndLine, s.Indent, s.Inline, s.Parent, p.Scopes[s.Scope].Name))
	}
	want := []string{
		`0 import_statement L1-1 indent="" inline=false parent=-1 scope=`,
		`1 import_from_statement L2-2 indent="" inline=false parent=-1 scope=`,
		`2 function_definition L3-23 indent="" inline=false parent=-1 scope=`,
		`3 expression_statement L4-4 indent="    " inline=false parent=2 scope=f`,
		`4 global_statement L5-5 indent="    " inline=false parent=2 scope=f`,
		`5 for_statement L6-13 indent="    " inline=false parent=2 scope=f`,
		`6 if_statement L7-11 indent="        " inline=false parent=5 scope=f`,
		`7 continue_statement L7-7 indent="            " inline=true parent=6 scope=f`,
		`8 break_statement L9-9 indent="            " inline=false parent=6 scope=f`,
		`9 pass_statement L11-11 indent="            " inline=false parent=6 scope=f`,
		`10 expression_statement L13-13 indent="        " inline=true parent=5 scope=f`,
		`11 expression_statement L13-13 indent="        " inline=true parent=5 scope=f`,
		`12 while_statement L14-15 indent="    " inline=false parent=2 scope=f`,
		`13 expression_statement L15-15 indent="        " inline=false parent=12 scope=f`,
		`14 try_statement L16-21 indent="    " inline=false parent=2 scope=f`,
		`15 raise_statement L17-17 indent="        " inline=false parent=14 scope=f`,
		`16 delete_statement L19-19 indent="        " inline=false parent=14 scope=f`,
		`17 assert_statement L21-21 indent="        " inline=false parent=14 scope=f`,
		`18 with_statement L22-23 indent="    " inline=false parent=2 scope=f`,
		`19 return_statement L23-23 indent="        " inline=false parent=18 scope=f`,
		`20 decorated_definition L24-31 indent="" inline=false parent=-1 scope=`,
		`21 function_definition L26-31 indent="    " inline=false parent=20 scope=C`,
		`22 match_statement L27-31 indent="        " inline=false parent=21 scope=C.m`,
		`23 expression_statement L29-29 indent="                " inline=false parent=22 scope=C.m`,
		`24 pass_statement L31-31 indent="                " inline=false parent=22 scope=C.m`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statement table mismatch (-want +got):\n%s", diff)
	}
	if !p.Stmts[3].Docstring {
		t.Errorf("docstring not marked")
	}
	if got, want := p.Scopes[1].Names, []string{"a", "b", "i", "x", "y", "fh", "e"}; len(got) != len(want) {
		t.Errorf("names of f = %v, want the set %v", got, want)
	}
	// Placement: break needs a loop, return a function, yield a function.
	brk := 8
	if p.CanPlace(brk, 0) || !p.CanPlace(brk, 7) || p.CanPlace(brk, 13+2) {
		t.Errorf("break placement wrong")
	}
	if p.CanPlace(19, 0) || !p.CanPlace(19, 16) {
		t.Errorf("return placement wrong")
	}
	if p.CanPlace(4, 16) || p.CanPlace(16, 4) {
		t.Errorf("global statements must not move or be replaced")
	}
}

func TestSites(t *testing.T) {
	p := mustParse(t, "def f(xs, k):\n    n = len(xs) - 1\n    if n >= k and not xs[n]:\n        return g(xs[n - 1], k)\n    return f\"{n!r}\" + 'a' 'b'\n")
	var got []string
	for i, s := range p.Sites {
		extra := ""
		if s.Store {
			extra += " store"
		}
		if s.InString {
			extra += " in-string"
		}
		if s.Role != RoleNone {
			extra += " " + s.Role.String()
		}
		got = append(got, fmt.Sprintf("%s %q%s", s.Kind, p.SiteText(i), extra))
	}
	want := []string{
		`ident "n" store`,
		`expr "len(xs) - 1" value`,
		`expr "len(xs)" operand`,
		`ident "len"`,
		`expr "xs" arg`,
		`ident "xs"`,
		`binop "-"`,
		`expr "1" operand`,
		`literal "1"`,
		`cond "n >= k and not xs[n]" cond`,
		`expr "n >= k" operand`,
		`expr "n" operand`,
		`ident "n"`,
		`cmpop ">="`,
		`expr "k" operand`,
		`ident "k"`,
		`boolop "and"`,
		`expr "not xs[n]" operand`,
		`unaryop "not"`,
		`expr "xs[n]" operand`,
		`ident "xs"`,
		`expr "n" index`,
		`ident "n"`,
		`expr "g(xs[n - 1], k)" return`,
		`ident "g"`,
		`args "(xs[n - 1], k)"`,
		`expr "xs[n - 1]" arg`,
		`ident "xs"`,
		`expr "n - 1" index`,
		`expr "n" operand`,
		`ident "n"`,
		`binop "-"`,
		`expr "1" operand`,
		`literal "1"`,
		`expr "k" arg`,
		`ident "k"`,
		`expr "f\"{n!r}\" + 'a' 'b'" return`,
		`expr "f\"{n!r}\"" operand`,
		`literal "f\"{n!r}\""`,
		`expr "n" in-string arg`,
		`ident "n" in-string`,
		`binop "+"`,
		`expr "'a' 'b'" operand`,
		`literal "'a' 'b'"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sites mismatch (-want +got):\n%s", diff)
	}
}

// TestLineContinuationIsNoSite: a backslash continuation inside a
// subscript is a token between the index and the bracket, not an index
// (the binding's ts_node_field_name_for_child named it "subscript", and it
// became an expression site whose text was "\\\n").
func TestLineContinuationIsNoSite(t *testing.T) {
	for _, src := range []string{"x[1 \\\n]\n", "x[a:b \\\n]\n", "x[1, \\\n 2]\n", "x \\\n = 1\n"} {
		p, err := Parse("t.py", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for i := range p.Sites {
			if text := p.SiteText(i); strings.Contains(text, "\\") {
				t.Errorf("%q: site %d (%v) is %q", src, i, p.Sites[i].Kind, text)
			}
		}
	}
}

// TestSortSites: sortSites is the stable sort by start, then longest
// first.
func TestSortSites(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 400 {
		// Offsets too large to pack into one integer take the other way.
		scale := 1
		if k%2 == 1 {
			scale = 1 << 30
		}
		sites := make([]Site, rng.IntN(60))
		for i := range sites {
			s := rng.IntN(10) * scale
			sites[i] = Site{ID: i, Start: s, End: s + rng.IntN(5)*scale}
		}
		want := slices.Clone(sites)
		slices.SortStableFunc(want, func(a, c Site) int {
			if a.Start != c.Start {
				return stdcmp.Compare(a.Start, c.Start)
			}
			return stdcmp.Compare(c.End, a.End)
		})
		sortSites(sites)
		if !slices.EqualFunc(sites, want, func(a, c Site) bool { return a.ID == c.ID }) {
			t.Fatalf("sortSites: %v, want %v", sites, want)
		}
	}
}

// TestBodyOnHeadersLastLine: a body on the last line of a header that a
// string spans is on its header's line, whatever the header's
// indentation: it parsed with spaces and was refused with a tab (the
// fuzzer found it in a generated program Python compiles).
func TestBodyOnHeadersLastLine(t *testing.T) {
	for _, indent := range []string{"    ", "\t", "            \t"} {
		src := "def f(x):\n" + indent + "while x is '''a\nb''': x = g()\n" + indent + "return x\n"
		p, err := Parse("x.py", []byte(src))
		if err != nil {
			t.Fatalf("indent %q: %v", indent, err)
		}
		if got := string(p.Render(nil)); got != src {
			t.Errorf("indent %q: renders %q", indent, got)
		}
	}
}

// TestControlCharactersInStrings: Python takes control characters in
// strings and comments, and a form feed in indentation (its columns start
// again after it), so the parser does.
func TestControlCharactersInStrings(t *testing.T) {
	for _, src := range []string{"s = '\v\x01'\n", "x = 1  # \v\x7f\n", "s = f'{\"\v\"} \v'\n", "\fx = 1\n", "if x:\n\f    y = 1\n"} {
		if _, err := Parse("x.py", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
