package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRemoveStaleDirs: the private directories of processes that are gone
// are removed; those of living processes (this one included) and other
// files are left.
func TestRemoveStaleDirs(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true:", err)
	}
	tmp := t.TempDir()
	dirs := map[string]bool{ // name: removed
		fmt.Sprintf("%s%d-1", dirPrefix, gone.Process.Pid): true,
		fmt.Sprintf("%s%d-2", dirPrefix, os.Getpid()):      false,
		fmt.Sprintf("%s%d-3", dirPrefix, os.Getppid()):     false,
		"repair-sandbox-notapid-4":                         false,
		fmt.Sprintf("other-%d-5", gone.Process.Pid):        false,
	}
	for name := range dirs {
		if err := os.MkdirAll(filepath.Join(tmp, name, "lib"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleDirs(tmp)
	for name, removed := range dirs {
		_, err := os.Stat(filepath.Join(tmp, name))
		if got := os.IsNotExist(err); got != removed {
			t.Errorf("%s: removed %v, want %v", name, got, removed)
		}
	}
}
