package gpython

import "testing"

var stackSink byte

//go:noinline
func deeper(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	stackSink += pad[(n*7)%256]
	if n == 0 {
		return stackUsed()
	}
	return deeper(n - 1)
}

// TestStackUsed checks that the measured depth grows with recursion, which
// is what the recursion check relies on, across moves of the stack.
func TestStackUsed(t *testing.T) {
	base := stackUsed()
	if base < 0 {
		t.Skip("no stack measurement on this architecture")
	}
	d := deeper(2000) // grows (and moves) the stack several times
	if d < base+2000*256 {
		t.Errorf("stack used at depth 2000 = %d, at the base %d: want at least %d more", d, base, 2000*256)
	}
}
