// Package guard checks a plausible patch for overfitting before it is
// reported. A patch passes the suite; that does not make it a fix (Smith
// et al., "Is the cure worse than the disease? Overfitting in automated
// program repair", FSE 2015; Qi et al., ISSTA 2015: most GenProg patches
// delete functionality the suite does not check). The guard runs the
// original and the patched program on inputs next to the suite's (one
// argument, or one number of the input, moved to a neighbouring value:
// [Inputs]) and compares what they do: the value returned, the arguments
// after the call, the exception raised, the output printed.
//
// A test file's cases (pytest, doctest) have no arguments of their own:
// their inputs are the calls the tests made into the target during the
// original's run (fitness.Result.Calls), as call cases; an object a test
// made is replayed with its methods' calls (fitness.Case.Then), one left
// out, one made alone or one argument moved.
//
// Next to a case the original program passes, the original is presumed
// right, and a patch should do what it does. A Report counts the inputs
// there where the patch behaves differently (Changed) and, of those, where
// the original returned or finished and the patch raised (an exception no
// case of the suite expects), crashed or timed out (Broken). Inputs next to failing cases are not counted: there the
// fix is expected to change behaviour.
//
// Plausible patches are ranked by Broken, then Changed, then size (fewer
// first); the search treats a patch that breaks an input as suspect and
// goes on looking for a better one for a while (see repair.Options.Guard).
package guard

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// DefaultInputs is the default number of generated inputs.
const DefaultInputs = 100

// Runner evaluates one program against the probe suite (an engine's Run).
type Runner func(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error)

// Report is what the guard saw of one patch.
type Report struct {
	// Inputs is the number of generated inputs next to cases the original
	// program passes: the inputs judged.
	Inputs int `json:"inputs"`
	// Changed counts those on which the patched program behaves
	// differently from the original.
	Changed int `json:"changed"`
	// Broken counts the changed ones on which the original returned (or
	// finished) and the patched program raised, crashed or timed out.
	Broken int `json:"broken"`
	// Example describes the first changed input: the call or input, then
	// what each program did.
	Example string `json:"example,omitempty"`
	// Examples is the number of the target's docstring examples the
	// original passes, judged beside the generated inputs (a test file's
	// suite: AddExamples); ExamplesFailed, of those, the ones the patched
	// program fails, each counted in Changed and Broken too.
	Examples       int `json:"examples,omitempty"`
	ExamplesFailed int `json:"examples_failed,omitempty"`

	testFile bool // the suite is a test file (String says why no inputs)
}

// Suspect reports whether the patch breaks an input the original handled.
func (r *Report) Suspect() bool { return r != nil && r.Broken > 0 }

// String is the report in words, as the summary and --report show it.
func (r *Report) String() string {
	if r == nil {
		return "not checked"
	}
	var s string
	switch {
	case r.Inputs > 0:
		s = fmt.Sprintf("behaviour changed on %d of %d generated inputs", r.Changed-r.ExamplesFailed, r.Inputs)
		if b := r.Broken - r.ExamplesFailed; b > 0 {
			s += fmt.Sprintf(" (%d now fail where the original did not)", b)
		}
	case r.testFile:
		s = "no generated inputs (the tests the original passes made no call into the target whose arguments are plain values: None, bools, numbers, strings, lists, dicts)"
	default:
		s = "no generated inputs (the suite has no call or stdin cases the original passes)"
	}
	if r.Examples > 0 {
		s += fmt.Sprintf("; %d of the target's %d docstring examples fail", r.ExamplesFailed, r.Examples)
	}
	if r.Example != "" {
		s += "; e.g. " + r.Example
	}
	return s
}

// Less orders reports for ranking: fewer broken inputs, then fewer
// changed ones.
func Less(a, b *Report) bool {
	if a == nil || b == nil {
		return a != nil && b == nil
	}
	if a.Broken != b.Broken {
		return a.Broken < b.Broken
	}
	return a.Changed < b.Changed
}

// Guard compares patched programs with the original on generated inputs.
type Guard struct {
	suite  *fitness.Suite
	probes []fitness.Case
	origin []int
	near   []bool // probe i is next to a case the original passes
	run    Runner
	opts   sandbox.RunOptions
	base   []fitness.Result // the original's behaviour on each probe
	raises map[string]bool  // exceptions some case of the suite expects
	// testFile: the suite is a test file, whose inputs are the calls its
	// tests made into the target.
	testFile bool
	// examples are the target's docstring examples, when AddExamples
	// added them.
	examples *examples
}

// Probes is the suite of generated inputs for s (at most max), to open an
// engine with; nil when s has none. orig is the original's outcome on s:
// for a test file, the run that recorded the calls the tests made into
// the target (see Inputs); nil otherwise.
func Probes(s *fitness.Suite, orig *fitness.Outcome, max int) (*fitness.Suite, []int) {
	probes, origin := Inputs(s, orig, max)
	if len(probes) == 0 {
		return nil, nil
	}
	ps := *s
	ps.Cases = probes
	ps.TestSource, ps.TestModule, ps.Doctest, ps.Parts = nil, "", false, nil
	return &ps, origin
}

// New observes the original program (src, whose outcome on the suite is
// orig) on the probe suite ps made by [Probes], with run an engine opened
// for ps. opts are the engine options of every run (a timeout cap).
func New(ctx context.Context, s *fitness.Suite, orig *fitness.Outcome, src []byte, ps *fitness.Suite, origin []int, run Runner, opts sandbox.RunOptions) (*Guard, error) {
	g := &Guard{suite: s, run: run, opts: opts, raises: map[string]bool{}, testFile: len(s.TestSource) > 0}
	for i, c := range s.Cases {
		if c.Raises != "" {
			g.raises[c.Raises[strings.LastIndexByte(c.Raises, '.')+1:]] = true
		}
		// A test the original passes that saw a call raise expects it.
		if i < len(orig.Results) && orig.Results[i].Verdict == fitness.Passed {
			for _, rc := range orig.Results[i].Calls {
				if rc.Raised != "" {
					g.raises[rc.Raised] = true
				}
			}
		}
	}
	// So does a test file that says pytest.raises(E) or assertRaises(E).
	for _, m := range raisesRE.FindAllSubmatch(s.TestSource, -1) {
		name := string(m[1])
		g.raises[name[strings.LastIndexByte(name, '.')+1:]] = true
	}
	if ps != nil {
		g.probes, g.origin = ps.Cases, origin
	}
	g.near = make([]bool, len(g.probes))
	for i, o := range g.origin {
		g.near[i] = o < len(orig.Results) && orig.Results[o].Verdict == fitness.Passed
	}
	if len(g.probes) == 0 {
		return g, nil
	}
	o, err := run(ctx, src, opts)
	if err != nil {
		return nil, fmt.Errorf("guard: run the original program on generated inputs: %w", err)
	}
	if len(o.Results) != len(g.probes) {
		return nil, fmt.Errorf("guard: %d results for %d generated inputs", len(o.Results), len(g.probes))
	}
	g.base = o.Results
	// The original's inputs that ran out of time under the cap run again
	// too (recheck): its first import of a large package pays the same.
	if err := g.recheck(ctx, src, opts, o, func(i int) bool { return true }); err != nil {
		return nil, fmt.Errorf("guard: run the original program on generated inputs: %w", err)
	}
	// The original runs once more: an input on which it does not give
	// the same result twice (a random id, the time) says nothing of a
	// fix, which would "change" it as the original does.
	again, err := run(ctx, src, opts)
	if err != nil {
		return nil, fmt.Errorf("guard: run the original program on generated inputs: %w", err)
	}
	if again.CompileError == "" && len(again.Results) == len(g.probes) {
		for i, r := range again.Results {
			b := g.base[i]
			if g.near[i] && (r.Verdict != b.Verdict || r.Detail != b.Detail) &&
				!(r.Verdict == fitness.TimeLimitExceeded || b.Verdict == fitness.TimeLimitExceeded) {
				g.near[i] = false
			}
		}
	}
	return g, nil
}

// raisesRE finds the exceptions a test file expects: pytest.raises(E, ...),
// self.assertRaises(E, ...), assertRaisesRegex.
var raisesRE = regexp.MustCompile(`(?:\braises|\bassertRaises(?:Regex)?)\(\s*\(?\s*([A-Za-z_][\w.]*)`)

// Check runs a patched program on the generated inputs and compares it
// with the original. ch, when not nil, is what src changes of the
// original (sandbox.RunOptions.Change): an engine may run it over the
// original's code.
func (g *Guard) Check(ctx context.Context, src []byte, ch *program.Change) (*Report, error) {
	r := &Report{testFile: g.testFile}
	if err := g.checkExamples(ctx, src, ch, r); err != nil {
		return nil, err
	}
	for _, n := range g.near {
		if n {
			r.Inputs++
		}
	}
	if r.Inputs == 0 {
		return r, nil
	}
	opts := g.opts
	opts.Change = ch
	o, err := g.run(ctx, src, opts)
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	if o.CompileError != "" || len(o.Results) != len(g.probes) {
		r.Changed += r.Inputs
		r.Broken += r.Inputs
		r.Example = "the patched program does not run: " + o.CompileError
		return r, nil
	}
	if err := g.recheck(ctx, src, opts, o, func(i int) bool { return g.base[i].Verdict != fitness.TimeLimitExceeded }); err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	for i, after := range o.Results {
		if !g.near[i] {
			continue
		}
		before := g.base[i]
		if before.Verdict == after.Verdict && before.Detail == after.Detail {
			continue
		}
		if before.Verdict == fitness.TimeLimitExceeded && after.Verdict == fitness.TimeLimitExceeded {
			continue // the details name the timeout, not behaviour
		}
		r.Changed++
		broken := handled(before) && !handled(after) && !g.expected(after)
		if broken {
			r.Broken++
		}
		if r.Example == "" || broken && r.Broken == 1 {
			b, a := show(before), show(after)
			// Arguments the call left alike on both sides say nothing.
			if i, j := strings.LastIndex(b, ", arguments "), strings.LastIndex(a, ", arguments "); i >= 0 && j >= 0 && b[i:] == a[j:] {
				b, a = b[:i], a[:j]
			}
			r.Example = fmt.Sprintf("%s: %s before, %s after", g.describe(i), b, a)
		}
	}
	return r, nil
}

// RecheckTimeout is the least cap of CPU time under which the inputs a
// patched program ran out of time on, where the original did not, run
// again before they count (Guard.recheck).
const RecheckTimeout = 2 * time.Second

// recheck runs src again, under a generous cap (RecheckTimeout, or twenty
// times the guard's), on the inputs next to passing cases that it ran out
// of time on in o and that which selects (for a patched program: those
// the original did not run out of time on), and puts what that run gives
// in o.
// The guard's cap is ten times the original's slowest case: a patched
// program's first import of a large package (which the original's run
// did not pay again) can pass it on a quiet machine and not on a loaded
// one, where the original's slower cases made the cap larger. The run
// stops at its first input that times out again.
func (g *Guard) recheck(ctx context.Context, src []byte, opts sandbox.RunOptions, o *fitness.Outcome, which func(int) bool) error {
	lo, hi := -1, -1
	for i, after := range o.Results {
		if g.near[i] && after.Verdict == fitness.TimeLimitExceeded && which(i) {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	if lo < 0 || opts.Timeout <= 0 {
		return nil
	}
	opts.Timeout = max(RecheckTimeout, 20*opts.Timeout)
	opts.AbandonAfterTimeout = true
	opts.Cases = sandbox.CaseRange{First: lo, End: hi}
	again, err := g.run(ctx, src, opts)
	if err != nil {
		return err
	}
	if again.CompileError != "" || len(again.Results) != len(o.Results) {
		return nil
	}
	for i := lo; i < hi; i++ {
		if o.Results[i].Verdict == fitness.TimeLimitExceeded {
			o.Results[i] = again.Results[i]
		}
	}
	return nil
}

// expected reports whether r raised an exception the suite expects of
// some case: the suite makes raising it part of the function's behaviour
// (a fix that adds a missing check raises it next to passing cases too).
//
// An exception the project defines (not a builtin one) is expected too
// when the suite expects one of the project's own: the class a fix raises
// may be a subclass of the one the test names (a test expects ParseError,
// the fix raises UnexpectedCharError(ParseError)), and the guard sees
// names, not classes.
func (g *Guard) expected(r fitness.Result) bool {
	name, ok := strings.CutPrefix(fitness.ShowBehaviour(r.Detail), "raised ")
	if !ok || r.Verdict != fitness.Passed {
		return false
	}
	name = name[strings.LastIndexByte(name, '.')+1:]
	if g.raises[name] {
		return true
	}
	if builtinExceptions[name] {
		return false
	}
	for e := range g.raises {
		if !builtinExceptions[e] {
			return true
		}
	}
	return false
}

// builtinExceptions are the exception classes of Python's builtins
// module (3.8 to 3.13).
var builtinExceptions = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`BaseException BaseExceptionGroup GeneratorExit KeyboardInterrupt SystemExit
		Exception ArithmeticError FloatingPointError OverflowError ZeroDivisionError AssertionError AttributeError
		BufferError EOFError ExceptionGroup ImportError ModuleNotFoundError LookupError IndexError KeyError
		MemoryError NameError UnboundLocalError OSError BlockingIOError ChildProcessError ConnectionError
		BrokenPipeError ConnectionAbortedError ConnectionRefusedError ConnectionResetError FileExistsError
		FileNotFoundError InterruptedError IsADirectoryError NotADirectoryError PermissionError ProcessLookupError
		TimeoutError EnvironmentError IOError ReferenceError RuntimeError NotImplementedError RecursionError
		PythonFinalizationError StopAsyncIteration StopIteration SyntaxError IndentationError TabError SystemError
		TypeError ValueError UnicodeError UnicodeDecodeError UnicodeEncodeError UnicodeTranslateError Warning
		BytesWarning DeprecationWarning EncodingWarning FutureWarning ImportWarning PendingDeprecationWarning
		ResourceWarning RuntimeWarning SyntaxWarning UnicodeWarning UserWarning`) {
		builtinExceptions[n] = true
	}
}

// handled: the program returned or finished on the input (not raised,
// crashed, ran out of time or memory).
func handled(r fitness.Result) bool {
	return r.Verdict == fitness.Passed && !strings.HasPrefix(r.Detail, "raised ")
}

func show(r fitness.Result) string {
	if r.Verdict == fitness.Passed {
		return fitness.ShowBehaviour(r.Detail)
	}
	d := r.Verdict.String()
	if r.Detail != "" {
		d += " (" + firstLine(r.Detail) + ")"
	}
	return d
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// describe names probe i as a call or an input; an object's life as its
// class's call then its methods' ("Queue().add(1).first()").
func (g *Guard) describe(i int) string {
	c := &g.probes[i]
	if c.Kind == fitness.IO && c.Stdin != nil {
		return "input " + firstLine(fitness.PyStrRepr(*c.Stdin))
	}
	s := callText(c.Function, c.Args, c.Kwargs)
	var steps [][]json.RawMessage
	if c.Then != nil && json.Unmarshal(c.Then, &steps) == nil {
		for _, st := range steps {
			var name string
			if len(st) < 2 || json.Unmarshal(st[0], &name) != nil {
				continue
			}
			var kwargs json.RawMessage
			if len(st) > 2 {
				kwargs = st[2]
			}
			s += "." + callText(name, st[1], kwargs)
		}
	}
	return firstLine(s)
}

// callText shows a call of name with args (a JSON array) and kwargs (a
// JSON object, or nil) as Python would write it.
func callText(name string, args, kwargs json.RawMessage) string {
	var parts []string
	if v, err := fitness.ParseJSONValue(args); err == nil {
		for _, a := range v.Items {
			parts = append(parts, a.Repr())
		}
	}
	if kwargs != nil {
		if v, err := fitness.ParseJSONValue(kwargs); err == nil {
			for j := range v.Items {
				parts = append(parts, v.Items[j].Str+"="+v.Vals[j].Repr())
			}
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}
