package repair

import (
	"testing"

	"repair/program"
)

// A comparison's bound moved by its own value is no dead branch, whatever
// the tests enter; a comparison turned around or into another is.
func TestBoundary(t *testing.T) {
	p, err := program.Parse("age.py", []byte("def check(age):\n    if age >= 150:\n        raise ValueError(age)\n    return age\n"))
	if err != nil {
		t.Fatal(err)
	}
	op := -1
	for i := range p.Sites {
		if p.Sites[i].Kind == program.SiteCmpOp {
			op = i
		}
	}
	if op < 0 {
		t.Fatal("no comparison operator site")
	}
	for _, tt := range []struct {
		to   string
		want bool
	}{{">", true}, {"<", false}, {"<=", false}, {"==", false}, {"!=", false}} {
		if got := boundary(p, program.Edit{Op: program.ReplaceText, Site: op, Text: tt.to}); got != tt.want {
			t.Errorf(">= into %s: boundary = %v, want %v", tt.to, got, tt.want)
		}
	}
	if c := headerCond(p, op); c < 0 || p.SiteText(c) != "age >= 150" {
		t.Errorf("headerCond = %d, want the if's condition", c)
	}
}
