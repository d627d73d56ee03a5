package lenient

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// Kind says what may be missing at a site.
type Kind uint8

const (
	// Name is a name read (x): missing when neither the module nor the
	// builtins define it.
	Name Kind = iota
	// Attribute is an attribute read (obj.x): missing when obj lacks it.
	Attribute
	// Call is the result of a call (f(...), obj.f(...)): predicted for
	// when the callee is itself an injected value. Its name is the
	// callee's last name.
	Call
)

var kindNames = [...]string{Name: "name", Attribute: "attribute", Call: "call"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// key is the plan's key of (k, name): "name:x", "attr:x" or "call:x", as
// the engine's runtime looks it up.
func key(k Kind, name string) string {
	switch k {
	case Attribute:
		return "attr:" + name
	case Call:
		return "call:" + name
	}
	return "name:" + name
}

// Use is a set of ways a program uses a value, read from the code around
// its sites.
type Use uint32

const (
	Called      Use = 1 << iota // v(...)
	Iterated                    // for _ in v, comprehensions, x in v, *v, list(v), sorted(v), ...
	With                        // with v:
	Subscripted                 // v[i]
	KeyedByStr                  // v["key"]
	AttrBase                    // v.attr, attr not a method of str, list, dict or set
	StrMethod                   // v.join, v.split, v.strip, v.lower, v.startswith, ...
	ListMethod                  // v.append, v.extend, v.insert, v.sort, ...
	DictMethod                  // v.items, v.keys, v.values, v.get, v.setdefault, **v
	SetMethod                   // v.add, v.discard, v.union, ...
	Number                      // arithmetic, order comparison, range(v), v[...] index, -v
	Text                        // concatenated, compared or formatted with a string
	Test                        // if v, while v, not v, v and w, assert v
	Sized                       // len(v)
	Decorator                   // @v
	NoneTest                    // v is None, v is not None
	Discarded                   // an expression statement: the value is not used
)

var useNames = [...]string{
	"called", "iterated", "with", "subscripted", "keyed-by-str", "attr-base",
	"str-method", "list-method", "dict-method", "set-method", "number", "text",
	"test", "sized", "decorator", "none-test", "discarded",
}

func (u Use) String() string {
	var parts []string
	for i, n := range useNames {
		if u&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// Site is one place where a program reads a name, reads an attribute or
// calls something.
type Site struct {
	// Line is the 1-based line of the site.
	Line int
	// Uses are how the value read (or returned by the call) is used there.
	Uses Use
}

// Context is what a [Predictor] sees of one (kind, name): every site of
// it in the program, in document order. For `from M import a as b`, the
// sites of the name b are also sites of the attribute a (the engine gets
// a from the module M, if M is missing).
type Context struct {
	Kind Kind
	Name string
	// Uses is the union of the sites' uses, and of the uses of the names
	// the value is assigned to (rows = db.query(...): how rows is used).
	Uses Use
	// Targets are the names the value is assigned to (x = value), sorted.
	Targets []string
	// Sites are never empty.
	Sites []Site
	// Code holds the source line of each site, keyed by line number: the
	// code context a learned predictor (LExecutor's) reads.
	Code map[int]string
}

// Analyze parses a Python program and returns the context of every name
// read (builtins excepted), attribute read and call, sorted by kind then
// name. A file that tree-sitter cannot parse cleanly still yields the
// sites of the parts it could.
func Analyze(src []byte) ([]Context, error) {
	base := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		base = 3
	}
	parser := sitter.NewParser()
	defer parser.Close()
	parser.SetLanguage(python.GetLanguage())
	tree, err := parser.ParseCtx(context.Background(), nil, src[base:])
	if err != nil {
		return nil, fmt.Errorf("lenient: parse: %w", err)
	}
	defer tree.Close()
	a := &analyzer{src: src[base:], ctx: map[string]*Context{}, aliases: map[string][]string{}}
	a.visit(tree.RootNode())
	// from M import a as b: b's sites are a's too (the engine injects a
	// as an attribute of the missing M).
	for attr, names := range a.aliases {
		for _, n := range names {
			if c := a.ctx[key(Name, n)]; c != nil {
				for _, s := range c.Sites {
					a.add(Attribute, attr, s)
				}
			}
		}
	}
	// x = value: value is used as x is.
	targetUses := map[string]Use{}
	for _, c := range a.ctx {
		for _, t := range c.Targets {
			if tc := a.ctx[key(Name, t)]; tc != nil {
				targetUses[t] = tc.Uses
			}
		}
	}
	lines := bytes.Split(a.src, []byte("\n"))
	out := make([]Context, 0, len(a.ctx))
	for _, c := range a.ctx {
		sort.Strings(c.Targets)
		for _, t := range c.Targets {
			c.Uses |= targetUses[t]
		}
		sort.SliceStable(c.Sites, func(i, j int) bool { return c.Sites[i].Line < c.Sites[j].Line })
		c.Code = map[int]string{}
		for _, s := range c.Sites {
			if s.Line-1 < len(lines) {
				c.Code[s.Line] = strings.TrimSpace(strings.TrimSuffix(string(lines[s.Line-1]), "\r"))
			}
		}
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

type analyzer struct {
	src     []byte
	ctx     map[string]*Context
	aliases map[string][]string // imported name -> local names (from M import a as b)
}

func (a *analyzer) text(n *sitter.Node) string { return n.Content(a.src) }

func (a *analyzer) add(k Kind, name string, s Site) {
	if name == "" {
		return
	}
	c := a.ctx[key(k, name)]
	if c == nil {
		c = &Context{Kind: k, Name: name}
		a.ctx[key(k, name)] = c
	}
	c.Uses |= s.Uses
	c.Sites = append(c.Sites, s)
}

func (a *analyzer) site(k Kind, name string, n *sitter.Node) {
	a.add(k, name, Site{Line: int(n.StartPoint().Row) + 1, Uses: a.uses(n)})
	if t := assignedTo(n, a.src); t != "" {
		c := a.ctx[key(k, name)]
		if !slices.Contains(c.Targets, t) {
			c.Targets = append(c.Targets, t)
		}
	}
}

// assignedTo is the name expression n is assigned to (x = n), or "".
func assignedTo(n *sitter.Node, src []byte) string {
	p := n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		n, p = p, p.Parent()
	}
	if p == nil || p.Type() != "assignment" || field(p, n) != "right" {
		return ""
	}
	if l := p.ChildByFieldName("left"); l != nil && l.Type() == "identifier" {
		return l.Content(src)
	}
	return ""
}

func (a *analyzer) children(n *sitter.Node) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		a.visit(n.NamedChild(i))
	}
}

// visit records the sites of n, an expression or a statement.
func (a *analyzer) visit(n *sitter.Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
		if name := a.text(n); !builtins[name] {
			a.site(Name, name, n)
		}
	case "attribute":
		a.visit(n.ChildByFieldName("object"))
		if at := n.ChildByFieldName("attribute"); at != nil {
			a.site(Attribute, a.text(at), n)
		}
	case "call":
		f := n.ChildByFieldName("function")
		a.visit(f)
		a.visit(n.ChildByFieldName("arguments"))
		if name := calleeName(f, a.src); name != "" && !(f.Type() == "identifier" && builtins[name]) {
			a.site(Call, name, n)
		}
	case "keyword_argument":
		a.visit(n.ChildByFieldName("value"))
	case "assignment":
		a.target(n.ChildByFieldName("left"))
		a.visit(n.ChildByFieldName("right"))
	case "augmented_assignment":
		a.visit(n.ChildByFieldName("left")) // read, then written
		a.visit(n.ChildByFieldName("right"))
	case "for_statement", "for_in_clause":
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); !c.IsNamed() {
				continue
			} else if n.FieldNameForChild(i) == "left" {
				a.target(c)
			} else {
				a.visit(c)
			}
		}
	case "named_expression":
		a.visit(n.ChildByFieldName("value"))
	case "as_pattern":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "as_pattern_target" {
				a.target(c)
			} else {
				a.visit(c)
			}
		}
	case "function_definition":
		a.visit(n.ChildByFieldName("parameters"))
		a.visit(n.ChildByFieldName("body"))
	case "class_definition":
		a.visit(n.ChildByFieldName("superclasses"))
		a.visit(n.ChildByFieldName("body"))
	case "lambda":
		a.visit(n.ChildByFieldName("parameters"))
		a.visit(n.ChildByFieldName("body"))
	case "parameters", "lambda_parameters":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			if t := c.Type(); t == "default_parameter" || t == "typed_default_parameter" {
				a.visit(c.ChildByFieldName("value"))
			}
		}
	case "import_from_statement":
		for i := 0; i < int(n.ChildCount()); i++ {
			if n.FieldNameForChild(i) != "name" {
				continue
			}
			switch c := n.Child(i); c.Type() {
			case "dotted_name":
				a.alias(a.text(c), a.text(c))
			case "aliased_import":
				if nm, al := c.ChildByFieldName("name"), c.ChildByFieldName("alias"); nm != nil && al != nil {
					a.alias(a.text(nm), a.text(al))
				}
			}
		}
	case "import_statement", "future_import_statement", "global_statement", "nonlocal_statement",
		"type", "case_pattern", "delete_statement", "comment", "dotted_name", "print_statement", "exec_statement":
		// Bindings, annotations, patterns: nothing is read that could be
		// missing and injected.
	case "string":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "interpolation" {
				a.visit(c.ChildByFieldName("expression"))
			}
		}
	default:
		a.children(n)
	}
}

func (a *analyzer) alias(name, local string) {
	if strings.Contains(name, ".") {
		return
	}
	a.aliases[name] = append(a.aliases[name], local)
}

// target records the reads inside an assignment target: in a.b = 1 and
// a[i] = 1, a and i are read; names bound are not.
func (a *analyzer) target(n *sitter.Node) {
	if n == nil {
		return
	}
	switch n.Type() {
	case "identifier":
	case "attribute":
		a.visit(n.ChildByFieldName("object"))
	case "subscript":
		a.children(n)
	default:
		for i := 0; i < int(n.NamedChildCount()); i++ {
			a.target(n.NamedChild(i))
		}
	}
}

func childIndex(parent, child *sitter.Node) int {
	for i := 0; i < int(parent.ChildCount()); i++ {
		if parent.Child(i).Equal(child) {
			return i
		}
	}
	return -1
}

func field(parent *sitter.Node, child *sitter.Node) string {
	if i := childIndex(parent, child); i >= 0 {
		return parent.FieldNameForChild(i)
	}
	return ""
}

// calleeName is the last name of a callee (f, obj.f), or "".
func calleeName(f *sitter.Node, src []byte) string {
	if f == nil {
		return ""
	}
	switch f.Type() {
	case "identifier":
		return f.Content(src)
	case "attribute":
		if at := f.ChildByFieldName("attribute"); at != nil {
			return at.Content(src)
		}
	}
	return ""
}

// uses says how the value of expression n is used by the code around it.
func (a *analyzer) uses(n *sitter.Node) Use {
	p := n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		n, p = p, p.Parent()
	}
	if p == nil {
		return 0
	}
	switch p.Type() {
	case "call":
		if field(p, n) == "function" {
			return Called
		}
	case "argument_list":
		if c := p.Parent(); c != nil && c.Type() == "call" {
			return a.argUse(c.ChildByFieldName("function"))
		}
	case "list_splat":
		return Iterated
	case "dictionary_splat":
		return DictMethod
	case "attribute":
		if field(p, n) == "object" {
			if at := p.ChildByFieldName("attribute"); at != nil {
				if m := methodUse[a.text(at)]; m != 0 {
					return m
				}
			}
			return AttrBase
		}
	case "subscript":
		if field(p, n) == "value" {
			u := Subscripted
			for i := 0; i < int(p.NamedChildCount()); i++ {
				if c := p.NamedChild(i); field(p, c) == "subscript" && c.Type() == "string" {
					u |= KeyedByStr
				}
			}
			return u
		}
		return Number // an index
	case "for_statement", "for_in_clause":
		if field(p, n) == "right" {
			return Iterated
		}
	case "with_item":
		return With
	case "as_pattern":
		if q := p.Parent(); q != nil && q.Type() == "with_item" && p.NamedChild(0).Equal(n) {
			return With
		}
	case "if_statement", "elif_clause", "while_statement":
		if field(p, n) == "condition" {
			return Test
		}
	case "assert_statement":
		if p.NamedChild(0).Equal(n) {
			return Test
		}
	case "not_operator", "boolean_operator", "if_clause":
		return Test
	case "conditional_expression":
		if p.NamedChildCount() == 3 && p.NamedChild(1).Equal(n) {
			return Test
		}
	case "comparison_operator":
		return a.compareUse(p, n)
	case "binary_operator":
		return a.binaryUse(p, n)
	case "unary_operator":
		if op := p.ChildByFieldName("operator"); op != nil && op.Type() != "not" {
			return Number
		}
	case "augmented_assignment":
		var other *sitter.Node
		if field(p, n) == "left" {
			other = p.ChildByFieldName("right")
		} else {
			other = p.ChildByFieldName("left")
		}
		op := p.ChildByFieldName("operator")
		switch {
		case other != nil && isNumber(other):
			return Number
		case other != nil && isString(other):
			return Text
		case other != nil && other.Type() == "list":
			return ListMethod
		case op != nil && op.Type() != "+=":
			return Number
		}
	case "decorator":
		return Decorator
	case "expression_statement":
		return Discarded
	}
	return 0
}

func (a *analyzer) compareUse(p, n *sitter.Node) Use {
	var u Use
	var prev *sitter.Node // the operand before the operator
	var op string
	for i := 0; i < int(p.ChildCount()); i++ {
		c := p.Child(i)
		if !c.IsNamed() {
			op = c.Type()
			if op == "not" || op == "is" { // "not in", "is not": read on
				if i+1 < int(p.ChildCount()) && !p.Child(i+1).IsNamed() {
					op += " " + p.Child(i+1).Type()
					i++
				}
			}
			continue
		}
		if prev != nil {
			// prev op c
			var other *sitter.Node
			right := false
			switch {
			case prev.Equal(n):
				other = c
			case c.Equal(n):
				other, right = prev, true
			}
			if other != nil {
				switch op {
				case "in", "not in":
					if right {
						u |= Iterated
					}
				case "is", "is not":
					if other.Type() == "none" {
						u |= NoneTest
					}
				case "<", ">", "<=", ">=":
					if isString(other) {
						u |= Text
					} else {
						u |= Number
					}
				default:
					switch {
					case isNumber(other):
						u |= Number
					case isString(other):
						u |= Text
					case other.Type() == "true" || other.Type() == "false":
						u |= Test
					}
				}
			}
		}
		prev = c
	}
	return u
}

func (a *analyzer) binaryUse(p, n *sitter.Node) Use {
	other := p.ChildByFieldName("right")
	if field(p, n) == "right" {
		other = p.ChildByFieldName("left")
	}
	op := ""
	if o := p.ChildByFieldName("operator"); o != nil {
		op = o.Type()
	}
	switch {
	case other != nil && isString(other):
		return Text
	case other != nil && isNumber(other):
		return Number
	case op == "+" || op == "%" || op == "|" || op == "&" || op == "^":
		return 0 // numbers, strings, lists or sets
	}
	return Number
}

// argUse is the use of a value passed to callee f.
func (a *analyzer) argUse(f *sitter.Node) Use {
	if f == nil {
		return 0
	}
	name := calleeName(f, a.src)
	if f.Type() == "attribute" {
		obj := f.ChildByFieldName("object")
		switch {
		case name == "join" && obj != nil && isString(obj):
			return Iterated // ", ".join(v)
		case name == "join" || name == "exists" || name == "isfile" || name == "isdir" || name == "basename" || name == "dirname":
			return Text // os.path.join(v, ...)
		case name == "startswith" || name == "endswith" || name == "split" || name == "replace" || name == "strip" || name == "find":
			return Text
		case name == "extend" || name == "update" || name == "union":
			return Iterated
		}
		return 0
	}
	switch name {
	case "len":
		return Sized
	case "range", "int", "float", "abs", "round", "chr", "bin", "hex", "oct", "divmod", "pow":
		return Number
	case "enumerate", "sorted", "sum", "list", "tuple", "set", "frozenset", "zip", "max", "min",
		"any", "all", "reversed", "map", "filter", "iter", "dict":
		return Iterated
	case "open":
		return Text
	}
	return 0
}

func isNumber(n *sitter.Node) bool {
	switch n.Type() {
	case "integer", "float":
		return true
	case "unary_operator":
		if a := n.ChildByFieldName("argument"); a != nil {
			return isNumber(a)
		}
	}
	return false
}

func isString(n *sitter.Node) bool {
	return n.Type() == "string" || n.Type() == "concatenated_string"
}

// methodUse classifies methods of built-in types.
var methodUse = map[string]Use{}

func init() {
	for _, m := range strings.Fields("join split rsplit strip lstrip rstrip lower upper startswith endswith replace format encode splitlines title capitalize isdigit isalpha isalnum isspace zfill center ljust rjust casefold partition rpartition expandtabs") {
		methodUse[m] = StrMethod
	}
	for _, m := range strings.Fields("append extend insert sort reverse") {
		methodUse[m] = ListMethod
	}
	for _, m := range strings.Fields("items keys values get setdefault popitem") {
		methodUse[m] = DictMethod
	}
	for _, m := range strings.Fields("add discard union intersection difference issubset issuperset symmetric_difference") {
		methodUse[m] = SetMethod
	}
}

// builtins are the names of Python 3's builtins module (and a few
// keywords tree-sitter parses as names): never missing.
var builtins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float
format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license list
locals map max memoryview min next object oct open ord pow print property quit range repr reversed round set
setattr slice sorted staticmethod str sum super tuple type vars zip __import__ __build_class__ __name__
__file__ __doc__ __debug__ __spec__ __loader__ __package__ __builtins__ NotImplemented Ellipsis
BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError AttributeError
BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError
ConnectionError ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError EncodingWarning
EnvironmentError FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError
ImportError ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError
KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError
NotImplementedError OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration
SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError
UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning
ValueError Warning ZeroDivisionError True False None`) {
		builtins[n] = true
	}
}
