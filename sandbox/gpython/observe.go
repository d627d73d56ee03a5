package gpython

import (
	"encoding/binary"
	"math"
	"math/big"
	"reflect"
	"sort"

	"github.com/go-python/gpython/py"

	"repair/fitness"
)

// What a worker reports of a call or I/O case is an observation (see
// fitness/observe.go): the value returned, encoded by what it holds; the
// arguments after the call when the case checks them; the class names of
// an exception; the output. The engine, in the tool's process, judges it:
// the worker never holds what a case expects.

// maxEncoded bounds the encoding of one value in bytes (the shared area
// is 8 MiB): a larger value is its repr's, which equals nothing.
const maxEncoded = 2 << 20

// valueOf is o as fitness encodes it, by what it holds: gpython's lists,
// tuples, sets, dicts (str keys, sorted: gpython's dicts have no order),
// numbers and strings; an iterator, generator or range materialised (at
// most fitness.MaxMaterialise items); anything else, a container that
// holds itself, or a value nested deeper than fitness.MaxDepth, its repr.
// Materialising runs the candidate's code: what it raises is returned.
func valueOf(o py.Object) (fitness.Value, error) {
	e := encoder{}
	v, err := e.value(o, 0)
	if err != nil {
		return fitness.Value{}, err
	}
	if e.size > maxEncoded {
		return fitness.Value{Kind: fitness.VOpaque, Str: "<" + o.Type().Name + " too large to compare>"}, nil
	}
	return v, nil
}

type encoder struct {
	active []uintptr // the containers being encoded
	size   int       // bytes so far, about
}

func (e *encoder) value(o py.Object, depth int) (fitness.Value, error) {
	e.size += 9
	switch x := o.(type) {
	case nil, py.NoneType:
		return fitness.Value{Kind: fitness.VNone}, nil
	case py.Bool:
		return fitness.Value{Kind: fitness.VBool, Bool: bool(x)}, nil
	case py.Int:
		return fitness.Value{Kind: fitness.VInt, Int: int64(x)}, nil
	case *py.BigInt:
		b := (*big.Int)(x)
		e.size += len(b.Bits()) * 8
		if b.IsInt64() {
			return fitness.Value{Kind: fitness.VInt, Int: b.Int64()}, nil
		}
		return fitness.Value{Kind: fitness.VInt, Big: new(big.Int).Set(b)}, nil
	case py.Float:
		return fitness.Value{Kind: fitness.VFloat, Float: float64(x)}, nil
	case py.String:
		e.size += len(x)
		return fitness.Value{Kind: fitness.VStr, Str: string(x)}, nil
	}
	if depth >= fitness.MaxDepth || e.size > maxEncoded {
		return fitness.Value{Kind: fitness.VOpaque, Str: "..."}, nil
	}
	switch x := o.(type) {
	case *py.List:
		return e.container(fitness.VList, reflect.ValueOf(x).Pointer(), x.Items, depth)
	case py.Tuple:
		return e.container(fitness.VTuple, 0, x, depth)
	case *py.Set:
		return e.container(fitness.VSet, reflect.ValueOf(x).Pointer(), setItems(x), depth)
	case *py.FrozenSet:
		return e.container(fitness.VFrozenset, reflect.ValueOf(x).Pointer(), setItems(&x.Set), depth)
	case py.StringDict:
		p := reflect.ValueOf(x).Pointer()
		if !e.enter(p) {
			return fitness.Value{Kind: fitness.VOpaque, Str: "{...}"}, nil
		}
		defer e.leave()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		v := fitness.Value{Kind: fitness.VDict, Items: make([]fitness.Value, len(keys)), Vals: make([]fitness.Value, len(keys))}
		for i, k := range keys {
			e.size += len(k) + 5
			v.Items[i] = fitness.Value{Kind: fitness.VStr, Str: k}
			var err error
			if v.Vals[i], err = e.value(x[k], depth+1); err != nil {
				return fitness.Value{}, err
			}
		}
		return v, nil
	case *py.Range, *py.Generator, *py.Iterator, *py.RangeIterator, *py.CallIterator,
		*py.Enumerate, *py.EnumerateIterator, *py.Zip, *py.Map, *py.Filter:
		var items []py.Object
		more := false
		err := py.Iterate(o, func(it py.Object) bool {
			if len(items) == fitness.MaxMaterialise {
				more = true
				return true
			}
			items = append(items, it)
			return false
		})
		if err != nil {
			return fitness.Value{}, err
		}
		if more {
			return fitness.Value{Kind: fitness.VOpaque, Str: "<" + o.Type().Name + " of more than 10000 items>"}, nil
		}
		return e.container(fitness.VList, 0, items, depth)
	}
	r := shortRepr(o, fitness.ReprMax)
	e.size += len(r)
	return fitness.Value{Kind: fitness.VOpaque, Str: r}, nil
}

func (e *encoder) container(kind fitness.ValueKind, ptr uintptr, items []py.Object, depth int) (fitness.Value, error) {
	if ptr != 0 {
		if !e.enter(ptr) {
			s := "[...]"
			if kind != fitness.VList {
				s = "{...}"
			}
			return fitness.Value{Kind: fitness.VOpaque, Str: s}, nil
		}
		defer e.leave()
	}
	v := fitness.Value{Kind: kind, Items: make([]fitness.Value, len(items))}
	for i, it := range items {
		var err error
		if v.Items[i], err = e.value(it, depth+1); err != nil {
			return fitness.Value{}, err
		}
	}
	return v, nil
}

func (e *encoder) enter(p uintptr) bool {
	for _, q := range e.active {
		if q == p {
			return false
		}
	}
	e.active = append(e.active, p)
	return true
}

func (e *encoder) leave() { e.active = e.active[:len(e.active)-1] }

// returned is the observation of a call that returned r; args are the
// arguments after the call, reported when the case checks them.
func (w *worker) returned(c *wcase, r py.Object, args py.Tuple) outcome {
	if !c.wantArgs {
		// The common results, encoded in place (the record copies them).
		b := w.obsBuf[:0]
		switch x := r.(type) {
		case py.Int:
			b = binary.LittleEndian.AppendUint64(append(b, 'i'), uint64(x))
		case py.Bool:
			if x {
				b = append(b, 'T')
			} else {
				b = append(b, 'F')
			}
		case py.NoneType:
			b = append(b, 'N')
		case py.Float:
			b = binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(float64(x)))
		default:
			b = nil
		}
		if b != nil {
			w.obsBuf = append(b, 0) // no arguments
			return outcome{verdict: fitness.Passed, status: fitness.StatusReturned, payload: w.obsBuf}
		}
	}
	obs := fitness.Observation{Ending: fitness.Returned}
	var err error
	if obs.Value, err = valueOf(r); err != nil {
		return w.raised(err)
	}
	if c.wantArgs {
		obs.HasArgs = true
		if obs.Args, err = valueOf(py.NewListFromItems(args)); err != nil {
			return w.raised(err)
		}
	}
	return observed(&obs)
}

// raised is the observation of a case that raised the exception err
// carries (its class names, whether it is a MemoryError, its line).
func (w *worker) raised(err error) outcome {
	exc, _ := excInfo(err)
	if exc == nil {
		return outcome{verdict: fitness.RuntimeError, detail: "SystemError: gpython: " + err.Error(), err: err}
	}
	obs := fitness.Observation{Ending: fitness.Raised, Memory: isSubtype(exc.Base, py.MemoryError)}
	for _, t := range typeChain(exc.Base) {
		obs.Exception = append(obs.Exception, t.Name)
	}
	o := observed(&obs)
	o.verdict, o.detail, o.err = fitness.RuntimeError, w.excDetail(err), err
	if obs.Memory {
		o.verdict, o.detail = fitness.MemoryLimitExceeded, "MemoryError"
	}
	return o
}

// finished is the observation of an I/O case that ran to its end.
func (w *worker) finished() outcome {
	out := w.st.out
	return observed(&fitness.Observation{Ending: fitness.Finished, Stdout: out.value(), Overflow: out.n > w.outputCap})
}

// observed is an outcome carrying an observation: the engine judges it.
func observed(obs *fitness.Observation) outcome {
	status, payload := fitness.AppendObservation(nil, obs)
	return outcome{verdict: fitness.Passed, status: status, payload: payload}
}
