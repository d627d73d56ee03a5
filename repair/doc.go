// Package repair is the search driver: it runs the stages of a repair in
// order over one parsed program and one suite (docs/design.md §1, §6).
//
// [Run] takes a [program.Program], a [fitness.Suite], a [Runner] that
// evaluates one candidate source (an engine's Run, or a test's fake) and
// [Options] (start from [Defaults] or [Book]). It
//
//  1. runs the original with coverage and ranks its statements
//     (package localize);
//  2. evolves generations of patches over the original's bytes: mutation
//     (package mutate), crossover (package crossover), selection and
//     immigrants, each candidate rendered, looked up in the fitness cache by
//     its source and, on a miss, run on the cases that can reach its edits;
//  3. delivers a plausible candidate: reduced by delta debugging (package
//     reduce), validated by an uncached run of the whole suite, checked out
//     of the search's servers when the suite is a test file (the check of
//     delivered fixes, verify.go), and compared with the original by the
//     overfitting guard (package guard); a suspect fix keeps the search
//     going for a better one;
//  4. returns a [Result]: the fixes with their diffs and the guard's
//     figures, the ranking, the history per generation, counters and stage
//     times.
//
// Run is deterministic for a seed: a candidate's random stream derives
// from the seed, its generation and its index, so the result does not
// depend on Options.Workers or on timing, except that a time budget may
// stop the search earlier. A failing candidate is data; Run returns an
// error only for unusable input (package internal/inputerr) or when the
// tool broke, and with ctx.Err() and the result so far when ctx ends.
//
// The search runs candidates through the sandbox.Engine contract alone
// (a [Runner]); engines are opened by name in package sandbox/engines,
// and callers ask one what it can do through package sandbox's
// capabilities. The package also compares the original's verdicts with
// plain pytest's ([Parity]). "Guard" in this package always means the overfitting guard
// (docs/design.md §16).
package repair
