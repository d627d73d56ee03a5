package gpython

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
)

// Methods of built-in types that gpython v0.2.0 lacks and small programs
// use all the time (the shared benchmark refuses half its programs for
// str.join, str.lower, str.isdigit and list.pop alone). A worker adds them
// to gpython's types before any candidate runs; the conformance table
// checks each against CPython. They follow CPython for ASCII text; for
// other text, case mapping and character classes are Go's (unicode
// package), which differ in rare cases ('ß'.upper() is 'SS' in CPython).
func addCompatMethods() {
	str := func(name string, fn any) { py.StringType.Dict[name] = py.MustNewMethod(name, fn, 0, "") }
	list := func(name string, fn any) { py.ListType.Dict[name] = py.MustNewMethod(name, fn, 0, "") }
	dict := func(name string, fn any) { py.StringDictType.Dict[name] = py.MustNewMethod(name, fn, 0, "") }

	str("join", strJoin)
	str("lower", func(self py.Object) (py.Object, error) {
		return py.String(strings.ToLower(string(self.(py.String)))), nil
	})
	str("upper", func(self py.Object) (py.Object, error) {
		return py.String(strings.ToUpper(string(self.(py.String)))), nil
	})
	str("isdigit", strIs(func(r rune) bool { return unicode.IsDigit(r) }))
	str("isdecimal", strIs(func(r rune) bool { return unicode.IsDigit(r) }))
	str("isnumeric", strIs(func(r rune) bool { return unicode.IsNumber(r) }))
	str("isalpha", strIs(unicode.IsLetter))
	str("isalnum", strIs(func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }))
	str("isspace", strIs(isPySpace))
	str("isupper", strCased(unicode.IsUpper, unicode.IsLower))
	str("islower", strCased(unicode.IsLower, unicode.IsUpper))
	str("count", strCount)
	str("index", strFind("index", false, true))
	str("rindex", strFind("rindex", true, true))
	str("rfind", strFind("rfind", true, false))

	list("pop", listPop)
	list("insert", listInsert)
	list("index", listIndex)
	list("count", func(self, x py.Object) (py.Object, error) {
		n := 0
		for _, it := range self.(*py.List).Items {
			eq, err := pyEqual(it, x)
			if err != nil {
				return nil, err
			}
			if eq {
				n++
			}
		}
		return py.Int(n), nil
	})
	list("remove", func(self, x py.Object) (py.Object, error) {
		l := self.(*py.List)
		for i, it := range l.Items {
			eq, err := pyEqual(it, x)
			if err != nil {
				return nil, err
			}
			if eq {
				l.Items = append(l.Items[:i], l.Items[i+1:]...)
				return py.None, nil
			}
		}
		return nil, py.ExceptionNewf(py.ValueError, "list.remove(x): x not in list")
	})
	list("reverse", func(self py.Object) (py.Object, error) {
		items := self.(*py.List).Items
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
		return py.None, nil
	})
	list("copy", func(self py.Object) (py.Object, error) {
		return py.NewListFromItems(append([]py.Object(nil), self.(*py.List).Items...)), nil
	})
	list("clear", func(self py.Object) (py.Object, error) {
		self.(*py.List).Items = nil
		return py.None, nil
	})

	dict("setdefault", func(self py.Object, args py.Tuple) (py.Object, error) {
		var key, def py.Object = nil, py.None
		if err := py.UnpackTuple(args, nil, "setdefault", 1, 2, &key, &def); err != nil {
			return nil, err
		}
		d := self.(py.StringDict)
		if k, ok := key.(py.String); ok {
			if v, ok := d[string(k)]; ok {
				return v, nil
			}
		}
		if _, err := d.M__setitem__(key, def); err != nil {
			return nil, err
		}
		return def, nil
	})
	dict("pop", func(self py.Object, args py.Tuple) (py.Object, error) {
		var key, def py.Object
		if err := py.UnpackTuple(args, nil, "pop", 1, 2, &key, &def); err != nil {
			return nil, err
		}
		d := self.(py.StringDict)
		if k, ok := key.(py.String); ok {
			if v, ok := d[string(k)]; ok {
				delete(d, string(k))
				return v, nil
			}
		}
		if def != nil {
			return def, nil
		}
		return nil, py.ExceptionNewf(py.KeyError, "%s", shortRepr(key, reprMax))
	})
	dict("copy", func(self py.Object) (py.Object, error) { return self.(py.StringDict).Copy(), nil })
	dict("clear", func(self py.Object) (py.Object, error) {
		clear(self.(py.StringDict))
		return py.None, nil
	})
	dict("update", func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		d := self.(py.StringDict)
		if len(args) > 1 {
			return nil, py.ExceptionNewf(py.TypeError, "update expected at most 1 argument, got %d", len(args))
		}
		if len(args) == 1 {
			if other, ok := args[0].(py.StringDict); ok {
				for k, v := range other {
					d[k] = v
				}
			} else {
				var ierr error
				err := py.Iterate(args[0], func(pair py.Object) bool {
					kv, err := py.SequenceTuple(pair)
					if err != nil || len(kv) != 2 {
						ierr = py.ExceptionNewf(py.ValueError, "dictionary update sequence element has wrong length")
						return true
					}
					_, ierr = d.M__setitem__(kv[0], kv[1])
					return ierr != nil
				})
				if ierr != nil {
					return nil, ierr
				}
				if err != nil {
					return nil, err
				}
			}
		}
		for k, v := range kwargs {
			d[k] = v
		}
		return py.None, nil
	})
}

// compatBuiltins are built-in functions gpython lacks, added to every
// context's builtins.
var compatBuiltins = map[string]any{
	"reversed": func(self, seq py.Object) (py.Object, error) {
		var items []py.Object
		switch s := seq.(type) {
		case *py.List:
			items = append(items, s.Items...)
		case py.Tuple:
			items = append(items, s...)
		case py.String:
			for _, r := range string(s) {
				items = append(items, py.String(string(r)))
			}
		case *py.Range:
			if err := py.Iterate(s, func(o py.Object) bool { items = append(items, o); return false }); err != nil {
				return nil, err
			}
		default:
			return nil, py.ExceptionNewf(py.TypeError, "'%s' object is not reversible", seq.Type().Name)
		}
		rev := make(py.Tuple, len(items))
		for i, it := range items {
			rev[len(items)-1-i] = it
		}
		return py.NewIterator(rev), nil
	},
	"callable": pyCallable,
}

func strJoin(self, seq py.Object) (py.Object, error) {
	var b strings.Builder
	i := 0
	var ierr error
	err := py.Iterate(seq, func(o py.Object) bool {
		s, ok := o.(py.String)
		if !ok {
			ierr = py.ExceptionNewf(py.TypeError, "sequence item %d: expected str instance, %s found", i, o.Type().Name)
			return true
		}
		if i > 0 {
			b.WriteString(string(self.(py.String)))
		}
		b.WriteString(string(s))
		i++
		return false
	})
	if ierr != nil {
		return nil, ierr
	}
	if err != nil {
		return nil, err
	}
	return py.String(b.String()), nil
}

// strIs makes str.isdigit and friends: true for a non-empty string whose
// characters all satisfy f.
func strIs(f func(rune) bool) func(py.Object) (py.Object, error) {
	return func(self py.Object) (py.Object, error) {
		s := string(self.(py.String))
		if s == "" {
			return py.False, nil
		}
		for _, r := range s {
			if !f(r) {
				return py.False, nil
			}
		}
		return py.True, nil
	}
}

// strCased makes str.isupper and str.islower: at least one cased character,
// and none of the other case.
func strCased(is, other func(rune) bool) func(py.Object) (py.Object, error) {
	return func(self py.Object) (py.Object, error) {
		cased := false
		for _, r := range string(self.(py.String)) {
			if other(r) || unicode.IsTitle(r) {
				return py.False, nil
			}
			if is(r) {
				cased = true
			}
		}
		return py.NewBool(cased), nil
	}
}

// strRange reads str.count's and str.find's arguments: the substring and
// the byte range of s that [start:end] selects (in characters).
func strRange(name string, s string, args py.Tuple) (sub string, lo, hi int, err error) {
	var subObj, startObj, endObj py.Object = nil, py.None, py.None
	if err := py.UnpackTuple(args, nil, name, 1, 3, &subObj, &startObj, &endObj); err != nil {
		return "", 0, 0, err
	}
	subStr, ok := subObj.(py.String)
	if !ok {
		return "", 0, 0, py.ExceptionNewf(py.TypeError, "must be str, not %s", subObj.Type().Name)
	}
	n := utf8.RuneCountInString(s)
	bound := func(o py.Object, def int) (int, error) {
		if o == py.None {
			return def, nil
		}
		i, ok := o.(py.Int)
		if !ok {
			return 0, py.ExceptionNewf(py.TypeError, "slice indices must be integers or None")
		}
		v := int(i)
		if v < 0 {
			v += n
			if v < 0 {
				v = 0
			}
		}
		return min(v, n), nil
	}
	start, err := bound(startObj, 0)
	if err != nil {
		return "", 0, 0, err
	}
	end, err := bound(endObj, n)
	if err != nil {
		return "", 0, 0, err
	}
	return string(subStr), runeOffset(s, start), runeOffset(s, max(end, start)), nil
}

// runeOffset is the byte offset of the i-th character of s.
func runeOffset(s string, i int) int {
	for off := range s {
		if i == 0 {
			return off
		}
		i--
	}
	return len(s)
}

func strCount(self py.Object, args py.Tuple) (py.Object, error) {
	s := string(self.(py.String))
	sub, lo, hi, err := strRange("count", s, args)
	if err != nil {
		return nil, err
	}
	if sub == "" {
		return py.Int(utf8.RuneCountInString(s[lo:hi]) + 1), nil
	}
	return py.Int(strings.Count(s[lo:hi], sub)), nil
}

// strFind makes str.index, str.rindex and str.rfind.
func strFind(name string, last, raise bool) func(py.Object, py.Tuple) (py.Object, error) {
	return func(self py.Object, args py.Tuple) (py.Object, error) {
		s := string(self.(py.String))
		sub, lo, hi, err := strRange(name, s, args)
		if err != nil {
			return nil, err
		}
		var i int
		if last {
			i = strings.LastIndex(s[lo:hi], sub)
		} else {
			i = strings.Index(s[lo:hi], sub)
		}
		if i < 0 {
			if raise {
				return nil, py.ExceptionNewf(py.ValueError, "substring not found")
			}
			return py.Int(-1), nil
		}
		return py.Int(utf8.RuneCountInString(s[:lo+i])), nil
	}
}

func listPop(self py.Object, args py.Tuple) (py.Object, error) {
	l := self.(*py.List)
	var idx py.Object = py.Int(-1)
	if err := py.UnpackTuple(args, nil, "pop", 0, 1, &idx); err != nil {
		return nil, err
	}
	i, ok := idx.(py.Int)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "'%s' object cannot be interpreted as an integer", idx.Type().Name)
	}
	n := len(l.Items)
	if n == 0 {
		return nil, py.ExceptionNewf(py.IndexError, "pop from empty list")
	}
	k := int(i)
	if k < 0 {
		k += n
	}
	if k < 0 || k >= n {
		return nil, py.ExceptionNewf(py.IndexError, "pop index out of range")
	}
	x := l.Items[k]
	l.Items = append(l.Items[:k], l.Items[k+1:]...)
	return x, nil
}

func listInsert(self py.Object, args py.Tuple) (py.Object, error) {
	l := self.(*py.List)
	var idx, x py.Object
	if err := py.UnpackTuple(args, nil, "insert", 2, 2, &idx, &x); err != nil {
		return nil, err
	}
	i, ok := idx.(py.Int)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "'%s' object cannot be interpreted as an integer", idx.Type().Name)
	}
	n := len(l.Items)
	k := int(i)
	if k < 0 {
		k = max(k+n, 0)
	}
	k = min(k, n)
	l.Items = append(l.Items, nil)
	copy(l.Items[k+1:], l.Items[k:])
	l.Items[k] = x
	return py.None, nil
}

func listIndex(self py.Object, args py.Tuple) (py.Object, error) {
	l := self.(*py.List)
	var x, startObj, endObj py.Object = nil, py.Int(0), py.Int(len(l.Items))
	if err := py.UnpackTuple(args, nil, "index", 1, 3, &x, &startObj, &endObj); err != nil {
		return nil, err
	}
	n := len(l.Items)
	bound := func(o py.Object) (int, error) {
		i, ok := o.(py.Int)
		if !ok {
			return 0, py.ExceptionNewf(py.TypeError, "slice indices must be integers")
		}
		v := int(i)
		if v < 0 {
			v = max(v+n, 0)
		}
		return min(v, n), nil
	}
	start, err := bound(startObj)
	if err != nil {
		return nil, err
	}
	end, err := bound(endObj)
	if err != nil {
		return nil, err
	}
	for i := start; i < end; i++ {
		eq, err := pyEqual(l.Items[i], x)
		if err != nil {
			return nil, err
		}
		if eq {
			return py.Int(i), nil
		}
	}
	return nil, py.ExceptionNewf(py.ValueError, "%s is not in list", shortRepr(x, reprMax))
}

// pyEqual is a == b as gpython computes it (identity for objects of
// classes, which gpython compares so).
func pyEqual(a, b py.Object) (bool, error) {
	r, err := py.Eq(a, b)
	if err != nil {
		return false, err
	}
	return py.ObjectIsTrue(r)
}
