package gpython

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-python/gpython/py"

	"repair/fitness"
	"repair/sandbox"
)

// wcase is a case as a worker runs it: its JSON decoded once. It holds
// how to run the case, never what the case expects (the engine judges).
type wcase struct {
	kind      fitness.Kind
	fnHead    string
	fnRest    []string
	fn        string
	args      []any
	argsConst py.Tuple // the arguments, when all are immutable (made once)
	kwargs    map[string]any
	wantArgs  bool // report the arguments after the call
	stdin     string
	timeout   float64 // seconds
}

func loadCase(c sandbox.RunCase) (*wcase, error) {
	k := &wcase{kind: c.Kind, fn: c.Function, timeout: c.Timeout, wantArgs: c.WantArgs}
	parts := strings.Split(c.Function, ".")
	k.fnHead, k.fnRest = parts[0], parts[1:]
	if k.timeout <= 0 {
		k.timeout = 2
	}
	if c.Stdin != nil {
		k.stdin = *c.Stdin
	}
	if len(c.Args) > 0 {
		v, err := decodeJSON(c.Args)
		if err != nil {
			return nil, fmt.Errorf("args: %v", err)
		}
		a, ok := v.([]any)
		if !ok && v != nil {
			return nil, fmt.Errorf("args: not an array")
		}
		k.args = a
		k.argsConst = make(py.Tuple, len(a))
		for i, x := range a {
			k.argsConst[i] = toPy(x)
			if !immutable(k.argsConst[i]) {
				k.argsConst = nil
				break
			}
		}
	}
	if len(c.Kwargs) > 0 {
		v, err := decodeJSON(c.Kwargs)
		if err != nil {
			return nil, fmt.Errorf("kwargs: %v", err)
		}
		m, ok := v.(map[string]any)
		if !ok && v != nil {
			return nil, fmt.Errorf("kwargs: not an object")
		}
		k.kwargs = m
	}
	return k, nil
}

// effectiveTimeout is a case's timeout under a cap (0: none), in seconds.
func effectiveTimeout(timeout, cap float64) float64 {
	if timeout <= 0 {
		timeout = 2
	}
	if cap > 0 && cap < timeout {
		return cap
	}
	return timeout
}

// limitDetail is the detail of a case stopped at its limit of CPU time
// (timeout seconds; capped: the search's cap), or at the wall backstop of
// its own timeout own (walled): the cpython engine's words.
func limitDetail(timeout, own float64, capped, walled bool) string {
	switch {
	case walled:
		return "timed out after " + strconv.FormatFloat(sandbox.CaseWall(own), 'g', 3, 64) + "s of wall-clock time, asleep or waiting (--case-timeout raises the limit)"
	case capped:
		return "timed out after " + formatSeconds(timeout) + "s of CPU time (the search's cap)"
	}
	return "timed out after " + formatSeconds(timeout) + "s of CPU time (--case-timeout raises the limit)"
}

// formatSeconds is Python's "%g" of a number of seconds.
func formatSeconds(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }

// outcome is what running a case gave, before the worker's state (the
// deadline, os._exit, memory) overrides it: an observation for the engine
// to judge (status and payload, see observed), or a verdict (status 0).
// verdict and detail are the worker's own view of an observation (a
// raised exception: RUNTIME_ERROR and its line), for its checks of
// gpython's limitations.
type outcome struct {
	verdict fitness.Verdict
	detail  string
	err     error  // the exception that ended the case, if any
	panic   string // a Go panic of gpython, if any
	status  byte   // fitness.StatusReturned, StatusRaised, StatusFinished, or 0
	payload []byte // the observation
}

func passed() outcome { return outcome{verdict: fitness.Passed} }

// runCase runs case i on a fresh module of the candidate, starting at t0
// (nanotime), and returns its record and when it ended.
func (w *worker) runCase(it *interp, code *py.Code, probe string, i, lines int, check bool, t0 int64) (record, int64) {
	c := w.cases[i]
	st := &w.st
	// Fresh standard streams, except that one the previous case did not
	// touch serves again (it is as good as new).
	in, out, errOut := st.in, st.out, st.errOut
	if in == nil || in.pos != 0 || in.closed || in.data != c.stdin {
		in = newInStream(c.stdin)
	}
	if out == nil || out.n != 0 || out.closed {
		out = newOutput(w.outputCap)
	}
	if errOut == nil || errOut.n != 0 || errOut.closed {
		errOut = newOutput(w.outputCap)
	}
	*st = caseState{exited: -1, in: in, out: out, errOut: errOut}
	if lines > 0 {
		st.cov = make([]bool, lines)
	}
	it.setStreams(in, out, errOut, w.pure)
	timeout, own := effectiveTimeout(c.timeout, w.cap), effectiveTimeout(c.timeout, 0)
	st.start, st.deadline, st.limit, st.capped = t0, t0+int64(timeout*1e9), int64(timeout*1e9), timeout < own
	st.hard, st.delayObs = t0+int64(sandbox.CaseWall(own)*1e9), -1
	w.shm.setRunning(i, t0)
	o := w.runKind(it, code, probe, c)
	end := nanotime()
	secs := float64(end-t0) / 1e9
	switch {
	case st.timedOut:
		o.verdict, o.detail, o.status = fitness.TimeLimitExceeded, limitDetail(timeout, own, st.capped, st.walled), 0
	case st.exited >= 0:
		o.verdict, o.detail, o.status = fitness.RuntimeError, fmt.Sprintf("exited with status %d", st.exited), 0
	case st.memory:
		o.verdict, o.detail, o.status = fitness.MemoryLimitExceeded, "MemoryError", 0
	}
	if o.verdict == fitness.Passed {
		o.detail = ""
	}
	rec := record{Case: i, Result: fitness.Result{Verdict: o.verdict, Seconds: secs, Detail: o.detail}, Status: o.status, Payload: o.payload}
	if check && o.verdict != fitness.Passed && !st.timedOut && st.exited < 0 {
		rec.Unsupported = w.limitation(it, o)
	}
	if lines > 0 {
		for l, ok := range st.cov {
			if ok {
				rec.Result.Lines = append(rec.Result.Lines, l)
			}
		}
		if rec.Result.Lines == nil {
			rec.Result.Lines = []int{}
		}
	}
	if o.panic != "" {
		it.used = true // the context may be left inconsistent
	}
	return rec, end
}

func (w *worker) runKind(it *interp, code *py.Code, probe string, c *wcase) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{verdict: fitness.RuntimeError, detail: fmt.Sprintf("SystemError: gpython failed: %v", r), panic: fmt.Sprint(r)}
		}
	}()
	switch c.kind {
	case fitness.IO:
		return w.runIO(it, code, probe, c)
	case fitness.Test:
		return w.runTest(it, code, probe, c)
	}
	return w.runCall(it, code, probe, c)
}

// freshModule executes the candidate in a new module registered as name.
func (w *worker) freshModule(it *interp, name string, code *py.Code, probe string) (py.StringDict, error) {
	m, err := it.ctx.Store().NewModule(it.ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: name, FileDesc: w.candFile}})
	if err != nil {
		return nil, err
	}
	m.Globals["__doc__"] = py.None
	if probe != "" {
		m.Globals[probe] = w.probe
	}
	if w.fmt != "" {
		m.Globals[w.fmt] = fstringFormat
	}
	for i, p := range w.paths {
		m.Globals[w.decor+strconv.Itoa(i)] = dottedDecorator(p, m.Globals, it.ctx.Store().Builtins.Globals)
	}
	_, err = it.ctx.RunCode(code, m.Globals, m.Globals, nil)
	return m.Globals, err
}

func (w *worker) runCall(it *interp, code *py.Code, probe string, c *wcase) outcome {
	d := it.mod
	if d == nil {
		var err error
		if d, err = w.freshModule(it, w.module, code, probe); err != nil {
			return w.raised(err)
		}
		if w.pure && !w.st.timedOut && w.st.exited < 0 {
			if snap, ok := reusableModule(d, w.probe); ok {
				it.mod, it.snap = d, snap
			}
		}
	}
	if it.mod != nil && w.guard {
		// The module is kept for the next case only if it still holds
		// what it held, whatever this case does.
		defer func() {
			if !sameGlobals(d, it.snap) {
				it.mod, it.snap = nil, nil
			}
		}()
	}
	f, ok := d[c.fnHead]
	if !ok {
		return outcome{verdict: fitness.RuntimeError, detail: "the candidate does not define " + c.fnHead}
	}
	for _, part := range c.fnRest {
		var err error
		if f, err = py.GetAttrString(f, part); err != nil {
			return w.raised(err)
		}
	}
	args := c.argsConst
	if args == nil {
		args = make(py.Tuple, len(c.args))
		for i, a := range c.args {
			args[i] = toPy(a)
		}
	}
	var kwargs py.StringDict
	if len(c.kwargs) > 0 {
		kwargs = py.NewStringDictSized(len(c.kwargs))
		for k, v := range c.kwargs {
			kwargs[k] = toPy(v)
		}
	}
	r, err := w.call(f, args, kwargs, w.pure)
	if err != nil {
		return w.raised(err)
	}
	return w.returned(c, r, args)
}

func (w *worker) runIO(it *interp, code *py.Code, probe string, c *wcase) outcome {
	if _, err := w.freshModule(it, "__main__", code, probe); err != nil {
		exc, _ := excInfo(err)
		if exc == nil || !isSubtype(exc.Base, py.SystemExit) || !exitOK(exc) {
			return w.raised(err)
		}
	}
	return w.finished()
}

// exitOK reports whether a SystemExit's code is None or 0.
func exitOK(exc *py.Exception) bool {
	args, _ := exc.Args.(py.Tuple)
	if len(args) != 1 {
		return len(args) == 0
	}
	switch x := args[0].(type) {
	case py.NoneType:
		return true
	case py.Int:
		return x == 0
	case py.Bool:
		return !bool(x)
	}
	return false
}

func (w *worker) runTest(it *interp, code *py.Code, probe string, c *wcase) outcome {
	if w.testCode == nil {
		return outcome{verdict: fitness.RuntimeError, detail: "the test file does not compile under gpython"}
	}
	if _, err := w.freshModule(it, w.module, code, probe); err != nil {
		return w.testException(it, err)
	}
	tm, err := it.ctx.Store().NewModule(it.ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: w.testModule, FileDesc: w.testFile}})
	if err != nil {
		return w.exception(err)
	}
	tm.Globals["__doc__"] = py.None
	if w.testFmt != "" {
		tm.Globals[w.testFmt] = fstringFormat
	}
	for i, p := range w.testPaths {
		tm.Globals[w.testDecor+strconv.Itoa(i)] = dottedDecorator(p, tm.Globals, it.ctx.Store().Builtins.Globals)
	}
	if _, err := it.ctx.RunCode(w.testCode, tm.Globals, tm.Globals, nil); err != nil {
		return w.testException(it, err)
	}
	fn, ok := tm.Globals[c.fn]
	if !ok {
		return outcome{verdict: fitness.RuntimeError, detail: "the test file does not define " + c.fn}
	}
	calls := []py.StringDict{nil}
	if _, err := py.GetAttrString(fn, "pytestmark"); err == nil {
		pm, err := py.ImportModuleLevelObject(it.ctx, "pytest", nil, nil, nil, 0)
		if err != nil {
			return w.exception(err)
		}
		r, err := py.Call(pm.(*py.Module).Globals["_test_calls"], py.Tuple{fn}, nil)
		if err != nil {
			return w.testException(it, err)
		}
		if r == py.None {
			return passed()
		}
		calls = calls[:0]
		err = py.Iterate(r, func(o py.Object) bool {
			d, _ := o.(py.StringDict)
			calls = append(calls, d)
			return false
		})
		if err != nil {
			return w.testException(it, err)
		}
	}
	for _, kw := range calls {
		if _, err := py.Call(fn, nil, kw); err != nil {
			return w.testException(it, err)
		}
	}
	return passed()
}

// testException is the verdict of an exception a test function raised:
// an AssertionError is a wrong answer, and so is a pytest skip (a case
// that does not run fails: a skip must not let a candidate pass what it
// cannot do).
func (w *worker) testException(it *interp, err error) outcome {
	exc, _ := excInfo(err)
	if exc != nil {
		if isSubtype(exc.Base, py.AssertionError) {
			return outcome{verdict: fitness.WrongAnswer, detail: w.excDetail(err), err: err}
		}
		if pm, e := it.ctx.GetModule("pytest"); e == nil && exc.Base.Name == "Skipped" && isSubtype(exc.Base, pm.Globals["Skipped"]) {
			d := "skipped"
			if msg := excMessage(exc); msg != "" {
				d += ": " + msg
			}
			if _, line := w.excLine(err); line != "" {
				d += " " + line
			}
			return outcome{verdict: fitness.WrongAnswer, detail: d, err: err}
		}
	}
	return w.exception(err)
}

// exception is the verdict of an exception that ended a test case.
func (w *worker) exception(err error) outcome {
	exc, _ := excInfo(err)
	if exc == nil {
		return outcome{verdict: fitness.RuntimeError, detail: "SystemError: gpython: " + err.Error(), err: err}
	}
	if isSubtype(exc.Base, py.MemoryError) {
		return outcome{verdict: fitness.MemoryLimitExceeded, detail: "MemoryError", err: err}
	}
	return outcome{verdict: fitness.RuntimeError, detail: w.excDetail(err), err: err}
}

// typeChain is t and its method resolution order.
func typeChain(t *py.Type) []*py.Type {
	out := []*py.Type{t}
	for _, m := range t.Mro {
		if mt, ok := m.(*py.Type); ok && mt != t {
			out = append(out, mt)
		}
	}
	return out
}

func typeModule(t *py.Type) string {
	if m, ok := t.Dict["__module__"].(py.String); ok {
		return string(m)
	}
	return "builtins"
}

// excInfo returns the exception an error carries and its traceback.
func excInfo(err error) (*py.Exception, *py.Traceback) {
	switch e := err.(type) {
	case py.ExceptionInfo:
		exc, _ := e.Value.(*py.Exception)
		if exc == nil && e.Type != nil {
			exc = &py.Exception{Base: e.Type, Args: py.Tuple{}}
		}
		return exc, e.Traceback
	case *py.ExceptionInfo:
		return excInfo(*e)
	case *py.Exception:
		tb, _ := e.Traceback.(*py.Traceback)
		return e, tb
	case *py.Type:
		return &py.Exception{Base: e, Args: py.Tuple{}}, nil
	}
	return nil, nil
}

func excOf(err error) *py.Exception {
	e, _ := excInfo(err)
	return e
}

// excName is the type name of an exception error, for messages.
func excName(err error) string {
	if e := excOf(err); e != nil {
		return e.Base.Name
	}
	return "error"
}

// excMessage is str() of an exception.
func excMessage(exc *py.Exception) string {
	args, ok := exc.Args.(py.Tuple)
	if !ok {
		if exc.Args == nil {
			return ""
		}
		args = py.Tuple{exc.Args}
	}
	switch len(args) {
	case 0:
		return ""
	case 1:
		if isSubtype(exc.Base, py.KeyError) {
			return shortRepr(args[0], 300)
		}
		s, err := py.Str(args[0])
		if err != nil {
			return "<str() failed>"
		}
		if str, ok := s.(py.String); ok {
			return string(str)
		}
		return ""
	}
	return shortRepr(args, 300)
}

// excDetail is "ValueError: bad input (line 7)": the exception's last line
// and the innermost line of the candidate (or the test file) it went
// through.
func (w *worker) excDetail(err error) string {
	exc, _ := excInfo(err)
	if exc == nil {
		return err.Error()
	}
	name := exc.Base.Name
	if mod := typeModule(exc.Base); mod != "builtins" && mod != "__main__" && mod != w.module {
		name = mod + "." + name
	}
	s := name
	if msg := excMessage(exc); msg != "" {
		s += ": " + msg
	}
	if len(s) > 300 {
		s = truncUTF8(s, 297) + "..."
	}
	if _, line := w.excLine(err); line != "" {
		s += " " + line
	}
	return s
}

// excLine is where an exception went through the candidate (or the test
// file) last: its traceback's innermost line there, as details show it,
// "(line 7)" or "(test_x.py line 3)", or "".
func (w *worker) excLine(err error) (string, string) {
	_, tb := excInfo(err)
	var file string
	line := 0
	for ; tb != nil; tb = tb.Next {
		if tb.Frame == nil || tb.Frame.Code == nil {
			continue
		}
		fn := tb.Frame.Code.Filename
		if fn == w.candFile || (w.testFile != "" && fn == w.testFile) {
			file, line = fn, int(tb.Lineno)
		}
	}
	switch {
	case line == 0:
		return "", ""
	case file == w.candFile:
		return file, fmt.Sprintf("(line %d)", line)
	}
	return file, fmt.Sprintf("(%s line %d)", file[strings.LastIndexByte(file, '/')+1:], line)
}

func isPySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// ---- builtin types candidates may change -------------------------------------

// typeSnapshot holds the dictionaries of gpython's built-in types, which
// every context shares: a candidate that sets an attribute of str would
// change str for every later candidate of the worker.
type typeSnapshot map[*py.Type]py.StringDict

func snapshotTypes() typeSnapshot {
	s := typeSnapshot{}
	for _, t := range builtinTypes() {
		s[t] = t.Dict.Copy()
	}
	return s
}

// restore puts back every attribute of a built-in type a candidate added,
// changed or deleted.
func (s typeSnapshot) restore() {
	for t, d := range s {
		for k, v := range t.Dict {
			if o, ok := d[k]; !ok || o != v {
				delete(t.Dict, k)
			}
		}
		for k, v := range d {
			if o, ok := t.Dict[k]; !ok || o != v {
				t.Dict[k] = v
			}
		}
	}
}
