package program

import "testing"

// TestDescribeReplace: a whole function replaced by a donor's version of
// it says which lines change, not that `def f` became `def f`.
func TestDescribeReplace(t *testing.T) {
	target := "def count_vowels(s):\n    n = 0\n    for c in s:\n        if c in 'aeiu':\n            n += 1\n    return n\n\n\nx = 1\n"
	tests := []struct {
		name  string
		stmt  string // the first line of the target's statement replaced
		donor string
		want  string
	}{
		{"one line changed", "def count_vowels(s):", "def count_vowels(s):\n    n = 0\n    for c in s:\n        if c in 'aeiou':\n            n += 1\n    return n\n",
			"t.py line 1: replaced `def count_vowels(s):` with its version from subs/ana.py line 1, which changes 1 line `if c in 'aeiu':` into 1 line `if c in 'aeiou':`"},
		{"lines added", "def count_vowels(s):", "def count_vowels(s):\n    n = 0\n    for c in s:\n        c = c.lower()\n        if c in 'aeiu':\n            n += 1\n    return n\n",
			"t.py line 1: replaced `def count_vowels(s):` with its version from subs/ana.py line 1, which adds 1 line `c = c.lower()`"},
		{"a different body", "def count_vowels(s):", "def count_vowels(s):\n    return sum(c in 'aeiou' for c in s)\n",
			"t.py line 1: replaced `def count_vowels(s):` with its version from subs/ana.py line 1, which changes 5 lines `n = 0` ... into 1 line `return sum(c in 'aeiou' for c in s)`"},
		{"another statement", "x = 1", "y = 2\n", "t.py line 9: replaced `x = 1` with `y = 2` (from subs/ana.py line 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseWithDonors("t.py", []byte(target), []string{"subs/ana.py"}, [][]byte{[]byte(tt.donor)})
			if err != nil {
				t.Fatal(err)
			}
			dl := p.DonorLine()
			stmt, donor := -1, -1
			for i, s := range p.Stmts {
				switch {
				case s.Line < dl && s.Parent < 0 && p.FirstLine(i) == tt.stmt:
					stmt = i
				case s.Line >= dl && s.Parent < 0 && donor < 0:
					donor = i
				}
			}
			if stmt < 0 || donor < 0 {
				t.Fatalf("statements not found: %d %d", stmt, donor)
			}
			if got := p.Describe(Edit{Op: Replace, Stmt: stmt, Donor: donor}); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
