package cpython

import (
	"testing"

	"repair/program"
)

// partialScript prints, for each candidate (its text and its changed
// definitions' spans, program.Change), whether partial.build compiled it
// one definition at a time, and whether each code object that build
// put in the original's place equals, positions included, the one
// compiling the whole candidate makes at the same place.
const partialScript = `import json, os, sys, types
sys.argv = ["-c", "3", "4"]  # what protocol.py reads
sys.path.insert(0, os.environ["H_DIR"])
from h import partial

CT = types.CodeType


def same(a, b):
    if a != b or list(a.co_positions()) != list(b.co_positions()) or list(a.co_lines()) != list(b.co_lines()):
        return False
    ka = [k for k in a.co_consts if type(k) is CT]
    kb = [k for k in b.co_consts if type(k) is CT]
    return len(ka) == len(kb) and all(same(x, y) for x, y in zip(ka, kb))


orig, cands = json.loads(sys.stdin.read())
code = compile(orig.encode(), "cand.py", "exec", dont_inherit=True)
partial.configure(orig, code, "cand.py", True, False)
out = []
for text, spans in cands:
    src = text.encode()
    part = partial.build(src, [tuple(s) for s in spans])
    if part is None:
        out.append(None)
        continue
    whole = compile(src, "cand.py", "exec", dont_inherit=True)
    out.append([same(k, whole.co_consts[i]) for i, k in part.repl])
print(json.dumps(out))
`

// TestPartialCodeAtItsLines: the code objects of a candidate's changed
// definitions, compiled alone and moved to their lines, are those that
// compiling the whole candidate makes, line table and positions
// included, after definitions that gained or lost lines too (tracebacks
// and coverage name the candidate's lines).
func TestPartialCodeAtItsLines(t *testing.T) {
	py := python(t)
	const orig = `import math

LIMIT = 3


def area(r):
    """The area."""
    return math.pi * r * r


class Shape:
    sides = 0

    def grow(self, k):
        return [self.sides * i for i in range(k)]


def ratio(a, b):
    if b == 0:
        raise ValueError("b is 0")
    f = lambda x: (x
                   / b)
    return f(a)
`
	p, err := program.Parse("cand.py", []byte(orig))
	if err != nil {
		t.Fatal(err)
	}
	tests := [][]edit{
		{{op: program.ReplaceText, stmt: "return f(a)", site: "f", text: "abs"}},
		{{op: program.InsertBefore, stmt: "return math.pi * r * r", donor: "f = lambda x: (x"}},
		{{op: program.Delete, stmt: "if b == 0:"}, {op: program.InsertAfter, stmt: "return math.pi * r * r", donor: "return f(a)"}},
		{{op: program.Swap, stmt: "return math.pi * r * r", donor: "return [self.sides * i for i in range(k)]"}},
		{{op: program.InsertBefore, stmt: "return [self.sides * i for i in range(k)]", donor: "raise ValueError(\"b is 0\")"}},
	}
	type cand struct {
		Text  string   `json:"text"`
		Spans [][4]int `json:"spans"`
	}
	var in []any
	for _, edits := range tests {
		src, ch := p.RenderChange(patchOf(t, p, edits))
		if ch.Defs == nil {
			t.Fatalf("%v: not inside definitions", edits)
		}
		var spans [][4]int
		for i := range ch.Defs {
			spans = append(spans, [4]int{ch.Cand[i].Start, ch.Cand[i].End, ch.Orig[i].Start, ch.Orig[i].End})
		}
		in = append(in, []any{string(src), spans})
	}
	var got [][]bool
	harnessScript(t, py, partialScript, []any{orig, in}, &got)
	for i, g := range got {
		if g == nil {
			t.Errorf("candidate %d: compiled whole", i)
			continue
		}
		for k, ok := range g {
			if !ok {
				t.Errorf("candidate %d: code object %d differs from the whole candidate's", i, k)
			}
		}
	}
}
