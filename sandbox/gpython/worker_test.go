package gpython

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// benchWorker is a worker in this process: records go to a plain buffer,
// messages to /dev/null. It changes gpython's module registry of the test
// process (as a worker does its own). It runs in a temporary directory:
// a worker empties its working directory before each candidate (wipe),
// which would otherwise be the package's own.
func benchWorker(t testing.TB, cases []fitness.Case, module string) *worker {
	t.Helper()
	t.Chdir(t.TempDir())
	checks, err := fitness.NewChecks(cases, 0)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := json.Marshal(workerSuite{Module: module, Cases: sandbox.RunCases(cases, checks), MemoryMB: 512})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	w, err := newWorker(msg, make(shared, shmSize), out, nil)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestStrCache checks that the engine's string cache gives what it was
// given, as valid UTF-8, and stays bounded.
func TestStrCache(t *testing.T) {
	c := strCache{}
	for _, strs := range []strCache{nil, c, c} {
		if s := strs.get([]byte("expected 5, got 9")); s != "expected 5, got 9" {
			t.Errorf("got %q", s)
		}
		if s := strs.get([]byte("bad \xff byte")); s != "bad \uFFFD byte" {
			t.Errorf("got %q", s)
		}
	}
	for i := range 2 * maxStrCache {
		c.get([]byte(strconv.Itoa(i)))
	}
	if len(c) > maxStrCache {
		t.Errorf("%d strings cached", len(c))
	}
}
