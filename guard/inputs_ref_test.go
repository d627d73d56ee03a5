package guard

// The reference: Inputs and Probes as they were before they were made
// cheap (commit 5df9c02, guard/inputs.go and guard/guard.go), kept
// verbatim but for the names (ref...) so that TestInputsMatchReference
// and FuzzInputs can prove the fast code's output identical. Not used
// outside the tests.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"repair/fitness"
)

// refInputs returns at most max probe cases (fitness.Case.Probe) made from the
// call and I/O cases of s by changing one argument, or one number of the
// standard input, to a neighbouring value; origin[i] is the index in
// s.Cases of the case probe i was made from. Inputs equal to a case of the
// suite are left out (the suite already judges them), and so are
// duplicates. When there are more than max, they are taken evenly from
// every case. Deterministic: the same suite gives the same probes.
//
// The cases of a test file (Kind Test) have no inputs of their own: orig,
// the original's outcome on s when its run recorded the calls the tests
// made into the target (sandbox.RunOptions.Record), gives them theirs
// (fitness.Result.Calls), and origin[i] is then the test whose call
// probe i was made from.
func refInputs(s *fitness.Suite, orig *fitness.Outcome, max int) (probes []fitness.Case, origin []int) {
	base, at := refBaseCases(s, orig)
	seen := map[string]bool{}
	for _, c := range base {
		seen[refCaseKey(&c)] = true
	}
	var per [][]fitness.Case
	var from []int
	canon := map[string][]byte{}
	for k := range base {
		if len(per) >= max {
			// The first round below takes the first probe of max cases:
			// the neighbours of later cases change nothing (they are
			// told apart only from earlier ones).
			break
		}
		c, i := &base[k], at[k]
		var vs []fitness.Case
		for _, v := range refNeighbours(c) {
			if k := refNeighbourKey(c, &v, canon); !seen[k] {
				seen[k] = true
				vs = append(vs, v)
			}
		}
		if len(vs) > 0 {
			per = append(per, vs)
			from = append(from, i)
		}
	}
	// Round robin over the cases: each gets its first neighbours before
	// any gets its later ones.
	for k := 0; len(probes) < max; k++ {
		added := false
		for j, vs := range per {
			if k < len(vs) && len(probes) < max {
				probes = append(probes, vs[k])
				origin = append(origin, from[j])
				added = true
			}
		}
		if !added {
			break
		}
	}
	for i := range probes {
		probes[i].Name = fmt.Sprintf("%s~%d", s.Cases[origin[i]].Name, i)
	}
	return probes, origin
}

// baseCases are the cases of s whose neighbours are probes, with the
// index of the case of s each stands for: s's own, and for its test cases
// the calls orig recorded of them, as call cases.
func refBaseCases(s *fitness.Suite, orig *fitness.Outcome) ([]fitness.Case, []int) {
	var base []fitness.Case
	var at []int
	for i, c := range s.Cases {
		if c.Kind != fitness.Test {
			base, at = append(base, c), append(at, i)
			continue
		}
		if orig == nil || i >= len(orig.Results) {
			continue
		}
		for _, rc := range orig.Results[i].Calls {
			base = append(base, fitness.Case{Name: c.Name, Kind: fitness.Call, Function: rc.Function,
				Args: rc.Args, Kwargs: rc.Kwargs, Then: rc.Then, Weight: 1, Timeout: c.Timeout, Tolerance: c.Tolerance})
			at = append(at, i)
		}
	}
	return base, at
}

func refCaseKey(c *fitness.Case) string {
	var b strings.Builder
	b.WriteString(c.Kind.String() + "\x00" + c.Function + "\x00")
	b.Write(refCanonJSON(c.Args))
	b.WriteString("\x00")
	b.Write(refCanonJSON(c.Kwargs))
	if c.Then != nil {
		b.WriteString("\x00")
		b.Write(refCanonJSON(c.Then))
	}
	if c.Stdin != nil {
		b.WriteString("\x00" + *c.Stdin)
	}
	return b.String()
}

// neighbourKey is refCaseKey(v) for v, a neighbour of c: what neighbours
// made (with encode) is canonical already, and what it copied from c is
// made canonical once (memo, by its text). Generating a suite's probes
// re-encoded every neighbour's arguments twice, most of the probes' cost
// (BenchmarkProbes).
func refNeighbourKey(c, v *fitness.Case, memo map[string][]byte) string {
	canon := func(raw json.RawMessage) []byte {
		if raw == nil {
			return nil
		}
		b, ok := memo[string(raw)]
		if !ok {
			b = refCanonJSON(raw)
			memo[string(raw)] = b
		}
		return b
	}
	part := func(raw, from json.RawMessage) []byte {
		if len(raw) > 0 && len(from) == len(raw) && &raw[0] == &from[0] {
			return canon(raw) // c's own
		}
		return raw // made by encode
	}
	var b strings.Builder
	b.WriteString(v.Kind.String() + "\x00" + v.Function + "\x00")
	b.Write(part(v.Args, c.Args))
	b.WriteString("\x00")
	b.Write(canon(v.Kwargs))
	if v.Then != nil {
		b.WriteString("\x00")
		b.Write(part(v.Then, c.Then))
	}
	if v.Stdin != nil {
		b.WriteString("\x00" + *v.Stdin)
	}
	return b.String()
}

// canonJSON re-encodes raw so that equal values have equal text.
func refCanonJSON(raw json.RawMessage) []byte {
	if raw == nil {
		return nil
	}
	var v any
	if err := refDecode(raw, &v); err != nil {
		return raw
	}
	return refEncode(v)
}

func refDecode(raw []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(v)
}

func refEncode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// neighbours are the probes of one case: no expectation, the case's
// function, timeout and memory.
func refNeighbours(c *fitness.Case) []fitness.Case {
	probe := func() fitness.Case {
		return fitness.Case{Kind: c.Kind, Function: c.Function, Kwargs: c.Kwargs, Then: c.Then, Weight: 1,
			Timeout: c.Timeout, Probe: true}
	}
	var out []fitness.Case
	switch c.Kind {
	case fitness.Call:
		var args []any
		if c.Args != nil {
			var v any
			if err := refDecode(c.Args, &v); err != nil {
				return nil
			}
			var ok bool
			if args, ok = v.([]any); !ok {
				return nil
			}
		}
		for i, a := range args {
			for _, n := range refPerturb(a, 0) {
				w := append([]any(nil), args...)
				w[i] = n
				p := probe()
				if p.Args = refEncode(w); p.Args != nil {
					out = append(out, p)
				}
			}
		}
		if c.Then != nil {
			for _, then := range refStepNeighbours(c.Then) {
				p := probe()
				p.Args, p.Then = c.Args, then
				out = append(out, p)
			}
		}
	case fitness.IO:
		if c.Stdin == nil {
			return nil
		}
		for _, in := range refStdinNeighbours(*c.Stdin) {
			p := probe()
			p.Stdin = &in
			out = append(out, p)
		}
	}
	return out
}

// perturb returns neighbouring values of a JSON value (decoded with
// UseNumber): numbers ±1, 0, negated and doubled; strings and lists
// reversed, shortened at either end, extended by their first element,
// sorted, and (lists) with one of their first elements perturbed; objects
// with the value of one of their first keys perturbed (a graph as a dict
// of lists loses or gains an edge). Keys and null are left alone: their
// meaning is the program's.
func refPerturb(v any, depth int) []any {
	var out []any
	switch x := v.(type) {
	case bool:
		out = append(out, !x)
	case json.Number:
		if i, ok := new(big.Int).SetString(string(x), 10); ok {
			one := big.NewInt(1)
			for _, n := range []*big.Int{new(big.Int).Add(i, one), new(big.Int).Sub(i, one), big.NewInt(0),
				new(big.Int).Neg(i), new(big.Int).Lsh(i, 1)} {
				out = append(out, json.Number(n.String()))
			}
		} else if f, err := strconv.ParseFloat(string(x), 64); err == nil && !math.IsInf(f, 0) {
			for _, g := range []float64{f + 0.5, f - 0.5, 0, -f, f * 2} {
				if !math.IsInf(g, 0) {
					out = append(out, json.Number(strconv.FormatFloat(g, 'g', -1, 64)+refFloatMark(g)))
				}
			}
		}
	case string:
		r := []rune(x)
		if len(r) > 0 {
			out = append(out, "", string(r[1:]), string(r[:len(r)-1]), x+string(r[:1]), refReverse(r))
			s := append([]rune(nil), r...)
			sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
			out = append(out, string(s))
		} else {
			out = append(out, "a")
		}
	case map[string]any:
		if depth < 1 {
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys[:min(3, len(keys))] {
				ps := refPerturb(x[k], depth+1)
				for _, p := range ps[:min(2, len(ps))] {
					w := make(map[string]any, len(x))
					for k2, v2 := range x {
						w[k2] = v2
					}
					w[k] = p
					out = append(out, w)
				}
			}
		}
	case []any:
		if len(x) > 0 {
			rev := make([]any, len(x))
			for i := range x {
				rev[len(x)-1-i] = x[i]
			}
			out = append(out, rev, x[1:], x[:len(x)-1], append(append([]any(nil), x...), x[0]))
			if s, ok := refSortedList(x); ok {
				out = append(out, s)
			}
			out = append(out, []any{})
			if depth < 1 {
				for i := 0; i < len(x) && i < 3; i++ {
					ps := refPerturb(x[i], depth+1)
					for _, p := range ps[:min(2, len(ps))] {
						w := append([]any(nil), x...)
						w[i] = p
						out = append(out, w)
					}
				}
			}
		}
	}
	// Leave out values equal to v.
	own := string(refEncode(v))
	kept := out[:0]
	for _, o := range out {
		if string(refEncode(o)) != own {
			kept = append(kept, o)
		}
	}
	return kept
}

// floatMark keeps a float a float in JSON: 2 would read back as an int.
func refFloatMark(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if strings.ContainsAny(s, ".eEn") {
		return ""
	}
	return ".0"
}

func refReverse(r []rune) string {
	s := make([]rune, len(r))
	for i := range r {
		s[len(r)-1-i] = r[i]
	}
	return string(s)
}

// sortedList sorts a list of numbers or of strings.
func refSortedList(x []any) ([]any, bool) {
	s := append([]any(nil), x...)
	nums := make([]float64, len(s))
	allNum, allStr := true, true
	for i, v := range s {
		switch y := v.(type) {
		case json.Number:
			f, err := y.Float64()
			if err != nil {
				return nil, false
			}
			nums[i] = f
			allStr = false
		case string:
			allNum = false
		default:
			return nil, false
		}
	}
	switch {
	case allNum:
		idx := make([]int, len(s))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return nums[idx[a]] < nums[idx[b]] })
		out := make([]any, len(s))
		for i, j := range idx {
			out[i] = s[j]
		}
		return out, true
	case allStr:
		sort.SliceStable(s, func(a, b int) bool { return s[a].(string) < s[b].(string) })
		return s, true
	}
	return nil, false
}

var refIntegerToken = regexp.MustCompile(`-?\b\d+\b`)

// stdinNeighbours changes one integer of an input to a neighbour (±1,
// doubled), for the first 8 integers of the input.
func refStdinNeighbours(in string) []string {
	var out []string
	locs := refIntegerToken.FindAllStringIndex(in, 8)
	for _, l := range locs {
		n, ok := new(big.Int).SetString(in[l[0]:l[1]], 10)
		if !ok {
			continue
		}
		for _, m := range []*big.Int{new(big.Int).Add(n, big.NewInt(1)), new(big.Int).Sub(n, big.NewInt(1)), new(big.Int).Lsh(n, 1)} {
			if m.Cmp(n) != 0 {
				out = append(out, in[:l[0]]+m.String()+in[l[1]:])
			}
		}
	}
	return out
}

// stepNeighbours are the neighbours of an object's life (fitness.Case.Then,
// [[name, args, kwargs], ...]): one method call left out, one call made
// alone on a fresh object (a query of an empty stack), or one argument of
// one call moved to a neighbouring value.
func refStepNeighbours(raw json.RawMessage) []json.RawMessage {
	var v any
	if refDecode(raw, &v) != nil {
		return nil
	}
	steps, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []json.RawMessage
	add := func(s []any) {
		if b := refEncode(s); b != nil {
			out = append(out, b)
		}
	}
	for j := range steps {
		add(append(append([]any(nil), steps[:j]...), steps[j+1:]...))
	}
	for j := range steps {
		if len(steps) > 2 {
			add([]any{steps[j]})
		}
	}
	for j, st := range steps {
		call, ok := st.([]any)
		if !ok || len(call) < 2 {
			continue
		}
		args, ok := call[1].([]any)
		if !ok {
			continue
		}
		for i, a := range args {
			for _, n := range refPerturb(a, 0) {
				w := append([]any(nil), args...)
				w[i] = n
				c := append([]any(nil), call...)
				c[1] = w
				s := append([]any(nil), steps...)
				s[j] = c
				add(s)
			}
		}
	}
	return out
}

// refProbes is Probes over refInputs.
func refProbes(s *fitness.Suite, orig *fitness.Outcome, max int) (*fitness.Suite, []int) {
	probes, origin := refInputs(s, orig, max)
	if len(probes) == 0 {
		return nil, nil
	}
	ps := *s
	ps.Cases = probes
	ps.TestSource, ps.TestModule, ps.Doctest = nil, "", false
	return &ps, origin
}

// BenchmarkProbesReference is BenchmarkProbes on the reference.
func BenchmarkProbesReference(b *testing.B) {
	s, err := fitness.Load("../examples/middle/tests.json")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		refProbes(s, nil, 100)
	}
}
