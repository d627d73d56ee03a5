// Package crossover combines two candidates' edit lists into children
// (docs/design.md §6). A candidate is a program.Patch over the original program,
// so any sublist of any parent's edits is a valid candidate and Render
// resolves conflicts between edits deterministically.
//
// Children that render to the same program as a parent are not evaluated
// again: the fitness cache is keyed by the rendered source.
package crossover

import (
	"fmt"
	"math/rand/v2"

	"repair/program"
)

// Func makes two children from two parents.
type Func func(a, b program.Patch, rng *rand.Rand) (program.Patch, program.Patch)

// OnePoint cuts each parent at a random point and exchanges the tails
// (GenProg's one-point crossover on edit lists, Le Goues et al. 2012):
// a[:i]+b[j:] and b[:j]+a[i:].
func OnePoint(a, b program.Patch, rng *rand.Rand) (program.Patch, program.Patch) {
	i := rng.IntN(len(a) + 1)
	j := rng.IntN(len(b) + 1)
	c1 := make(program.Patch, 0, i+len(b)-j)
	c1 = append(append(c1, a[:i]...), b[j:]...)
	c2 := make(program.Patch, 0, j+len(a)-i)
	c2 = append(append(c2, b[:j]...), a[i:]...)
	return c1, c2
}

// Uniform sends each edit of either parent to one child or the other with
// probability 1/2, keeping the order: a's edits first, then b's.
func Uniform(a, b program.Patch, rng *rand.Rand) (program.Patch, program.Patch) {
	var c1, c2 program.Patch
	for _, p := range []program.Patch{a, b} {
		for _, e := range p {
			if rng.IntN(2) == 0 {
				c1 = append(c1, e)
			} else {
				c2 = append(c2, e)
			}
		}
	}
	return c1, c2
}

// ByName returns the crossover named "one-point" or "uniform".
func ByName(name string) (Func, error) {
	switch name {
	case "one-point", "":
		return OnePoint, nil
	case "uniform":
		return Uniform, nil
	}
	return nil, fmt.Errorf("unknown crossover %q (one-point or uniform)", name)
}
