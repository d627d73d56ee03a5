package gpython

import (
	"github.com/go-python/gpython/py"
)

// The call of a case. gpython's function call (py.Call → Function.M__call__
// → EvalCode) allocates a frame, its locals, its value stack and a locals
// dict on every call; for a small candidate that is most of what a case
// costs. A pure candidate's top-level call of a plain function reuses
// instead the frame of the previous case's call of the same code, reset to
// what EvalCode would have made: no Python code can reach a frame (a frame
// has no attributes in gpython), pure code cannot reach its locals dict
// (locals, vars, eval and exec are not pure), and nothing else in the frame
// outlives a call but what is reset here. Calls inside the candidate (a
// recursion, a helper) are gpython's own.

// callFrames are the frames of a candidate's top-level calls, by code.
type callFrames struct {
	frames map[*py.Code]*py.Frame
	locals py.StringDict // the empty locals dict of every reused frame
}

// reset forgets the frames (a new candidate: new code objects).
func (c *callFrames) reset() { clear(c.frames) }

// fastCallable reports whether a call of f with args (positional only) is
// one EvalCode makes without parsing arguments: a plain function, as many
// arguments as parameters, no closure, cell variables, keyword-only
// parameters, * or ** parameters, not a generator.
func fastCallable(f *py.Function, nargs int) bool {
	co := f.Code
	return co != nil &&
		int(co.Argcount) == nargs &&
		co.Kwonlyargcount == 0 &&
		co.Flags&(py.CO_VARARGS|py.CO_VARKEYWORDS|py.CO_GENERATOR) == 0 &&
		co.Flags&py.CO_OPTIMIZED != 0 &&
		len(co.Cellvars) == 0 && len(co.Freevars) == 0 &&
		len(f.Closure) == 0 &&
		int(co.Nlocals) >= nargs
}

// call is py.Call(fn, args, kwargs) for the top-level call of a case. With
// reuse (a pure candidate) a plain function's call runs in a reused frame,
// and the probes see the stack depth py.Call would have had (fastBias).
func (w *worker) call(fn py.Object, args py.Tuple, kwargs py.StringDict, reuse bool) (py.Object, error) {
	f, ok := fn.(*py.Function)
	if !reuse || !ok || len(kwargs) != 0 || !fastCallable(f, len(args)) {
		return py.Call(fn, args, kwargs)
	}
	c := &w.calls
	if c.frames == nil {
		c.frames = map[*py.Code]*py.Frame{}
	}
	if c.locals == nil || len(c.locals) != 0 {
		c.locals = py.NewStringDict()
	}
	fr := c.frames[f.Code]
	if fr == nil {
		fr = py.NewFrame(f.Context, f.Globals, c.locals, f.Code, nil)
		c.frames[f.Code] = fr
	} else {
		// What NewFrame makes, in the frame of the previous call.
		fr.Context = f.Context
		fr.Globals = f.Globals
		fr.Locals = c.locals
		fr.Builtins = f.Context.Store().Builtins.Globals
		clear(fr.Localsplus)
		clear(fr.Stack[:cap(fr.Stack)])
		fr.Stack = fr.Stack[:0]
		clear(fr.Blockstack[:cap(fr.Blockstack)])
		fr.Blockstack = fr.Blockstack[:0]
		fr.Block = nil
		fr.Yielded = false
		fr.Lasti = 0
	}
	copy(fr.Localsplus, args)
	w.st.stackBias = w.fastBias
	r, err := py.VmRunFrame(fr)
	w.st.stackBias = 0
	if err != nil {
		return nil, err
	}
	return r, nil
}
