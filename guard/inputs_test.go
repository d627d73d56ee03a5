package guard

import (
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
		{"objects and null are left alone", []fitness.Case{{Kind: fitness.Call, Args: []byte(`[{"a": 1}, null]`)}}, 100, nil},
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
			probes, origin := Inputs(&fitness.Suite{Cases: tt.cases}, tt.max)
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
