package cpython

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

const recordTarget = `class Stack:
    def __init__(self, items=None):
        self.items = list(items or [])

    def push(self, x):
        self.items.append(x)
        return self

    def pop(self):
        return self.items.pop()

    def __len__(self):
        return len(self.items)

    @staticmethod
    def of(n):
        return list(range(n))


def double(x):
    return twice(x) if x >= 0 else fail(x)


def twice(x):
    return 2 * x


def fail(x):
    raise ValueError(x)
`

const recordTests = `import pytest

from cand import Stack, double, twice


def test_functions():
    assert double(2) == 4
    assert double(x=3) == 6
    with pytest.raises(ValueError):
        double(-1)
    assert Stack.of(2) == [0, 1]


def test_object():
    s = Stack([1])
    s.push(2).push("a")
    assert s.pop() == "a"
    assert len(s) == 2


def test_not_recorded():
    assert twice((1, 2)) == (1, 2, 1, 2)
    s = Stack()
    s.push((1, 2))
    assert s.pop() == (1, 2)


def test_hot():
    t = Stack([5])
    t.push(6)
    s = Stack()
    for _ in range(10001):
        len(s)
    assert t.pop() == 6
    assert double(5) == 10


def test_after_hot():
    s = Stack([1])
    s.push(2)
    assert s.pop() == 2
`

// TestRecordCalls: a run with RunOptions.Record reports, per test, the
// calls the test made into the target from outside it, with arguments
// that encode as JSON values: functions, static methods and objects'
// lives, not the target's own calls (twice, fail), not tuples. A class
// whose methods a test calls more than ten thousand times is not
// recorded for the rest of the test, and none of its objects' lives,
// which would miss calls (test_hot); the next test records it again.
func TestRecordCalls(t *testing.T) {
	want := map[string]string{
		"test_functions": `[{"function":"double","args":[2],"result":4},{"function":"double","args":[],"kwargs":{"x":3},"result":6},` +
			`{"function":"double","args":[-1],"raised":"ValueError"},{"function":"Stack.of","args":[2],"result":[0,1]}]`,
		"test_object":       `[{"function":"Stack","args":[[1]],"then":[["push",[2],{}],["push",["a"],{}],["pop",[],{}],["__len__",[],{}]]}]`,
		"test_not_recorded": `null`,
		"test_hot":          `[{"function":"double","args":[5],"result":10}]`,
		"test_after_hot":    `[{"function":"Stack","args":[[1]],"then":[["push",[2],{}],["pop",[],{}]]}]`,
	}
	for _, real := range []bool{true, false} {
		name := map[bool]string{true: "pytest", false: "built-in runner"}[real]
		t.Run(name, func(t *testing.T) {
			var py string
			if real {
				py = realPytest(t).Path
			}
			tgt, suite := testFileDir(t, recordTarget, recordTests)
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py}, config{noPytest: !real})
			out, err := e.Run(context.Background(), []byte(recordTarget), sandbox.RunOptions{Record: true, Coverage: true})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range suite.Cases {
				if r := out.Results[i]; r.Verdict != fitness.Passed {
					t.Errorf("%s: %v %s", c.Name, r.Verdict, r.Detail)
				}
				fn := c.Function[len(c.Function)-len(c.Name):]
				if real {
					fn = c.Name[len("test_cand.py::"):]
				}
				got, _ := json.Marshal(out.Results[i].Calls)
				var g, w any
				json.Unmarshal(got, &g)
				json.Unmarshal([]byte(want[fn]), &w)
				if diff := cmp.Diff(w, g); diff != "" {
					t.Errorf("%s: calls (-want +got):\n%s", fn, diff)
				}
			}
			// Without Record nothing is recorded.
			out, err = e.Run(context.Background(), []byte(recordTarget), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range out.Results {
				if r.Calls != nil {
					t.Errorf("calls without Record: %+v", r.Calls)
				}
			}
		})
	}
}

// TestReplayCalls: a probe case with Then replays an object's life: what
// each method returned, an object without a value of its own by its
// class (two runs compare equal), an exception as the case's.
func TestReplayCalls(t *testing.T) {
	probe := func(fn, args, then string) fitness.Case {
		c := call(fn, args, "")
		c.Then, c.Probe = json.RawMessage(then), true
		return c
	}
	cases := []fitness.Case{
		probe("Stack", "[[1]]", `[["push", [2], {}], ["pop", [], {}], ["__len__", [], {}]]`),
		probe("Stack", "[]", `[["pop", [], {}]]`),
		probe("Stack", "[]", `[]`),
	}
	out := runOne(t, recordTarget, cases, sandbox.RunOptions{}, config{})
	want := []string{"returned ['<Stack>', 2, 1], arguments [[1]]", "raised IndexError", "returned [], arguments []"}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed || fitness.ShowBehaviour(r.Detail) != want[i] {
			t.Errorf("case %d: %v %q; want %q", i, r.Verdict, fitness.ShowBehaviour(r.Detail), want[i])
		}
	}
}
