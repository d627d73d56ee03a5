// Package pygen generates random, syntactically and statically valid
// Python programs, in the spirit of Hypothesmith (Zac Hatfield-Dodds): a
// grammar-based generator whose output CPython's compile() accepts, used to
// fuzz the program model, the operators, crossover and reduce (docs/design.md
// §9).
//
// # What it generates
//
// Modules with imports, functions (defaults, *args, keyword-only and
// positional-only parameters, annotations, decorators, nested functions
// with nonlocal, generators, async functions with await, async for and
// async with), classes with methods, if/elif/else, for and while with
// else, try/except/else/finally, with, match (unless [Config.NoMatch]),
// global declarations, and every simple statement; expressions of every
// precedence level with the parentheses they need, comprehensions of all
// four kinds, lambdas, conditional expressions, walrus, f-strings with
// conversions, format specs and nested fields, string and number literals
// of every form.
//
// Layout is as varied as Python allows: one-line blocks (if x: y),
// ';'-joined lines with or without a trailing ';', comments at any column
// and after headers, blank and whitespace-only lines, blocks indented with
// one to eight spaces, tabs or a tab and spaces (each block extends its
// parent's indentation, so no TabError), lines continued in brackets or
// with a backslash, multi-line strings whose lines start at column 0,
// CRLF files, files without a final newline and byte order marks.
//
// # Validity
//
// The generator tracks the context of every statement and expression so
// that compile() accepts the result: return and yield only in functions
// (no yield in async functions, so no "return with value in async
// generator"), break and continue only in loops, await only in async
// functions and not in lambdas, nonlocal only in a nested function for a
// name its parent binds, global as the first statement of a function for
// names nothing else declares, unique parameter and keyword names,
// positional arguments before keyword ones, import * only at module level,
// irrefutable match patterns only in the last case, f-string fields
// without backslashes or the enclosing quote (Python 3.8 to 3.11 rules).
// The programs are not meant to run: names may be unbound.
//
// # Determinism
//
// [Generate] draws every choice from the *rand.Rand it is given, so a seed
// fixes the program. [Bytes] turns a fuzzer's input into a [rand.Source]
// that replays it, so `go test -fuzz` explores programs by mutating the
// choices; an exhausted input reads as zeros, and choice 0 is always the
// simplest, so every input gives a small, finite program.
package pygen
