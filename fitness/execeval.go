package fitness

import (
	"fmt"
	"math/big"
	"strings"
)

// execEvalPrecision is ExecEval's absolute tolerance for numeric tokens,
// compared at 129 bits (gmpy2.mpfr(1e-12, 129) in its execution_engine).
var execEvalPrecision = new(big.Float).SetPrec(129).SetFloat64(1e-12)

// execEvalWords compare case-insensitively in ExecEval.
var execEvalWords = map[string]bool{"yes": true, "no": true, "true": true, "false": true}

// ExecEvalDifference compares a program's output with an expected one by
// the rules of ExecEval's validate_outputs, so that verdicts of `repair
// serve` match ExecEval's: the outputs match when, both stripped, their
// lines are equal once stripped; else when their whitespace-separated
// tokens pair up, numbers (parsed at 129 bits) within 1e-12 of each other
// and other tokens equal, where yes/no/true/false ignore case. It returns
// "" when they match, else what differs.
func ExecEvalDifference(expected, actual string) string {
	el := strings.Split(strings.TrimSpace(expected), "\n")
	al := strings.Split(strings.TrimSpace(actual), "\n")
	if len(el) == len(al) {
		same := true
		for i := range el {
			if strings.TrimSpace(el[i]) != strings.TrimSpace(al[i]) {
				same = false
				break
			}
		}
		if same {
			return ""
		}
	}
	et, at := strings.Fields(expected), strings.Fields(actual)
	if len(et) != len(at) {
		return fmt.Sprintf("expected %d tokens, got %d", len(et), len(at))
	}
	for i := range et {
		if !execEvalToken(et[i], at[i]) {
			return fmt.Sprintf("token %d: expected %s, got %s", i+1, shortStr(et[i]), shortStr(at[i]))
		}
	}
	return ""
}

// execEvalToken compares two tokens as ExecEval does.
func execEvalToken(a, b string) bool {
	x, okA := execEvalNumber(a)
	y, okB := execEvalNumber(b)
	if okA && okB {
		switch {
		case x.b == nil || y.b == nil:
			// Python's abs(x - y) > precision is false when the
			// difference is NaN (a NaN, or inf - inf): they match.
			if x.nan || y.nan || (x.b == nil && y.b == nil) {
				return true
			}
			return false // an infinity and a finite number
		}
		d := new(big.Float).SetPrec(129).Sub(x.b, y.b)
		return d.Abs(d).Cmp(execEvalPrecision) <= 0
	}
	if execEvalWords[strings.ToLower(a)] {
		a = strings.ToLower(a)
	}
	if execEvalWords[strings.ToLower(b)] {
		b = strings.ToLower(b)
	}
	return a == b
}

// execEvalNum is a numeric token: b at 129 bits when finite, else NaN or
// an infinity.
type execEvalNum struct {
	nan bool
	b   *big.Float
}

// execEvalNumber parses a token as gmpy2.mpfr(token, 129) would: decimal
// numbers with an optional sign and exponent, inf and nan.
func execEvalNumber(s string) (execEvalNum, bool) {
	t := strings.TrimLeft(s, "+-")
	if t == "" || len(s)-len(t) > 1 || strings.HasPrefix(strings.ToLower(t), "0x") || strings.Contains(t, "_") {
		return execEvalNum{}, false
	}
	switch strings.ToLower(t) {
	case "nan":
		return execEvalNum{nan: true}, true
	case "inf", "infinity":
		return execEvalNum{}, true
	}
	b, _, err := big.ParseFloat(s, 10, 129, big.ToNearestEven)
	if err != nil {
		return execEvalNum{}, false
	}
	return execEvalNum{b: b}, true
}
