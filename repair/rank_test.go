package repair

import (
	"context"
	"strings"
	"testing"

	"repair/guard"
	"repair/program"
)

// The code of the ranking's cases: a validator in the shape of the real
// bugs the ranking is for.
const rankOrig = `class ParseError(Exception):
    pass


def parse(text, strict, lenient):
    if not text:
        raise ParseError("empty")
    if len(text) > 80:
        raise ParseError("too long")
    if not strict and not lenient:
        return text.strip()
    return text


def greet(a, b, a_user, b_user, fmt):
    a, b = a.format(fmt), b.format(fmt)
    return a + b


def bump(value, limit):
    if value > limit:
        return limit
    return value


def call(fn, args, types):
    for i in range(len(args)):
        if types:
            _type_check(args[i], types)
    return fn(*args)


def number(kind, s):
    if kind == 'f':
        pattern = r'\d+\.\d+'
    elif kind == 'F':
        pattern = r'\d+\.\d+'
    else:
        pattern = r'\d+'
    return re.match(pattern, s)


def align(aligns, n):
    if not aligns or n < 0:
        return []
    t = aligns or ["left"] * n
    return t
`

func TestRankFix(t *testing.T) {
	cases := []struct {
		name, from, to string
		deletes        bool
		naming         int // the penalty
		note           string
		tokens         int
	}{
		{name: "a raise deleted", from: "    if len(text) > 80:\n        raise ParseError(\"too long\")\n", to: "",
			deletes: true, tokens: 13},
		{name: "an if and its raise replaced", from: "    if len(text) > 80:\n        raise ParseError(\"too long\")\n", to: "    text = text[:80]\n",
			deletes: true, naming: 0},
		{name: "a call that checks deleted", from: "            _type_check(args[i], types)\n", to: "            pass\n", deletes: true},
		{name: "a raise put under a new condition", from: "        raise ParseError(\"too long\")\n", to: "        if strict:\n            raise ParseError(\"too long\")\n",
			deletes: true, tokens: 3},
		{name: "a return put before a raise under a new condition", from: "        raise ParseError(\"too long\")\n", to: "        if not strict: return\n        raise ParseError(\"too long\")\n",
			deletes: true, tokens: 5},
		{name: "a return on its own line before a raise", from: "        raise ParseError(\"too long\")\n", to: "        if not strict:\n            return None\n        raise ParseError(\"too long\")\n",
			deletes: true},
		{name: "a guard that raises put before a raise", from: "        raise ParseError(\"too long\")\n", to: "        if not strict:\n            raise ValueError(\"strict\")\n        raise ParseError(\"too long\")\n", naming: 1},
		{name: "the condition of a checking call negated", from: "        if types:\n", to: "        if not types:\n", deletes: true, tokens: 1},
		{name: "the condition of a raise negated", from: "    if len(text) > 80:\n", to: "    if not len(text) > 80:\n", deletes: true, tokens: 1},
		{name: "the condition of a return negated", from: "    if not strict and not lenient:\n", to: "    if not (not strict and not lenient):\n", tokens: 3},
		{name: "a condition extended leaves its raise where it was", from: "    if len(text) > 80:\n        raise ParseError(\"too long\")\n", to: "    if len(text) > 80 and not strict:\n        raise ParseError(\"too long\")\n", tokens: 3},
		{name: "a call that checks added", from: "    return fn(*args)\n", to: "    _type_check(fn, types)\n    return fn(*args)\n"},
		{name: "a comparison flipped keeps the check", from: "if len(text) > 80:", to: "if len(text) >= 80:", tokens: 2},
		{name: "a check added", from: "    if not strict and not lenient:\n", to: "    if text is None:\n        raise ParseError(\"none\")\n    if not strict and not lenient:\n",
			naming: 1, note: `"none": a value`},
		{name: "a builtin in a condition", from: "if not strict and not lenient:", to: "if not range and not lenient:",
			naming: 2, note: "range: a builtin", tokens: 2},
		{name: "a name of the function in a condition", from: "if not strict and not lenient:", to: "if not text and not lenient:", tokens: 2},
		{name: "a name from elsewhere in a condition", from: "if not strict and not lenient:", to: "if not value and not lenient:",
			naming: 2, note: "value: a name the code around does not use", tokens: 2},
		{name: "half a renaming", from: "a, b = a.format(fmt), b.format(fmt)", to: "a, b = a.format(fmt), b_user.format(fmt)",
			naming: 1, note: "a left as it is where the same renaming makes it a_user", tokens: 2},
		{name: "a renaming at every site", from: "a, b = a.format(fmt), b.format(fmt)", to: "a, b = a_user.format(fmt), b_user.format(fmt)",
			naming: 0, note: "consistently", tokens: 4},
		{name: "a value nudged", from: "        return limit\n", to: "        return limit + 7\n", naming: 1, note: "7: a value", tokens: 2},
		{name: "a neutral value", from: "        return limit\n", to: "        return limit - 1\n", tokens: 2},
		{name: "an operation that changes nothing", from: "        return limit\n", to: "        return limit // 1\n", naming: 1, note: "// 1: an operation that changes nothing", tokens: 2},
		{name: "a term kept", from: "        return limit\n", to: "        return limit * 1.5\n", naming: 1, note: "1.5: a value", tokens: 2},
		{name: "a value a collection already holds", from: "    return text\n", to: "    return text in (\"False\", \"False\")\n",
			naming: 3, note: `"False": a value the collection already holds`, tokens: 6},
		{name: "values of a collection once each", from: "    return text\n", to: "    return text in (\"True\", \"False\")\n",
			naming: 2, tokens: 6},
		{name: "a call given a value twice", from: "    return fn(*args)\n", to: "    return fn(0, 0)\n", tokens: 5},
		{name: "a value thrown away", from: "        return limit\n", to: "        return limit * 0\n", naming: 2, note: "* 0: an operation that throws its operand away", tokens: 2},
		{name: "another function called", from: "    return fn(*args)\n", to: "    return greet(*args)\n",
			naming: 2, note: "greet: a function the code around does not use, called in place of fn", tokens: 2},
		{name: "a builtin called in place of a function", from: "    return fn(*args)\n", to: "    return abs(*args)\n",
			naming: 2, note: "abs: a builtin the code around does not use, called in place of fn", tokens: 2},
		{name: "a builtin wrapped around a call", from: "    return fn(*args)\n", to: "    return abs(fn(*args))\n",
			naming: 1, note: "abs: a builtin the code around does not use", tokens: 3},
		{name: "a function of the code around called", from: "    return fn(*args)\n", to: "    return _type_check(*args)\n", tokens: 2},
		{name: "a function of elsewhere wrapped around", from: "    return fn(*args)\n", to: "    return greet(fn(*args))\n", tokens: 3},
		{name: "an argument assigned before it is read", from: "    if value > limit:\n", to: "    limit = 0\n    if value > limit:\n",
			naming: DiscardPoints, note: "limit: the argument assigned before the function reads it", tokens: 3},
		{name: "an argument assigned after it is read", from: "        return limit\n", to: "        limit = 0\n        return limit\n", tokens: 3},
		{name: "a pattern changed in one of the two branches that have it", from: `pattern = r'\d+\.\d+'`, to: `pattern = r'\d*\.\d+'`,
			naming: 2, note: `r'\d+\.\d+' changed at 1 of its 2 sites in the function`, tokens: 2},
		{name: "a pattern changed in both branches", from: "'f':\n        pattern = r'\\d+\\.\\d+'\n    elif kind == 'F':\n        pattern = r'\\d+\\.\\d+'",
			to: "'f':\n        pattern = r'\\d*\\.\\d+'\n    elif kind == 'F':\n        pattern = r'\\d*\\.\\d+'", naming: 1, tokens: 4},
		{name: "a short literal changed once", from: "kind == 'f'", to: "kind == 'g'", naming: 2, note: "'g': a value", tokens: 2},
		{name: "a fallback dropped", from: "    t = aligns or [\"left\"] * n\n", to: "    t = aligns\n", deletes: true},
		{name: "the value dropped for its fallback", from: "    t = aligns or [\"left\"] * n\n", to: "    t = [\"left\"] * n\n"},
		{name: "a test of a condition dropped", from: "    if not aligns or n < 0:\n", to: "    if not aligns:\n"},
		{name: "an argument assigned from itself", from: "    if value > limit:\n", to: "    limit = limit - 1\n    if value > limit:\n", tokens: 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(rankOrig, c.from) {
				t.Fatalf("%q is not in the code", c.from)
			}
			fixed := strings.Replace(rankOrig, c.from, c.to, 1)
			r := rankFix([]byte(rankOrig), []byte(fixed))
			if r.DeletesCheck != c.deletes {
				t.Errorf("DeletesCheck = %v, want %v", r.DeletesCheck, c.deletes)
			}
			if r.Naming != c.naming {
				t.Errorf("Naming = %d (%v), want %d", r.Naming, r.Notes, c.naming)
			}
			if c.note != "" && !strings.Contains(strings.Join(r.Notes, "\n"), c.note) {
				t.Errorf("notes %q lack %q", r.Notes, c.note)
			}
			if c.tokens != 0 && r.Tokens != c.tokens {
				t.Errorf("Tokens = %d, want %d", r.Tokens, c.tokens)
			}
		})
	}
}

func TestRankFixes(t *testing.T) {
	p, err := program.Parse("parse.py", []byte(rankOrig))
	if err != nil {
		t.Fatal(err)
	}
	fix := func(from, to string, g *guard.Report) Fix {
		if !strings.Contains(rankOrig, from) {
			t.Fatalf("%q is not in the code", from)
		}
		src := strings.Replace(rankOrig, from, to, 1)
		return Fix{Source: []byte(src), Diff: p.DiffTo([]byte(src)), Guard: g}
	}
	deleted := fix("    if len(text) > 80:\n        raise ParseError(\"too long\")\n", "", nil)
	flipped := fix("if len(text) > 80:", "if len(text) >= 80:", nil)
	builtin := fix("if not strict and not lenient:", "if not range and not lenient:", nil)
	local := fix("if not strict and not lenient:", "if not strict and not text:", nil)
	half := fix("a, b = a.format(fmt), b.format(fmt)", "a, b = a.format(fmt), b_user.format(fmt)", nil)
	whole := fix("a, b = a.format(fmt), b.format(fmt)", "a, b = a_user.format(fmt), b_user.format(fmt)", nil)
	sliced := fix("    return value\n", "    return value.real\n", nil)
	dropped := fix("if value > limit:", "if value:", nil)
	calm := fix("if value > limit:", "if value >= limit:", &guard.Report{Inputs: 9, Changed: 1})
	loud := fix("if value > limit:", "if value > limit + 1:", &guard.Report{Inputs: 9, Changed: 4})
	nudged := fix("if len(text) > 80:", "if len(text) > 79:", nil)
	block := fix("        return limit\n", "        if value > limit * 2:\n            return limit * 2\n        return limit\n", nil)
	flipped2 := fix("if value > limit:", "if value < limit:", &guard.Report{Inputs: 9, Changed: 4})
	broken := fix("if value > limit:", "if value > limit - 1:", &guard.Report{Inputs: 9, Changed: 1, Broken: 1})

	cases := []struct {
		name  string
		fixes []Fix // in the order found
		want  int   // the index, in fixes, of the one delivered
		why   string
	}{
		{"a broken input loses to changed ones", []Fix{broken, loud}, 1, "overfitting guard"},
		{"a broken input loses to a larger fix", []Fix{broken, whole}, 1, "overfitting guard"},
		{"changed inputs decide a tie", []Fix{flipped2, calm}, 1, "fewer generated inputs whose behaviour changed"},
		{"changed inputs come after size", []Fix{loud, calm}, 1, "fewer of them added"},
		{"a deleted check loses", []Fix{deleted, flipped}, 1, "keeping the code's checks"},
		{"a builtin in a condition loses", []Fix{builtin, local}, 1, "names and values consistent"},
		{"a renaming at every site beats half of it", []Fix{half, whole}, 1, "cost 4, against 5"},
		{"fewer tokens", []Fix{whole, flipped}, 1, "cost 2, against 4"},
		{"a nudged bound beats a large block", []Fix{block, nudged}, 1, "cost 8, against 17"},
		{"as many tokens, fewer added", []Fix{sliced, dropped}, 1, "fewer of them added"},
		{"a tie keeps the first found", []Fix{local, local}, 0, "a tie"},
		{"alternatives beaten alike are said once", []Fix{deleted, deleted, flipped, deleted}, 2,
			"beats alternatives 2 to 4: keeping the code's checks"},
		{"two alike, then another reason", []Fix{deleted, flipped, deleted, whole}, 1,
			"; alternatives 3 and 4: keeping the code's checks (the other deletes a raise, an assert, an if or a call that checks, puts a raise under a new condition, or leaves a branch no test runs)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fixes := make([]Fix, len(c.fixes))
			for i, f := range c.fixes {
				f.Evaluations = i // to tell them apart
				f.Rank = nil
				fixes[i] = f
			}
			why := rankFixes(p, fixes)
			if fixes[0].Evaluations != c.want {
				t.Errorf("delivered fix %d, want %d:\n%s", fixes[0].Evaluations, c.want, fixes[0].Diff)
			}
			if !strings.Contains(why, c.why) {
				t.Errorf("why = %q, want it to say %q", why, c.why)
			}
		})
	}
}

// TestAlternatives: after its first fix the search goes on and delivers
// the best of the fixes it found; a seed gives the same fixes at any
// number of workers (without a time budget the window is evaluations).
func TestAlternatives(t *testing.T) {
	p := parseMiddle(t)
	run := func(workers int) *Result {
		opts := Defaults()
		opts.Workers = workers
		res, err := Run(context.Background(), p, fakeSuite(10), fakeRunner(nil), opts)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(2)
	if len(res.Fixes) < 2 {
		t.Fatalf("%d fixes (stop %s), want alternatives", len(res.Fixes), res.StopReason)
	}
	if len(res.Fixes) > MaxAlternatives+1 {
		t.Errorf("%d fixes, want at most %d", len(res.Fixes), MaxAlternatives+1)
	}
	if !strings.HasPrefix(res.Why, "the delivered fix beats alternative 2: ") && !strings.HasPrefix(res.Why, "the delivered fix beats alternatives 2 ") {
		t.Errorf("Why = %q", res.Why)
	}
	first := res.Fixes[0]
	for _, f := range res.Fixes {
		if f.Rank == nil {
			t.Fatalf("a fix without its rank: %v", f.Describe)
		}
		if f.Evaluations < first.Evaluations && res.FirstFix == 0 {
			t.Errorf("FirstFix not set")
		}
	}
	for j := 1; j < len(res.Fixes); j++ {
		if k, less := decideFixes(p, &res.Fixes[j], &first); less {
			t.Errorf("fix %d beats the delivered one on %s", j+1, criteria[k].name)
		}
	}
	one := run(1)
	if len(one.Fixes) != len(res.Fixes) || one.Fixes[0].Diff != first.Diff || one.Evaluations != res.Evaluations {
		t.Errorf("one worker: %d fixes, %d evaluations; two: %d, %d", len(one.Fixes), one.Evaluations, len(res.Fixes), res.Evaluations)
	}
}

// TestAdapts: a copy as it is beats the same copy adapted; nothing else
// is compared by it.
func TestAdapts(t *testing.T) {
	copyAt := func(text string) program.Edit {
		return program.Edit{Op: program.Replace, Stmt: 0, Donor: 4, Site: 7, Text: text}
	}
	del := program.Edit{Op: program.Delete, Stmt: 2}
	for _, tt := range []struct {
		name string
		b, a program.Patch
		want bool
	}{
		{"the copy adapted", program.Patch{copyAt("list(out)")}, program.Patch{copyAt("")}, true},
		{"the copy as it is", program.Patch{copyAt("")}, program.Patch{copyAt("list(out)")}, false},
		{"two adaptations", program.Patch{copyAt("a")}, program.Patch{copyAt("b")}, false},
		{"the same patch", program.Patch{copyAt(""), del}, program.Patch{copyAt(""), del}, false},
		{"beside the same delete", program.Patch{del, copyAt("x")}, program.Patch{del, copyAt("")}, true},
		{"another donor", program.Patch{{Op: program.Replace, Donor: 5, Site: 7, Text: "x"}}, program.Patch{copyAt("")}, false},
		{"more edits", program.Patch{copyAt("x"), del}, program.Patch{copyAt("")}, false},
		{"text edits", program.Patch{{Op: program.ReplaceText, Site: 3, Text: "a"}}, program.Patch{{Op: program.ReplaceText, Site: 3}}, false},
	} {
		if got := adapts(tt.b, tt.a); got != tt.want {
			t.Errorf("%s: adapts = %v, want %v", tt.name, got, tt.want)
		}
	}
}
