package lenient

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

var ruleTests = []struct {
	kind Kind
	name string
	uses Use
	want Class
}{
	// The use decides first.
	{Name, "helper", Called, Callable},
	{Attribute, "compute", Called, Callable},
	{Name, "timed", Decorator, Callable},
	{Call, "timed", Decorator, Callable}, // @timed("x"): the factory's result decorates
	{Name, "lock", With, Resource},
	{Call, "open_db", With, Resource},
	{Name, "users", With | Called, Resource},
	{Name, "rows", DictMethod, DictNonEmpty},
	{Name, "rows", KeyedByStr | Subscripted, DictNonEmpty},
	{Name, "data", StrMethod, StrNonEmpty},
	{Name, "pending", ListMethod, ListNonEmpty},
	{Name, "bucket", SetMethod, SetNonEmpty},
	// Then the name.
	{Name, "is_valid", 0, True},
	{Name, "has_children", Test, True},
	{Attribute, "isActive", 0, True},
	{Name, "debug", Test, True},
	{Name, "no_cache", Test, False},
	{Name, "users", 0, ListNonEmpty},
	{Name, "users", Iterated, ListNonEmpty},
	{Name, "status", 0, Object}, // not a plural
	{Name, "word_count", Number, IntPos},
	{Name, "n", 0, IntPos},
	{Name, "num_rows", 0, IntPos},
	{Name, "max_depth", 0, IntPos},
	{Name, "length", 0, IntPos},
	{Name, "learning_rate", 0, FloatPos},
	{Name, "timeout", Number, FloatPos},
	{Name, "file_path", 0, StrNonEmpty},
	{Name, "userName", 0, StrNonEmpty},
	{Name, "prefix", Text, StrNonEmpty},
	{Name, "config", 0, DictNonEmpty},
	{Name, "config", AttrBase, Object}, // config.debug: an object
	{Name, "args", AttrBase, Object},   // args.verbose
	{Name, "session", AttrBase | SetMethod, Resource},
	{Name, "registry", AttrBase | SetMethod, Object}, // registry.add, registry.lookup
	{Attribute, "session", DictMethod, Resource},     // db.session.get(User, uid)
	{Name, "conn", AttrBase, Resource},
	{Name, "kwargs", 0, DictNonEmpty},
	{Name, "seen", Iterated, SetEmpty},
	{Name, "args", Iterated, TupleNonEmpty},
	{Name, "on_done_callback", 0, Callable},
	{Name, "item_list", 0, ListNonEmpty},
	{Name, "User", 0, Callable}, // a class
	{Name, "HTTPError", AttrBase, Callable},
	{Name, "MAX_RETRIES", Number, IntPos},
	{Name, "DATA_DIR", 0, StrNonEmpty},
	{Name, "Items", Iterated, ListNonEmpty},
	// Calls: the name without its verb.
	{Call, "get_users", Iterated, ListNonEmpty},
	{Call, "get_users", 0, ListNonEmpty},
	{Call, "load_config", 0, DictNonEmpty},
	{Call, "is_admin", Test, True},
	{Call, "count_words", 0, IntPos},
	{Call, "get_logger", AttrBase, Object},
	{Call, "read_text", 0, StrNonEmpty},
	{Call, "query", 0, Object}, // a verb says nothing of the result
	{Call, "query", Iterated, ListNonEmpty},
	{Call, "User", AttrBase, Object}, // an instance
	// Then weaker uses.
	{Name, "x", Iterated, ListNonEmpty},
	{Name, "x", Sized, ListNonEmpty},
	{Name, "x", Subscripted | Number, ListNonEmpty},
	{Name, "x", Number, IntPos},
	{Name, "x", Text, StrNonEmpty},
	{Name, "x", Test, True},
	{Name, "x", NoneTest, Object},
	{Name, "x", AttrBase, Object},
	{Call, "frobnicate", Discarded, Object},
	{Name, "x", 0, Object},
}

func TestRules(t *testing.T) {
	for _, tt := range ruleTests {
		c := &Context{Kind: tt.kind, Name: tt.name, Uses: tt.uses, Sites: []Site{{Line: 1, Uses: tt.uses}}}
		if got := (Rules{}).Predict(c); got != tt.want {
			t.Errorf("Rules.Predict(%s %s, uses %s) = %s, want %s", tt.kind, tt.name, tt.uses, got, tt.want)
		}
	}
}

func TestRulesTargets(t *testing.T) {
	// rows = db.query(...): the name the result is assigned to speaks.
	c := &Context{Kind: Call, Name: "query", Targets: []string{"rows"}, Sites: []Site{{Line: 1}}}
	if got := (Rules{}).Predict(c); got != ListNonEmpty {
		t.Errorf("query assigned to rows: %s, want %s", got, ListNonEmpty)
	}
	c = &Context{Kind: Call, Name: "count_words", Targets: []string{"rows"}, Sites: []Site{{Line: 1}}}
	if got := (Rules{}).Predict(c); got != IntPos {
		t.Errorf("count_words assigned to rows: %s, want %s (its own name first)", got, IntPos)
	}
}

func TestSplitName(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"is_valid", []string{"is", "valid"}},
		{"getUserIDs", []string{"get", "user", "ids"}},
		{"HTTPServer", []string{"http", "server"}},
		{"__private_name__", []string{"private", "name"}},
		{"x2", []string{"x2"}},
		{"maxDepth2", []string{"max", "depth2"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, splitName(tt.in)); diff != "" {
			t.Errorf("splitName(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestRandomDeterministic(t *testing.T) {
	c := &Context{Kind: Name, Name: "anything"}
	seen := map[Class]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		a, b := Random{seed}.Predict(c), Random{seed}.Predict(c)
		if a != b {
			t.Fatalf("seed %d: %s then %s", seed, a, b)
		}
		if !a.Valid() {
			t.Fatalf("seed %d: invalid class %q", seed, a)
		}
		seen[a] = true
	}
	if len(seen) < len(Classes)/2 {
		t.Errorf("200 seeds gave only %d classes", len(seen))
	}
}

func TestClassesValid(t *testing.T) {
	if len(Classes) != 22 {
		t.Errorf("%d classes, want LExecutor's 22", len(Classes))
	}
	for _, c := range Classes {
		if !c.Valid() {
			t.Errorf("%s not valid", c)
		}
	}
	if Class("int").Valid() {
		t.Error(`"int" is valid`)
	}
}
