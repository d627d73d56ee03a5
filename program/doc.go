// Package program is the program model of the repair tool (docs/design.md §2):
// a Python file parsed with tree-sitter, its statements and expression
// sites, candidate patches over it, their rendering and their diffs. It is
// the only package that edits what tree-sitter parses (package lenient
// reads it too). The tree is copied once into Go memory (tree.go) and
// built from there: no cgo call per node.
//
// # Statements, blocks, sites
//
// [Parse] builds a [Program]: the statement table ([Stmt], every statement
// of every block, in document order, with stable ids, byte and line ranges,
// indentation, enclosing scope), the blocks ([Block]), the scopes ([Scope],
// with the names each binds and sees), and the expression sites ([Site]):
// conditions, operator tokens, literals, names, and expressions standing
// where another expression could. Files that are not UTF-8, contain NUL
// bytes or do not parse are refused with inputerr errors; a *[SyntaxError]
// reads "PATH:LINE:COL: syntax error: ...". Indentation errors and keywords
// used as names, which the grammar's error recovery lets through, are
// checked separately.
//
// # Patches
//
// A candidate is a [Patch]: an ordered list of [Edit]s that refer to the
// statements and sites of the ORIGINAL program (GenProg's representation),
// never to the result of an earlier edit. The Program is read-only and
// shared by every goroutine of the search.
//
// [Program.Render] resolves a patch into non-overlapping byte replacements
// of the original text and applies them:
//
//   - Conflicts: edits are taken in order; one that overlaps an edit taken
//     before it (an edit inside a statement an earlier edit deletes,
//     replaces or swaps; two edits of one site; an insertion next to a
//     statement nested in a removed one) is dropped. [Program.Resolve] says
//     which edits apply.
//   - Statement edits work on whole lines. A statement that shares its line
//     with its block's header (if x: y) or with a sibling (a; b) has that
//     line split into proper lines first; untouched one-line blocks stay.
//   - Copies are re-indented to their new block, except the lines that
//     start inside a multi-line string. A block left empty gets "pass".
//   - Composed code: a [Guard] wraps statements of a block in a new if
//     (one level deeper), an [InsertText] puts in a one-line statement, a
//     [Rename] changes one name at every read inside a statement.
//   - Line endings follow the file (CRLF stays CRLF); a file without a
//     final newline keeps none; a byte order mark stays.
//
// Every rendered patch parses again (checked by FuzzRender), and with the
// placement rules of [Program.CanPlace] and [Program.CanRemove] CPython
// compiles it (TestRenderCorpus).
//
// # Diffs
//
// [Diff] is a unified diff with "--- a/PATH" and "+++ b/PATH" headers and
// three lines of context that `patch -p1` and `git apply` accept; lines
// outside the changes are byte-identical.
package program
