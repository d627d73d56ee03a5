// Package busy loads the machine for a test: the CPUs a CI runner or a
// laptop running an IDE shares with the tool.
package busy

import (
	"os/exec"
	"testing"
)

// Loops starts n shell loops that spin until the test ends.
func Loops(t testing.TB, n int) {
	t.Helper()
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
}
