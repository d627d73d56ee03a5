package fitness

import "testing"

// TestExecEvalDifference: ExecEval's output rules (execution_engine.py,
// validate_outputs), one row per rule.
func TestExecEvalDifference(t *testing.T) {
	for _, tc := range []struct {
		name, want, got string
		match           bool
	}{
		{"equal", "3\n", "3\n", true},
		{"outer whitespace", "  1 2\n\n", "1 2", true},
		{"line whitespace", "1 2 \n3", " 1 2\n3 ", true},
		{"inner spacing differs: tokens", "1  2", "1 2", true},
		{"lines differ, tokens equal", "1 2\n3", "1\n2 3", true},
		{"YES is yes", "YES", "yes", true},
		{"Yes is yes", "Yes\nNo", "yes\nno", true},
		{"true is TRUE", "true", "TRUE", true},
		{"other words keep case", "Hello", "hello", false},
		{"float within 1e-12", "0.1", "0.1000000000001", true},
		{"float off by more", "0.1", "0.100000000001", false},
		{"absolute, not relative", "1000000000000", "1000000000000.01", false},
		{"integer as float", "2", "2.0", true},
		{"exponent", "1e3", "1000", true},
		{"sign", "+5", "5", true},
		{"nan matches a number", "nan", "3", true},
		{"inf and inf", "inf", "inf", true},
		{"inf and a number", "inf", "3", false},
		{"number and word", "3", "three", false},
		{"token count", "1 2", "1 2 3", false},
		{"hex is a word", "0x10", "16", false},
		{"empty", "", "", true},
		{"empty and output", "", "1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ExecEvalDifference(tc.want, tc.got)
			if (d == "") != tc.match {
				t.Errorf("ExecEvalDifference(%q, %q) = %q, want match %v", tc.want, tc.got, d, tc.match)
			}
		})
	}
}
