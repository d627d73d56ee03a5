package program

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestParseFiles: a joined program maps its lines back to files, splits
// its candidates into files (final newlines as they were), and diffs
// per file with the files' own paths and lines.
func TestParseFiles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		srcs  []string
		edit  func(src string) string
		lines map[int]string // joined line -> "path:line"
		diff  string
	}{
		{
			name:  "two files",
			srcs:  []string{"import b\n\ndef f():\n    return b.g() + 1\n", "def g():\n    return 2\n"},
			edit:  func(s string) string { return strings.Replace(s, "return 2", "return 3", 1) },
			lines: map[int]string{1: "a.py:1", 4: "a.py:4", 6: "b.py:1", 7: "b.py:2"},
			diff:  "--- a/b.py\n+++ b/b.py\n@@ -1,2 +1,2 @@\n def g():\n-    return 2\n+    return 3\n",
		},
		{
			name:  "no final newline",
			srcs:  []string{"x = 1", "y = 2"},
			edit:  func(s string) string { return strings.Replace(s, "x = 1", "x = 0", 1) },
			lines: map[int]string{1: "a.py:1", 3: "b.py:1"},
			diff:  "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n\\ No newline at end of file\n+x = 0\n\\ No newline at end of file\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := []string{"a.py", "b.py"}
			srcs := [][]byte{[]byte(tc.srcs[0]), []byte(tc.srcs[1])}
			p, err := ParseFiles(paths, srcs)
			if err != nil {
				t.Fatal(err)
			}
			for line, want := range tc.lines {
				path, l := p.FileOfLine(line)
				if got := path + ":" + strconv.Itoa(l); got != want {
					t.Errorf("line %d is %s, want %s", line, got, want)
				}
			}
			parts, ok := p.SplitFiles(p.Src)
			if !ok || len(parts) != 2 || !bytes.Equal(parts[0], srcs[0]) || !bytes.Equal(parts[1], srcs[1]) {
				t.Errorf("SplitFiles(original) = %q, %v", parts, ok)
			}
			if got := p.DiffTo([]byte(tc.edit(string(p.Src)))); got != tc.diff {
				t.Errorf("diff:\n%s\nwant:\n%s", got, tc.diff)
			}
		})
	}
}

// TestParseFilesErrors: a file's syntax error names that file; a file
// holding the boundary line is refused.
func TestParseFilesErrors(t *testing.T) {
	if _, err := ParseFiles([]string{"a.py", "b.py"}, [][]byte{[]byte("x = 1\n"), []byte("def (:\n")}); err == nil || !strings.HasPrefix(err.Error(), "b.py") {
		t.Errorf("syntax error: %v", err)
	}
	if _, err := ParseFiles([]string{"a.py", "b.py"}, [][]byte{[]byte(FileBoundary + "\n"), []byte("x = 1\n")}); err == nil || !strings.HasPrefix(err.Error(), "a.py") {
		t.Errorf("boundary line: %v", err)
	}
}

// FuzzSplitFiles: joining then splitting gives the files back, whatever
// their texts (those holding the boundary line are refused).
func FuzzSplitFiles(f *testing.F) {
	f.Add("x = 1\n", "y = 2")
	f.Add("", "\r\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		joined, files, err := Join([]string{"a.py", "b.py"}, [][]byte{[]byte(a), []byte(b)})
		if err != nil {
			return
		}
		p := &Program{Src: joined, Files: files}
		parts, ok := p.SplitFiles(joined)
		if !ok || string(parts[0]) != a || string(parts[1]) != b {
			t.Fatalf("Split(Join(%q, %q)) = %q, %v", a, b, parts, ok)
		}
	})
}

// TestParseWithDonors: donors parse with the target, candidates run and
// diff without them, and their lines are named by their files.
func TestParseWithDonors(t *testing.T) {
	p, err := ParseWithDonors("t.py", []byte("def f():\n    return 1"), []string{"d.py"}, [][]byte{[]byte("def f():\n    return 2\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !p.HasDonors() || p.DonorLine() != 4 {
		t.Fatalf("HasDonors %v, DonorLine %d", p.HasDonors(), p.DonorLine())
	}
	if got := string(p.Strip(p.Src)); got != "def f():\n    return 1" {
		t.Errorf("Strip = %q", got)
	}
	edited := strings.Replace(string(p.Src), "return 2", "return 3", 1)
	if d := p.DiffTo([]byte(edited)); d != "" {
		t.Errorf("a donor's change shows in the diff: %q", d)
	}
	if w := p.Where(5); w != "d.py line 2" {
		t.Errorf("Where(5) = %q", w)
	}
}
