package program

import "testing"

// TestAnnotatedNames: an annotated assignment's name (x: T = v) may not
// be declared global or nonlocal in its scope. The program knows the
// scopes' declarations and its annotated names, and refuses a copy of
// such an assignment (or of a block holding one) into a scope that
// declares the name; elsewhere it goes.
func TestAnnotatedNames(t *testing.T) {
	src := `G = 0


def f():
    global G
    x = 1
    return x


def g():
    if x:
        G: int = 2
    y: int = G
    return y


def h():
    z = 0

    def inner():
        nonlocal z
        z = 1
    return z
`
	p := mustParse(t, src)
	stmt := func(first string) int { return stmtAt(t, p, first) }
	scopeOf := func(first string) int { return p.Stmts[stmt(first)].Scope }
	for _, tt := range []struct {
		scope, name string
		want        bool
	}{
		{"x = 1", "G", true},
		{"x = 1", "x", false},
		{"G: int = 2", "G", false},
		{"G = 0", "G", false},
		{"z = 1", "z", true},
		{"z = 0", "z", false},
	} {
		if got := p.Declared(scopeOf(tt.scope), tt.name); got != tt.want {
			t.Errorf("Declared(scope of %q, %s) = %v; want %v", tt.scope, tt.name, got, tt.want)
		}
	}
	annotated := map[string]bool{}
	for i, s := range p.Sites {
		if s.Annotated {
			annotated[p.SiteText(i)] = true
			if !s.Store {
				t.Errorf("annotated %s is not a store", p.SiteText(i))
			}
		}
	}
	if len(annotated) != 2 || !annotated["G"] || !annotated["y"] {
		t.Errorf("annotated names %v; want G and y", annotated)
	}
	for _, tt := range []struct {
		donor, target string
		want          bool
	}{
		{"G: int = 2", "x = 1", false},   // f declares G global
		{"if x:", "x = 1", false},        // the block holds G: int = 2
		{"y: int = G", "x = 1", true},    // y is not declared in f
		{"G: int = 2", "return y", true}, // g declares nothing
		{"x = 1", "y: int = G", true},
	} {
		if got := p.CanPlace(stmt(tt.donor), stmt(tt.target)); got != tt.want {
			t.Errorf("CanPlace(%q, %q) = %v; want %v", tt.donor, tt.target, got, tt.want)
		}
	}
}
