// Package localize ranks the statements of a program by how suspicious
// they are, from which statements the passing and the failing test cases
// execute (spectrum-based fault localization, docs/design.md §5).
//
// # Spectrum
//
// For each statement: ef and ep are the failing and passing cases that
// executed it, nf and np those that did not. A compound statement counts
// as executed when its header line runs or any statement of its blocks
// runs; the statements of a function count only when the function body
// runs (a def line runs at import, its body only when called).
//
// # Formulas
//
// [Formula] values score a spectrum: [Ochiai] (the default), [Tarantula],
// [Jaccard], [DStar] and [Op2]. Statements that no failing case executes
// get weight 0; when no statement has weight, mutation targets are chosen
// uniformly ([Ranking.Uniform]).
//
// # Ties
//
// Statements every case runs all get one score. Within such a tie, the
// failing cases still tell where they went wrong: the candidate's line a
// raised exception went through last ("(line 7)" in its detail), or else
// the returns (or prints) the failing case executed. Statements are put
// in order of their distance from there along dependences (a statement
// binding a name the failing statement reads is 1 away; the if or loop
// around a statement one more; the returns of a function it calls one
// more), and the farther ones weigh less, never as little as the next
// lower score: a tie-break, not a new score.
package localize
