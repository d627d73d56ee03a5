package lenient

// Class is a value class: what a [Predictor] predicts for something a
// program misses. The set and the names are LExecutor's (its
// ValueAbstraction); the engine concretizes each class as LExecutor's
// restore_value does (see [Classes]).
type Class string

// The value classes, with the value each one is concretized as.
const (
	None          Class = "None"           // None
	True          Class = "True"           // True
	False         Class = "False"          // False
	StrEmpty      Class = "str_empty"      // ""
	StrNonEmpty   Class = "str_nonempty"   // "a"
	IntNeg        Class = "int_neg"        // -1
	IntZero       Class = "int_zero"       // 0
	IntPos        Class = "int_pos"        // 1
	FloatNeg      Class = "float_neg"      // -1.0
	FloatZero     Class = "float_zero"     // 0.0
	FloatPos      Class = "float_pos"      // 1.0
	ListEmpty     Class = "list_empty"     // []
	ListNonEmpty  Class = "list_nonempty"  // [<object>]
	TupleEmpty    Class = "tuple_empty"    // ()
	TupleNonEmpty Class = "tuple_nonempty" // (<object>,)
	SetEmpty      Class = "set_empty"      // set()
	SetNonEmpty   Class = "set_nonempty"   // {<object>}
	DictEmpty     Class = "dict_empty"     // {}
	DictNonEmpty  Class = "dict_nonempty"  // {"a": <object>}
	// Resource is a context manager (its __exit__ lets exceptions through),
	// and otherwise an Object.
	Resource Class = "resource"
	// Callable is a dummy whose calls return injected values (kind "call").
	Callable Class = "callable"
	// Object is the same dummy: its attributes are injected (kind
	// "attribute") and calling it returns an injected value. <object>
	// above is one too.
	Object Class = "object"
)

// Classes are all the value classes, in LExecutor's order.
var Classes = []Class{
	None, True, False,
	StrEmpty, StrNonEmpty,
	IntNeg, IntZero, IntPos,
	FloatNeg, FloatZero, FloatPos,
	ListEmpty, ListNonEmpty, TupleEmpty, TupleNonEmpty,
	SetEmpty, SetNonEmpty, DictEmpty, DictNonEmpty,
	Resource, Callable, Object,
}

// Valid reports whether c is one of [Classes].
func (c Class) Valid() bool {
	for _, k := range Classes {
		if c == k {
			return true
		}
	}
	return false
}
