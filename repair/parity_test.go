package repair

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// TestParity: each cause of a difference between the tool's verdicts and
// plain pytest's is one line; only what plain pytest outside the sandbox
// would not show is a mismatch.
func TestParity(t *testing.T) {
	root := t.TempDir()
	exists := filepath.Join(t.TempDir(), "exists.cfg")
	if err := os.WriteFile(exists, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) (string, bool) {
		if name == "SET_HERE" {
			return "1", true
		}
		return "", false
	}
	type test struct {
		id      string
		tool    fitness.Verdict
		detail  string
		plain   string // plain pytest's outcome; "" not run
		cause   *sandbox.Cause
		pdetail string
		again   []fitness.Verdict // the tool's verdicts when the original ran again
	}
	tests := []struct {
		name     string
		tests    []test
		errors   []sandbox.PlainTest
		want     []string
		mismatch bool
		skipped  []int
		noneLeft string
		differ   []int
		flaky    []int
	}{
		{
			name: "same verdicts, the bug's failing test",
			tests: []test{
				{id: "t::a", tool: fitness.Passed, plain: "passed"},
				{id: "t::b", tool: fitness.WrongAnswer, detail: "assert 1 == 2", plain: "failed"},
			},
		},
		{
			name: "a variable set here but not passed",
			tests: []test{
				{id: "t::a", tool: fitness.RuntimeError, detail: "KeyError: 'SET_HERE' (os.environ: not set in the sandbox)", plain: "failed", cause: &sandbox.Cause{Kind: "env", Name: "SET_HERE"}},
				{id: "t::b", tool: fitness.RuntimeError, plain: "failed", cause: &sandbox.Cause{Kind: "env", Name: "SET_HERE"}},
			},
			want:     []string{"environment variable SET_HERE is set here but not passed to the candidates: 2 tests fail with KeyError: 'SET_HERE' (e.g. t::a); pass it with --pass-env SET_HERE (or --env SET_HERE=VALUE)"},
			mismatch: true,
		},
		{
			name: "a variable set nowhere is a note",
			tests: []test{
				{id: "t::a", tool: fitness.RuntimeError, plain: "failed", cause: &sandbox.Cause{Kind: "env", Name: "UNSET"}},
			},
			want: []string{"environment variable UNSET is not set (here either): 1 test fails with KeyError: 'UNSET' (t::a); --env UNSET=VALUE sets it for the candidates"},
		},
		{
			name: "a file that exists here, one that exists nowhere",
			tests: []test{
				{id: "t::a", tool: fitness.RuntimeError, plain: "failed", cause: &sandbox.Cause{Kind: "file", Path: exists}},
				{id: "t::b", tool: fitness.RuntimeError, plain: "failed", cause: &sandbox.Cause{Kind: "file", Path: filepath.Join(root, "missing.json")}},
			},
			want:     []string{"file " + exists + " exists here but not in the sandbox (outside the project's tree " + root + "): 1 test fails (t::a)"},
			mismatch: true,
		},
		{
			name: "a write into the tree, and one elsewhere",
			tests: []test{
				{id: "t::a", tool: fitness.RuntimeError, plain: "failed", cause: &sandbox.Cause{Kind: "readonly", Path: filepath.Join(root, "out.txt")}},
				{id: "t::b", tool: fitness.RuntimeError, plain: "failed", cause: &sandbox.Cause{Kind: "readonly", Path: "/etc/shadow"}},
			},
			want:     []string{"the project's tree is read-only to candidates: 1 test writes " + filepath.Join(root, "out.txt") + " (t::a); write under tmp_path or $TMPDIR"},
			mismatch: true,
		},
		{
			name: "the network",
			tests: []test{
				{id: "t::a", tool: fitness.RuntimeError, plain: "failed", pdetail: "PermissionError: [Errno 1] Operation not permitted", cause: &sandbox.Cause{Kind: "network"}},
			},
			want:     []string{"network: candidates have none: 1 test fails (t::a: PermissionError: [Errno 1] Operation not permitted)"},
			mismatch: true,
		},
		{
			name: "a plugin's fixture, and verdicts the other way",
			tests: []test{
				{id: "t::a", tool: fitness.RuntimeError, detail: "error in setup: fixture 'mocker' not found", plain: "passed"},
				{id: "t::b", tool: fitness.Passed, plain: "failed", pdetail: "AssertionError"},
			},
			want: []string{
				"plugin: fixture 'mocker' not found under the tool, though plain pytest has it",
				"1 test passes under plain pytest but fails under the tool (t::a: error in setup: fixture 'mocker' not found)",
				"1 test fails under plain pytest but passes under the tool (t::b: AssertionError)",
			},
			mismatch: true,
			differ:   []int{0, 1},
		},
		{
			name: "a verdict that changes when the original runs again is flaky, no mismatch",
			tests: []test{
				{id: "t::a", tool: fitness.WrongAnswer, plain: "passed", again: []fitness.Verdict{fitness.Passed, fitness.WrongAnswer}},
				{id: "t::b", tool: fitness.Passed, plain: "failed", again: []fitness.Verdict{fitness.Passed, fitness.RuntimeError}},
				{id: "t::c", tool: fitness.WrongAnswer, plain: "failed", again: []fitness.Verdict{fitness.WrongAnswer, fitness.WrongAnswer}},
			},
			want:   []string{"2 tests gave different verdicts when the original ran again under the tool (flaky: t::a; t::b): not held against plain pytest's"},
			differ: []int{0, 1},
			flaky:  []int{0, 1},
		},
		{
			name: "a verdict the same every time under the tool is a mismatch",
			tests: []test{
				{id: "t::a", tool: fitness.WrongAnswer, detail: "assert False", plain: "passed", again: []fitness.Verdict{fitness.WrongAnswer, fitness.WrongAnswer}},
			},
			want:     []string{"1 test passes under plain pytest but fails under the tool (t::a: assert False)"},
			mismatch: true,
			differ:   []int{0},
		},
		{
			name: "timeouts are not compared",
			tests: []test{
				{id: "t::a", tool: fitness.TimeLimitExceeded, detail: "timed out after 2s", plain: "passed"},
				{id: "t::b", tool: fitness.Passed, plain: "timeout"},
			},
			want: []string{"2 tests timed out under the tool or plain pytest (e.g. t::a): not compared (--case-timeout raises the limit)"},
		},
		{
			name: "tests that skip themselves here are left out",
			tests: []test{
				{id: "t::a", tool: fitness.WrongAnswer, detail: "skipped: could not import 'wcwidth'", plain: "skipped", pdetail: "could not import 'wcwidth': No module named 'wcwidth'"},
				{id: "t::b", tool: fitness.Passed, plain: "passed"},
				{id: "t::c", tool: fitness.WrongAnswer, detail: "skipped: no numpy", plain: "skipped", pdetail: "Skipped: no numpy"},
				{id: "t::d", tool: fitness.WrongAnswer, plain: "skipped", pdetail: "d"},
				{id: "t::e", tool: fitness.WrongAnswer, plain: "skipped", pdetail: "e"},
				{id: "t::f", tool: fitness.WrongAnswer, plain: "skipped", pdetail: "f"},
			},
			want:    []string{"5 tests skip themselves under plain pytest (t::a: could not import 'wcwidth'; t::c: no numpy; t::d: d; and 2 more); left out of the suite"},
			skipped: []int{0, 2, 3, 4, 5},
		},
		{
			name: "the only test skips itself",
			tests: []test{
				{id: "t::a", tool: fitness.WrongAnswer, detail: "skipped: why", plain: "skipped", pdetail: "Skipped: why"},
			},
			skipped:  []int{0},
			noneLeft: "the only test skips itself under plain pytest (t::a: why): no test is left to repair against",
		},
		{
			name: "tests plain pytest did not run, and why",
			tests: []test{
				{id: "t::a", tool: fitness.Passed},
			},
			errors:   []sandbox.PlainTest{{ID: "t", Outcome: "error", Detail: "ImportError: nope"}},
			want:     []string{"1 test the tool runs was not run by plain pytest (t::a)", "plain pytest: collecting t: ImportError: nope"},
			mismatch: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cases []fitness.Case
			orig := &fitness.Outcome{}
			plain := &sandbox.PlainRun{Tree: &sandbox.Tree{Root: root}, Errors: tt.errors}
			for _, x := range tt.tests {
				cases = append(cases, fitness.Case{Name: x.id, Kind: fitness.Test})
				orig.Results = append(orig.Results, fitness.Result{Verdict: x.tool, Detail: x.detail})
				if x.plain != "" {
					plain.Tests = append(plain.Tests, sandbox.PlainTest{ID: x.id, Outcome: x.plain, Detail: x.pdetail, Cause: x.cause})
				}
			}
			var again []*fitness.Outcome
			for _, x := range tt.tests {
				for k, v := range x.again {
					if k == len(again) {
						again = append(again, &fitness.Outcome{})
					}
					again[k].Results = append(again[k].Results, fitness.Result{Verdict: v})
				}
			}
			got := Parity(cases, orig, plain, lookup, again...)
			if diff := cmp.Diff(tt.differ, got.Differ); diff != "" {
				t.Errorf("Differ (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.flaky, got.Flaky); diff != "" {
				t.Errorf("Flaky (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got.Lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if got.Mismatch != tt.mismatch {
				t.Errorf("Mismatch = %v; want %v", got.Mismatch, tt.mismatch)
			}
			if diff := cmp.Diff(tt.skipped, got.Skipped); diff != "" {
				t.Errorf("Skipped (-want +got):\n%s", diff)
			}
			if got.NoneLeft != tt.noneLeft {
				t.Errorf("NoneLeft = %q; want %q", got.NoneLeft, tt.noneLeft)
			}
		})
	}
}

// TestEnvironNotes: any suite's cases that lack a variable name it and
// the flag that passes it.
func TestEnvironNotes(t *testing.T) {
	cases := []fitness.Case{{Name: "c1"}, {Name: "c2"}, {Name: "c3"}}
	orig := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.RuntimeError, Detail: "KeyError: 'TOKEN' (os.environ: not set in the sandbox) (line 3)"},
		{Verdict: fitness.RuntimeError, Detail: "KeyError: 'TOKEN'"},
		{Verdict: fitness.RuntimeError, Detail: "KeyError: 'PAGER' (os.environ: not set in the sandbox)"},
	}}
	lookup := func(name string) (string, bool) { return "x", name == "TOKEN" }
	want := []string{
		"1 case fails (c3) with KeyError: 'PAGER': the environment variable PAGER is not set in the sandbox; --env PAGER=VALUE sets it",
		"1 case fails (c1) with KeyError: 'TOKEN': the environment variable TOKEN is not set in the sandbox; it is set here: pass it with --pass-env TOKEN (or --env TOKEN=VALUE)",
	}
	if diff := cmp.Diff(want, EnvironNotes(cases, orig, lookup)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
