package cpython

import (
	"testing"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/enginetest"
)

func TestCaseRange(t *testing.T) {
	enginetest.CaseRange(t, func(t *testing.T, s *fitness.Suite) sandbox.Engine {
		return newTestEngine(t, sandbox.Options{Suite: s, Target: target(t, "cand.py", nil)}, config{})
	})
}
