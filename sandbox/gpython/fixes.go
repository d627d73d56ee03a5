package gpython

import (
	"math"
	"math/big"
	"strconv"
	"sync"

	"github.com/go-python/gpython/py"
)

// Fixes of gpython v0.2.0 bugs whose CPython behaviour is unambiguous. A
// worker applies them to its own process (they change gpython's shared
// types), before any candidate runs. Each one makes a program that gpython
// would run with wrong results (silently, so that no limitation check
// could refuse it) run as under CPython:
//
//   - dict.get(k, d) raises KeyError for a key that is not a str instead of
//     returning d (gpython's dicts only hold str keys, so such a key is
//     never there: d is right).
//   - round(x, n) returns 0.0 for most floats, and round(x) a float
//     instead of an int.
//   - bool(x) and frozenset(xs) cannot be called ("cannot create
//     instances").
//   - a parameter that a lambda, comprehension or nested function uses is
//     unbound there ("free variable referenced before assignment"): the
//     compiler does not fill the code's Cell2arg, so the frame never puts
//     the argument into the parameter's cell. Every compile (candidates,
//     test files, imported helper modules) goes through py.Compile, which
//     now fills it as py.NewCode would.
func applyFixes() {
	compileFix.Do(func() {
		compile := py.Compile
		py.Compile = func(src, srcDesc string, mode py.CompileMode, flags int, dontInherit bool) (*py.Code, error) {
			code, err := compile(src, srcDesc, mode, flags, dontInherit)
			if err == nil {
				setCell2arg(code)
			}
			return code, err
		}
	})
	addCompatMethods()
	py.BoolType.New = func(t *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		var x py.Object = py.False
		if err := py.UnpackTuple(args, kwargs, "bool", 0, 1, &x); err != nil {
			return nil, err
		}
		return py.MakeBool(x)
	}
	py.FrozenSetType.New = func(t *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		var xs py.Object = py.Tuple{}
		if err := py.UnpackTuple(args, kwargs, "frozenset", 0, 1, &xs); err != nil {
			return nil, err
		}
		var items []py.Object
		if err := py.Iterate(xs, func(o py.Object) bool {
			items = append(items, o)
			return false
		}); err != nil {
			return nil, err
		}
		return py.NewFrozenSetFromItems(items), nil
	}
	origGet := py.StringDictType.Dict["get"]
	py.StringDictType.Dict["get"] = py.MustNewMethod("get", func(self py.Object, args py.Tuple) (py.Object, error) {
		if len(args) >= 1 && len(args) <= 2 {
			if _, ok := args[0].(py.String); !ok {
				if len(args) == 2 {
					return args[1], nil
				}
				return py.None, nil
			}
		}
		return py.Call(boundTo(origGet, self), args, nil)
	}, 0, "get(key, default=None) -> D[key] if key in D, else default")
}

// boundTo binds a method of a type's dict to an instance.
func boundTo(m py.Object, self py.Object) py.Object {
	if g, ok := m.(py.I__get__); ok {
		if b, err := g.M__get__(self, self.Type()); err == nil {
			return b
		}
	}
	return m
}

// builtinTypes lists gpython's built-in types.
func builtinTypes() []*py.Type {
	seen := map[*py.Type]bool{}
	var out []*py.Type
	add := func(t *py.Type) {
		if t != nil && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	ctx := py.NewContext(py.DefaultContextOpts())
	for _, v := range ctx.Store().Builtins.Globals {
		if t, ok := v.(*py.Type); ok {
			add(t)
		}
	}
	for _, t := range []*py.Type{py.ObjectType, py.TypeType, py.BigIntType, py.BoolType, py.BoundMethodType,
		py.BytesType, py.CallIteratorType, py.CellType, py.ClassMethodType, py.CodeType, py.ComplexType,
		py.StringDictType, py.DictType, py.EnumerateType, py.EnumerateIteratorType, py.FileType, py.FilterType,
		py.FloatType, py.FrameType, py.FunctionType, py.GeneratorType, py.IntType, py.IteratorType, py.ListType,
		py.MapType, py.MethodType, py.ModuleType, py.NoneTypeType, py.PropertyType, py.RangeType,
		py.RangeIteratorType, py.SetType, py.FrozenSetType, py.SliceType, py.StaticMethodType, py.StringType,
		py.TracebackType, py.TupleType, py.ZipType, timeoutType, processExitType, recursionErrorType,
		outputType, inputType} {
		add(t)
	}
	return out
}

// pyRound is the builtin round(number, ndigits=None).
func pyRound(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	var number, ndigits py.Object = nil, py.None
	if err := py.ParseTupleAndKeywords(args, kwargs, "O|O:round", []string{"number", "ndigits"}, &number, &ndigits); err != nil {
		return nil, err
	}
	n, hasDigits := 0, ndigits != py.None
	if hasDigits {
		d, ok := ndigits.(py.Int)
		if !ok {
			return nil, py.ExceptionNewf(py.TypeError, "'%s' object cannot be interpreted as an integer", ndigits.Type().Name)
		}
		n = int(max(min(d, 1<<20), -(1 << 20)))
	}
	switch x := number.(type) {
	case py.Bool:
		return roundInt(big.NewInt(int64(boolInt(bool(x)))), n, hasDigits), nil
	case py.Int:
		return roundInt(big.NewInt(int64(x)), n, hasDigits), nil
	case *py.BigInt:
		return roundInt(new(big.Int).Set((*big.Int)(x)), n, hasDigits), nil
	case py.Float:
		f := float64(x)
		if !hasDigits {
			if math.IsNaN(f) {
				return nil, py.ExceptionNewf(py.ValueError, "cannot convert float NaN to integer")
			}
			if math.IsInf(f, 0) {
				return nil, py.ExceptionNewf(py.OverflowError, "cannot convert float infinity to integer")
			}
			r := math.RoundToEven(f)
			if math.Abs(r) < 1<<62 {
				return py.Int(int64(r)), nil
			}
			b, _ := big.NewFloat(r).Int(nil)
			return (*py.BigInt)(b), nil
		}
		return py.Float(roundFloat(f, n)), nil
	}
	if r, ok := number.(py.I__round__); ok {
		return r.M__round__(ndigits)
	}
	return nil, py.ExceptionNewf(py.TypeError, "type %s doesn't define __round__ method", number.Type().Name)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// roundInt rounds an int to n decimal digits (n < 0 rounds to tens,
// hundreds, ...), halves to even.
func roundInt(x *big.Int, n int, hasDigits bool) py.Object {
	if n < 0 {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil)
		q, r := new(big.Int).QuoRem(x, p, new(big.Int))
		twice := new(big.Int).Abs(r)
		twice.Lsh(twice, 1)
		if c := twice.Cmp(p); c > 0 || (c == 0 && q.Bit(0) == 1) {
			if x.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		x = q.Mul(q, p)
	}
	if x.IsInt64() {
		return py.Int(x.Int64())
	}
	return (*py.BigInt)(x)
}

// roundFloat is Python's round(f, n): the exact value of f rounded to n
// decimal digits, halves to even.
func roundFloat(f float64, n int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return f
	}
	if n >= 0 {
		if n > 330 {
			return f
		}
		r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', n, 64), 64)
		if err != nil {
			return f
		}
		return r
	}
	if n < -330 {
		return math.Copysign(0, f)
	}
	exact := new(big.Float).SetPrec(2000).SetFloat64(f)
	p := new(big.Float).SetPrec(2000).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-n)), nil))
	q := new(big.Float).SetPrec(2000).Quo(exact, p)
	i, _ := q.Int(nil) // toward zero
	frac := new(big.Float).SetPrec(2000).Sub(q, new(big.Float).SetPrec(2000).SetInt(i))
	half := big.NewFloat(0.5)
	a := new(big.Float).Abs(frac)
	if c := a.Cmp(half); c > 0 || (c == 0 && i.Bit(0) == 1) {
		if f < 0 {
			i.Sub(i, big.NewInt(1))
		} else {
			i.Add(i, big.NewInt(1))
		}
	}
	r, _ := new(big.Float).SetPrec(2000).Mul(new(big.Float).SetInt(i), p).Float64()
	return math.Copysign(r, f)
}

var compileFix sync.Once

// setCell2arg maps the cell variables of code and of the functions it
// defines that are also parameters to their argument slots (CPython's
// co_cell2arg, computed as py.NewCode does), so that calling the function
// initializes those cells with the arguments.
func setCell2arg(code *py.Code) {
	for _, c := range code.Consts {
		if sub, ok := c.(*py.Code); ok {
			setCell2arg(sub)
		}
	}
	if len(code.Cellvars) == 0 || code.Cell2arg != nil {
		return
	}
	nargs := int(code.Argcount + code.Kwonlyargcount)
	if code.Flags&py.CO_VARARGS != 0 {
		nargs++
	}
	if code.Flags&py.CO_VARKEYWORDS != 0 {
		nargs++
	}
	var m []byte
	for i, cell := range code.Cellvars {
		for j := 0; j < nargs && j < len(code.Varnames) && j < int(py.CO_CELL_NOT_AN_ARG); j++ {
			if code.Varnames[j] == cell {
				if m == nil {
					m = make([]byte, len(code.Cellvars))
					for k := range m {
						m[k] = py.CO_CELL_NOT_AN_ARG
					}
				}
				m[i] = byte(j)
				break
			}
		}
	}
	code.Cell2arg = m
}
