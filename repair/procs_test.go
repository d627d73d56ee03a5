package repair

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Process and resource scans for the soak and fault tests (Linux /proc).

// proc is a live process as /proc shows it.
type proc struct {
	pid, ppid int
	args      []string
}

// procs lists the live (not zombie) processes.
func procs() map[int]proc {
	out := map[int]proc{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out[pid] = proc{pid: pid, ppid: ppid, args: strings.Split(strings.TrimRight(string(cmd), "\x00"), "\x00")}
	}
	return out
}

// descendants lists the live processes below pid.
func descendants(pid int) []proc {
	all := procs()
	var out []proc
	for _, p := range all {
		for q, n := p.ppid, 0; q > 0 && n < 64; q, n = all[q].ppid, n+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// describe names processes for failure messages.
func describe(ps []proc) string {
	var sb strings.Builder
	for _, p := range ps {
		line := strings.Join(p.args, " ")
		if len(line) > 100 {
			line = line[:100] + "..."
		}
		sb.WriteString("\n  " + strconv.Itoa(p.pid) + ": " + line)
	}
	return sb.String()
}

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
// fork server (the harness run with python -c, whose parent is not itself
// the harness: its forked children share its command line) or a gpython
// worker process.
func isServer(p proc, all map[int]proc) bool {
	kind := func(p proc) string {
		for i, a := range p.args {
			if a == "-repair-gpython-worker" && i == 1 {
				return "gpython"
			}
			if a == "-c" && i > 0 && strings.Contains(p.args[0], "python") && i+1 < len(p.args) && strings.Contains(p.args[i+1], "fork server of the repair cpython engine") {
				return "cpython"
			}
		}
		return ""
	}
	k := kind(p)
	return k != "" && kind(all[p.ppid]) != k
}

// servers lists the engine workers below this process.
func servers() []proc {
	all := procs()
	var out []proc
	for _, p := range descendants(os.Getpid()) {
		if isServer(p, all) {
			out = append(out, p)
		}
	}
	return out
}
