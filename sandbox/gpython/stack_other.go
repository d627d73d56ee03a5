//go:build !amd64 && !arm64

package gpython

// stackUsed cannot be measured on this architecture: the recursion check
// is off, and only the worker's maximum stack size (a fatal error, turned
// into RUNTIME_ERROR) bounds recursion.
func stackUsed() int { return -1 }
