package gpython

import (
	"testing"

	"repair/sandbox"
	"repair/sandbox/enginetest"
)

func TestCapabilities(t *testing.T) {
	e := newTestEngine(t, sandbox.Options{Suite: enginetest.CapabilitySuite(),
		Target: target(t, "cand.py", map[string]string{"cand.py": enginetest.CapabilitySource})}, config{})
	enginetest.Capabilities(t, e, enginetest.Claims{Name: "gpython", Capabilities: []string{"Describer", "Sizer"}})
}
