package lenient

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ctx is a context without its code, for comparisons.
type ctx struct {
	Kind  Kind
	Name  string
	Uses  Use
	Lines []int
}

func contexts(t *testing.T, src string) map[string]ctx {
	t.Helper()
	cs, err := Analyze([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]ctx{}
	for _, c := range cs {
		var lines []int
		for _, s := range c.Sites {
			lines = append(lines, s.Line)
		}
		m[key(c.Kind, c.Name)] = ctx{c.Kind, c.Name, c.Uses, lines}
	}
	return m
}

var analyzeTests = []struct {
	name string
	src  string
	want map[string]ctx // only these keys are compared
	none []string       // keys that must not be there
}{
	{
		name: "uses",
		src: `for row in fetch_rows(db):
    if row.is_active and not flagged:
        total += row.amount * rate
with lock:
    names.append(user_name.strip())
print(len(items), config["port"], opts.get("x"), ", ".join(parts))
x = count > 0
y = label + "!"
if z is None: pass
@register
def f(a, b=default_b, *args, c: Annot = 1, **kw) -> Ret:
    return a
`,
		want: map[string]ctx{
			"name:fetch_rows": {Name, "fetch_rows", Called, []int{1}},
			"call:fetch_rows": {Call, "fetch_rows", Iterated, []int{1}},
			"name:db":         {Name, "db", 0, []int{1}},
			"attr:is_active":  {Attribute, "is_active", Test, []int{2}},
			"name:flagged":    {Name, "flagged", Test, []int{2}},
			"name:total":      {Name, "total", 0, []int{3}},
			"attr:amount":     {Attribute, "amount", Number, []int{3}},
			"name:rate":       {Name, "rate", Number, []int{3}},
			"name:lock":       {Name, "lock", With, []int{4}},
			"name:names":      {Name, "names", ListMethod, []int{5}},
			"name:user_name":  {Name, "user_name", StrMethod, []int{5}},
			"name:items":      {Name, "items", Sized, []int{6}},
			"name:config":     {Name, "config", Subscripted | KeyedByStr, []int{6}},
			"name:opts":       {Name, "opts", DictMethod, []int{6}},
			"name:parts":      {Name, "parts", Iterated, []int{6}},
			"name:count":      {Name, "count", Number, []int{7}},
			"name:label":      {Name, "label", Text, []int{8}},
			"name:z":          {Name, "z", NoneTest, []int{9}},
			"name:register":   {Name, "register", Decorator, []int{10}},
			"name:default_b":  {Name, "default_b", 0, []int{11}},
		},
		// Names only bound, annotations and builtins are not read sites
		// (names bound somewhere and read are: the analysis has no scopes,
		// and a plan entry for a name that exists is never used).
		none: []string{"name:x", "name:y", "name:f", "name:b", "name:Annot", "name:Ret", "name:print", "name:len", "call:len"},
	},
	{
		name: "from imports are attributes of the module",
		src: `from grading.metrics import timed, count as n_items
@timed("x")
def f():
    return n_items(1) + 1
`,
		want: map[string]ctx{
			"attr:timed":   {Attribute, "timed", Called, []int{2}},
			"call:timed":   {Call, "timed", Decorator, []int{2}},
			"attr:count":   {Attribute, "count", Called, []int{4}},
			"name:n_items": {Name, "n_items", Called, []int{4}},
			"call:n_items": {Call, "n_items", Number, []int{4}},
		},
		none: []string{"name:grading", "attr:metrics"},
	},
	{
		name: "a value is used as the name it is assigned to",
		src: `def f(db):
    rows = (db.query("q"))
    for r in rows:
        print(r)
`,
		want: map[string]ctx{
			"call:query": {Call, "query", Iterated, []int{2}},
		},
	},
	{
		name: "sites merge over the program",
		src: `def a():
    return [u for u in users]
def b():
    return users[0]
`,
		want: map[string]ctx{
			"name:users": {Name, "users", Iterated | Subscripted, []int{2, 4}},
		},
	},
	{
		name: "a file that does not parse still gives sites",
		src:  "x = missing(\nif y:\n  pass\n",
		want: map[string]ctx{
			"name:missing": {Name, "missing", 0, []int{1}},
		},
	},
}

func TestAnalyze(t *testing.T) {
	for _, tt := range analyzeTests {
		t.Run(tt.name, func(t *testing.T) {
			got := contexts(t, tt.src)
			sub := map[string]ctx{}
			for k := range tt.want {
				sub[k] = got[k]
			}
			if diff := cmp.Diff(tt.want, sub); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			for _, k := range tt.none {
				if c, ok := got[k]; ok {
					t.Errorf("unexpected %s: %+v", k, c)
				}
			}
		})
	}
}

func TestAnalyzeCode(t *testing.T) {
	cs, err := Analyze([]byte("a = 1\n\tb = helper(a)  \n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Name == "helper" && c.Kind == Name {
			if diff := cmp.Diff(map[int]string{2: "b = helper(a)"}, c.Code); diff != "" {
				t.Errorf("code mismatch (-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Fatal("no context of helper")
}

func TestPlanDeterministic(t *testing.T) {
	src := []byte(`import requests
def fetch(url):
    r = requests.get(url, timeout=timeout)
    for item in r.json()["items"]:
        yield item.name
`)
	for _, p := range []Predictor{Rules{}, Random{Seed: 7}} {
		a, err := NewPlan(src, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewPlan(src, p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.JSON(), b.JSON()) {
			t.Errorf("%T: two plans differ:\n%s\n%s", p, a.JSON(), b.JSON())
		}
	}
	a, _ := NewPlan(src, Random{Seed: 1})
	b, _ := NewPlan(src, Random{Seed: 2})
	if bytes.Equal(a.JSON(), b.JSON()) {
		t.Errorf("seeds 1 and 2 gave the same random plan: %s", a.JSON())
	}
	r, _ := NewPlan(src, nil)
	if got := r.Class(Name, "timeout"); got != FloatPos {
		t.Errorf("timeout: %s, want %s", got, FloatPos)
	}
	if got := r.Class(Name, "never_seen"); got != Object {
		t.Errorf("a name the program does not read: %s, want %s", got, Object)
	}
}

type badPredictor struct{}

func (badPredictor) Predict(*Context) Class { return "int" }

func TestPlanRefusesInvalidClass(t *testing.T) {
	if _, err := NewPlan([]byte("x = y\n"), badPredictor{}); err == nil {
		t.Error("a predictor answering an invalid class was accepted")
	}
}
