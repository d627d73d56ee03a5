package gpython

import (
	"encoding/json"
	"os"
	"testing"

	"repair/fitness"
)

// benchWorker is a worker in this process: records go to a plain buffer,
// messages to /dev/null. It changes gpython's module registry of the test
// process (as a worker does its own).
func benchWorker(t testing.TB, cases []fitness.Case, module string) *worker {
	t.Helper()
	msg, err := json.Marshal(workerSuite{Module: module, Cases: cases, MemoryMB: 512})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	w, err := newWorker(msg, make(shared, shmSize), out)
	if err != nil {
		t.Fatal(err)
	}
	return w
}
