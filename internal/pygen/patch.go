package pygen

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoPatch is returned by ApplyPatch when patch(1) is not on PATH.
var ErrNoPatch = errors.New("patch not found")

// ApplyPatch writes files (name → content) into a fresh directory, applies
// diff there with `patch -p1` (one process for a diff of many files), and
// returns the files afterwards. Names are relative paths without "..".
func ApplyPatch(files map[string][]byte, diff string) (map[string][]byte, error) {
	tool, err := exec.LookPath("patch")
	if err != nil {
		return nil, ErrNoPatch
	}
	dir, err := os.MkdirTemp("", "pygen-patch-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(tool, "-p1", "--quiet", "--batch", "--no-backup-if-mismatch")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("patch: %v: %s", err, out)
	}
	got := make(map[string][]byte, len(files))
	for name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		got[name] = data
	}
	return got, nil
}
