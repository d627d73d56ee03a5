package reduce

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/program"
)

func edits(n int) program.Patch {
	var p program.Patch
	for i := 0; i < n; i++ {
		p = append(p, program.Edit{Op: program.Delete, Stmt: i})
	}
	return p
}

func ids(p program.Patch) []int {
	out := []int{}
	for _, e := range p {
		out = append(out, e.Stmt)
	}
	return out
}

// needs returns a test that passes when the subset holds every edit of
// need (and, if forbid >= 0, not that edit).
func needs(forbid int, need ...int) Test {
	return func(_ context.Context, p program.Patch) (bool, error) {
		have := map[int]bool{}
		for _, e := range p {
			have[e.Stmt] = true
		}
		if forbid >= 0 && have[forbid] {
			return false, nil
		}
		for _, n := range need {
			if !have[n] {
				return false, nil
			}
		}
		return true, nil
	}
}

func TestMinimize(t *testing.T) {
	tests := []struct {
		name string
		n    int
		test Test
		want []int
	}{
		{"one needed of eight", 8, needs(-1, 5), []int{5}},
		{"two needed far apart", 8, needs(-1, 0, 7), []int{0, 7}},
		{"three needed", 10, needs(-1, 2, 3, 9), []int{2, 3, 9}},
		{"all needed", 4, needs(-1, 0, 1, 2, 3), []int{0, 1, 2, 3}},
		{"none needed", 3, needs(-1), []int{}},
		{"single needed", 1, needs(-1, 0), []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Minimize(context.Background(), edits(tt.n), tt.test)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMinimizeRandom: on random monotone and non-monotone predicates the
// result passes, is a subset in order, and is 1-minimal.
func TestMinimizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(12)
		var need []int
		for j := 0; j < n; j++ {
			if rng.IntN(3) == 0 {
				need = append(need, j)
			}
		}
		forbid := -1
		if rng.IntN(2) == 0 && len(need) < n {
			forbid = n // never present: keeps the predicate true on the input
		}
		test := needs(forbid, need...)
		in := edits(n)
		got, err := Minimize(context.Background(), in, test)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := test(context.Background(), got); !ok {
			t.Fatalf("result %v does not pass", ids(got))
		}
		last := -1
		for _, e := range got {
			if e.Stmt <= last {
				t.Fatalf("result %v is not an ordered subset", ids(got))
			}
			last = e.Stmt
		}
		for k := range got {
			sub := append(append(program.Patch{}, got[:k]...), got[k+1:]...)
			if ok, _ := test(context.Background(), sub); ok {
				t.Fatalf("result %v is not 1-minimal: dropping %d still passes", ids(got), got[k].Stmt)
			}
		}
	}
}

func TestMinimizeError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Minimize(context.Background(), edits(4), func(context.Context, program.Patch) (bool, error) { return false, boom })
	if !errors.Is(err, boom) {
		t.Errorf("error = %v, want boom", err)
	}
}
