package enginetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/internal/testutil/proctest"
)

// Call is a Call case: fn(*args) with args and expected as JSON ("" for
// none), a weight of 1 and a timeout of 5 s.
func Call(fn, args, expected string) fitness.Case {
	c := fitness.Case{Kind: fitness.Call, Function: fn, Weight: 1, Timeout: 5, Tolerance: 1e-9}
	if args != "" {
		c.Args = json.RawMessage(args)
	}
	if expected != "" {
		c.Expected = json.RawMessage(expected)
	}
	return c
}

// IOCase is an IO case.
func IOCase(stdin, stdout string) fitness.Case {
	return fitness.Case{Kind: fitness.IO, Stdin: &stdin, Stdout: &stdout, Weight: 1, Timeout: 5, Tolerance: 1e-9}
}

// With returns c changed by f.
func With(c fitness.Case, f func(*fitness.Case)) fitness.Case {
	f(&c)
	return c
}

// Secs returns c with a timeout of s seconds.
func Secs(c fitness.Case, s float64) fitness.Case {
	c.Timeout = s
	return c
}

// Target writes a target file (and helpers) into a fresh directory and
// returns its path; a target not among files holds a comment only.
func Target(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, src := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, name)
	if _, ok := files[name]; !ok {
		if err := os.WriteFile(p, []byte("# original\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// Descendants lists the pids of the living processes whose parent chain
// leads to pid.
func Descendants(pid int) []int { return proctest.PIDs(proctest.Descendants(pid)) }

// Cmdline is the start of pid's command line, for a test's log.
func Cmdline(pid int) string {
	s := strings.Join(proctest.Cmdline(pid), " ")
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}

// ContainsAny reports whether s contains one of subs.
func ContainsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
