package sandbox_test

import (
	"context"
	"testing"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/enginetest"
)

// featured is an engine of one file whose cases all pass, with the given
// features.
type featured struct {
	n int
	f sandbox.Features
}

func (e *featured) Name() string               { return "cpython" }
func (e *featured) Close() error               { return nil }
func (e *featured) Features() sandbox.Features { return e.f }
func (e *featured) Run(context.Context, []byte, sandbox.RunOptions) (*fitness.Outcome, error) {
	return &fitness.Outcome{Results: make([]fitness.Result, e.n)}, nil
}

// TestMultiCapabilities: several files honour what every part honours.
func TestMultiCapabilities(t *testing.T) {
	all := sandbox.Features{Lenient: true, Environ: true, Verify: true, RealPytest: true}
	tests := []struct {
		name  string
		parts []sandbox.Features
		want  sandbox.Features
	}{
		{"alike", []sandbox.Features{all, all}, all},
		{"one without pytest", []sandbox.Features{all, {Lenient: true, Environ: true, Verify: true}}, sandbox.Features{Lenient: true, Environ: true, Verify: true}},
		{"one with none", []sandbox.Features{{}, all}, sandbox.Features{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var parts []sandbox.Engine
			var sizes []int
			for _, f := range tt.parts {
				parts = append(parts, &featured{n: 1, f: f})
				sizes = append(sizes, 1)
			}
			m := sandbox.NewMulti(parts, sizes)
			enginetest.Capabilities(t, m, enginetest.Claims{Name: "cpython", Capabilities: []string{"Featurer"}, Features: tt.want})
		})
	}
}
