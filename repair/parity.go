// Parity: the original's verdicts under the tool against plain pytest's,
// and what in the sandbox makes them differ.

package repair

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"repair/fitness"
	"repair/sandbox"
)

// ParityReport says how the original's run under the tool compares with
// plain pytest's run of it (sandbox.PlainPytester).
type ParityReport struct {
	// Lines say each cause once, in a fixed order: environment variables,
	// files, writes to the read-only tree, the network, then tests whose
	// verdicts differ for another reason (the harness, a plugin).
	Lines []string
	// Mismatch: some cause makes the tool's verdicts differ from what
	// plain pytest gives in the user's project (the search could not
	// pass a test that passes there). Lines without a mismatch are notes.
	Mismatch bool
	// Skipped are the indices of the cases plain pytest skipped at run
	// time (pytest.skip in the test or a fixture, importorskip: not a
	// skip or skipif mark, which the tool passes): pytest leaves them out
	// of its verdict, and so does the search (a line says so). No
	// candidate could pass them, as the tool fails a skip it did not
	// mark.
	Skipped []int
	// NoneLeft, when every case is in Skipped, says so in one line (in
	// place of the note in Lines): no test is left to repair against.
	NoneLeft string
	// Differ are the indices of the cases whose verdicts differ between
	// the two runs (not a timeout on either side): with the original's
	// runs again under the tool, those whose verdict changed there are
	// Flaky and no mismatch.
	Differ, Flaky []int
}

// Parity compares the original's outcome orig on the suite's cases (their
// names are pytest's node ids) with plain pytest's run. A failure plain
// pytest shows in the sandbox is a mismatch when the sandbox caused it: a
// variable of the tool's environment (lookup) the candidates do not get,
// a file that exists on the host but not in the sandbox, a write into the
// read-only project tree, the network. Verdicts that differ between the
// two runs are mismatches too: the harness (or a plugin under it) runs the
// test otherwise than plain pytest, unless the tool's verdict of the test
// changes between orig and again (the original's runs again under the
// tool, on the same cases): the test is flaky, and a note says so.
func Parity(cases []fitness.Case, orig *fitness.Outcome, plain *sandbox.PlainRun, lookup func(string) (string, bool), again ...*fitness.Outcome) ParityReport {
	var rep ParityReport
	type group struct {
		ids    []string
		detail string
	}
	env, files, writes := map[string]*group{}, map[string]*group{}, map[string]*group{}
	var network group
	add := func(m map[string]*group, key, id, detail string) {
		g := m[key]
		if g == nil {
			g = &group{detail: detail}
			m[key] = g
		}
		g.ids = append(g.ids, id)
	}
	byID := map[string]sandbox.PlainTest{}
	failed := append([]sandbox.PlainTest(nil), plain.Errors...)
	for _, t := range plain.Tests {
		byID[t.ID] = t
		if t.Outcome != "passed" && t.Outcome != "skipped" {
			failed = append(failed, t)
		}
	}
	root := ""
	if plain.Tree != nil {
		root = plain.Tree.Root
	}
	for _, t := range failed {
		c := t.Cause
		if c == nil {
			continue
		}
		id := t.ID
		if id == "" {
			id = "the session"
		}
		switch c.Kind {
		case "env":
			add(env, c.Name, id, t.Detail)
		case "file":
			if _, err := os.Stat(c.Path); err == nil {
				add(files, c.Path, id, t.Detail)
			}
		case "readonly":
			if root != "" && within(c.Path, root) {
				add(writes, c.Path, id, t.Detail)
			}
		case "network":
			network.ids = append(network.ids, id)
			if network.detail == "" {
				network.detail = t.Detail
			}
		}
	}
	fail := func(ids []string) string { return verb(len(ids), "fails", "fail") }
	for _, name := range sortedKeys(env) {
		g := env[name]
		if _, ok := lookup(name); ok {
			rep.Mismatch = true
			rep.Lines = append(rep.Lines, fmt.Sprintf("environment variable %s is set here but not passed to the candidates: %s with KeyError: '%s' (%s); pass it with --pass-env %s (or --env %s=VALUE)", name, fail(g.ids), name, example(g.ids), name, name))
		} else {
			rep.Lines = append(rep.Lines, fmt.Sprintf("environment variable %s is not set (here either): %s with KeyError: '%s' (%s); --env %s=VALUE sets it for the candidates", name, fail(g.ids), name, example(g.ids), name))
		}
	}
	for _, p := range sortedKeys(files) {
		rep.Mismatch = true
		where := "outside the project's tree " + root
		if root != "" && within(p, root) {
			where = "left out of the sandbox's copy of the project's tree"
		}
		rep.Lines = append(rep.Lines, fmt.Sprintf("file %s exists here but not in the sandbox (%s): %s (%s)", p, where, fail(files[p].ids), example(files[p].ids)))
	}
	for _, p := range sortedKeys(writes) {
		rep.Mismatch = true
		rep.Lines = append(rep.Lines, fmt.Sprintf("the project's tree is read-only to candidates: %s %s (%s); write under tmp_path or $TMPDIR", verb(len(writes[p].ids), "writes", "write"), p, example(writes[p].ids)))
	}
	if len(network.ids) > 0 {
		rep.Mismatch = true
		rep.Lines = append(rep.Lines, fmt.Sprintf("network: candidates have none: %s (%s: %s)", fail(network.ids), example(network.ids), network.detail))
	}
	// Verdicts that differ between the two runs.
	var worse, better, missing, plugins, timeouts, skipped, flaky []string
	changes := func(i int) bool {
		for _, o := range again {
			if i < len(o.Results) && o.CompileError == "" && o.Results[i].Verdict != orig.Results[i].Verdict {
				return true
			}
		}
		return false
	}
	for i, c := range cases {
		if i >= len(orig.Results) {
			break
		}
		r := orig.Results[i]
		t, ok := byID[c.Name]
		if !ok {
			missing = append(missing, c.Name)
			continue
		}
		if t.Outcome == "skipped" {
			// The tool fails a test that skips itself (a candidate must
			// not pass by skipping), so no candidate could pass one that
			// plain pytest skips; pytest leaves it out of its verdict,
			// and so does the search.
			rep.Skipped = append(rep.Skipped, i)
			skipped = append(skipped, fmt.Sprintf("%s: %s", c.Name, skipReason(t.Detail)))
			continue
		}
		if t.Outcome == "timeout" || r.Verdict == fitness.TimeLimitExceeded {
			// Both sides count a test's CPU time against the same limit;
			// a test near it may meet it on one side and not the other.
			timeouts = append(timeouts, c.Name)
			continue
		}
		toolPass, plainPass := r.Verdict == fitness.Passed, t.Outcome == "passed"
		if toolPass != plainPass {
			rep.Differ = append(rep.Differ, i)
			if changes(i) {
				// The draw differed, not the harness.
				rep.Flaky = append(rep.Flaky, i)
				flaky = append(flaky, c.Name)
				continue
			}
		}
		switch {
		case plainPass && !toolPass:
			if m := fixtureNotFound.FindStringSubmatch(r.Detail); m != nil {
				plugins = append(plugins, m[1])
			}
			worse = append(worse, fmt.Sprintf("%s: %s", c.Name, oneLine(r.Detail)))
		case !plainPass && toolPass:
			better = append(better, fmt.Sprintf("%s: %s", c.Name, oneLine(t.Detail)))
		}
	}
	switch {
	case len(skipped) > 0 && len(skipped) == len(cases):
		rep.NoneLeft = fmt.Sprintf("%s under plain pytest (%s): no test is left to repair against", allSkip(len(skipped)), fewOf(skipped))
	case len(skipped) > 0:
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s under plain pytest (%s); left out of the suite", verb(len(skipped), "skips itself", "skip themselves"), fewOf(skipped)))
	}
	if len(flaky) > 0 {
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s different verdicts when the original ran again under the tool (flaky: %s): not held against plain pytest's", verb(len(flaky), "gave", "gave"), fewOf(flaky)))
	}
	if len(timeouts) > 0 {
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s out under the tool or plain pytest (%s): not compared (--case-timeout raises the limit)", verb(len(timeouts), "timed", "timed"), example(timeouts)))
	}
	if len(plugins) > 0 {
		rep.Mismatch = true
		rep.Lines = append(rep.Lines, fmt.Sprintf("plugin: fixture %s not found under the tool, though plain pytest has it", strings.Join(dedupe(plugins), ", ")))
	}
	if len(worse) > 0 {
		rep.Mismatch = true
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s under plain pytest but %s under the tool (%s)", verb(len(worse), "passes", "pass"), pl(len(worse), "fails", "fail"), example(worse)))
	}
	if len(better) > 0 {
		rep.Mismatch = true
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s under plain pytest but %s under the tool (%s)", verb(len(better), "fails", "fail"), pl(len(better), "passes", "pass"), example(better)))
	}
	if len(missing) > 0 {
		rep.Mismatch = true
		rep.Lines = append(rep.Lines, fmt.Sprintf("%s the tool runs %s not run by plain pytest (%s)", count(len(missing)), pl(len(missing), "was", "were"), example(missing)))
	}
	for _, e := range plain.Errors {
		if e.Cause == nil && len(missing) > 0 {
			rep.Lines = append(rep.Lines, fmt.Sprintf("plain pytest: collecting %s: %s", e.ID, e.Detail))
		}
	}
	return rep
}

// skipReason is a skip's reason, shortened: "why", not "Skipped: why";
// "could not import 'wcwidth'", without the ModuleNotFoundError that
// only repeats it.
func skipReason(detail string) string {
	r := strings.TrimPrefix(oneLine(detail), "Skipped: ")
	if strings.HasPrefix(r, "could not import '") {
		r, _, _ = strings.Cut(r, ": No module named ")
	}
	return r
}

// fewOf is the first few of items, and how many more.
func fewOf(items []string) string {
	const few = 3
	s := strings.Join(items[:min(len(items), few)], "; ")
	if len(items) > few {
		s += fmt.Sprintf("; and %d more", len(items)-few)
	}
	return s
}

// allSkip is "the only test skips itself" or "all n tests skip
// themselves".
func allSkip(n int) string {
	if n == 1 {
		return "the only test skips itself"
	}
	return fmt.Sprintf("all %d tests skip themselves", n)
}

// fixtureNotFound finds the fixture a test lacked in pytest's error.
var fixtureNotFound = regexp.MustCompile(`fixture '([^']+)' not found`)

// environKey finds the variable of a KeyError from os.environ in a
// verdict's detail (the cpython harness says so).
var environKey = regexp.MustCompile(`KeyError: '([^']+)' \(os\.environ: not set in the sandbox\)`)

// EnvironNotes says which environment variables cases of the original
// lacked (a KeyError from os.environ), each with the flag that passes it,
// for any suite: one line per variable.
func EnvironNotes(cases []fitness.Case, orig *fitness.Outcome, lookup func(string) (string, bool)) []string {
	ids := map[string][]string{}
	for i, r := range orig.Results {
		if m := environKey.FindStringSubmatch(r.Detail); m != nil && i < len(cases) {
			ids[m[1]] = append(ids[m[1]], cases[i].Name)
		}
	}
	var out []string
	for _, name := range sortedKeys(ids) {
		n := len(ids[name])
		what := fmt.Sprintf("%d cases fail", n)
		if n == 1 {
			what = "1 case fails"
		}
		how := fmt.Sprintf("--env %s=VALUE sets it", name)
		if _, ok := lookup(name); ok {
			how = fmt.Sprintf("it is set here: pass it with --pass-env %s (or --env %s=VALUE)", name, name)
		}
		out = append(out, fmt.Sprintf("%s (%s) with KeyError: '%s': the environment variable %s is not set in the sandbox; %s", what, example(ids[name]), name, name, how))
	}
	return out
}

// count is "1 test" or "n tests"; verb adds a verb that agrees.
func count(n int) string {
	if n == 1 {
		return "1 test"
	}
	return fmt.Sprintf("%d tests", n)
}

func verb(n int, one, many string) string { return count(n) + " " + pl(n, one, many) }

func pl(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func example(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return "e.g. " + items[0]
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, "'"+x+"'")
		}
	}
	return out
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../")
}
