package cpython

import (
	"testing"

	"repair/sandbox"
	"repair/sandbox/enginetest"
)

func TestCapabilities(t *testing.T) {
	e := newTestEngine(t, sandbox.Options{Suite: enginetest.CapabilitySuite(),
		Target: target(t, "cand.py", map[string]string{"cand.py": enginetest.CapabilitySource})}, config{})
	enginetest.Capabilities(t, e, enginetest.Claims{
		Name:         "cpython",
		Capabilities: []string{"Describer", "Sizer", "Grower", "PlainPytester", "Executable", "Counter", "Featurer"},
		// A data suite: no pytest.
		Features: sandbox.Features{Lenient: true, Environ: true, Verify: true},
	})
}
