package mutate

import (
	"testing"

	"repair/program"
)

// Which literals regex edits: a re call's pattern; in a module that
// imports re, a literal that reads as a pattern wherever it stands; in
// one that does not, none but the call's.
func TestRegexTargets(t *testing.T) {
	tests := []struct {
		name, src, lit string
		want           bool
	}{
		{"a re call's pattern", "import re\n\ndef f(s):\n    return re.match('a+', s)\n", "'a+'", true},
		{"a table's class", "import re\n\nF = {'%f': '[0-9]{6}'}\n", "'[0-9]{6}'", true},
		{"a raw pattern built up", "import re as _re\n\ndef f(p):\n    return _re.compile(p + r'\\d+')\n", `r'\d+'`, true},
		{"from re import", "from re import compile\n\nP = r'^%s$'\n", `r'^%s$'`, true},
		{"a field repeated", "import re\n\ndef f(s, fill):\n    return '%s*%s%s+' % (fill, s, fill)\n", "'%s*%s%s+'", true},
		{"a named field repeated", "import re\n\nP = '%(sep)s*'\n", "'%(sep)s*'", true},
		{"a question in prose", "import re\n\nMSG = 'is it %s?'\n", "'is it %s?'", false},
		{"fields and plurals", "import re\n\nMSG = '%d items: %s, s+'\n", "'%d items: %s, s+'", false},
		{"plain text", "import re\n\nMSG = 'no match: %s'\n", "'no match: %s'", false},
		{"a class, no re imported", "F = {'%f': '[0-9]{6}'}\n", "'[0-9]{6}'", false},
		{"a module named like re", "import regex_utils\n\nF = '[0-9]'\n", "'[0-9]'", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := program.Parse("m.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			c := NewContext(p, nil)
			found := false
			for id := range p.Sites {
				if p.Sites[id].Kind == program.SiteLiteral && p.SiteText(id) == tt.lit {
					found = true
					if got := c.regexSite(id); got != tt.want {
						t.Errorf("regexSite(%s) = %v, want %v", tt.lit, got, tt.want)
					}
				}
			}
			if !found {
				t.Fatalf("no literal site %s", tt.lit)
			}
		})
	}
}
