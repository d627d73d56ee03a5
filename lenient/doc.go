// Package lenient runs incomplete programs: code extracted from a larger
// project, a submission importing a module the sandbox lacks, a snippet.
// It is LExecutor's idea (Souza and Pradel, "LExecutor: Learning-Guided
// Execution", ESEC/FSE 2023): where the program reads a name that nothing
// defines, imports a module that does not exist, reads an attribute an
// object lacks, or calls such an injected value, the engine injects a
// value predicted from the code instead of raising NameError, ImportError
// or AttributeError, and execution goes on. docs/lenient.md has the user's
// view and the measured coverage.
//
// # Where the work happens
//
// This package makes the [Plan], in Go, before anything runs: [Analyze]
// reads every name read, attribute read and call of the original program
// with tree-sitter (read-only; package program owns edits) and merges
// the ways each (kind, name) is used into a [Context]; a [Predictor]
// turns each context into a value [Class]. The plan travels with every
// run (sandbox.RunOptions.Lenient); the search uses the original's
// plan for every candidate, so that all candidates see the same injected
// world.
//
// The cpython engine does the injecting, in the sandbox
// (sandbox/cpython/lenient.py): the candidate's module runs with a copy of
// the builtins whose __missing__ injects names and whose __import__
// injects modules, and its attribute reads are rewritten on the AST
// (positions kept, so coverage and details keep the original lines) to a
// lookup that injects when a module, or one of the program's classes or
// their instances, lacks the attribute. Names that exist are never
// replaced, and other exceptions (an UnboundLocalError, an
// AttributeError on None or a list, anything the code raises) are left
// alone. Every injection is recorded per case as a fitness.Injection.
// The gpython engine cannot inject.
//
// # Predictors
//
// [Rules] is the rule-based predictor; [Random] is LExecutor's random
// baseline. LExecutor's own predictor is a fine-tuned neural model (CodeT5)
// that reads the kind, the name and the code around a use; such a model
// plugs in as another [Predictor]: its Predict formats [Context.Kind],
// [Context.Name] and [Context.Code] of the first sites into the model's
// input and maps the answer to a [Class]. Predict runs in the tool, once
// per (kind, name), so a model served over the network or in a
// subprocess costs one query per distinct missing thing, not one per
// candidate.
package lenient
