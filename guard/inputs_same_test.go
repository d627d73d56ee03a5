package guard

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"repair/fitness"
)

// The fast Inputs must give what the reference (inputs_ref_test.go) gave:
// the same probes in the same order, with the same names and bytes, and
// the same origins.

// maxes are the budgets each suite is tried with.
var maxes = []int{-1, 0, 1, 2, 3, 7, 20, DefaultInputs, 1 << 20}

// sameInputs fails t unless Inputs and Probes give what the reference
// gives on s (orig) for every budget of maxes.
func sameInputs(t testing.TB, name string, s *fitness.Suite, orig *fitness.Outcome) {
	t.Helper()
	if len(name) > 100 {
		name = name[:100] + "..."
	}
	for _, max := range maxes {
		want, wantOrigin := refInputs(s, orig, max)
		got, gotOrigin := Inputs(s, orig, max)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotOrigin, wantOrigin) {
			t.Fatalf("%s, max %d: Inputs differs from the reference:\n%s", name, max, diffProbes(want, got, wantOrigin, gotOrigin))
		}
	}
	wantSuite, wantO := refProbes(s, orig, DefaultInputs)
	gotSuite, gotO := Probes(s, orig, DefaultInputs)
	if !reflect.DeepEqual(gotSuite, wantSuite) || !reflect.DeepEqual(gotO, wantO) {
		t.Fatalf("%s: Probes differs from the reference", name)
	}
}

func diffProbes(want, got []fitness.Case, wantOrigin, gotOrigin []int) string {
	show := func(c fitness.Case) string {
		stdin := "<nil>"
		if c.Stdin != nil {
			stdin = fmt.Sprintf("%q", *c.Stdin)
		}
		return fmt.Sprintf("%+v args=%q kwargs=%q then=%q stdin=%s", c, c.Args, c.Kwargs, c.Then, stdin)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d probes, want %d; origins %v, want %v\n", len(got), len(want), gotOrigin, wantOrigin)
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = show(want[i])
		}
		if i < len(got) {
			g = show(got[i])
		}
		if w != g || !reflect.DeepEqual(want[i], got[i]) {
			fmt.Fprintf(&b, "probe %d:\n  want %s\n  got  %s\n", i, w, g)
			break
		}
	}
	return b.String()
}

// suiteFiles are the suites of the examples and of the shared benchmark.
func suiteFiles(t *testing.T) []string {
	var paths []string
	for _, dir := range []string{"../examples", "../../shared/bench", "../../../shared/bench"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			n := d.Name()
			if n == "tests.json" || strings.HasSuffix(n, ".jsonl") || strings.HasPrefix(n, "test_") && strings.HasSuffix(n, ".py") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	return paths
}

// TestInputsMatchReference: on every suite of the examples and the
// shared benchmark, and on random suites, Inputs is the reference's.
func TestInputsMatchReference(t *testing.T) {
	paths := suiteFiles(t)
	loaded, bench := 0, 0
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range paths {
		s, err := fitness.Load(p)
		if err != nil {
			continue
		}
		loaded++
		if strings.Contains(p, "shared") {
			bench++
		}
		sameInputs(t, p, s, nil)
		// A test file's inputs are the calls its tests recorded: give its
		// tests random ones, and the other suites' cases some too.
		orig := &fitness.Outcome{}
		for range s.Cases {
			var calls []fitness.RecordedCall
			for range rng.IntN(4) {
				calls = append(calls, randomCall(rng))
			}
			orig.Results = append(orig.Results, fitness.Result{Calls: calls})
		}
		sameInputs(t, p+" (recorded calls)", s, orig)
	}
	t.Logf("%d suite files, %d loaded (%d of the shared benchmark)", len(paths), loaded, bench)
	if loaded < 40 {
		t.Errorf("only %d suites loaded", loaded)
	}
	n := 400
	if testing.Short() {
		n = 50
	}
	for i := range n {
		s, orig := randomSuite(rng)
		sameInputs(t, fmt.Sprintf("random suite %d", i), s, orig)
	}
}

// TestInputsMatchReferenceEdges: values at the edges of what the parser,
// the number arithmetic and the string escapes handle.
func TestInputsMatchReferenceEdges(t *testing.T) {
	args := []string{
		`[0]`, `[-0]`, `[1]`, `[-1]`, `[999999999999999999]`, `[-999999999999999999]`, `[1000000000000000000]`,
		`[9223372036854775807]`, `[-9223372036854775808]`, `[4611686018427387904]`, `[123456789012345678901234567890]`,
		`[0.0]`, `[-0.0]`, `[1.5]`, `[1e5]`, `[1E+5]`, `[1e-7]`, `[-2.5E-3]`, `[1e308]`, `[-1.7976931348623157e308]`, `[1e400]`,
		`[5e-324]`, `[0.1]`, `[100.0]`, `[1e21]`, `[1e20]`, `[12.0e0]`,
		`[""]`, `["a"]`, `["ab"]`, `["ba"]`, `["a\"b"]`, `["\\"]`, `["\/"]`, `["\n\t\r\b\f"]`, `["\u0001\u001f"]`, `["\u007f"]`,
		`["é"]`, `["\u00e9"]`, `["😀x"]`, `["\ud83d\ude00"]`, `["\ud800"]`, `["\udc00\ud800"]`, "[\"\u2028\u2029\"]", `["\u2028"]`,
		"[\"\xff\xfe\"]", "[\"a\xc3\"]", `["<>&"]`, `["\u003c"]`, "[\"\x7f\"]", `["zyx", "abc"]`, `["b", "a", "b"]`,
		`[[]]`, `[[1]]`, `[[1, 1]]`, `[[2, 1]]`, `[[1, "a"]]`, `[["b", "a"]]`, `[[1.5, 1, -0.0, 0]]`, `[[1e400, 1]]`, `[[true, false]]`,
		`[[null]]`, `[[[1, 2], [3]]]`, `[[{"a": 1}]]`, `[{}]`, `[{"a": 1}]`, `[{"b": 1, "a": 2}]`, `[{"a": 1, "a": 2}]`,
		`[{"a": [1, 2], "b": {"c": 3}, "c": "x", "d": null}]`, `[{"\u00e9": 1, "e": 2, "\n": [3]}]`, `[{"a": {"b": 1}}]`,
		`[true]`, `[false]`, `[null]`, `[]`, ` [ 1 , 2 ] `, "\t[1]\n", `[1] `, `[1] x`, `[1][2]`, `[1,]`, `[01]`, `01`, `[1.]`,
		`[.5]`, `[+1]`, `[1e]`, `[-]`, `["\x"]`, `["\u12"]`, `[tru]`, `[nul]`, `{"a": 1}`, `5`, `"s"`, `null`, ``, ` `, `[`,
		`[{"a" 1}]`, `[{1: 2}]`, `[{"a":}]`, `[{"a": 1 "b": 2}]`, `[{"a": 1,}]`, `[{"a": 1`, `[{"a"`, `[{`, `[{"a`, `["abc`, `["ab\`, `[[1, 2`,
		`["a\u0000b"]`, "[\"a\x01b\"]", `[[1,2,3,4,5],[1,2,3],[]]`, `[{"k":[1,2]},{"k":[1,2]}]`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), "[" + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + ",1]",
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "[" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + ",1]",
	}
	var cases []fitness.Case
	for i, a := range args {
		cases = append(cases, fitness.Case{Name: fmt.Sprintf("c%d", i), Kind: fitness.Call, Function: "f", Args: []byte(a), Timeout: 1})
		s := &fitness.Suite{Cases: []fitness.Case{cases[i]}}
		sameInputs(t, a, s, nil)
		// As an argument of a method of an object's life.
		then := `[["m", ` + a + `, {}], ["n", [], {}]]`
		s = &fitness.Suite{Cases: []fitness.Case{{Name: "o", Kind: fitness.Call, Function: "C", Args: []byte(`[]`), Then: []byte(then)}}}
		sameInputs(t, "then "+then, s, nil)
		s = &fitness.Suite{Cases: []fitness.Case{{Name: "k", Kind: fitness.Call, Function: "f", Args: []byte(`[1]`), Kwargs: []byte(a)}}}
		sameInputs(t, "kwargs "+a, s, nil)
	}
	sameInputs(t, "all", &fitness.Suite{Cases: cases}, nil)
	thens := []string{`[]`, `[["a", [1], {}]]`, `[["a", [1]], ["b", [2]], ["c"]]`, `[["a", [1], {}], ["a", [1], {}], ["a", [1], {}]]`,
		`[5, "x", ["a", 1], ["b", [true, "s"]]]`, `{"a": 1}`, `[["a", [1]]] x`, `x`, ``, `null`}
	for _, then := range thens {
		for _, a := range []string{`[]`, `[1]`, `bad`, `{}`, ``} {
			c := fitness.Case{Name: "o", Kind: fitness.Call, Function: "C", Args: []byte(a), Then: []byte(then)}
			if a == `` {
				c.Args = nil
			}
			sameInputs(t, "then "+then+" args "+a, &fitness.Suite{Cases: []fitness.Case{c}}, nil)
		}
	}
	stdins := []string{"", "1", "-1", "--1", "x-1", "-1x", "a1", "1a", "_1", "1_", "1-2", "1.5", "12 34 56 78 90 11 12 13 14 15",
		"-0", "0", "99999999999999999999999", "-99999999999999999999999", "999999999999999999", "1000000000000000000",
		"é1é", "1\n2\n", "a b c", "٣ 3", "\xff1\xff", "+5", "5+5", "- 5", "1e5", "0x1F", "00012"}
	for _, in := range stdins {
		c := fitness.Case{Name: "io", Kind: fitness.IO, Stdin: &in, Timeout: 2}
		sameInputs(t, fmt.Sprintf("stdin %q", in), &fitness.Suite{Cases: []fitness.Case{c}}, nil)
	}
}

// TestIntegerTokens: integerTokens finds what the reference's regular
// expression finds.
func TestIntegerTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"0", "1", "9", "-", "a", "Z", "_", " ", "\n", ".", "+", "é", "\xff", "٣"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkIntegerTokens(t, b.String())
	}
}

func checkIntegerTokens(t testing.TB, in string) {
	want := refIntegerToken.FindAllStringIndex(in, 8)
	var locs [8][2]int
	got := integerTokens(in, locs[:0])
	if len(got) != len(want) {
		t.Fatalf("%q: %v, want %v", in, got, want)
	}
	for i := range got {
		if got[i][0] != want[i][0] || got[i][1] != want[i][1] {
			t.Fatalf("%q: %v, want %v", in, got, want)
		}
	}
}

func FuzzIntegerTokens(f *testing.F) {
	for _, s := range []string{"1 -2 x3 4y _5 6_ 7-8", "--1", "é1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) { checkIntegerTokens(t, in) })
}

// FuzzInputs: for any arguments, keyword arguments, object's life and
// input, Inputs is the reference's.
func FuzzInputs(f *testing.F) {
	f.Add(`[1, "ab", [2, 1], {"a": 1.5}]`, `{"k": [1]}`, `[["push", [1], {}], ["pop", [], {}]]`, "3 4\n-5", 100)
	f.Add(`[9, 0, 5]`, ``, ``, ``, 3)
	f.Add(`["\u00e9\n", null, true]`, `null`, `[["a", [[1, 2]]]]`, "x1 2y", 1)
	f.Add(`[1] x`, `{"a": 1, "a": 2}`, `bad`, "99999999999999999999", 7)
	f.Fuzz(func(t *testing.T, args, kwargs, then, stdin string, max int) {
		raw := func(s string) json.RawMessage {
			if s == "" {
				return nil
			}
			return json.RawMessage(s)
		}
		s := &fitness.Suite{Cases: []fitness.Case{
			{Name: "a", Kind: fitness.Call, Function: "f", Args: raw(args), Timeout: 1},
			{Name: "b", Kind: fitness.Call, Function: "f", Args: raw(args), Kwargs: raw(kwargs), Timeout: 1},
			{Name: "c", Kind: fitness.Call, Function: "C", Args: raw(args), Then: raw(then), Timeout: 1},
			{Name: "d", Kind: fitness.IO, Stdin: &stdin, Kwargs: raw(kwargs), Timeout: 1},
			{Name: "e", Kind: fitness.Call, Function: "f", Args: raw(`[` + args + `]`), Timeout: 1},
		}}
		max = max%200 + 1
		want, wantOrigin := refInputs(s, nil, max)
		got, gotOrigin := Inputs(s, nil, max)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotOrigin, wantOrigin) {
			t.Fatalf("max %d: Inputs differs from the reference:\n%s", max, diffProbes(want, got, wantOrigin, gotOrigin))
		}
	})
}

// TestAppendString: a string's JSON text is encoding/json's.
func TestAppendString(t *testing.T) {
	var all []string
	for b := range 256 {
		all = append(all, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	for _, r := range []rune{0x7f, 0x80, 0xe9, 0x2028, 0x2029, 0xfffd, 0x1f600, 0x10ffff} {
		all = append(all, string(r), "x"+string(r))
	}
	all = append(all, "", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\xc3")
	for _, s := range all {
		if got, want := string(appendString(nil, s)), string(refEncode(s)); got != want {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
}

// randomSuite is a suite of random call, I/O and test cases, with the
// calls its test cases recorded.
func randomSuite(rng *rand.Rand) (*fitness.Suite, *fitness.Outcome) {
	s := &fitness.Suite{}
	orig := &fitness.Outcome{}
	n := 1 + rng.IntN(40)
	small := rng.IntN(2) == 0
	var prev []fitness.Case
	for i := range n {
		c := fitness.Case{Name: fmt.Sprintf("case %d", i), Timeout: float64(1 + rng.IntN(3)), Weight: 1}
		var calls []fitness.RecordedCall
		switch k := rng.IntN(10); {
		case k < 1 && len(prev) > 0:
			// The same input again, written otherwise.
			c = prev[rng.IntN(len(prev))]
			c.Name = fmt.Sprintf("again %d", i)
			if c.Args != nil && rng.IntN(2) == 0 {
				var v any
				if refDecode(c.Args, &v) == nil {
					b, _ := json.MarshalIndent(v, "", " ")
					c.Args = b
				}
			}
		case k < 4 && small:
			// Small values, often one another's neighbours.
			c.Kind, c.Function = fitness.Call, []string{"f", "g"}[rng.IntN(2)]
			c.Args = pick(rng, `[1]`, `[2]`, `[0]`, `[3]`, `[1, 2]`, `[2, 2]`, `["a"]`, `[""]`, `["ab"]`, `[[1, 2]]`, `[[2, 1]]`, `[[1]]`, `[1.5]`, `[2.0]`, `[true]`, `[]`)
			c.Kwargs = pick(rng, ``, ``, `{"k": 1}`, `{"k":1}`)
			c.Then = pick(rng, ``, ``, ``, `[["a", [1]]]`, `[["a", [2]], ["b", []]]`, `[["b", []]]`, `null`)
		case k < 6 && small:
			c.Kind, c.Function = fitness.IO, pick1(rng, "", "", "f")
			in := pick1(rng, "1", "2", "0", "1 2", "2 2", "-1", "x", "4")
			c.Stdin = &in
			c.Kwargs = pick(rng, ``, ``, `{"k": 1}`)
			c.Then = pick(rng, ``, ``, `[["a", [1]]]`, `[]`)
			c.Args = pick(rng, ``, ``, ``, `[1]`)
		case k < 6:
			c.Kind, c.Function = fitness.Call, []string{"f", "g", "C"}[rng.IntN(3)]
			c.Args = randomArgs(rng)
			if rng.IntN(4) == 0 {
				c.Kwargs = []byte(randomJSON(rng, 1, true))
			}
			if rng.IntN(4) == 0 {
				c.Then = randomThen(rng)
			}
			if rng.IntN(10) == 0 {
				c.Stdin = new(string)
			}
		case k < 8:
			c.Kind = fitness.IO
			if rng.IntN(10) > 0 {
				in := randomStdin(rng)
				c.Stdin = &in
			}
			if rng.IntN(8) == 0 {
				c.Args = randomArgs(rng)
			}
			if rng.IntN(8) == 0 {
				c.Then = randomThen(rng)
			}
		default:
			c.Kind, c.Function = fitness.Test, fmt.Sprintf("test_%d", i)
			s.TestSource = []byte("def test(): pass\n")
			for range rng.IntN(4) {
				calls = append(calls, randomCall(rng))
			}
		}
		s.Cases = append(s.Cases, c)
		orig.Results = append(orig.Results, fitness.Result{Calls: calls})
		prev = append(prev, c)
	}
	if rng.IntN(5) == 0 {
		orig = nil
	} else if rng.IntN(5) == 0 {
		orig.Results = orig.Results[:rng.IntN(len(orig.Results)+1)]
	}
	return s, orig
}

// pick is one of vs as JSON, nil for "".
func pick(rng *rand.Rand, vs ...string) json.RawMessage {
	if v := vs[rng.IntN(len(vs))]; v != "" {
		return json.RawMessage(v)
	}
	return nil
}

func pick1(rng *rand.Rand, vs ...string) string { return vs[rng.IntN(len(vs))] }

func randomCall(rng *rand.Rand) fitness.RecordedCall {
	rc := fitness.RecordedCall{Function: []string{"f", "C", "C.m"}[rng.IntN(3)], Args: randomArgs(rng)}
	if rng.IntN(3) == 0 {
		rc.Kwargs = []byte(randomJSON(rng, 1, true))
	}
	if rng.IntN(2) == 0 {
		rc.Then = randomThen(rng)
	}
	return rc
}

// randomArgs is a JSON list of arguments, now and then something else.
func randomArgs(rng *rand.Rand) json.RawMessage {
	switch rng.IntN(30) {
	case 0:
		return nil
	case 1:
		return []byte(randomJSON(rng, 0, false))
	case 2:
		return []byte(randomJSON(rng, 1, false) + []string{" x", ",", " [1]", "]", ""}[rng.IntN(5)])
	case 3:
		return []byte{}
	}
	var parts []string
	for range rng.IntN(5) {
		parts = append(parts, randomJSON(rng, 0, false))
	}
	return []byte(space(rng) + "[" + strings.Join(parts, ","+space(rng)) + "]" + space(rng))
}

// randomThen is an object's life: [[name, args, kwargs], ...], now and
// then malformed.
func randomThen(rng *rand.Rand) json.RawMessage {
	var steps []string
	for range rng.IntN(5) {
		switch rng.IntN(12) {
		case 0:
			steps = append(steps, randomJSON(rng, 1, false))
		case 1:
			steps = append(steps, `["m"]`)
		default:
			// Mostly valid arguments: bad ones make the whole life bad.
			args := randomArgs(rng)
			for rng.IntN(4) > 0 && (args == nil || !json.Valid(args)) {
				args = randomArgs(rng)
			}
			st := `["` + []string{"push", "pop", "add", "first"}[rng.IntN(4)] + `", ` + string(args)
			if rng.IntN(3) > 0 {
				st += ", " + randomJSON(rng, 1, true)
			}
			steps = append(steps, st+"]")
		}
	}
	then := "[" + strings.Join(steps, ", ") + "]"
	switch rng.IntN(20) {
	case 0:
		then += " x"
	case 1:
		then = then[:len(then)-1]
	case 2:
		then = "{}"
	}
	return []byte(then)
}

var numbers = []string{"0", "-0", "1", "-1", "2", "3", "7", "-12", "42", "100", "999999999999999999", "-999999999999999999",
	"1000000000000000000", "9223372036854775807", "-9223372036854775808", "12345678901234567890123",
	"0.5", "-0.5", "1.5", "2.0", "-0.0", "3.25", "1e5", "1E5", "1e-7", "2.5e+3", "-1.25E-2", "1e308", "1.7976931348623157e308",
	"1e400", "5e-324", "0.1", "1e21", "123456789.123456789"}

var stringParts = []string{"a", "b", "z", "A", " ", "ab", "hello", "é", "😀", "ß", "\\n", "\\t", "\\\"", "\\\\", "\\/",
	"\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\u0001", "\\u2028", "\u2028", "\u2029", "<", ">", "&", "\x7f", "\xff", "\xc3",
	"0", "1", "_", "-"}

// randomJSON is a random JSON value, nested at most to depth 3 from
// depth; an object when obj.
func randomJSON(rng *rand.Rand, depth int, obj bool) string {
	k := rng.IntN(10)
	if obj {
		k = 9
	} else if depth >= 3 && k >= 7 {
		k = rng.IntN(7)
	}
	switch k {
	case 0:
		return []string{"true", "false", "null"}[rng.IntN(3)]
	case 1, 2, 3:
		if rng.IntN(4) == 0 {
			return fmt.Sprint(rng.IntN(2001) - 1000)
		}
		return numbers[rng.IntN(len(numbers))]
	case 4, 5, 6:
		return randomString(rng)
	case 7, 8:
		var parts []string
		for range rng.IntN(6) {
			if rng.IntN(3) == 0 && len(parts) > 0 {
				parts = append(parts, parts[rng.IntN(len(parts))]) // equal elements
				continue
			}
			if rng.IntN(2) == 0 {
				parts = append(parts, numbers[rng.IntN(len(numbers))])
			} else {
				parts = append(parts, randomJSON(rng, depth+1, false))
			}
		}
		return "[" + strings.Join(parts, ","+space(rng)) + "]"
	default:
		var parts []string
		for range rng.IntN(5) {
			key := randomString(rng)
			if rng.IntN(2) == 0 {
				key = `"` + string(rune('a'+rng.IntN(4))) + `"`
			}
			parts = append(parts, key+space(rng)+":"+space(rng)+randomJSON(rng, depth+1, false))
		}
		return "{" + strings.Join(parts, ","+space(rng)) + "}"
	}
}

func randomString(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('"')
	for range rng.IntN(6) {
		if rng.IntN(3) == 0 {
			b.WriteString(stringParts[rng.IntN(len(stringParts))])
		} else {
			b.WriteByte(byte('a' + rng.IntN(5)))
		}
	}
	b.WriteByte('"')
	return b.String()
}

func space(rng *rand.Rand) string {
	return []string{"", "", "", " ", "\n  ", "\t"}[rng.IntN(6)]
}

func randomStdin(rng *rand.Rand) string {
	parts := []string{"1", "-1", "23", "-", "--5", "x", "x1", "1x", "_", " ", "\n", "1.5", "é", "\xff", "99999999999999999999",
		"999999999999999999", "-0", "0", "a-7", "7-a", "12_3", "٣"}
	var b strings.Builder
	for range rng.IntN(15) {
		b.WriteString(parts[rng.IntN(len(parts))])
		if rng.IntN(2) == 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TestRandomJSONIsMostlyValid keeps the random suites honest: most of
// their values decode.
func TestRandomJSONIsMostlyValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	valid, n := 0, 2000
	for range n {
		s := randomJSON(rng, 0, false)
		if json.Valid([]byte(s)) {
			valid++
		}
	}
	if valid < n*8/10 {
		t.Errorf("only %d of %d random values are valid JSON", valid, n)
	}
}
