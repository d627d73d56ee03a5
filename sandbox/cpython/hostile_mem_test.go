package cpython

import (
	"context"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// TestHostileProcMem: a candidate cannot write the memory of the other
// processes of its server (the forker every later candidate is forked
// from, the manager that keeps the deadlines) to poison them: with
// namespaces /proc is read-only, and they are not dumpable anyway.
func TestHostileProcMem(t *testing.T) {
	python(t)
	src := `import os
def f():
    # The forker (the parent) and the manager (the forker's other child).
    me, forker = os.getpid(), os.getppid()
    pids = [forker]
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me:
            try:
                stat = open("/proc/%s/stat" % name).read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == forker:
                pids.append(int(name))
    if len(pids) != 2:
        return "found %d processes" % len(pids)
    opened = []
    for pid in pids:
        try:
            with open("/proc/%d/mem" % pid, "r+b"):
                opened.append(pid)
        except OSError:
            pass
    return opened
`
	for _, mode := range []struct {
		name string
		cfg  config
	}{{"namespaces", config{}}, {"degraded", config{noNamespaces: true}}} {
		t.Run(mode.name, func(t *testing.T) {
			cases := []fitness.Case{call("f", "", `[]`)}
			e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil), Workers: 1}, mode.cfg)
			out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r := out.Results[0]; r.Verdict != fitness.Passed {
				t.Errorf("%v (%s)", r.Verdict, r.Detail)
			}
		})
	}
}
