package session

import (
	"os"
	"strings"
	"testing"

	"repair/internal/inputerr"
)

// TestCheckTargetWritable: --write refuses, before any search, a target
// whose directory cannot take the .orig copy, naming --write (not
// --report). /proc/self/comm is a file even root may write, in a
// directory where nobody can create one.
func TestCheckTargetWritable(t *testing.T) {
	const p = "/proc/self/comm"
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no writable %s: %v", p, err)
	}
	f.Close()
	err = checkTargetWritable(p)
	if !inputerr.Is(err) || !strings.HasPrefix(err.Error(), "--write /proc/self/comm.orig: cannot write in /proc/self: ") {
		t.Errorf("checkTargetWritable(%s) = %v; want an input error naming --write and the directory", p, err)
	}
}
