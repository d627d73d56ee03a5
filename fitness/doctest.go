package fitness

import (
	"fmt"
	"strconv"
	"strings"

	"repair/internal/inputerr"
	"repair/internal/pymod"
	"repair/internal/userfile"
	"repair/program"
)

// DoctestPrefix selects a doctest suite: "doctest:FILE" takes its cases
// from the examples (">>> ") in the docstrings of FILE, which is also the
// suite's target.
const DoctestPrefix = "doctest:"

// loadDoctest makes a suite of the doctests of the Python file at path:
// one Test case per module, class or function docstring that holds
// examples, named "doctest:QUALNAME". The examples are read from the
// file as it is now, the original: a candidate that rewrites its own
// docstrings does not change what it is tested against. The cases run as
// a generated test file (the built-in runner) that imports the target by
// its module name and runs each docstring with the standard doctest
// module against the candidate's namespace.
func loadDoctest(path string) (*Suite, error) {
	data, err := userfile.Read(path, MaxFileSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		return nil, readError(path, err)
	}
	p, err := program.Parse(path, data)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	module, _, err := pymod.Module(path)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	s := &Suite{Path: DoctestPrefix + path, Target: path, MemoryMB: DefaultMemoryMB, Doctest: true}
	var quals []string
	seen := map[string]bool{}
	for _, st := range p.Stmts {
		if !st.Docstring || !strings.Contains(string(p.Src[st.Start:st.End]), ">>>") {
			continue
		}
		sc := p.Scopes[st.Scope]
		if seen[sc.Name] {
			continue
		}
		seen[sc.Name] = true
		line := st.Line
		if sc.Stmt >= 0 {
			line = p.Stmts[sc.Stmt].Line
		}
		name := sc.Name
		if name == "" {
			name = module
		}
		quals = append(quals, sc.Name)
		s.Cases = append(s.Cases, Case{
			Name: "doctest:" + name, Kind: Test, Function: fmt.Sprintf("test_doctest_%d", len(quals)), Line: line,
			Weight: DefaultWeight, Timeout: DefaultTimeout, Tolerance: DefaultTolerance,
		})
	}
	if len(s.Cases) == 0 {
		return nil, inputerr.New("%s: no doctests: no docstring holds a \">>> \" example", path)
	}
	s.TestModule = "doctest_" + module[strings.LastIndex(module, ".")+1:]
	s.TestSource = doctestSource(module, string(data), quals)
	return s, nil
}

// doctestSource is the generated test file of a doctest suite: test
// function i runs the examples of the docstring of quals[i-1] ("" for the
// module's) as the original source has them.
func doctestSource(module, original string, quals []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "import %s as _target\n", module)
	b.WriteString(`import ast as _ast
import doctest as _doctest

_ORIGINAL = ` + strconv.Quote(original) + `


def _docstring(qual):
    node = _ast.parse(_ORIGINAL)
    for part in qual.split(".") if qual else ():
        for child in node.body:
            if isinstance(child, (_ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef)) and child.name == part:
                node = child
                break
    doc = _ast.get_docstring(node, clean=False) or ""
    return doc, node.body[0].lineno if doc else 0


class _Runner(_doctest.DocTestRunner):
    first = None
    line = 0

    def where(self, example):
        return "line %d: %s" % (self.line + example.lineno, example.source.strip())

    def report_failure(self, out, test, example, got):
        if self.first is None:
            self.first = "%s: expected %s, got %s" % (
                self.where(example), example.want.strip() or "nothing", got.strip() or "nothing")

    def report_unexpected_exception(self, out, test, example, exc_info):
        if self.first is None:
            self.first = "%s: raised %s: %s" % (self.where(example), exc_info[0].__name__, exc_info[1])


def _run(qual):
    globs = dict(vars(_target))
    doc, line = _docstring(qual)
    test = _doctest.DocTestParser().get_doctest(doc, globs, qual or _target.__name__, None, 0)
    runner = _Runner(verbose=False, optionflags=_doctest.ELLIPSIS)
    runner.line = line
    runner.run(test, out=lambda s: None, clear_globs=True)
    if runner.failures:
        raise AssertionError(runner.first or "a doctest failed")
`)
	for i, q := range quals {
		fmt.Fprintf(&b, "\n\ndef test_doctest_%d():\n    _run(%s)\n", i+1, strconv.Quote(q))
	}
	return []byte(b.String())
}
