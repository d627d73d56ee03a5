package cpython

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

const progressTests = `import unittest

from cand import f


def test_fails_at_the_third():
    assert f(1) == 2
    assert f(2) == 4
    assert f(3) == 7
    assert f(4) == 8


def test_fails_at_the_first():
    assert f(0) == 1
    assert f(1) == 2


def test_raises_after_one():
    assert f(1) == 2
    f(None)
    assert f(2) == 4


def check(x, want):
    assert f(x) == want


def test_fails_in_a_helper():
    assert f(1) == 2
    check(2, 4)
    check(3, 5)


def test_one_assert():
    assert f(5) == 0


def test_passes():
    assert f(1) == 2
    assert f(2) == 4


class TestMethods(unittest.TestCase):
    def test_assert_equal(self):
        self.assertEqual(f(1), 2)
        self.assertEqual(f(2), 5)
`

// TestTestProgress: a failing test function reports how far it got (the
// share of its asserts before the line where it stopped), under the
// built-in runner and under pytest alike.
func TestTestProgress(t *testing.T) {
	want := map[string]float64{
		"test_fails_at_the_third": 2.0 / 4,
		"test_fails_at_the_first": 0,
		"test_raises_after_one":   1.0 / 2,
		// Its one assert of its own passed; the assert that failed is
		// check()'s: a function with one assert has no steps.
		"test_fails_in_a_helper": 0,
		"test_one_assert":        0,
		"test_passes":            0,
		"test_assert_equal":      1.0 / 2,
	}
	runners := []struct {
		name string
		cfg  config
		py   func(testing.TB) *Interpreter
	}{
		{"built-in runner", config{noPytest: true}, python},
		{"pytest", config{}, realPytest},
	}
	for _, r := range runners {
		t.Run(r.name, func(t *testing.T) {
			py := r.py(t)
			dir := t.TempDir()
			for name, text := range map[string]string{"cand.py": "def f(x):\n    return x * 2\n", "test_cand.py": progressTests} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			suite, err := fitness.Load(filepath.Join(dir, "test_cand.py"))
			if err != nil {
				t.Fatal(err)
			}
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: filepath.Join(dir, "cand.py"), Python: py.Path}, r.cfg)
			out, err := e.Run(context.Background(), []byte("def f(x):\n    return x * 2\n"), sandbox.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]float64{}
			for i, c := range suite.Cases {
				name := c.Name[strings.LastIndex(c.Name, ":")+1:]
				if _, ok := want[name]; ok {
					got[name] = out.Results[i].Progress
				}
			}
			w := want
			if r.cfg.noPytest {
				// The built-in runner runs top-level functions only.
				w = map[string]float64{}
				for k, v := range want {
					if k != "test_assert_equal" {
						w[k] = v
					}
				}
			}
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
		})
	}
}
