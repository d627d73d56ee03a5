// The syntax tree as a flat Go slice: tree-sitter parses, one C call
// copies every visible node, and the builder walks Go memory instead of
// paying a cgo call (and a string allocation for each node type) for every
// step through the binding's API.

package program

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// The declarations of tree-sitter's API (api.h of the version that
// github.com/smacker/go-tree-sitter vendors) this file uses; the
// definitions are linked from that package and its python grammar.
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSPoint { uint32_t row; uint32_t column; } TSPoint;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSPoint ts_node_start_point(TSNode self);
TSPoint ts_node_end_point(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_extra(TSNode self);
bool ts_node_has_error(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);
const TSLanguage *tree_sitter_python(void);

enum { flatNamed = 1, flatMissing = 2, flatExtra = 4, flatError = 8 };

typedef struct flat_node {
	uint32_t start_byte, end_byte;
	TSPoint start_point, end_point;
	int32_t parent;    // index of the parent, -1 for the root
	uint32_t children; // number of (visible) children
	uint32_t named;    // number of named children
	TSSymbol symbol;
	TSFieldId field;   // field under the parent, 0 for none
	uint8_t flags;
} flat_node;

// flat_parse parses src as Python and writes every visible node of the tree
// in document order (a node before its children) to a malloc'ed array,
// *out; it returns the number of nodes, or -1 when the parser fails (or
// memory runs out).
static int64_t flat_parse(const char *src, uint32_t len, flat_node **out) {
	*out = NULL;
	TSParser *parser = ts_parser_new();
	if (!parser) return -1;
	if (!ts_parser_set_language(parser, tree_sitter_python())) {
		ts_parser_delete(parser);
		return -1;
	}
	TSTree *tree = ts_parser_parse_string(parser, NULL, src, len);
	ts_parser_delete(parser);
	if (!tree) return -1;

	size_t cap = 1024, n = 0;
	flat_node *nodes = malloc(cap * sizeof *nodes);
	TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	int32_t parent = -1; // the parent of the cursor's node
	int64_t result = -1;
	for (;;) {
		if (n == cap) {
			cap *= 2;
			flat_node *grown = nodes ? realloc(nodes, cap * sizeof *nodes) : NULL;
			if (!grown) goto done;
			nodes = grown;
		}
		if (!nodes) goto done;
		TSNode node = ts_tree_cursor_current_node(&cur);
		flat_node *f = &nodes[n];
		f->start_byte = ts_node_start_byte(node);
		f->end_byte = ts_node_end_byte(node);
		f->start_point = ts_node_start_point(node);
		f->end_point = ts_node_end_point(node);
		f->parent = parent;
		f->children = 0;
		f->named = 0;
		f->symbol = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&cur);
		f->flags = (ts_node_is_named(node) ? flatNamed : 0) |
			(ts_node_is_missing(node) ? flatMissing : 0) |
			(ts_node_is_extra(node) ? flatExtra : 0) |
			(ts_node_has_error(node) ? flatError : 0);
		if (parent >= 0) {
			nodes[parent].children++;
			if (f->flags & flatNamed) nodes[parent].named++;
		}
		int32_t self = (int32_t)n++;
		if (ts_tree_cursor_goto_first_child(&cur)) {
			parent = self;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (parent < 0 || !ts_tree_cursor_goto_parent(&cur)) {
				result = (int64_t)n;
				goto done;
			}
			parent = nodes[parent].parent;
		}
	}
done:
	ts_tree_cursor_delete(&cur);
	ts_tree_delete(tree);
	if (result < 0) {
		free(nodes);
		return -1;
	}
	*out = nodes;
	return result;
}
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"

	// The tree-sitter runtime and the Python grammar the C code above
	// calls are linked from these packages.
	_ "github.com/smacker/go-tree-sitter"
	_ "github.com/smacker/go-tree-sitter/python"
)

// point is a row and a byte column, both 0-based.
type point struct {
	Row, Column uint32
}

// node is one visible node of a syntax tree, with the subset of the
// binding's Node API the builder uses.
type node struct {
	t              *tree
	start, end     uint32
	startPt, endPt point
	parent         int32
	kids, named    int32 // offsets of the children in t.kids and t.named
	nkids, nnamed  uint32
	symbol, field  uint16
	flags          uint8
}

// symError is the symbol of an ERROR node.
const symError = 0xffff

const (
	flagNamed   = C.flatNamed
	flagMissing = C.flatMissing
	flagExtra   = C.flatExtra
	flagError   = C.flatError
)

// tree is a parsed text: its nodes in document order (nodes[0] is the
// root, a node comes before its children) and their children.
type tree struct {
	nodes []node
	kids  []int32 // children of each node, in order, at node.kids
	named []int32 // named children of each node, at node.named
	lang  *language
	stmts int // statement nodes
}

// language holds the Python grammar's node type and field names.
type language struct {
	symbols  []string          // by symbol
	builtin  [2]string         // ERROR (symbol 0xffff) and _ERROR (0xfffe)
	stmt     []bool            // by symbol: a statement (isStatement)
	fields   []string          // by field id; fields[0] == ""
	fieldIDs map[string]uint16 // by name
}

var pythonLang = sync.OnceValue(func() *language {
	lang := C.tree_sitter_python()
	l := &language{fieldIDs: map[string]uint16{}}
	for s := C.uint32_t(0); s < C.ts_language_symbol_count(lang); s++ {
		name := C.GoString(C.ts_language_symbol_name(lang, C.TSSymbol(s)))
		l.symbols = append(l.symbols, name)
		l.stmt = append(l.stmt, isStatement(name))
	}
	for i := range l.builtin {
		l.builtin[i] = C.GoString(C.ts_language_symbol_name(lang, C.TSSymbol(0xffff-i)))
	}
	l.fields = append(l.fields, "")
	for f := C.uint32_t(1); f <= C.ts_language_field_count(lang); f++ {
		name := C.GoString(C.ts_language_field_name_for_id(lang, C.TSFieldId(f)))
		l.fields = append(l.fields, name)
		l.fieldIDs[name] = uint16(f)
	}
	return l
})

var errParse = errors.New("tree-sitter could not parse the text")

// parseTree parses src as Python.
func parseTree(src []byte) (*tree, error) {
	var cnodes *C.flat_node
	var p *C.char
	if len(src) > 0 {
		p = (*C.char)(unsafe.Pointer(&src[0]))
	}
	n := C.flat_parse(p, C.uint32_t(len(src)), &cnodes)
	if n < 0 {
		return nil, errParse
	}
	defer C.free(unsafe.Pointer(cnodes))
	flat := unsafe.Slice(cnodes, int(n))
	t := &tree{nodes: make([]node, len(flat)), lang: pythonLang()}
	// Children are laid out per parent: offsets from the counts, then each
	// node (after its parent, in order) fills the next slot of its parent.
	nk, nn := int32(0), int32(0)
	for i := range flat {
		f := &flat[i]
		t.nodes[i] = node{
			t:       t,
			start:   uint32(f.start_byte),
			end:     uint32(f.end_byte),
			startPt: point{uint32(f.start_point.row), uint32(f.start_point.column)},
			endPt:   point{uint32(f.end_point.row), uint32(f.end_point.column)},
			parent:  int32(f.parent),
			kids:    nk,
			named:   nn,
			symbol:  uint16(f.symbol),
			field:   uint16(f.field),
			flags:   uint8(f.flags),
		}
		nk += int32(f.children)
		nn += int32(f.named)
		if t.nodes[i].isStatement() {
			t.stmts++
		}
	}
	t.kids = make([]int32, nk)
	t.named = make([]int32, nn)
	nested := false // an anonymous node has children
	for i := 1; i < len(t.nodes); i++ {
		c := &t.nodes[i]
		p := &t.nodes[c.parent]
		t.kids[p.kids+int32(p.nkids)] = int32(i)
		p.nkids++
		if c.flags&flagNamed != 0 {
			t.named[p.named+int32(p.nnamed)] = int32(i)
			p.nnamed++
		} else if flat[i].children > 0 {
			nested = true
		}
	}
	if nested {
		t.nestNamed(flat)
	}
	return t, nil
}

// nestNamed lists the named children of nodes with an anonymous child that
// has children of its own (the "is not" of a comparison around an ERROR)
// as tree-sitter's ts_node_named_child finds them: it descends into such a
// child and counts its named children in place of it, up to the node's
// count of named children, which does not count them.
func (t *tree) nestNamed(flat []C.flat_node) {
	// Children come after their parent: from the last node back, a child's
	// list is complete before its parent's.
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := &t.nodes[i]
		if n.nnamed == 0 {
			continue
		}
		out := t.named[n.named : n.named : n.named+int32(n.nnamed)]
		for _, k := range t.kids[n.kids : n.kids+int32(n.nkids)] {
			if len(out) == cap(out) {
				break
			}
			c := &t.nodes[k]
			if c.flags&flagNamed != 0 {
				out = append(out, k)
				continue
			}
			m := min(int(c.nnamed), cap(out)-len(out))
			out = append(out, t.named[c.named:c.named+int32(m)]...)
		}
	}
}

// root returns the root node.
func (t *tree) root() *node { return &t.nodes[0] }

// Type returns the node's type, as the grammar names it.
func (n *node) Type() string {
	if s := n.t.lang.symbols; int(n.symbol) < len(s) {
		return s[n.symbol]
	}
	if n.symbol >= 0xfffe {
		return n.t.lang.builtin[0xffff-n.symbol]
	}
	return ""
}

func (n *node) StartByte() uint32       { return n.start }
func (n *node) EndByte() uint32         { return n.end }
func (n *node) StartPoint() point       { return n.startPt }
func (n *node) EndPoint() point         { return n.endPt }
func (n *node) IsNamed() bool           { return n.flags&flagNamed != 0 }
func (n *node) IsMissing() bool         { return n.flags&flagMissing != 0 }
func (n *node) IsExtra() bool           { return n.flags&flagExtra != 0 }
func (n *node) HasError() bool          { return n.flags&flagError != 0 }
func (n *node) ChildCount() uint32      { return n.nkids }
func (n *node) NamedChildCount() uint32 { return n.nnamed }

// isStatement reports whether the node is a statement (isStatement of
// its type).
func (n *node) isStatement() bool {
	s := n.t.lang.stmt
	return int(n.symbol) < len(s) && s[n.symbol]
}

// Content returns the node's text in src, the text parsed.
func (n *node) Content(src []byte) string { return string(src[n.start:n.end]) }

// Parent returns the node's parent, nil for the root.
func (n *node) Parent() *node {
	if n.parent < 0 {
		return nil
	}
	return &n.t.nodes[n.parent]
}

// Child returns the node's i-th child, nil if there is none.
func (n *node) Child(i int) *node {
	if i < 0 || i >= int(n.nkids) {
		return nil
	}
	return &n.t.nodes[n.t.kids[int(n.kids)+i]]
}

// NamedChild returns the node's i-th named child, nil if there is none.
func (n *node) NamedChild(i int) *node {
	if i < 0 || i >= int(n.nnamed) {
		return nil
	}
	return &n.t.nodes[n.t.named[int(n.named)+i]]
}

// FieldNameForChild returns the name of the field of the i-th child, ""
// if it has none. An extra node (a comment) has none.
func (n *node) FieldNameForChild(i int) string {
	c := n.Child(i)
	if c == nil {
		return ""
	}
	return n.t.lang.fields[c.field]
}

// ChildByFieldName returns the first child in the named field, nil if
// there is none. An ERROR node has no fields (tree-sitter makes it with
// production 0), though the children of a rule inside it have.
func (n *node) ChildByFieldName(name string) *node {
	id := n.t.lang.fieldIDs[name]
	if id == 0 || n.symbol == symError {
		return nil
	}
	for _, k := range n.t.kids[n.kids : n.kids+int32(n.nkids)] {
		if c := &n.t.nodes[k]; c.field == id && c.flags&flagExtra == 0 {
			return c
		}
	}
	return nil
}
