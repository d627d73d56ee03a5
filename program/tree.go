// The syntax tree as a flat Go slice: tree-sitter parses, one C call
// copies every visible node into Go memory, and the builder walks that
// instead of paying a cgo call (and a string allocation for each node
// type) for every step through the binding's API.

package program

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// The declarations of tree-sitter's API (api.h of the version that
// github.com/smacker/go-tree-sitter vendors) this file uses; the
// definitions are linked from that package and its python grammar. After
// an upgrade of the binding, TestFlatTreeMatchesBinding tells whether they
// still hold.
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
uint32_t ts_node_descendant_count(TSNode self);
TSNode ts_node_child(TSNode self, uint32_t child_index);
TSNode ts_node_named_child(TSNode self, uint32_t child_index);
uint32_t ts_node_named_child_count(TSNode self);
void ts_tree_cursor_reset(TSTreeCursor *self, TSNode node);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);
const TSLanguage *tree_sitter_python(void);

enum { flatNamed = 1, flatMissing = 2, flatExtra = 4, flatError = 8 };

typedef struct flat_node {
	uint32_t start_byte, end_byte;
	TSPoint start_point, end_point;
	int32_t parent;      // index of the parent, -1 for the root
	uint32_t children;   // number of (visible) children
	uint32_t named;      // number of named children
	int32_t kids;        // where the children start in tree.kids (Go's)
	int32_t named_at;    // where the named children start in tree.named (Go's)
	TSSymbol symbol;
	TSFieldId field;     // field under the parent, 0 for none
	uint8_t flags;
} flat_node;

// flat_parse parses src as Python; NULL if the parser fails.
static TSTree *flat_parse(const char *src, uint32_t len) {
	TSParser *parser = ts_parser_new();
	if (!parser) return NULL;
	TSTree *tree = NULL;
	if (ts_parser_set_language(parser, tree_sitter_python())) {
		tree = ts_parser_parse_string(parser, NULL, src, len);
	}
	ts_parser_delete(parser);
	return tree;
}

// flat_count returns the number of visible nodes of tree.
static uint32_t flat_count(const TSTree *tree) {
	return ts_node_descendant_count(ts_tree_root_node(tree));
}

// flat_copy writes the first cap visible nodes of tree, in document order
// (a node before its children), to the flat_node at the start of every
// stride bytes of buf, and returns the number of visible nodes.
static int64_t flat_copy(const TSTree *tree, char *buf, size_t stride, uint32_t cap) {
#define AT(i) ((flat_node *)(buf + (size_t)(i) * stride))
	TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	int32_t parent = -1; // the parent of the cursor's node
	int64_t depth = 0, n = 0;
	for (;;) {
		if (n < cap) {
			TSNode node = ts_tree_cursor_current_node(&cur);
			flat_node *f = AT(n);
			f->start_byte = ts_node_start_byte(node);
			f->end_byte = ts_node_end_byte(node);
			f->start_point = ts_node_start_point(node);
			f->end_point = ts_node_end_point(node);
			f->parent = parent;
			f->children = 0;
			f->named = 0;
			f->kids = 0;
			f->named_at = 0;
			f->symbol = ts_node_symbol(node);
			f->field = ts_tree_cursor_current_field_id(&cur);
			f->flags = (ts_node_is_named(node) ? flatNamed : 0) |
				(ts_node_is_missing(node) ? flatMissing : 0) |
				(ts_node_is_extra(node) ? flatExtra : 0) |
				(ts_node_has_error(node) ? flatError : 0);
			if (parent >= 0) {
				AT(parent)->children++;
				if (f->flags & flatNamed) AT(parent)->named++;
			}
		}
		int32_t self = (int32_t)n++;
		if (ts_tree_cursor_goto_first_child(&cur)) {
			parent = self;
			depth++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&cur)) {
				ts_tree_cursor_delete(&cur);
				return n;
			}
			depth--;
			// Past cap only the count matters.
			parent = parent >= 0 && parent < (int64_t)cap ? AT(parent)->parent : -1;
		}
	}
#undef AT
}
// flat_named writes, for the node reached from the root through the
// children path[0..depth), where each of its first cap named children (as
// ts_node_named_child finds them) comes in its subtree in document order
// (0 for the node itself), and returns how many it wrote.
static uint32_t flat_named(const TSTree *tree, const uint32_t *path, uint32_t depth, int32_t *out, uint32_t cap) {
	TSNode p = ts_tree_root_node(tree);
	for (uint32_t i = 0; i < depth; i++) p = ts_node_child(p, path[i]);
	uint32_t count = ts_node_named_child_count(p);
	if (count > cap) count = cap;
	TSTreeCursor cur = ts_tree_cursor_new(p);
	for (uint32_t i = 0; i < count; i++) {
		TSNode want = ts_node_named_child(p, i);
		uint32_t at = ts_node_start_byte(want);
		out[i] = -1;
		ts_tree_cursor_reset(&cur, p);
		int32_t k = 0;
		int64_t d = 0;
		for (;;) {
			TSNode n = ts_tree_cursor_current_node(&cur);
			if (n.id == want.id && ts_node_start_byte(n) == at) {
				out[i] = k;
				break;
			}
			k++;
			if (ts_tree_cursor_goto_first_child(&cur)) {
				d++;
				continue;
			}
			bool more = true;
			while (!ts_tree_cursor_goto_next_sibling(&cur)) {
				if (d == 0 || !ts_tree_cursor_goto_parent(&cur)) {
					more = false;
					break;
				}
				d--;
			}
			if (!more || d == 0) break;
		}
	}
	ts_tree_cursor_delete(&cur);
	return count;
}
*/
import "C"

import (
	"errors"
	"slices"
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
// binding's Node API the builder uses. flat_copy writes c in place, t is
// set after (nil while C writes, as cgo requires of the memory it gets).
type node struct {
	c C.flat_node
	t *tree
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
	kids  []int32 // children of each node, in order, from its c.kids
	named []int32 // named children of each node, from its c.named_at
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
func parseTree(src []byte) (*tree, error) { return parseTreeSized(src, 0) }

// parseTreeSized is parseTree that makes room for size nodes first (0:
// as many as tree-sitter counts).
func parseTreeSized(src []byte, size int) (*tree, error) {
	var p *C.char
	if len(src) > 0 {
		p = (*C.char)(unsafe.Pointer(&src[0]))
	}
	ct := C.flat_parse(p, C.uint32_t(len(src)))
	if ct == nil {
		return nil, errParse
	}
	defer C.ts_tree_delete(ct)
	t := &tree{lang: pythonLang()}
	// flat_count is the size needed, unless tree-sitter's count of visible
	// nodes and its cursor ever disagree: then copy again.
	if size <= 0 {
		size = int(C.flat_count(ct))
	}
	for n := max(size, 1); ; {
		t.nodes = make([]node, n)
		stride := C.size_t(unsafe.Sizeof(node{}))
		total := int(C.flat_copy(ct, (*C.char)(unsafe.Pointer(&t.nodes[0])), stride, C.uint32_t(n)))
		if total <= n {
			t.nodes = t.nodes[:total]
			break
		}
		n = total
	}
	// Children are laid out per parent: offsets from the counts, then each
	// node (after its parent, in order) fills the next slot of its parent,
	// counting its children again.
	nk, nn := int32(0), int32(0)
	var nested []int32 // nodes with an anonymous child that has children
	for i := range t.nodes {
		n := &t.nodes[i]
		n.t = t
		if n.c.flags&flagNamed == 0 && n.c.children > 0 && n.c.parent >= 0 {
			if p := n.c.parent; len(nested) == 0 || nested[len(nested)-1] != int32(p) {
				nested = append(nested, int32(p))
			}
		}
		n.c.kids, n.c.named_at = C.int32_t(nk), C.int32_t(nn)
		nk += int32(n.c.children)
		nn += int32(n.c.named)
		n.c.children, n.c.named = 0, 0
		if n.isStatement() {
			t.stmts++
		}
	}
	t.kids = make([]int32, nk)
	t.named = make([]int32, nn)
	for i := 1; i < len(t.nodes); i++ {
		c := &t.nodes[i]
		p := &t.nodes[c.c.parent]
		t.kids[int32(p.c.kids)+int32(p.c.children)] = int32(i)
		p.c.children++
		if c.c.flags&flagNamed != 0 {
			t.named[int32(p.c.named_at)+int32(p.c.named)] = int32(i)
			p.c.named++
		}
	}
	for _, i := range nested {
		t.namedAsTreeSitter(ct, i)
	}
	return t, nil
}

// namedAsTreeSitter lists the named children of node i, which has an
// anonymous child with children of its own (a "not in" around a comment
// or an ERROR), as ts_node_named_child finds them: it counts such a
// child's named children in place of it, skipping as many later ones, as
// far as hidden nodes the copy does not keep reach. Rare, so asked of
// tree-sitter itself.
func (t *tree) namedAsTreeSitter(ct *C.TSTree, i int32) {
	n := &t.nodes[i]
	if n.c.named == 0 {
		return
	}
	var path []C.uint32_t // child indexes from the root, reversed
	for j := i; t.nodes[j].c.parent >= 0; j = int32(t.nodes[j].c.parent) {
		p := &t.nodes[t.nodes[j].c.parent]
		path = append(path, C.uint32_t(slices.Index(p.children(), j)))
	}
	slices.Reverse(path)
	path = append(path, 0) // never empty
	out := make([]C.int32_t, n.c.named)
	got := int(C.flat_named(ct, &path[0], C.uint32_t(len(path)-1), &out[0], C.uint32_t(len(out))))
	at := int(n.c.named_at)
	named := t.named[at : at+int(n.c.named)]
	for k := range named {
		named[k] = -1
		if k < got && out[k] >= 0 {
			named[k] = i + int32(out[k])
		}
	}
}

// root returns the root node.
func (t *tree) root() *node { return &t.nodes[0] }

// Type returns the node's type, as the grammar names it.
func (n *node) Type() string {
	sym := int(n.c.symbol)
	if s := n.t.lang.symbols; sym < len(s) {
		return s[sym]
	}
	if sym >= symError-1 {
		return n.t.lang.builtin[symError-sym]
	}
	return ""
}

func (n *node) StartByte() uint32 { return uint32(n.c.start_byte) }
func (n *node) EndByte() uint32   { return uint32(n.c.end_byte) }
func (n *node) StartPoint() point {
	return point{uint32(n.c.start_point.row), uint32(n.c.start_point.column)}
}
func (n *node) EndPoint() point {
	return point{uint32(n.c.end_point.row), uint32(n.c.end_point.column)}
}
func (n *node) IsNamed() bool           { return n.c.flags&flagNamed != 0 }
func (n *node) IsMissing() bool         { return n.c.flags&flagMissing != 0 }
func (n *node) IsExtra() bool           { return n.c.flags&flagExtra != 0 }
func (n *node) HasError() bool          { return n.c.flags&flagError != 0 }
func (n *node) ChildCount() uint32      { return uint32(n.c.children) }
func (n *node) NamedChildCount() uint32 { return uint32(n.c.named) }

// isStatement reports whether the node is a statement (isStatement of
// its type).
func (n *node) isStatement() bool {
	s := n.t.lang.stmt
	return int(n.c.symbol) < len(s) && s[n.c.symbol]
}

// Content returns the node's text in src, the text parsed.
func (n *node) Content(src []byte) string { return string(src[n.c.start_byte:n.c.end_byte]) }

// Parent returns the node's parent, nil for the root.
func (n *node) Parent() *node {
	if n.c.parent < 0 {
		return nil
	}
	return &n.t.nodes[n.c.parent]
}

// children returns the indexes of the node's children.
func (n *node) children() []int32 {
	at := int(n.c.kids)
	return n.t.kids[at : at+int(n.c.children)]
}

// Child returns the node's i-th child, nil if there is none.
func (n *node) Child(i int) *node {
	if i < 0 || i >= int(n.c.children) {
		return nil
	}
	return &n.t.nodes[n.t.kids[int(n.c.kids)+i]]
}

// NamedChild returns the node's i-th named child, nil if there is none.
func (n *node) NamedChild(i int) *node {
	if i < 0 || i >= int(n.c.named) {
		return nil
	}
	k := n.t.named[int(n.c.named_at)+i]
	if k < 0 {
		return nil // tree-sitter found none (namedAsTreeSitter)
	}
	return &n.t.nodes[k]
}

// FieldNameForChild returns the name of the field of the i-th child, ""
// if it has none. An extra node (a comment) has none.
func (n *node) FieldNameForChild(i int) string {
	c := n.Child(i)
	if c == nil {
		return ""
	}
	return n.t.lang.fields[c.c.field]
}

// ChildByFieldName returns the first child in the named field, nil if
// there is none. An ERROR node has no fields (tree-sitter makes it with
// production 0), though the children of a rule inside it have.
func (n *node) ChildByFieldName(name string) *node {
	id := C.TSFieldId(n.t.lang.fieldIDs[name])
	if id == 0 || n.c.symbol == symError {
		return nil
	}
	for _, k := range n.children() {
		if c := &n.t.nodes[k]; c.c.field == id && c.c.flags&flagExtra == 0 {
			return c
		}
	}
	return nil
}
