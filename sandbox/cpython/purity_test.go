package cpython

import "testing"

// partsScript prints, for each row's original and each of its
// candidates (the original with one definition replaced), pure_code of
// the whole code against what partial.py finds from the purity of the
// original's parts: pure_base for the original, pure for the candidate
// compiled one changed definition at a time. Both with the static check
// and without.
const partsScript = `import json, os, sys
sys.argv = ["-c", "3", "4"]  # what protocol.py reads
sys.path.insert(0, os.environ["H_DIR"])
from h import partial, purity

purity.take_snapshots({"re", "math", "string"}, None)
out = {}
for name, orig, cands in json.loads(sys.stdin.read()):
    src = orig.encode()
    for cache in (partial._PURE, partial._BASE_WHOLE, partial._INDEX, partial._BASE_DEFS):
        cache.clear()
    partial.BASE_CODE = None
    code = compile(src, "cand.py", "exec", dont_inherit=True)
    partial.configure(orig, code, "cand.py", True, False)
    rows = []
    for checked in (True, False):
        purity.STATIC_CHECK = checked
        rows.append([list(purity.pure_code(code, checked=checked)), list(partial.pure_base(checked))])
        for old, new in cands:
            at = src.index(old.encode())
            cand = src.replace(old.encode(), new.encode(), 1)
            # The span of the top-level definition holding it: its
            # lines, up to the next top-level line.
            bs = src.rfind(b"\n", 0, src.rfind(b"\n", 0, at) + 1)
            while src[bs + 1 : bs + 2] in (b" ", b"\n"):
                bs = src.rfind(b"\n", 0, bs)
            bs += 1
            be = at
            while True:
                nl = src.find(b"\n", be)
                if nl < 0 or src[nl + 1 : nl + 2] not in (b" ",):
                    be = len(src) if nl < 0 else nl + 1
                    break
                be = nl + 1
            d = len(new.encode()) - len(old.encode())
            span = (bs, be + d, bs, be)
            part = partial.build(cand, [span])
            whole = purity.pure_code(compile(cand, "cand.py", "exec", dont_inherit=True), checked=checked)
            rows.append([list(whole), list(partial.pure(part, checked)) if part is not None else None])
    out[name] = rows
print(json.dumps(out))
`

// TestPurityInParts: the original's purity, which the server finds once
// part by part (its module body, each top-level definition) and keeps
// for the runs of the original and of every candidate, is what the walk
// of the whole code finds, level and mask: an attribute or a global
// stored in one part, a pure module imported in another, a string that
// names a module's mutable attribute where another part reaches that
// module (impure whole, though every part alone is pure).
func TestPurityInParts(t *testing.T) {
	py := python(t)
	plain := "def f(x):\n    return x + 1\n\n\ndef g(x):\n    return f(x) * 2\n"
	rows := []struct {
		name, orig string
		cands      [][2]string // old and new text of a definition
	}{
		{"plain", plain, [][2]string{
			{"return x + 1", "return x - 1"},
			{"return f(x) * 2", "import os\n    return os.getpid()"},
			{"return f(x) * 2", "import math\n    return math.floor(x)"},
			{"return x + 1", "x.a = 1\n    return x"},
			{"return x + 1", "global h\n    h = 1\n    return x"},
		}},
		{"pure module", "import re\n\n\ndef f(x):\n    return re.match('a+', x)\n\n\ndef g(x):\n    return len(x)\n", [][2]string{
			{"return len(x)", "return 'I'"},
			{"return re.match('a+', x)", "return 'a'"},
		}},
		{"named beside a pure module", "import re\n\n\ndef f(x):\n    return re.match('a+', x)\n\n\ndef g(x):\n    return 'IGNORECASE'\n", [][2]string{
			{"return 'IGNORECASE'", "return 'x'"},
			{"return re.match('a+', x)", "return x"},
		}},
		{"named alone", "def f(x):\n    return 'IGNORECASE'\n\n\ndef g(x):\n    return x\n", [][2]string{
			{"return x\n", "import math\n    return math.pi\n"},
		}},
		{"attributes and globals", "def f(o):\n    o.a = 1\n\n\ndef g():\n    global h\n    h = 2\n", [][2]string{
			{"o.a = 1", "return o"},
			{"global h\n    h = 2", "return 2"},
		}},
		{"impure body", "import os\n\n\ndef f(x):\n    return x\n", [][2]string{
			{"return x", "return -x"},
		}},
		{"impure name", "def f(x):\n    return eval(x)\n\n\ndef g(x):\n    return x\n", [][2]string{
			{"return eval(x)", "return x"},
		}},
		{"class", "class K:\n    def m(self):\n        return 1\n\n\ndef f():\n    return K().m()\n", [][2]string{
			{"return 1", "return 2"},
			{"return 1", "self.x = 1\n        return 1"},
		}},
	}
	var in []any
	for _, r := range rows {
		in = append(in, []any{r.name, r.orig, r.cands})
	}
	var got map[string][][2]*[2]int64
	harnessScript(t, py, partsScript, in, &got)
	levels := map[int64]bool{}
	for _, r := range rows {
		g := got[r.name]
		if len(g) != 2*(1+len(r.cands)) {
			t.Fatalf("%s: %d results", r.name, len(g))
		}
		for i, pair := range g {
			what := "the original"
			if k := i % (1 + len(r.cands)); k > 0 {
				what = "candidate " + r.cands[k-1][1]
			}
			if i >= 1+len(r.cands) {
				what += ", without the static check"
			}
			if pair[1] == nil {
				t.Errorf("%s, %s: not compiled in parts", r.name, what)
				continue
			}
			if *pair[0] != *pair[1] {
				t.Errorf("%s, %s: whole %v, in parts %v", r.name, what, *pair[0], *pair[1])
			}
			levels[pair[0][0]] = true
		}
	}
	// The rows reach every outcome: impure, attributes, globals, neither.
	for lv := range int64(4) {
		if !levels[lv] {
			t.Errorf("no row is of level %d", lv)
		}
	}
}
