package proctest

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
)

// A child and its grandchild are found below this process, with their
// command lines, and are gone once killed and reaped.
func TestDescendants(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	me, sh := os.Getpid(), cmd.Process.Pid
	var ds []Proc
	var sleep bool
	// The grandchild appears once sh has forked it, and shows its command
	// line once it has executed sleep (a fork of sh has none yet).
	for range 200 {
		ds = Descendants(me)
		for _, p := range ds {
			if p.PPID == sh && len(p.Args) == 2 && p.Args[0] == "sleep" && p.Args[1] == "30" {
				sleep = true
			}
		}
		if sleep {
			break
		}
		exec.Command("true").Run()
	}
	if !slices.Contains(PIDs(Children(me)), sh) {
		t.Errorf("children of %d: %v; want %d among them", me, Children(me), sh)
	}
	if !sleep {
		t.Errorf("descendants of %d:%s; want sleep 30 below %d", me, Describe(ds), sh)
	}
	for _, p := range ds {
		if p.PID != sh {
			syscall.Kill(p.PID, syscall.SIGKILL)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if left := Descendants(me); len(left) > 0 {
		t.Errorf("left after kill:%s", Describe(left))
	}
}
