// Package fitness loads test suites, defines the verdicts of a case,
// compares values and output the way the sandbox harness does, turns a
// candidate's verdicts into a weighted fitness score, and caches scores by
// candidate source (docs/design.md §3).
//
// A run uses it in this order:
//
//	suite, err := fitness.Load("tests.json")        // every error: inputerr, one line
//	err = suite.CheckTarget("middle.py", defined)   // defined: the target's top-level names
//	original, err := engine.Run(ctx, src, opts)     // package sandbox
//	err = suite.CheckRepairable(original)           // "nothing to repair: all N cases pass"
//	scorer, err := fitness.NewScorer(suite, original, fitness.DefaultWeights())
//	cache := fitness.NewCache(scorer, 0)
//	entry, err := cache.Eval(ctx, rendered, func(ctx context.Context) (*fitness.Outcome, error) {
//		return engine.Run(ctx, rendered, sandbox.RunOptions{})
//	})
//	// entry.Score in [0, 1]; entry.Passed() when every case passes.
//
// # Suite formats
//
// [Load] picks the format from the file name and its first character:
//
//   - "*.py": a Python test file. Every top-level "def test_*(" or
//     "async def test_*(" at column 0 is one [Test] case named after the
//     function, with [Case.Line] set; [Suite.TestSource] holds the file and
//     [Suite.TestModule] its module name (the file name without ".py",
//     which must be an identifier). The file must contain an import, and
//     test names must be unique. The scanner is line-based: it skips
//     comments and the contents of strings (triple-quoted ones across lines)
//     and parses nothing else. test_*.py and *_test.py are the usual names;
//     any .py file is read this way.
//   - "*.jsonl" or "*.ndjson": JSON lines, one case object per line (blank
//     lines allowed). More generally a stream of case objects: an object may
//     span lines (jq's default output), and errors name the line it starts
//     on ("tests.jsonl:7: args: must be an array, got object").
//   - anything else is JSON: a suite object (below); a bare array of case
//     objects; a stream of case objects when the file holds several
//     top-level objects; or one case object alone (an object without
//     "tests" that has a case key such as "args" or "expected").
//
// Several Python test files make one suite with [LoadFiles] (what
// [TestFiles] finds under a directory, or a list of files): its
// [Suite.Parts] are the files' suites, its cases theirs in order, each
// named by its file ("test_a.py::test_x"); an engine runs each part
// (sandbox.Multi).
//
// A UTF-8 byte order mark is skipped. Files must be UTF-8, non-empty, and
// plain JSON: NaN and Infinity (which Python's json.dumps writes by
// default) are refused with their line and column.
//
// A suite object has the keys
//
//	target         string   the program; relative to the suite's directory (--target wins)
//	function       string   default callee of call cases; alias function_name
//	timeout        number   seconds per case, > 0, at most a day (default 2)
//	memory_mb      integer  per candidate process, > 0 (default 512)
//	tolerance      number   float comparison, >= 0 (default 1e-9)
//	tests          array    the cases, at least one
//
// and a case object the keys
//
//	name           string   unique; default: its location, see below
//	function       string   the callee (a dotted name such as "Stack.push" is allowed); alias function_name
//	args           array    positional arguments
//	kwargs         object   keyword arguments
//	parameters     object   EiplGrader's arguments: passed positionally, in key order; excludes args, kwargs;
//	                        function defaults to "foo" as in EiplGrader
//	inplace        "0"-"2"  EiplGrader's in-place mode: "1" checks the first argument after the call
//	                        against expected, "2" the return value or, when it is None, the first argument
//	parameter_types object  EiplGrader's types of parameters (int, double, string, bool, List[...]), checked
//	expected_type  string   the type the checked value must have, besides equal to expected
//	expected       any      the return value
//	expected_args  array    the arguments after the call (in-place functions); as long as args
//	raises         string   an exception class name (dotted allowed); excludes expected and expected_args
//	stdin, stdout  string   an I/O case: runs the program as __main__; excludes the call keys
//	weight         number   > 0 (default 1)
//	timeout        number   > 0, at most a day, overrides the suite's
//	tolerance      number   >= 0, overrides the suite's
//
// A call case needs a check (expected, expected_args or raises) and a
// callee (its own or the suite's); an I/O case needs stdout (stdin defaults
// to ""). Values are kept as compact JSON ([Case.Args] and friends). Once
// loaded, every [Case] is complete: Kind, Function, Weight, Timeout and
// Tolerance are set, and the suite's defaults are applied.
//
// A case without a name is named by its location: "tests[3]" in a suite
// object, "[3]" in a bare array, "line 7" in a stream. An explicit name may
// not repeat another name, generated or not. [Suite.Where] gives a case's
// location as messages show it.
//
// # Errors
//
// Every problem with a suite file is an [inputerr.Error] (exit code 2)
// with a one-line message naming the file and the JSON path or line:
//
//	tests.json: tests[3].expectd: unknown key (did you mean "expected"?)
//	tests.json: tests[3].args: must be an array, got object
//	tests.json: tests[0]: no function: set "function" in the suite or the case
//	tests.json:4:31: NaN is not JSON: values must be plain JSON (no NaN or Infinity)
//	tests.jsonl:2: name: duplicate name "a" (also line 1)
//	tests.json: tests[4].function: "midle" is not defined in middle.py (did you mean "middle"?)
//
// testdata/bad holds one input per message with its golden file.
//
// # Comparison
//
// [Equal] compares a returned value with the expected one and
// [EqualStdout] an I/O case's output; the Python harness of package
// sandbox must implement the same rules. testdata/compare_ref.py is the
// reference Python implementation, and testdata/equal.json and
// testdata/stdout.json are shared test vectors that both the Go tests and
// the reference check. In short: null, booleans and strings only equal
// themselves; ints (any size) are exact; a float on either side means
// math.isclose(a, b, rel_tol=tol, abs_tol=tol), where NaN equals nothing
// and an infinity only itself; arrays and objects compare structurally.
//
// # Scoring
//
// A [Scorer] is built once from the original program's [Outcome]: cases
// the original passes are positive, the others negative. With per-case
// weights w and [Weights]{Passing: wp, Failing: wf}:
//
//	Relative (the Debugging Book's Repairer, the default wp = 0.99, wf = 0.01):
//	    fitness = (wp·Σw(passed pos)/Σw(pos) + wf·Σw(passed neg)/Σw(neg)) / (wp + wf)
//	    When there are no negative cases the fitness is Σw(passed pos)/Σw(pos),
//	    and with no positive ones Σw(passed neg)/Σw(neg).
//	Absolute (GenProg, Weimer et al. 2009, wp = W_pos = 1, wf = W_neg = 10):
//	    fitness = (wp·Σw(passed pos) + wf·Σw(passed neg)) / (wp·Σw(pos) + wf·Σw(neg))
//
// Both weights must be > 0. The division by wp+wf (a no-op for the book's
// 0.99 + 0.01) and the empty-class rule make 1.0 mean exactly "every case
// passes", whatever the weights; [Scorer.Score] also guarantees it against
// rounding, returning 1 only then. A candidate that does not compile scores
// 0. Score costs one pass over precomputed per-case gains (about 150 ns for
// 200 cases) and does not allocate.
//
// # Cache
//
// A [Cache] maps a candidate's rendered source to its [Entry] (score and
// verdicts) for one Scorer. Keys are the first 128 bits of SHA-256
// ([KeyOf]): with the SHA extensions of current x86 and ARM CPUs it hashes
// 1.5–1.7 GB/s, five times FNV-128a's 0.33 GB/s on 1–10 KB sources
// (BenchmarkKey: 0.67 µs against 3.2 µs for 1 KB), and it is collision
// resistant, so two candidates never share a score by accident. Entries keep
// only the verdicts (one byte per case), not the details, so the default
// limit of 131072 entries stays near 40 MB with 200 cases; a two-generation
// scheme evicts the least recently used half when full. Concurrent requests
// for one source are evaluated once (the others wait, or leave when their
// context ends); errors are not cached.
package fitness
