package guard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
)

func str(s string) *string { return &s }

func TestInputs(t *testing.T) {
	tests := []struct {
		name  string
		cases []fitness.Case
		max   int
		want  []string // args, or stdin, of each probe
	}{
		{"an int moves to its neighbours", []fitness.Case{{Kind: fitness.Call, Args: []byte(`[3]`)}}, 100,
			[]string{`[4]`, `[2]`, `[0]`, `[-3]`, `[6]`}},
		{"a float stays a float", []fitness.Case{{Kind: fitness.Call, Args: []byte(`[1.5]`)}}, 100,
			[]string{`[2.0]`, `[1.0]`, `[0.0]`, `[-1.5]`, `[3.0]`}},
		{"one argument at a time; the suite's own inputs left out", []fitness.Case{
			{Kind: fitness.Call, Args: []byte(`[true, "ab"]`)},
			{Kind: fitness.Call, Args: []byte(`[false, "ab"]`)},
		}, 100, []string{`[true,""]`, `[false,""]`, `[true,"b"]`, `[false,"b"]`, `[true,"a"]`,
			`[false,"a"]`, `[true,"aba"]`, `[false,"aba"]`, `[true,"ba"]`, `[false,"ba"]`}},
		{"lists: reversed, shorter, longer, sorted, empty, an element moved", []fitness.Case{{Kind: fitness.Call, Args: []byte(`[[2, 1]]`)}}, 100,
			[]string{`[[1,2]]`, `[[1]]`, `[[2]]`, `[[2,1,2]]`, `[[]]`, `[[3,1]]`, `[[1,1]]`, `[[2,2]]`, `[[2,0]]`}},
		{"objects: one value moved; null left alone", []fitness.Case{{Kind: fitness.Call, Args: []byte(`[{"a": 1, "b": [2]}, null]`)}}, 100,
			[]string{`[{"a":2,"b":[2]},null]`, `[{"a":0,"b":[2]},null]`, `[{"a":1,"b":[]},null]`}},
		{"evenly from every case when capped", []fitness.Case{
			{Kind: fitness.Call, Args: []byte(`[10]`)},
			{Kind: fitness.Call, Args: []byte(`[20]`)},
		}, 3, []string{`[11]`, `[21]`, `[9]`}},
		{"stdin: one integer at a time", []fitness.Case{{Kind: fitness.IO, Stdin: str("2\n5 x\n")}}, 100,
			[]string{"3\n5 x\n", "1\n5 x\n", "4\n5 x\n", "2\n6 x\n", "2\n4 x\n", "2\n10 x\n"}},
		{"test-file cases have no neighbours", []fitness.Case{{Kind: fitness.Test, Function: "test_a"}}, 100, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.cases {
				tt.cases[i].Name, tt.cases[i].Function, tt.cases[i].Timeout = "c", "f", 2
			}
			probes, origin := Inputs(&fitness.Suite{Cases: tt.cases}, nil, tt.max)
			var got []string
			for i, p := range probes {
				if !p.Probe || p.Timeout != 2 || origin[i] >= len(tt.cases) {
					t.Errorf("probe %d: %+v from %d", i, p, origin[i])
				}
				if p.Stdin != nil {
					got = append(got, *p.Stdin)
				} else {
					got = append(got, strings.ReplaceAll(string(p.Args), " ", ""))
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("probes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInputsFromCalls: a test file's inputs are the calls its tests made
// into the target (recorded in the original's run), moved: an argument of
// a call, a method call of an object's life left out or its argument
// moved. The recorded calls themselves are left out (their tests judge
// them).
func TestInputsFromCalls(t *testing.T) {
	s := &fitness.Suite{TestSource: []byte("..."), Cases: []fitness.Case{
		{Name: "test_a", Kind: fitness.Test, Function: "test_a", Timeout: 3},
		{Name: "test_b", Kind: fitness.Test, Function: "test_b", Timeout: 3},
	}}
	orig := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.Passed, Calls: []fitness.RecordedCall{
			{Function: "double", Args: []byte(`[2]`), Result: []byte(`4`)},
			{Function: "double", Args: []byte(`[3]`)},
		}},
		{Verdict: fitness.WrongAnswer, Calls: []fitness.RecordedCall{
			{Function: "Stack", Args: []byte(`[]`), Then: []byte(`[["push",[1],{}],["pop",[],{}]]`)},
		}},
	}}
	probes, origin := Inputs(s, orig, 100)
	var got []string
	for i, p := range probes {
		if !p.Probe || p.Kind != fitness.Call || p.Timeout != 3 {
			t.Errorf("probe %d: %+v", i, p)
		}
		got = append(got, fmt.Sprintf("%d %s%s %s", origin[i], p.Function, p.Args, p.Then))
	}
	want := []string{
		"0 double[1] ", "0 double[-3] ", "1 Stack[] [[\"pop\",[],{}]]",
		"0 double[0] ", "0 double[6] ", "1 Stack[] [[\"push\",[1],{}]]",
		"0 double[-2] ", "1 Stack[] [[\"push\",[2],{}],[\"pop\",[],{}]]",
		"0 double[4] ", "1 Stack[] [[\"push\",[0],{}],[\"pop\",[],{}]]",
		"1 Stack[] [[\"push\",[-1],{}],[\"pop\",[],{}]]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("probes (-want +got):\n%s", diff)
	}
}

func TestReportString(t *testing.T) {
	tests := []struct {
		r    *Report
		want string
	}{
		{nil, "not checked"},
		{&Report{}, "no generated inputs (the suite has no call or stdin cases the original passes)"},
		{&Report{Inputs: 40, Changed: 2, Example: "f(1): returned 1 before, returned 2 after"},
			"behaviour changed on 2 of 40 generated inputs; e.g. f(1): returned 1 before, returned 2 after"},
		{&Report{Inputs: 40, Changed: 3, Broken: 1}, "behaviour changed on 3 of 40 generated inputs (1 now fail where the original did not)"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// BenchmarkProbes: the probes of examples/middle's 200 cases.
func BenchmarkProbes(b *testing.B) {
	s, err := fitness.Load("../examples/middle/tests.json")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Probes(s, nil, 100)
	}
}
