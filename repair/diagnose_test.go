package repair

import (
	"slices"
	"testing"

	"repair/fitness"
	"repair/program"
)

const elsewhereSrc = `import re

LIMIT = 150


def check(age):
    if age >= LIMIT:
        raise ValueError("too old")
    return age
`

// TestFailingElsewhere: in a suite of several files, a failing test is
// left out when its error did not go through the target, its file never
// names the target's module, and it runs nothing of the target beyond
// every case's import; a test that skips itself is told apart.
func TestFailingElsewhere(t *testing.T) {
	p, err := program.Parse("age.py", []byte(elsewhereSrc))
	if err != nil {
		t.Fatal(err)
	}
	imports := []int{1, 3, 6} // the import, LIMIT and the def: every case's
	calls := append(slices.Clone(imports), 7, 9)
	callsOnly := []int{7, 9}
	reads := append(slices.Clone(imports), 3)
	wrong := func(detail string, lines []int) fitness.Result {
		return fitness.Result{Verdict: fitness.WrongAnswer, Detail: detail, Lines: lines}
	}
	pass := fitness.Result{Verdict: fitness.Passed, Lines: calls}
	part := func(src string, n int) *fitness.Suite {
		s := &fitness.Suite{Path: "tests/t.py", TestSource: []byte(src)}
		for range n {
			s.Cases = append(s.Cases, fitness.Case{Name: "t"})
		}
		return s
	}
	names := "from age import check\n"
	other := "from other import double\n"
	for _, tc := range []struct {
		name    string
		srcs    []string // one test file per case
		results []fitness.Result
		want    []int
	}{
		{"another module's bug", []string{other, names},
			[]fitness.Result{wrong("AssertionError: assert 6 == 4 (test_other.py line 5)", imports), pass}, []int{0}},
		{"no line of the target at all", []string{other, names},
			[]fitness.Result{wrong("PermissionError: [Errno 1] (test_net.py line 3)", nil), pass}, []int{0}},
		{"calls the target", []string{other, names},
			[]fitness.Result{wrong("AssertionError: x (test_other.py line 5)", calls), pass}, nil},
		{"every case calls the target", []string{other, names},
			[]fitness.Result{wrong("AssertionError: x (test_other.py line 5)", callsOnly), {Verdict: fitness.Passed, Lines: callsOnly}}, nil},
		{"a module-level value only it reads", []string{other, names},
			[]fitness.Result{wrong("AssertionError: x (test_other.py line 5)", []int{3}), {Verdict: fitness.Passed, Lines: calls[2:]}}, nil},
		{"error through the target", []string{other, names},
			[]fitness.Result{wrong("ValueError: too old (line 8)", imports), pass}, nil},
		{"the file names the target", []string{names, names},
			[]fitness.Result{wrong("AssertionError: assert 150 == 151 (test_names.py line 4)", reads), pass}, nil},
		{"a skip is not counted here", []string{other, names},
			[]fitness.Result{wrong("skipped: could not import 'numpy'", imports), pass}, nil},
		{"no coverage", []string{other, names},
			[]fitness.Result{wrong("AssertionError (test_other.py line 5)", nil), {Verdict: fitness.Passed}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &fitness.Suite{Path: "tests"}
			for _, src := range tc.srcs {
				s.Parts = append(s.Parts, part(src, 1))
			}
			s.JoinParts()
			o := &fitness.Outcome{Results: tc.results}
			if got := failingElsewhere(p, s, o); !slices.Equal(got, tc.want) {
				t.Errorf("failingElsewhere = %v, want %v", got, tc.want)
			}
		})
	}

	o := &fitness.Outcome{Results: []fitness.Result{
		wrong("skipped: could not import 'numpy'", imports), wrong("skipped", nil),
		wrong("AssertionError: skipped: no", imports), pass,
		{Verdict: fitness.RuntimeError, Detail: "skipped: not a skip"},
	}}
	if got := skippedItself(o); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("skippedItself = %v, want [0 1]", got)
	}
}
