// Package mutate holds the mutation operators of the search (DESIGN.md §6):
// values {Name, Doc, Apply} that propose one [program.Edit] of a program.
//
// # Operators
//
// Statement operators (GenProg's): delete, insert, replace, swap — donors
// are statements of the same file. Condition operators (the Debugging
// Book's ConditionMutator): replace a condition by another of the file,
// negate it, extend it with and/or another condition. Token operators:
// comparison, arithmetic/bitwise, boolean and augmented-assignment
// operators. Value and name operators (the book's ValueMutator and
// IdentifierMutator): literals and identifiers in scope. Expression
// operators (plastic surgery, Barr et al. 2014): replace an expression by
// another of the file, swap call arguments, drop an operand, shift a bound
// by one, add a term.
//
// # Targets
//
// Every operator draws its target in proportion to the suspiciousness of
// the statement that holds it ([Context.Weights], from package localize),
// so statements no failing test executes are never changed.
//
// `repair operators` prints [All] with their docs.
package mutate
