package mutate

import (
	"testing"

	"repair/program"
)

// Where stop-after and use-local propose nothing: a call that is not an
// except clause's last statement, a local that is read, a call of the
// same function before the store or where the store may not have run.
func TestFlowTargets(t *testing.T) {
	tests := []struct {
		name, op, src string
		want          int // edits proposed
	}{
		{"a handler's last call, in a loop", "stop-after",
			"def f(xs, warn):\n    for x in xs:\n        try:\n            g(x)\n        except KeyError:\n            warn(x)\n", 3},
		{"a handler's last call", "stop-after",
			"def f(x, warn):\n    try:\n        g(x)\n    except KeyError:\n        warn(x)\n    h(x)\n", 1},
		{"a call with a keyword argument", "stop-after",
			"import logging\n\ndef f(x):\n    try:\n        g(x)\n    except KeyError:\n        logging.warning('no %s', x, exc_info=True)\n    h(x)\n", 1},
		{"not the handler's last", "stop-after",
			"def f(x, warn):\n    try:\n        g(x)\n    except KeyError:\n        warn(x)\n        x = None\n    h(x)\n", 0},
		{"an else clause", "stop-after",
			"def f(x):\n    try:\n        y = g(x)\n    except KeyError:\n        raise\n    else:\n        h(y)\n", 0},
		{"a finally clause", "stop-after",
			"def f(x):\n    try:\n        g(x)\n    finally:\n        h(x)\n", 0},
		{"the try's body", "stop-after",
			"def f(x):\n    try:\n        g(x)\n    except KeyError:\n        raise\n", 0},
		{"an assignment", "stop-after",
			"def f(x):\n    try:\n        g(x)\n    except KeyError:\n        x = h(x)\n    return x\n", 0},
		{"at module level", "stop-after",
			"try:\n    import json\nexcept ImportError:\n    warn('json')\n", 0},

		{"a __getattr__ that refuses dunders", "getattr-dunder",
			"class T:\n    def __getattr__(self, name):\n        if name.startswith('__'):\n            raise AttributeError(name)\n        return T()\n", 0},
		{"a __getattr__ that raises for what it lacks", "getattr-dunder",
			"class T:\n    def __getattr__(self, name):\n        try:\n            return self.d[name]\n        except KeyError:\n            raise AttributeError(name)\n", 0},
		{"another method", "getattr-dunder",
			"class T:\n    def get(self, name):\n        return T()\n", 0},
		{"a __getattr__ that makes attributes up", "getattr-dunder",
			"class T:\n    def __getattr__(self, name):\n        return T()\n", 1},

		{"a chunk yielded as the generator does not elsewhere", "yield-nonempty",
			"def chunks(it):\n    buf = []\n    for x in it:\n        buf.append(x)\n        if x is None:\n            yield list(it)\n            return\n    if buf:\n        yield buf\n", 1},
		{"a value that reads the name", "yield-nonempty",
			"def chunks(xs):\n    buf = []\n    for x in xs:\n        buf.append(x)\n        if len(buf) == 2:\n            yield list(buf)\n            buf = []\n    if buf:\n        yield buf\n", 0},
		{"no guarded yield in the generator", "yield-nonempty",
			"def chunks(xs):\n    buf = []\n    for x in xs:\n        buf.append(x)\n    yield list(buf)\n", 0},
		{"a guarded yield of another generator", "yield-nonempty",
			"def a(xs):\n    if xs:\n        yield xs\n\n\ndef b(xs):\n    yield list(xs)\n", 0},
		{"a name yielded", "yield-nonempty",
			"def a(xs, y):\n    if xs:\n        yield xs\n    yield y\n", 0},

		{"an unread local", "use-local",
			"def f(a):\n    p = P(a, strict=True)\n    return P(a).run()\n", 1},
		{"a local that is read", "use-local",
			"def f(a):\n    p = P(a, strict=True)\n    q = p.run()\n    return P(a).run() + q\n", 0},
		{"read by a nested function", "use-local",
			"def f(a):\n    p = P(a)\n    def g():\n        return p\n    return P(a).run(g)\n", 0},
		{"the call before the store", "use-local",
			"def f(a):\n    r = P(a).run()\n    p = P(a, strict=True)\n    return r\n", 0},
		{"in a branch the store may skip", "use-local",
			"def f(a, b):\n    if b:\n        p = P(a, strict=True)\n    else:\n        return P(a).run()\n", 0},
		{"another callee", "use-local",
			"def f(a):\n    p = P(a)\n    return Q(a).run()\n", 0},
		{"a callee's name inside another's", "use-local",
			"def f(a):\n    p = P(a)\n    return MyP(a).run() + x.P(a)\n", 0},
		{"more than a call stored", "use-local",
			"def f(a):\n    p = P(a).value\n    return P(a).run()\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.op+": "+tt.name, func(t *testing.T) {
			p, err := program.Parse("m.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			op, _ := ByName(tt.op)
			c := NewContext(p, nil)
			var got []string
			for _, id := range op.Targets(c).ids {
				op.Edits(c, id, func(e program.Edit) {
					got = append(got, string(p.Render(program.Patch{e})))
				})
			}
			if len(got) != tt.want {
				t.Errorf("%d edits, want %d:\n%q", len(got), tt.want, got)
			}
			for _, g := range got {
				if _, err := program.Parse("fix.py", []byte(g)); err != nil {
					t.Errorf("an edit does not parse: %v\n%s", err, g)
				}
			}
		})
	}
}
