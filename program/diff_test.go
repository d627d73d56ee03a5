package program

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{
			name: "one line",
			old:  "a\nb\nc\nd\ne\nf\ng\n",
			new:  "a\nb\nc\nD\ne\nf\ng\n",
			want: "--- a/x.py\n+++ b/x.py\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n",
		},
		{
			name: "two hunks",
			old:  "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			new:  "0\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n13\n",
			want: "--- a/x.py\n+++ b/x.py\n@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+13\n",
		},
		{
			name: "close changes share a hunk",
			old:  "1\n2\n3\n4\n5\n6\n7\n8\n",
			new:  "1\nB\n3\n4\n5\n6\nG\n8\n",
			want: "--- a/x.py\n+++ b/x.py\n@@ -1,8 +1,8 @@\n 1\n-2\n+B\n 3\n 4\n 5\n 6\n-7\n+G\n 8\n",
		},
		{
			name: "no final newline",
			old:  "a\nb",
			new:  "a\nc",
			want: "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
		},
		{
			name: "insertion into empty file",
			old:  "",
			new:  "a\n",
			want: "--- a/x.py\n+++ b/x.py\n@@ -0,0 +1 @@\n+a\n",
		},
		{
			name: "deletion of a line",
			old:  "a\nb\nc\n",
			new:  "a\nc\n",
			want: "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,2 @@\n a\n-b\n c\n",
		},
		{
			name: "crlf lines kept",
			old:  "a\r\nb\r\n",
			new:  "a\r\nc\r\n",
			want: "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n",
		},
		{name: "equal", old: "a\n", new: "a\n", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff("x.py", []byte(tt.old), []byte(tt.new))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Diff mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// applyWith applies diff to a copy of old named name in a temp dir with the
// given command ("patch" or "git") and returns the result.
func applyWith(t *testing.T, tool, name string, old []byte, diff string) []byte {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	switch tool {
	case "patch":
		cmd = exec.Command("patch", "-p1", "--quiet", "--no-backup-if-mismatch")
	case "git":
		cmd = exec.Command("git", "apply", "--whitespace=nowarn", "-")
	}
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s failed: %v\n%s\ndiff:\n%s", tool, err, out, diff)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestDiffRoundTrip renders random patches of the corpus and checks that
// `patch -p1` and `git apply` turn the original into the rendered file
// exactly.
func TestDiffRoundTrip(t *testing.T) {
	tools := []string{}
	for _, tool := range []string{"patch", "git"} {
		if _, err := exec.LookPath(tool); err == nil {
			tools = append(tools, tool)
		}
	}
	if len(tools) == 0 {
		t.Skip("neither patch nor git found")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for f, p := range corpus(t) {
		edits := singleEdits(p)
		for k := 0; k < 4; k++ {
			var pt Patch
			for n := 1 + rng.IntN(3); n > 0; n-- {
				pt = append(pt, edits[rng.IntN(len(edits))])
			}
			out := p.Render(pt)
			name := "src/" + filepath.Base(f)
			d := Diff(name, p.Src, out)
			if d == "" {
				continue
			}
			for _, tool := range tools {
				got := applyWith(t, tool, name, p.Src, d)
				if !bytes.Equal(got, out) {
					t.Errorf("%s via %s: applied diff differs from rendered text\ndiff:\n%s", f, tool, d)
				}
			}
		}
	}
}

// TestDiffUntouchedLinesIdentical checks that every line outside the hunks'
// changes is byte-identical: the diff only shows lines an edit changed.
func TestDiffUntouchedLinesIdentical(t *testing.T) {
	p := mustParse(t, "# head\ndef f(x):  # note\n    if x < 0: return -x\n    y = x; z = y\n    return z\n# tail\n")
	s := stmtAt(t, p, "return -x")
	d := Diff("f.py", p.Src, p.Render(Patch{{Op: Delete, Stmt: s}}))
	want := "--- a/f.py\n+++ b/f.py\n@@ -1,6 +1,7 @@\n # head\n def f(x):  # note\n-    if x < 0: return -x\n+    if x < 0:\n+        pass\n     y = x; z = y\n     return z\n # tail\n"
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestDiffEndsLeftOut: Diff, which leaves out the equal lines at both ends
// of large texts (trimEqual), gives the diff of the whole texts, on random
// texts of few distinct lines (so that where an inserted or deleted run
// goes is ambiguous), with long equal ends, and without a final newline.
func TestDiffEndsLeftOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	words := []string{"a\n", "b\n", "\n", "a\n", "c\r\n"}
	lines := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteString(words[rng.IntN(len(words))])
		}
		return sb.String()
	}
	fast := 0
	for trial := 0; trial < 20000; trial++ {
		pre, suf := lines(rng.IntN(30)), lines(rng.IntN(30))
		a, b := pre+lines(rng.IntN(6))+suf, pre+lines(rng.IntN(6))+suf
		if rng.IntN(4) == 0 {
			// The same lines around a run that repeats them.
			run := lines(1 + rng.IntN(4))
			a, b = pre+run+suf, pre+run+run+suf
		}
		if rng.IntN(3) == 0 {
			a, b = strings.TrimSuffix(a, "\n"), strings.TrimSuffix(b, "\n")
		}
		if a == b {
			continue
		}
		if _, _, _, ok := trimEqual(a, b); ok {
			fast++
		}
		if got, want := Diff("f.py", []byte(a), []byte(b)), diffLines("f.py", a, b, 0); got != want {
			t.Fatalf("a %q\nb %q\ngot\n%s\nwant\n%s", a, b, got, want)
		}
	}
	if fast < 5000 {
		t.Errorf("only %d of the texts had their ends left out", fast)
	}
}
