package program

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// addCorpus seeds f with the corpus programs.
func addCorpus(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.py")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		f.Add(src)
	}
}

// FuzzParse: Parse never panics on arbitrary bytes, and a program that
// parses renders back to itself under the empty patch and under every
// single deletion to text that parses again.
func FuzzParse(f *testing.F) {
	addCorpus(f)
	f.Add([]byte("if x: a; b\nelse: c\n"))
	f.Add([]byte("\xef\xbb\xbfx = 1"))
	f.Add([]byte("def f(:\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("f.py", src)
		if err != nil {
			return
		}
		if !bytes.Equal(p.Render(nil), src) {
			t.Fatalf("empty patch changed the text")
		}
		for s := range p.Stmts {
			out := p.Render(Patch{{Op: Delete, Stmt: s}})
			if _, err := Parse("out.py", out); err != nil {
				t.Fatalf("deleting %q: %v\n%s", p.FirstLine(s), err, out)
			}
		}
	})
}

// decodeEdits turns fuzz bytes into edits of p: 5 bytes an edit.
func decodeEdits(p *Program, data []byte) Patch {
	var pt Patch
	ns, nsite := len(p.Stmts), len(p.Sites)
	for len(data) >= 5 && ns > 0 {
		op := Op(data[0] % 10)
		a := int(data[1])<<8 | int(data[2])
		c := int(data[3])<<8 | int(data[4])
		data = data[5:]
		e := Edit{Op: op, Stmt: a % ns, Donor: c % ns}
		switch op {
		case Guard:
			blk := p.Blocks[p.Stmts[e.Stmt].Block].Stmts
			k := slices.Index(blk, e.Stmt)
			e.Donor, e.Text = blk[min(len(blk)-1, k+c%3)], "x"
		case InsertText:
			e.Text = "pass"
		case Rename:
			if nsite == 0 {
				continue
			}
			e.Site, e.Text = a%nsite, "zz_name"
			e.Stmt = p.Sites[e.Site].Stmt
			for k := c % 3; k > 0 && p.Stmts[e.Stmt].Parent >= 0; k-- {
				e.Stmt = p.Stmts[e.Stmt].Parent
			}
		}
		if op == ReplaceText || op == SwapText {
			if nsite == 0 {
				continue
			}
			e.Site, e.Site2 = a%nsite, c%nsite
			if op == ReplaceText {
				text, ok := replacementFor(p, e.Site)
				if !ok {
					continue
				}
				e.Text = text
			}
		}
		pt = append(pt, e)
	}
	return pt
}

// FuzzRender: any list of edits on a corpus program renders to text that
// parses, and the diff of it applies back exactly.
func FuzzRender(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.py")
	sort.Strings(files)
	var progs []*Program
	for _, file := range files {
		p, err := ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		progs = append(progs, p)
	}
	for i := range progs {
		f.Add(uint8(i), []byte{0, 0, 3, 0, 1, 1, 0, 2, 0, 5, 5, 0, 4, 0, 1})
		f.Add(uint8(i), []byte{2, 0, 7, 0, 1, 3, 0, 1, 0, 0, 4, 1, 2, 0, 9})
	}
	f.Fuzz(func(t *testing.T, file uint8, data []byte) {
		p := progs[int(file)%len(progs)]
		pt := decodeEdits(p, data)
		out := p.Render(pt)
		if _, err := Parse("out.py", out); err != nil {
			t.Fatalf("%v\nedits: %+v\n%s", err, pt, out)
		}
		d := Diff("f.py", p.Src, out)
		back, err := applyUnified(p.Src, d)
		if err != nil {
			t.Fatalf("applying the diff: %v\n%s", err, d)
		}
		if !bytes.Equal(back, out) {
			t.Fatalf("diff does not round-trip:\n%s", d)
		}
	})
}

// FuzzDiff: Diff of any two texts applies back exactly, and is the diff
// of the whole texts (Diff leaves out the equal lines at both ends).
func FuzzDiff(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nc\nd"))
	f.Add([]byte("x\r\ny\r\n"), []byte("x\r\nz\r\n"))
	f.Add([]byte(""), []byte("q\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		d := Diff("f.py", a, b)
		back, err := applyUnified(a, d)
		if err != nil {
			t.Fatalf("applying: %v\n%s", err, d)
		}
		if !bytes.Equal(back, b) {
			t.Fatalf("round trip failed:\n%s\ngot %q want %q", d, back, b)
		}
		// The same as diffing the whole texts.
		if !bytes.Equal(a, b) {
			if whole := diffLines("f.py", string(a), string(b), 0); d != whole {
				t.Fatalf("Diff differs from the whole texts' diff:\n%s\nwant\n%s", d, whole)
			}
		}
	})
}

// applyUnified applies a unified diff made by Diff to old: a strict
// reference implementation of what patch(1) does with it.
func applyUnified(old []byte, diff string) ([]byte, error) {
	if diff == "" {
		return old, nil
	}
	lines := splitLines(diff)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- a/") || !strings.HasPrefix(lines[1], "+++ b/") {
		return nil, fmt.Errorf("bad header")
	}
	src := splitLines(string(old))
	var out []string
	cur := 0 // next line of src to copy
	i := 2
	for i < len(lines) {
		h := lines[i]
		var as, an, bs, bn int
		if _, err := fmt.Sscanf(h, "@@ -%s +%s @@", new(string), new(string)); err != nil {
			return nil, fmt.Errorf("bad hunk header %q", h)
		}
		fields := strings.Fields(h)
		as, an = parseRange(fields[1][1:])
		bs, bn = parseRange(fields[2][1:])
		_ = bs
		_ = bn
		start := as - 1
		if an == 0 {
			start = as
		}
		if start < cur || start > len(src) {
			return nil, fmt.Errorf("hunk out of order at %q", h)
		}
		out = append(out, src[cur:start]...)
		cur = start
		i++
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			body := l[1:]
			if i < len(lines) && strings.HasPrefix(lines[i], "\\ No newline") {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if cur >= len(src) || src[cur] != body {
					return nil, fmt.Errorf("context mismatch at line %d: %q vs %q", cur+1, body, src[min(cur, len(src)-1)])
				}
				if l[0] == ' ' {
					out = append(out, body)
				}
				cur++
			case '+':
				out = append(out, body)
			default:
				return nil, fmt.Errorf("bad line %q", l)
			}
		}
	}
	out = append(out, src[cur:]...)
	return []byte(strings.Join(out, "")), nil
}

func parseRange(s string) (start, n int) {
	a, b, ok := strings.Cut(s, ",")
	start, _ = strconv.Atoi(a)
	n = 1
	if ok {
		n, _ = strconv.Atoi(b)
	}
	return start, n
}
