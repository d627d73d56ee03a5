// Package mutate holds the mutation operators of the search (docs/design.md §6):
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
// by one, add a term. Siblings and attributes: min into max, append into
// extend, an attribute name into another of the file. Composed text
// (compose.go): a condition on a name of the function, a wrap in max, min,
// abs, len, list or [..], swapped operands, slices and subscripts, an
// assignment of a new value, a copy with one operator changed — shapes of
// one-line fixes whose text the file does not hold.
//
// # Developers' edits
//
// Edits real fixes make that the operators above cannot (issue 28):
// string-char changes one character of a string literal, often a regular
// expression ("[^;]" into "[^&;]"); module-const replaces a literal by a
// constant of a module the file imports (':' into os.pathsep);
// similar-name replaces a name by a similar one in scope (l_bar into
// l_bar_user) and rename changes one name at every use in a statement or
// function ([program.Rename]); add-call calls a callable used as a value
// (not str_op into not str_op(attr, value)); guard wraps statements in a
// new if ([program.Guard]), early-exit inserts "if c: return" or
// "continue" ([program.InsertText]) and cond-expr makes a value
// conditional, with conditions built from the names bound where they
// stand; default-arg gives a lookup the default it lacks (cache.pop(key)
// into cache.pop(key, None)) and item-call turns an assignment to an item
// into an append ([program.ReplaceLine]). wrap and slice also convert (set, sorted, str...), unwrap a call
// and slice any sequence. Their weights are small: they widen what the
// search can reach without crowding out the edits most small bugs need.
// No insert lands where it cannot run: after a statement that always
// leaves its block, or in code after one (reach.go).
//
// More of them: regex edits a pattern of the re module by its structure (a class gains
// or loses a character, a quantifier, an anchor, an escape, a branch);
// raise-guard inserts "if not x: raise E(...)" for a class E the file
// raises; try-except wraps a statement in a try whose except raises the
// module's error (UnicodeError into DecodeError), or removes a try;
// rename-alike renames every name of a statement alike (l_bar and r_bar
// into l_bar_user and r_bar_user); add-arg adds an argument the callee's
// def or the file's other calls suggest; domain-string replaces a string
// by another of its domain ("utf-8" into "latin1", "None" into "null");
// type-self puts type(self) for the class's name; type-tuple widens
// isinstance to a tuple of types.
//
// # Edits on inserted code
//
// Every edit refers to the original program, so a copy is refined by the
// insert that puts it in: [Refine] gives an unadapted insert one site
// changed by a site operator ([Operator.Applies] says which apply).
//
// # Targets
//
// Every operator draws its target in proportion to the suspiciousness of
// the statement that holds it ([Context.Weights], from package localize),
// so statements no failing test executes are never changed.
//
// # The deny list
//
// No edit brings into a function (class, module code) a name of [Denied]
// its original does not use: pytest, frames, gc, ctypes, os._exit, a new
// __eq__ and the like, by which code under test can forge the verdict of
// a test file it runs next to. Operators, [Neighbourhood] and [Refine]
// skip such edits (deny.go).
//
// # What an operator owns
//
// An operator is one value in one file: its [Operator.Name], its
// [Operator.Doc] (what `repair operators` prints), its default
// [Operator.Weight], its Targets and Edits. What it needs beyond the
// program's shared facts ([Context]: the statements and sites by kind,
// the donor statements and texts, reachability, the ingredient scope) it
// declares next to it as a fact, computed once per context (fact.go), as
// an analyzer of golang.org/x/tools/go/analysis declares its result:
// its own targets (keptSites, keptStmts, sitesWhere, newTargets, which
// [Prepare] prepares and [Context.Weigh] weighs), the file's names or
// classes it draws from (newFact), a cache it fills as it goes
// (newCache).
//
// # Adding an operator
//
//  1. Write it in one file: an Operator value with its name, doc, weight,
//     targets (a shared sampler such as stmtTargets or siteTargets(k), or
//     its own fact) and edits, and the facts it prepares. An operator
//     that replaces a site's text by each of a list of texts needs only
//     the function that lists them: replacing(op, texts, kinds...) makes
//     its targets and edits (same-call, add-entry, attr-alike). Every
//     edit it emits must render to code that compiles.
//  2. Append it to [All] in mutate.go (the order is the draw order of
//     seeded runs, so a new operator goes last).
//  3. Add a row to the devFixes table (fixes_test.go): a small program and
//     the fix the operator makes in one edit.
//
// Then regenerate the goldens of its edits (add a few lines it applies to
// at the end of testdata/devfixes.py; go test ./mutate -run Golden
// -update adds its sections to testdata/operators.golden and
// testdata/devfixes.golden, which hold every operator from regex on in
// All), and add an example bug it fixes to
// scripts/make_operator_examples.py (examples/operators; append it, so
// the examples before it keep their inputs). raise-call (raisecall.go)
// was added so: raisecall.go, mutate.go, fixes_test.go, the goldens and
// the example.
//
// `repair operators` prints [All] with their docs.
package mutate
