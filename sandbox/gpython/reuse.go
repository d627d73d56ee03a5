package gpython

import (
	"strings"

	"github.com/go-python/gpython/py"
)

// Reuse for pure candidates. A fresh context per candidate and a fresh
// module per case cost more than running a small candidate's cases, so a
// candidate whose code can only touch its own objects ("pure", decided on
// its bytecode) reuses what provably holds what a fresh one would:
//
//   - the context of the previous candidate, when that one was pure too
//     (pure code cannot change modules, builtins or sys: it stores no
//     attribute and imports only modules of pureModules);
//   - within the candidate, the module of the previous call case, when its
//     body made nothing but functions of its own (no closure, immutable
//     defaults), immutable constants and pure modules, and as long as a case
//     leaves its globals as they were (checked after every case). Pure code
//     cannot change anything such a module holds, so a fresh import would
//     make the same module.
//
// Coverage runs, I/O cases and test files always get fresh modules.

// pureModules are the modules a pure candidate may import: gpython's
// versions hold only functions and immutable constants.
var pureModules = map[string]bool{"math": true, "string": true, "time": true, "binascii": true}

// denyNames reach the interpreter, other modules' globals, frames or the
// process: code naming one is never pure.
var denyNames = map[string]bool{
	"exec": true, "eval": true, "compile": true, "__import__": true, "open": true, "globals": true,
	"locals": true, "vars": true, "getattr": true, "setattr": true, "delattr": true, "input": true,
	"__dict__": true, "__globals__": true, "__builtins__": true, "__code__": true, "__closure__": true,
	"__defaults__": true, "__kwdefaults__": true, "__setattr__": true, "__delattr__": true,
	"__class__": true, "__bases__": true, "__mro__": true, "__subclasses__": true, "__annotations__": true,
	"sys": true, "os": true, "builtins": true, "glob": true, "pytest": true,
}

// Opcodes of Python 3.4 (gpython's bytecode).
const (
	opStoreAttr    = 95
	opDeleteAttr   = 96
	opStoreGlobal  = 97
	opDeleteGlobal = 98
	opImportName   = 108
	opHaveArgument = 90
)

// storesGlobals reports whether a function in code assigns or deletes a
// global: only then can a call change a module that pure code runs in.
func storesGlobals(code *py.Code) bool {
	b := code.Code
	for i := 0; i < len(b); {
		op := b[i]
		if op == opStoreGlobal || op == opDeleteGlobal {
			return true
		}
		if op >= opHaveArgument {
			i += 3
		} else {
			i++
		}
	}
	for _, c := range code.Consts {
		if sub, ok := c.(*py.Code); ok && storesGlobals(sub) {
			return true
		}
	}
	return false
}

// pureCode reports whether code (and every function in it) is pure.
func pureCode(code *py.Code) bool {
	for _, n := range code.Names {
		if denyNames[n] {
			return false
		}
	}
	b := code.Code
	for i := 0; i < len(b); {
		op := b[i]
		switch op {
		case opStoreAttr, opDeleteAttr:
			return false
		case opImportName:
			if i+2 >= len(b) {
				return false
			}
			arg := int(b[i+1]) | int(b[i+2])<<8
			if arg >= len(code.Names) || !pureModules[code.Names[arg]] {
				return false
			}
		}
		if op >= opHaveArgument {
			i += 3
		} else {
			i++
		}
	}
	for _, c := range code.Consts {
		if sub, ok := c.(*py.Code); ok && !pureCode(sub) {
			return false
		}
	}
	return true
}

// mutatesTypes reports whether code (or a function in it) may set or
// delete attributes: only then can it change a built-in type, which every
// context shares.
func mutatesTypes(code *py.Code) bool {
	for _, n := range code.Names {
		switch n {
		case "setattr", "delattr", "__dict__", "__setattr__", "__delattr__":
			return true
		}
	}
	b := code.Code
	for i := 0; i < len(b); {
		op := b[i]
		if op == opStoreAttr || op == opDeleteAttr {
			return true
		}
		if op >= opHaveArgument {
			i += 3
		} else {
			i++
		}
	}
	for _, c := range code.Consts {
		if sub, ok := c.(*py.Code); ok && mutatesTypes(sub) {
			return true
		}
	}
	return false
}

// reusableModule reports whether a module's globals hold only values a
// pure candidate cannot change, and returns a copy to check them against.
func reusableModule(d py.StringDict, probe *py.Method) (py.StringDict, bool) {
	for _, v := range d {
		if !reusableValue(v, probe) {
			return nil, false
		}
	}
	return d.Copy(), true
}

func reusableValue(v py.Object, probe *py.Method) bool {
	switch x := v.(type) {
	case *py.Function:
		if len(x.Closure) > 0 || len(x.KwDefaults) > 0 || len(x.Dict) > 0 {
			return false
		}
		for _, d := range x.Defaults {
			if !immutable(d) {
				return false
			}
		}
		return true
	case *py.Module:
		name, _ := x.Globals["__name__"].(py.String)
		return pureModules[string(name)]
	case *py.Method:
		return x == probe || x == fstringFormat || x.Name != "" && strings.Contains(x.Name, ".") // the probe, the f-string helper, a dotted decorator
	}
	return immutable(v)
}

func immutable(v py.Object) bool {
	switch x := v.(type) {
	case py.NoneType, py.Bool, py.Int, *py.BigInt, py.Float, py.String, py.Bytes, py.Complex:
		return true
	case py.Tuple:
		for _, e := range x {
			if !immutable(e) {
				return false
			}
		}
		return true
	}
	return false
}

// sameGlobals reports whether d holds exactly the objects of snap.
func sameGlobals(d, snap py.StringDict) bool {
	if len(d) != len(snap) {
		return false
	}
	for k, v := range snap {
		w, ok := d[k]
		if !ok || !same(v, w) {
			return false
		}
	}
	return true
}

// same is object identity (value equality for immutable scalars).
func same(a, b py.Object) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false // an uncomparable type: never in a reusable module
		}
	}()
	if x, isTuple := a.(py.Tuple); isTuple {
		y, isTuple := b.(py.Tuple)
		if !isTuple || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !same(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if x, isBytes := a.(py.Bytes); isBytes {
		y, isBytes := b.(py.Bytes)
		return isBytes && string(x) == string(y)
	}
	return a == b
}
