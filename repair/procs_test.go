package repair

import (
	"os"
	"strings"
	"testing"

	"repair/internal/testutil/proctest"
)

// Process and resource scans for the soak and fault tests (Linux /proc;
// the process listing is internal/testutil/proctest).

// openFDs counts this process's open file descriptors.
func openFDs(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(ents) - 1 // the directory being read
}

// isServer reports whether p is an engine's long-lived worker: a cpython
// fork server (python -c with the loader that reads the bootstrap from
// file descriptor 5, and the pipes 3 and 4; whose parent is not itself
// one: its forked children share its command line) or a gpython worker
// process.
func isServer(p proctest.Proc, all map[int]proctest.Proc) bool {
	kind := func(p proctest.Proc) string {
		for i, a := range p.Args {
			if a == "-repair-gpython-worker" && i == 1 {
				return "gpython"
			}
			if a == "-c" && i > 0 && strings.Contains(p.Args[0], "python") && i+1 < len(p.Args) && strings.Contains(p.Args[i+1], `fdopen(5,"rb")`) && strings.Join(p.Args[i+2:], " ") == "3 4" {
				return "cpython"
			}
		}
		return ""
	}
	k := kind(p)
	return k != "" && kind(all[p.PPID]) != k
}

// servers lists the engine workers below this process.
func servers() []proctest.Proc {
	all := proctest.List()
	var out []proctest.Proc
	for _, p := range proctest.Descendants(os.Getpid()) {
		if isServer(p, all) {
			out = append(out, p)
		}
	}
	return out
}
