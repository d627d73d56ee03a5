//go:build amd64 || arm64

package gpython

import "unsafe"

// getg returns the running goroutine's runtime g. Its first field is the
// goroutine's stack bounds {lo, hi uintptr}, unchanged since Go 1.4.
func getg() unsafe.Pointer

// stackUsed returns how many bytes of its stack the calling goroutine
// uses, or -1 when that cannot be known. The stack moves when it grows,
// but its top stays its top: hi - sp is the depth.
//
//go:nosplit
func stackUsed() int {
	var marker byte
	sp := uintptr(unsafe.Pointer(&marker))
	bounds := (*[2]uintptr)(getg())
	lo, hi := bounds[0], bounds[1]
	if sp < lo || sp > hi {
		return -1
	}
	return int(hi - sp)
}
