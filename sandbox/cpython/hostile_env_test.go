package cpython

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// TestHostileEnvironment: with the standard environment a candidate sees
// the documented variables and those passed to it, never another variable
// of the tool's environment; HOME and TMPDIR are its own, empty, whatever
// the candidate before it left there.
func TestHostileEnvironment(t *testing.T) {
	python(t)
	t.Setenv("REPAIR_HOSTILE_SECRET", "leaked")
	standard := `["HOME", "LANG", "LC_ALL", "PATH", "PYTHONHASHSEED", "TMPDIR", "TZ"]`
	keys := "import os\ndef f():\n    return sorted(os.environ)\n"
	secret := "import os\ndef f():\n    return os.environ.get('REPAIR_HOSTILE_SECRET', 'absent')\n"
	rows := []struct {
		name  string
		env   sandbox.Environment
		steps []step
	}{
		{"only the standard variables", sandbox.Environment{Standard: true}, []step{
			{keys, fitness.Passed, ""},
			{secret, fitness.Passed, ""},
		}},
		{"a secret of the tool's environment, unless passed", sandbox.Environment{Standard: true, Vars: []string{"REPAIR_HOSTILE_SECRET=" + os.Getenv("REPAIR_HOSTILE_SECRET")}}, []step{
			{secret, fitness.WrongAnswer, `got 'leaked'`},
		}},
		{"HOME and TMPDIR are empty for every candidate", sandbox.Environment{Standard: true}, []step{
			{"import os\ndef f():\n    for d in (os.environ['HOME'], os.environ['TMPDIR']):\n        open(os.path.join(d, 'left'), 'w').write('x')\n        os.chmod(d, 0)\n    return 'absent'\n", anyVerdict, ""},
			{"import os\ndef f():\n    return 'absent' if os.listdir(os.environ['HOME']) == os.listdir(os.environ['TMPDIR']) == [] else 'left'\n", fitness.Passed, ""},
			{"import os, tempfile\ndef f():\n    open(os.path.join(os.environ['HOME'], 'x'), 'w').write('x')\n    tempfile.mkstemp()\n    return 'absent'\n", fitness.Passed, ""},
		}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			want := `"absent"`
			if strings.HasPrefix(row.steps[0].src, keys) {
				want = standard
			}
			e := newTestEngine(t, sandbox.Options{
				Suite:  &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{call("f", "", want)}},
				Target: target(t, "cand.py", nil),
				Env:    row.env,
			}, config{})
			for i, st := range row.steps {
				if i > 0 && st.src == secret {
					e.Close()
					e = newTestEngine(t, sandbox.Options{
						Suite:  &fitness.Suite{MemoryMB: 256, Cases: []fitness.Case{call("f", "", `"absent"`)}},
						Target: target(t, "cand.py", nil),
						Env:    row.env,
					}, config{})
				}
				out, err := e.Run(context.Background(), []byte(st.src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				r := out.Results[0]
				if st.want != anyVerdict && r.Verdict != st.want {
					t.Errorf("step %d: %v (%s); want %v", i, r.Verdict, r.Detail, st.want)
				}
				if st.detail != "" && !strings.Contains(r.Detail, st.detail) {
					t.Errorf("step %d: detail %q does not contain %q", i, r.Detail, st.detail)
				}
			}
		})
	}
}

// TestHostileProjectTree: a test file's candidate cannot write the
// project's tree, whatever it tries: with namespaces the tree is a
// read-only mount; without, the candidate reaches only the sandbox's copy.
// The user's tree is byte for byte what it was, and the next candidate
// sees the tree as it was.
func TestHostileProjectTree(t *testing.T) {
	py := realPytest(t)
	attack := `import os, shutil


def attack(root):
    done = []
    for what, fn in [
        ("write", lambda: open(os.path.join(root, "tests", "new.txt"), "w").write("x")),
        ("overwrite", lambda: open(os.path.join(root, "data.json"), "w").write("{}")),
        ("chmod", lambda: os.chmod(os.path.join(root, "data.json"), 0o666)),
        ("chmod dir", lambda: os.chmod(root, 0o777)),
        ("remove", lambda: os.remove(os.path.join(root, "data.json"))),
        ("rename", lambda: os.rename(os.path.join(root, "m.py"), os.path.join(root, "n.py"))),
        ("mkdir", lambda: os.mkdir(os.path.join(root, "d"))),
        ("rmtree", lambda: shutil.rmtree(os.path.join(root, "tests"))),
    ]:
        try:
            fn()
            done.append(what)
        except OSError:
            pass
    return done


def value():
    return 1
`
	test := `import json, os
import m

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_attack():
    done = m.attack(ROOT)
    assert done == [] or not os.environ.get("ALL_REFUSED"), done


def test_tree_intact():
    assert json.load(open(os.path.join(ROOT, "data.json"))) == {"k": 1}
    assert sorted(os.listdir(ROOT)) == ["data.json", "m.py", "pytest.ini", "tests"]
    assert m.value() == 1
`
	for _, noNS := range []bool{false, true} {
		t.Run(fmt.Sprintf("namespaces=%v", !noNS), func(t *testing.T) {
			dir := writeTree(t, map[string]string{
				"m.py": attack, "data.json": `{"k": 1}`, "pytest.ini": "[pytest]\n", "tests/test_m.py": test,
			})
			before := treeDigest(t, dir)
			t.Chdir(dir)
			suite, err := fitness.Load("tests/test_m.py")
			if err != nil {
				t.Fatal(err)
			}
			env := sandbox.Environment{Standard: true}
			if !noNS {
				env.Vars = []string{"ALL_REFUSED=1"} // every attack fails with EROFS
			}
			e := newTestEngine(t, sandbox.Options{Suite: suite, Target: "m.py", Python: py.Path, Env: env}, config{noNamespaces: noNS})
			if !noNS && !e.Confinement().Namespaces {
				t.Skipf("no namespaces: %v", e.Confinement())
			}
			// The attacker, then an honest candidate, which must find the
			// tree as it was: with namespaces the attacker too.
			benign := strings.Replace(attack, "    done = []\n", "    return []\n    done = []\n", 1)
			for i, src := range []string{attack, benign} {
				out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for j, r := range out.Results {
					got = append(got, suite.Cases[j].Name+" "+r.Verdict.String()+" "+r.Detail)
				}
				want := []string{"tests/test_m.py::test_attack PASSED ", "tests/test_m.py::test_tree_intact PASSED "}
				if i == 0 && noNS {
					want[1] = got[1] // the attacker may have changed its own copy
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("candidate %d (-want +got):\n%s", i, diff)
				}
			}
			e.Close()
			if diff := cmp.Diff(before, treeDigest(t, dir)); diff != "" {
				t.Errorf("the project's tree changed (-before +after):\n%s", diff)
			}
			if _, err := os.Stat(filepath.Join(dir, "tests", "new.txt")); err == nil {
				t.Errorf("a candidate wrote into the project's tree")
			}
		})
	}
}
