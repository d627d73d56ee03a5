package sandbox

import (
	"context"
	"slices"
	"testing"

	"repair/fitness"
)

// fakePart is an engine for one file of n cases: every case passes, but
// for a source "bad" (a compile error); it records the options it ran.
type fakePart struct {
	n    int
	runs []RunOptions
}

func (f *fakePart) Name() string { return "fake" }
func (f *fakePart) Close() error { return nil }
func (f *fakePart) Run(_ context.Context, src []byte, o RunOptions) (*fitness.Outcome, error) {
	f.runs = append(f.runs, o)
	out := &fitness.Outcome{Results: make([]fitness.Result, f.n)}
	if string(src) == "bad" {
		out.CompileError = "SyntaxError"
		for i := range out.Results {
			out.Results[i].Verdict = fitness.CompilationError
		}
		return out, nil
	}
	for i := range out.Results {
		out.Results[i] = fitness.Result{Verdict: fitness.Passed, Detail: "ran"}
	}
	return out, nil
}

func TestMulti(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		opts    RunOptions
		ran     []int  // runs of each part
		skipped []bool // nil: none
		compile bool
	}{
		{name: "every file", src: "ok", ran: []int{1, 1, 1}},
		{name: "a selection in the second file only", src: "ok",
			opts: RunOptions{Select: []bool{false, false, true, false, false, false}},
			ran:  []int{0, 1, 0}, skipped: []bool{true, true, false, true, true, true}},
		{name: "a range across two files", src: "ok", opts: RunOptions{Cases: CaseRange{First: 1, End: 3}}, ran: []int{1, 1, 0}},
		{name: "a compile error", src: "bad", ran: []int{1, 0, 0}, compile: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parts := []*fakePart{{n: 2}, {n: 1}, {n: 3}}
			m := NewMulti([]Engine{parts[0], parts[1], parts[2]}, []int{2, 1, 3})
			o, err := m.Run(context.Background(), []byte(c.src), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(o.Results) != 6 {
				t.Fatalf("%d results, want 6", len(o.Results))
			}
			for k, p := range parts {
				if len(p.runs) != c.ran[k] {
					t.Errorf("part %d ran %d times, want %d", k, len(p.runs), c.ran[k])
				}
			}
			if !slices.Equal(o.Skipped, c.skipped) {
				t.Errorf("Skipped = %v, want %v", o.Skipped, c.skipped)
			}
			if (o.CompileError != "") != c.compile {
				t.Errorf("CompileError = %q", o.CompileError)
			}
			if c.opts.Select != nil {
				// The part that ran got its own slice of the selection.
				if got := parts[1].runs[0].Select; !slices.Equal(got, []bool{true}) {
					t.Errorf("part 1's selection = %v", got)
				}
				if o.Results[2].Detail != "ran" {
					t.Errorf("case 2 = %+v, want the part's result", o.Results[2])
				}
			}
			if c.opts.Cases.End > 0 {
				if r := parts[0].runs[0].Cases; r != (CaseRange{First: 1, End: 2}) {
					t.Errorf("part 0's range = %+v", r)
				}
				if r := parts[1].runs[0].Cases; r != (CaseRange{First: 0, End: 1}) {
					t.Errorf("part 1's range = %+v", r)
				}
			}
		})
	}
}
