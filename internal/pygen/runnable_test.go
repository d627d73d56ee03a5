package pygen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestRunnable: Runnable's programs compile, import, and every function
// returns or raises on small arguments within a few seconds all told.
func TestRunnable(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	n := 40
	if testing.Short() {
		n = 10
	}
	var prog strings.Builder
	prog.WriteString("import sys, types\nsrcs = sys.stdin.read().split('\\0')\nfor k, src in enumerate(srcs):\n")
	prog.WriteString("    m = types.ModuleType('m'); exec(compile(src, 'm%d.py' % k, 'exec'), m.__dict__)\n")
	prog.WriteString("    for name in [n for n in vars(m) if n[0] == 'f' and n[1:].isdigit()]:\n")
	prog.WriteString("        for a, b in ((0, 0), (1, 2), (-3, 5), (7, -1)):\n")
	prog.WriteString("            try:\n                getattr(m, name)(a, b)\n            except (ZeroDivisionError, IndexError, ValueError):\n                pass\n")
	prog.WriteString("print('ok', len(srcs))\n")
	var srcs []string
	for seed := 0; seed < n; seed++ {
		srcs = append(srcs, string(Runnable(rand.New(rand.NewPCG(uint64(seed), 11)), 5)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-c", prog.String())
	cmd.Stdin = strings.NewReader(strings.Join(srcs, "\x00"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if want := fmt.Sprintf("ok %d\n", n); string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
