package repair

import (
	"os"
	"testing"

	"repair/sandbox"
	"repair/sandbox/gpython"
)

// TestMain lets the test binary act as the sandbox shim and as a gpython
// worker, for the tests that run the real engines (soak_test.go,
// fault_test.go).
func TestMain(m *testing.M) {
	sandbox.Init()
	gpython.Init()
	os.Exit(m.Run())
}

// firstFix is Defaults() with a search that stops at its first fix (no
// alternatives): what the tests of the search's other stages expect.
func firstFix() Options {
	o := Defaults()
	o.Alternatives = 0
	return o
}
