package mutate

import "testing"

// TestCallWith: an argument added keeps the call's own text, commas in
// its strings too, and a comparison is no keyword argument.
func TestCallWith(t *testing.T) {
	tests := []struct {
		call, arg string
		keyword   bool
		want      string
	}{
		{`f()`, "x", false, `f(x)`},
		{`f(a,)`, "x", false, `f(a, x)`},
		{`fmt(",".join(xs), width=2)`, "sign=True", true, `fmt(",".join(xs), width=2, sign=True)`},
		{`fmt(",".join(xs), width=2)`, "w", false, ``}, // would rewrite a string's commas
		{`pad(w, n, fill=".")`, "x", false, ``},
		{`pad(w, n, fill=f)`, "x", false, `pad(w, n, x, fill=f)`},
		{`check(a == b)`, "strict=True", true, `check(a == b, strict=True)`},
	}
	for _, tt := range tests {
		cl, ok := parseCall(tt.call)
		if !ok {
			t.Fatalf("%s: not a call", tt.call)
		}
		if got := cl.with(tt.arg, tt.keyword); got != tt.want {
			t.Errorf("%s with %s: got %q, want %q", tt.call, tt.arg, got, tt.want)
		}
	}
	cl, _ := parseCall(`check(a == b, k=1)`)
	if cl.pos != 1 || len(cl.keywords) != 1 || cl.keywords[0] != "k" {
		t.Errorf("check(a == b, k=1): %d positional, keywords %v", cl.pos, cl.keywords)
	}
}
