// Package localize ranks the statements of a program by how suspicious
// they are, from which statements the passing and the failing test cases
// execute (spectrum-based fault localization, DESIGN.md §5).
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
package localize
