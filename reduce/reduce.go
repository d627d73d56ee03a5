// Package reduce shrinks a winning patch with delta debugging (docs/design.md
// §7): Zeller and Hildebrandt's ddmin, "Simplifying and Isolating
// Failure-Inducing Input" (IEEE TSE 2002), over the patch's edits. The
// result is 1-minimal: removing any single edit makes the test fail.
package reduce

import (
	"context"

	"repair/program"
)

// Test reports whether a subset of the edits still passes (e.g. every test
// case passes). An error means the tool broke, and stops the reduction.
type Test func(ctx context.Context, edits program.Patch) (bool, error)

// Minimize returns a 1-minimal subset of edits, in their original order,
// that passes test. test(edits) is assumed true. It calls test at most
// O(n²) times for n edits, each with a distinct subset.
func Minimize(ctx context.Context, edits program.Patch, test Test) (program.Patch, error) {
	// ddmin comes back to subsets it tested at a coarser granularity:
	// remember the verdicts.
	tested := map[string]bool{}
	run := test
	test = func(ctx context.Context, sub program.Patch) (bool, error) {
		k := sub.Key()
		if ok, done := tested[k]; done {
			return ok, nil
		}
		ok, err := run(ctx, sub)
		if err == nil {
			tested[k] = ok
		}
		return ok, err
	}
	cur := append(program.Patch(nil), edits...)
	n := 2
	for len(cur) >= 2 {
		chunks := split(cur, n)
		reduced := false
		// Try each chunk alone, then each complement.
		for _, c := range chunks {
			ok, err := test(ctx, c)
			if err != nil {
				return nil, err
			}
			if ok {
				cur, n, reduced = c, 2, true
				break
			}
		}
		if !reduced && n > 2 {
			for i := range chunks {
				comp := complement(chunks, i)
				ok, err := test(ctx, comp)
				if err != nil {
					return nil, err
				}
				if ok {
					cur, n, reduced = comp, max(n-1, 2), true
					break
				}
			}
		}
		if !reduced {
			if n >= len(cur) {
				break
			}
			n = min(2*n, len(cur))
		}
	}
	if len(cur) == 1 {
		// A single edit might not be needed at all.
		ok, err := test(ctx, nil)
		if err != nil {
			return nil, err
		}
		if ok {
			return program.Patch{}, nil
		}
	}
	return cur, nil
}

// split cuts p into n nearly equal chunks.
func split(p program.Patch, n int) []program.Patch {
	var out []program.Patch
	start := 0
	for i := 0; i < n; i++ {
		end := start + (len(p)-start)/(n-i)
		out = append(out, p[start:end:end])
		start = end
	}
	return out
}

func complement(chunks []program.Patch, skip int) program.Patch {
	var out program.Patch
	for i, c := range chunks {
		if i != skip {
			out = append(out, c...)
		}
	}
	return out
}
