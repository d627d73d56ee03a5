package mutate

import (
	"math/rand/v2"
	"strings"
	"testing"

	"repair/program"
)

// No operator turns an operand of a boolean operation or a comparison
// into a copy of its sibling (tabulate's `headers == "keys" and not rows`
// into `not rows and not rows`) or extends a condition with one of its
// operands, while the other replacements of that operand stay.
func TestRedundantOperands(t *testing.T) {
	tests := []struct {
		name, src string
		never     []string // statements of line 2 no edit may give
		still     string   // one that must still be proposed
	}{
		{
			name: "and",
			src:  "def f(headers, rows):\n    if headers == 'keys' and not rows:\n        headers = []\n    if not rows:\n        return 1\n    return headers\n",
			never: []string{"if not rows and not rows:", "if headers == 'keys' and headers == 'keys':",
				"if headers == 'keys' and not rows and not rows:", "if not rows and headers == 'keys' and not rows:"},
			still: "if headers != 'keys' and not rows:",
		},
		{
			name:  "or with names",
			src:   "def f(a, b):\n    if a or b:\n        return 1\n    return 0\n",
			never: []string{"if a or a:", "if b or b:"},
			still: "if a or 0:",
		},
		{
			name:  "comparison",
			src:   "def f(x, y):\n    while x < y:\n        x += 1\n    return x\n",
			never: []string{"while x < x:", "while y < y:"},
			still: "while x < 1:",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("m.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			c := NewContext(p, nil)
			seen := map[string]bool{}
			for _, e := range Neighbourhood(c, Default(), rand.New(rand.NewPCG(1, 2)), 1<<20) {
				if e.Op != program.ReplaceText {
					continue // copies of statements are inserted as they come
				}
				// The statement of line 2, as the edit leaves it.
				if lines := strings.Split(string(p.Render(program.Patch{e})), "\n"); len(lines) > 1 {
					seen[strings.TrimSpace(lines[1])] = true
				}
			}
			for _, s := range tt.never {
				if seen[s] {
					t.Errorf("an edit gives %q", s)
				}
			}
			if !seen[tt.still] {
				t.Errorf("no edit gives %q", tt.still)
			}
		})
	}
}

// A module's dunder names are its metadata: no edit puts one where a
// variable was (tabulate's len(list_of_lists[0]) into len(__all__[0])),
// by ident or in a renamed copy, while other names still come in.
func TestNoDunderForName(t *testing.T) {
	src := "__all__ = ['width']\n__version__ = '1.0'\n\ndef width(rows, headers):\n    n = len(rows[0])\n    return n + len(headers)\n"
	p, err := program.Parse("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(p, nil)
	headers := 0
	for _, e := range Neighbourhood(c, Default(), rand.New(rand.NewPCG(1, 2)), 1<<20) {
		if (e.Text == "__all__" || e.Text == "__version__") && !(e.Op == program.ReplaceText && dunder(p.SiteText(e.Site))) {
			t.Errorf("%s", p.Describe(e))
		}
		if strings.Contains(string(p.Render(program.Patch{e})), "len(headers[0])") {
			headers++
		}
	}
	if headers == 0 {
		t.Errorf("no edit reads headers[0]")
	}
}

func TestSqueeze(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"not rows", "not rows"},
		{"a  and b", "a and b"},
		{" a and b ", "a and b"},
		{"(a and\n    b)", "(a and b)"},
		{"a and \\\n b", "a and b"},
		{"x\tor y", "x or y"},
		{"", ""},
	} {
		if got := squeeze(tt.in); got != tt.want {
			t.Errorf("squeeze(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
