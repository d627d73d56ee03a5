package remote

import (
	"context"
	"testing"

	"repair/sandbox/enginetest"
)

func TestCapabilities(t *testing.T) {
	f := newFake(t)
	opts := testOptions(t)
	opts.Suite = enginetest.CapabilitySuite()
	e, err := New(context.Background(), opts, Config{Executors: []string{f.srv.URL}, Backoff: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	// The servers' runtime names it; it honours none of the features.
	enginetest.Capabilities(t, e, enginetest.Claims{Name: "cpython", Capabilities: []string{"Describer", "Sizer"}})
	if got := e.Capacity(); got != 2 {
		t.Errorf("Capacity() = %d, want the server's 2 workers", got)
	}
}
