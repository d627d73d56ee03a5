package lenient

import (
	"hash/fnv"
	"strings"
	"unicode"
)

// Predictor predicts the value class of something a program misses from
// its context. Predict must be deterministic: the same context gives the
// same class (a predictor that samples takes its seed as a field). It is
// called once per (kind, name) of the original program, before any
// candidate runs, never from the sandbox.
type Predictor interface {
	Predict(c *Context) Class
}

// Rules is the rule-based predictor: the way a value is used decides
// first (called: callable; with: resource; an attribute that no built-in
// type has: object; string, list, dict and set methods: that type), then
// the name, or the name it is assigned to (is_/has_: True; plurals: a
// non-empty list; *_count, n, len*: a positive int; *_path, *_name: a
// non-empty string; config, options: a non-empty dict; CapWords: a
// class, that is a callable; ...), then weaker
// uses (iterated: a list; arithmetic: an int; tested: True); anything
// else is an object, whose attributes and calls are injected in turn.
// For a call, the name is the callee's without its verb (get_users:
// users).
type Rules struct{}

var _ Predictor = Rules{}

// Predict implements [Predictor].
func (Rules) Predict(c *Context) Class {
	u := c.Uses
	words := splitName(c.Name)
	if c.Kind == Call {
		words = callResultWords(words) // a factory's result may be called or decorate too
	} else if capWords(c.Name) && u&(Iterated|Sized|Subscripted|Number|Text) == 0 {
		return Callable // Model, HttpResponse: a class
	}
	switch {
	case u&With != 0:
		return Resource
	case u&(Called|Decorator) != 0:
		return Callable
	case u&AttrBase != 0:
		// It has attributes of its own: not a str, number or container,
		// whatever its other uses (add, get and items are common method
		// names) say.
		if k, ok := nameClass(words); ok && k == Resource {
			return k
		}
		return Object
	}
	if k, ok := nameClass(words); ok && (k == Resource || k == Callable) {
		return k // session.get(...): a session, whatever get suggests
	}
	switch {
	case u&(DictMethod|KeyedByStr) != 0:
		return DictNonEmpty
	case u&StrMethod != 0:
		return StrNonEmpty
	case u&ListMethod != 0:
		return ListNonEmpty
	case u&SetMethod != 0:
		return SetNonEmpty
	}
	if k, ok := nameClass(words); ok {
		return k
	}
	for _, t := range c.Targets { // rows = db.query(...)
		if k, ok := nameClass(splitName(t)); ok {
			return k
		}
	}
	switch {
	case u&(Iterated|Sized) != 0:
		return ListNonEmpty
	case u&Subscripted != 0:
		return ListNonEmpty
	case u&Number != 0:
		return IntPos
	case u&Text != 0:
		return StrNonEmpty
	case u&Test != 0:
		return True
	}
	return Object
}

// splitName splits an identifier into lower-case words at underscores
// and case changes: "getUserIDs" is get, user, ids.
func splitName(name string) []string {
	var words []string
	var cur []rune
	rs := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || !(unicode.IsLetter(r) || unicode.IsDigit(r)):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "userIDs": I starts a word; "IDs" keeps "s" with "ID".
			if prevLower || (nextLower && !(rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLetter(rs[i+2])))) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// callVerbs are verbs of function names whose result is the rest of the
// name: get_users returns users.
var callVerbs = set("get fetch load read find compute calc calculate make create build parse gen generate collect query lookup select retrieve extract new open init run execute do")

// callResultWords is the name of what a call returns: without the verb
// (get_users: users), nothing for a verb alone (query, get), else the
// name (count_words, is_valid).
func callResultWords(words []string) []string {
	if len(words) > 0 && callVerbs[words[0]] {
		return words[1:]
	}
	return words
}

// capWords reports whether a name is spelled like a class: an upper-case
// letter, then a lower-case one somewhere (Model, HTTPError; not
// MAX_SIZE).
func capWords(name string) bool {
	rs := []rune(name)
	if len(rs) < 2 || !unicode.IsUpper(rs[0]) {
		return false
	}
	for _, r := range rs[1:] {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	boolFirst  = set("is has can should was were will needs need allow allows enable enabled use uses does did contains supports check validate exists")
	falseFirst = set("no not disable disabled skip without")
	boolWords  = set("debug verbose enabled ok valid found done flag strict quiet force recursive dry")
	intFirst   = set("n num count max min")
	intLast    = set("count num number len length size total index idx pos position offset limit width height depth level port retries attempts n i j k id year month day hour minute step capacity rank")
	floatLast  = set("ratio rate prob probability weight scale alpha beta gamma epsilon eps threshold factor temperature percent percentage fraction mean avg average std variance timeout delay seconds duration interval lr")
	strLast    = set("name path file filename dir directory folder url uri text msg message key prefix suffix label title sep separator delimiter encoding fmt format pattern regex mode host hostname user username email word line string str char token lang language locale description desc content body query sql template version kind tag slug ext extension domain address password secret")
	dictLast   = set("dict map mapping config cfg conf settings options opts params kwargs headers cache registry lookup table env environ meta metadata attrs attributes counts counter stats payload context ctx state")
	setLast    = set("set")
	setEmpty   = set("seen visited")
	tupleLast  = set("args tuple pair coords shape")
	listLast   = set("list lst arr array items elements seq sequence queue stack batch history")
	callLast   = set("callback handler func fn function factory hook cb")
	resLast    = set("lock mutex conn connection session cursor fp fh stream socket sock")
	plainS     = set("ss us is os ics")
)

// nameClass is the class a name suggests, if any.
func nameClass(words []string) (Class, bool) {
	if len(words) == 0 {
		return "", false
	}
	first, last := words[0], words[len(words)-1]
	switch {
	case falseFirst[first] && len(words) > 1:
		return False, true
	case boolFirst[first] && len(words) > 1, len(words) == 1 && boolWords[first]:
		return True, true
	case callLast[last]:
		return Callable, true
	case resLast[last]:
		return Resource, true
	case dictLast[last]:
		return DictNonEmpty, true
	case setEmpty[last]:
		return SetEmpty, true
	case setLast[last]:
		return SetNonEmpty, true
	case tupleLast[last]:
		return TupleNonEmpty, true
	case listLast[last]:
		return ListNonEmpty, true
	case floatLast[last]:
		return FloatPos, true
	case intLast[last], len(words) > 1 && intFirst[first], strings.HasPrefix(last, "len") && len(last) <= 6:
		return IntPos, true
	case strLast[last]:
		return StrNonEmpty, true
	case plural(last):
		return ListNonEmpty, true
	}
	return "", false
}

// plural reports whether a word looks like an English plural.
func plural(w string) bool {
	if len(w) < 3 || !strings.HasSuffix(w, "s") {
		return false
	}
	for s := range plainS {
		if strings.HasSuffix(w, s) {
			return false
		}
	}
	return true
}

// Random is LExecutor's random baseline: a class drawn uniformly from
// [Classes], fixed for a (seed, kind, name), so it is deterministic for a
// seed.
type Random struct{ Seed uint64 }

var _ Predictor = Random{}

// Predict implements [Predictor].
func (r Random) Predict(c *Context) Class {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(r.Seed >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte{byte(c.Kind)})
	h.Write([]byte(c.Name))
	return Classes[h.Sum64()%uint64(len(Classes))]
}
