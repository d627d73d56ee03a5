package donors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPick: donors are ranked by similarity to the target, capped, and
// those that do not parse are skipped with the reason.
func TestPick(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"close.py":  "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n",
		"far.py":    "import sys\nprint(sys.argv)\n",
		"mid.py":    "def f(xs):\n    return sum(xs)\n",
		"broken.py": "def f(:\n",
		"test_f.py": "def test_f(): pass\n",
	}
	for n, src := range files {
		os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644)
	}
	target := []byte("def f(xs):\n    total = 1\n    for x in xs:\n        total += x\n    return total\n")
	paths, err := Collect([]string{dir}, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 4 {
		t.Fatalf("Collect = %v, want 4 files (no test file)", paths)
	}
	picked, skipped := Pick(target, paths, 2)
	var got []string
	for _, d := range picked {
		got = append(got, filepath.Base(d.Path))
	}
	if strings.Join(got, ",") != "close.py,mid.py" {
		t.Fatalf("picked %v, want close.py,mid.py", got)
	}
	if picked[0].Similarity <= picked[1].Similarity || picked[0].Similarity >= 1 {
		t.Errorf("similarities %v, %v", picked[0].Similarity, picked[1].Similarity)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], "broken.py") {
		t.Errorf("skipped %v", skipped)
	}
}

// BenchmarkPick300 picks 5 donors among 300 submissions of an exercise
// (examples/class repeated): the cost of building a class's donor pool.
func BenchmarkPick300(b *testing.B) {
	subs, _ := filepath.Glob("../../examples/class/submissions/*.py")
	if len(subs) == 0 {
		b.Skip("no examples/class")
	}
	dir := b.TempDir()
	var paths []string
	for i := 0; i < 300; i++ {
		src, _ := os.ReadFile(subs[i%len(subs)])
		p := filepath.Join(dir, filepath.Base(subs[i%len(subs)])+strings.Repeat("_", i/len(subs))+".py")
		os.WriteFile(p, src, 0o644)
		paths = append(paths, p)
	}
	target, _ := os.ReadFile(subs[0])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Pick(target, paths, 5)
	}
}
