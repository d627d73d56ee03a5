package cpython

import (
	"context"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// step is one candidate of a sequence run on one server, and what it must
// get whatever the candidates before it did.
type step struct {
	src    string
	want   fitness.Verdict // of every case; anyVerdict: not checked
	detail string          // a substring of the first case's detail
}

// anyVerdict marks a candidate whose own verdicts do not matter (an
// attacker that may hurt itself).
const anyVerdict fitness.Verdict = 255

// TestHostileState: nothing one candidate does reaches the next one on the
// same server: not through a reused child (poisoned harness functions,
// builtins or modules) and not through files of the working directory.
// Each sequence ends with a wrong candidate that must fail and a correct
// one that must pass.
func TestHostileState(t *testing.T) {
	python(t)
	double := []fitness.Case{call("f", "[1]", "2"), call("f", "[3]", "6"), call("f", "[10]", "20")}
	correct := step{"def f(x):\n    return x * 2\n", fitness.Passed, ""}
	wrong := step{"def f(x):\n    return x * 2 - 1\n", fitness.WrongAnswer, "expected 2, got 1"}
	// poison makes every later result one more than what it is, after
	// returning the right answer; reach defines
	// get(object, attribute name) without naming anything the harness
	// looks for.
	poison := func(reach string) step {
		return step{`import operator, string, functools
def f(x):
    ` + reach + `
    g = get(f, "__glo" + "bals__")
    b = g["__buil" + "tins__"]
    b = b if type(b) is dict else get(b, "__di" + "ct__")
    h = b["__imp" + "ort__"]("s" + "ys").modules["__ma" + "in__"]
    hd = get(h, "__di" + "ct__")
    if "shifted" not in hd:
        orig = hd["observe_return"]
        def shifted(r, args):
            return orig(r + 1 if type(r) is int else r, args)
        hd["shifted"] = hd["observe_return"] = shifted
    return x * 2
`, anyVerdict, ""}
	}
	rows := []struct {
		name  string
		steps []step
	}{
		{"attrgetter reaches attributes", []step{poison(
			`get = lambda o, n: operator.attrgetter(n)(o)`), wrong, correct}},
		{"string.Formatter reaches attributes", []step{poison(
			`get = lambda o, n: string.Formatter().get_field("0." + n, [o], {})[0]`), wrong, correct}},
		{"methodcaller reaches attributes", []step{poison(
			`get = lambda o, n: operator.methodcaller("__getattr" + "ibute__", n)(o)`), wrong, correct}},
		{"functools.reduce over attrgetter", []step{poison(
			`get = lambda o, n: functools.reduce(lambda a, k: operator.attrgetter(k)(a), [n], o)`), wrong, correct}},
		{"a pure module's function replaced", []step{
			{"import math\ndef f(x):\n    math.floor = lambda v: int(v) - 1\n    return x * 2\n", fitness.Passed, ""},
			{"import math\ndef f(x):\n    return math.floor(x * 2.0 + 1)\n", fitness.WrongAnswer, ""},
			{"import math\ndef f(x):\n    return math.floor(x * 2.0)\n", fitness.Passed, ""},
		}},
		{"a file left for the next candidate", []step{
			{"def f(x):\n    open('answers.txt', 'a').write('%d %d\\n' % (x, x * 2))\n    return x * 2\n", fitness.Passed, ""},
			{"import os\ndef f(x):\n    if os.path.exists('answers.txt'):\n        for line in open('answers.txt'):\n            a, r = line.split()\n            if int(a) == x:\n                return int(r)\n    return -1\n", fitness.WrongAnswer, "got -1"},
			{"import os\ndef f(x):\n    assert os.listdir('.') == ['lib'], os.listdir('.')\n    return x * 2\n", fitness.Passed, ""},
		}},
		{"a full working directory", []step{
			{"def f(x):\n    with open('fill', 'ab') as out:\n        try:\n            while True:\n                out.write(b'x' * (1 << 20))\n                out.flush()\n        except OSError:\n            pass\n    return x * 2\n", fitness.Passed, ""},
			{"def f(x):\n    open('scratch', 'w').write(str(x * 2))\n    return int(open('scratch').read())\n", fitness.Passed, ""},
		}},
		{"a directory made unremovable", []step{
			{"import os\ndef f(x):\n    if not os.path.exists('d'):\n        os.makedirs('d/e')\n        open('d/e/k', 'w').write('1')\n        os.chmod('d/e', 0)\n        os.chmod('d', 0)\n        os.chmod('.', 0o500)\n    return x * 2\n", fitness.Passed, ""},
			{"import os\ndef f(x):\n    assert 'd' not in os.listdir('.'), os.listdir('.')\n    open('scratch', 'w').write('1')\n    return x * 2\n", fitness.Passed, ""},
		}},
	}
	// The original imports what the attackers use, so that the harness
	// preloads it and their imports alone do not make them impure.
	tgt := target(t, "cand.py", map[string]string{"cand.py": "import math, operator, string, functools\n"})
	modes := []struct {
		name string
		cfg  config
	}{
		{"", config{}},
		// The static check off: the guard after each reused candidate
		// must catch what it changed.
		{"guard only", config{noStaticCheck: true}},
		// No namespaces: the working directory is a real directory and
		// lib/ is writable by its owner.
		{"degraded", config{noNamespaces: true}},
	}
	for _, mode := range modes {
		for _, row := range rows {
			t.Run(strings.TrimPrefix(mode.name+"/"+row.name, "/"), func(t *testing.T) {
				e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: double}, Target: tgt, Workers: 1}, mode.cfg)
				if !mode.cfg.noNamespaces && !e.Confinement().Full() {
					t.Skipf("full isolation is not available: %v", e.Confinement())
				}
				for i, s := range row.steps {
					out, err := e.Run(context.Background(), []byte(s.src), sandbox.RunOptions{})
					if err != nil {
						t.Fatal(err)
					}
					for j, r := range out.Results {
						if s.want != anyVerdict && r.Verdict != s.want {
							t.Errorf("candidate %d, case %d: %v (%s); want %v", i, j, r.Verdict, r.Detail, s.want)
						}
					}
					if d := out.Results[0].Detail; !strings.Contains(d, s.detail) {
						t.Errorf("candidate %d: detail %q does not contain %q", i, d, s.detail)
					}
				}
			})
		}
	}
}

// TestHostileStateLib: without namespaces lib/ is a directory its owner
// can write; a candidate that rewrites a helper module there does not
// change what the next candidate imports.
func TestHostileStateLib(t *testing.T) {
	python(t)
	tgt := target(t, "cand.py", map[string]string{"helper.py": "K = 2\n"})
	cases := []fitness.Case{call("f", "[1]", "2"), call("f", "[3]", "6")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt, Workers: 1}, config{noNamespaces: true})
	for i, s := range []step{
		{"import os\nfrom helper import K\ndef f(x):\n    try:\n        os.chmod('lib', 0o755)\n        os.chmod('lib/helper.py', 0o644)\n        open('lib/helper.py', 'w').write('K = 3\\n')\n        open('lib/extra.py', 'w').write('')\n    except OSError:\n        pass\n    return x * K\n", anyVerdict, ""},
		{"import os\nfrom helper import K\ndef f(x):\n    assert sorted(os.listdir('lib')) == ['helper.py'], os.listdir('lib')\n    return x * K\n", fitness.Passed, ""},
	} {
		out, err := e.Run(context.Background(), []byte(s.src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for j, r := range out.Results {
			if s.want != anyVerdict && r.Verdict != s.want {
				t.Errorf("candidate %d, case %d: %v (%s); want %v", i, j, r.Verdict, r.Detail, s.want)
			}
		}
	}
}
