// Package proctest reads Linux's /proc for the tests that check that
// nothing the sandboxed candidates started is left behind (the hostile
// tables, the soak, fault injection): the live processes, their parents
// and command lines.
package proctest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Proc is a live process as /proc shows it.
type Proc struct {
	PID, PPID int
	Args      []string
}

// List returns the live processes by pid; zombies and dead ones are left
// out. Without /proc it is empty.
func List() map[int]Proc {
	out := map[int]Proc{}
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
		// The command name in parentheses may hold anything: the fields
		// after the last ')' are state, ppid, ...
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out[pid] = Proc{PID: pid, PPID: ppid, Args: Cmdline(pid)}
	}
	return out
}

// Cmdline is the command line of pid, or nil.
func Cmdline(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// Descendants lists the live processes whose chain of parents leads to
// pid, by pid.
func Descendants(pid int) []Proc {
	all := List()
	var out []Proc
	for _, p := range all {
		for q, n := p.PPID, 0; q > 0 && n < 64; q, n = all[q].PPID, n+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// Children lists the live processes whose parent is pid, by pid.
func Children(pid int) []Proc {
	var out []Proc
	for _, p := range List() {
		if p.PPID == pid {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// PIDs are the pids of ps.
func PIDs(ps []Proc) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.PID
	}
	return out
}

// Describe names ps for a failure message: a line each, pid and command
// line (cut at 100 characters).
func Describe(ps []Proc) string {
	var sb strings.Builder
	for _, p := range ps {
		line := strings.Join(p.Args, " ")
		if len(line) > 100 {
			line = line[:100] + "..."
		}
		sb.WriteString("\n  " + strconv.Itoa(p.PID) + ": " + line)
	}
	return sb.String()
}
