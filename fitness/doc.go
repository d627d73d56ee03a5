// Package fitness loads test suites, defines the verdicts of a case, and
// turns a candidate's verdicts into a weighted fitness score (DESIGN.md §3).
//
// # Suites
//
// A [Suite] is loaded from a JSON suite object, a bare JSON array of cases,
// JSON lines, or a Python test file. Every default (timeout, tolerance,
// weight, callee) is applied while loading, so each [Case] is complete.
//
// # Verdicts and outcomes
//
// An engine (package sandbox) runs a candidate on a suite and returns an
// [Outcome]: one [Result] per case. A failing candidate is data, never a Go
// error.
package fitness
