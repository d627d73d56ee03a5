package session

import (
	"context"
	"testing"

	"repair/fitness"
	"repair/repair"
	"repair/sandbox"
)

// growingEngine is a sandbox.Engine that records Grow.
type growingEngine struct{ grown []int }

func (e *growingEngine) Name() string { return "cpython" }
func (e *growingEngine) Close() error { return nil }
func (e *growingEngine) Run(context.Context, []byte, sandbox.RunOptions) (*fitness.Outcome, error) {
	return &fitness.Outcome{}, nil
}
func (e *growingEngine) Grow(_ context.Context, n int) (int, error) {
	e.grown = append(e.grown, n)
	return n, nil
}

// TestGrowForRanges: the guard's engine grows once, at its first run of
// a range (repair runs a waiting suite's inputs in ranges at once), to
// WaitFactor servers per worker; runs of every input never grow it.
func TestGrowForRanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ranges  []sandbox.CaseRange
		workers int
		want    []int
	}{
		{name: "whole runs", ranges: []sandbox.CaseRange{{}, {}}, workers: 2},
		{name: "ranges", ranges: []sandbox.CaseRange{{}, {First: 0, End: 3}, {First: 3, End: 6}}, workers: 2, want: []int{repair.WaitFactor * 2}},
		{name: "ranges, three workers", ranges: []sandbox.CaseRange{{First: 0, End: 3}}, workers: 3, want: []int{repair.WaitFactor * 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := &growingEngine{}
			run := growForRanges(eng, tc.workers)
			for _, r := range tc.ranges {
				if _, err := run(context.Background(), nil, sandbox.RunOptions{Cases: r}); err != nil {
					t.Fatal(err)
				}
			}
			if len(eng.grown) != len(tc.want) || len(tc.want) > 0 && eng.grown[0] != tc.want[0] {
				t.Errorf("grown %v, want %v", eng.grown, tc.want)
			}
		})
	}
}
