package localize

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/program"
)

// TestReach: a case reaches the statements Executed says its lines
// execute, for suites of one word of cases and of several, paths shared
// by many cases or each its own.
func TestReach(t *testing.T) {
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	paths := [][]int{{2, 3, 5, 6}, {2, 3, 4}, {2, 8, 9}, {1}, {}, {2, 3, 5, 6, 12}}
	tests := []struct {
		name  string
		cases int
		path  func(c int) []int
	}{
		{"one path", 5, func(int) []int { return paths[0] }},
		{"few paths, one word", 40, func(c int) []int { return paths[c%len(paths)] }},
		{"few paths, three words", 150, func(c int) []int { return paths[(c*7)%len(paths)] }},
		{"each case its own lines", 70, func(c int) []int { return append([]int{}, paths[c%len(paths)]...) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &fitness.Outcome{}
			for c := range tt.cases {
				o.Results = append(o.Results, result(fitness.Passed, tt.path(c)...))
			}
			r := NewReach(p, o)
			if r.Cases() != tt.cases {
				t.Fatalf("Cases() = %d, want %d", r.Cases(), tt.cases)
			}
			for s := range p.Stmts {
				got := make([]bool, tt.cases)
				r.Union([]int{s}, got)
				for c := range tt.cases {
					want := Executed(p, tt.path(c))[s] || NoCode(&p.Stmts[s]) && reachedOwner(p, s, tt.path(c))
					if got[c] != want {
						t.Errorf("statement %d (%s), case %d: reached %v, want %v", s, p.FirstLine(s), c, got[c], want)
					}
				}
			}
		})
	}
}

// reachedOwner reports whether lines reach the owner of the block of a
// statement without code (every case reaches module level).
func reachedOwner(p *program.Program, s int, lines []int) bool {
	owner := p.Blocks[p.Stmts[s].Block].Owner
	return owner < 0 || Executed(p, lines)[owner]
}

// TestExecutedAny: a statement any case executed is Executed of the
// cases' lines together.
func TestExecutedAny(t *testing.T) {
	p, err := program.Parse("middle.py", []byte(middle))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		cases [][]int
	}{
		{"no case", nil},
		{"one case", [][]int{{2, 3, 5, 6}}},
		{"two paths", [][]int{{2, 3, 4}, {2, 8, 9}}},
		{"repeated paths and lines out of range", [][]int{{2, 3, 4}, {-1, 400}, {2, 3, 4}, {12}, {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &fitness.Outcome{}
			var all []int
			for _, lines := range tt.cases {
				o.Results = append(o.Results, result(fitness.Passed, lines...))
				all = append(all, lines...)
			}
			if diff := cmp.Diff(Executed(p, all), ExecutedAny(p, o)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
