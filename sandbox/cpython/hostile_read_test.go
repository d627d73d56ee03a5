package cpython

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// TestHostileReads: a candidate reads only what it needs (the interpreter,
// the libraries, its helper modules, its own directory), not the user's
// files: not /etc/shadow, not the home directory, not a file next to the
// target, and above all not the suite, whose expected values would let it
// pass without computing anything.
func TestHostileReads(t *testing.T) {
	python(t)
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("42"), 0o644); err != nil {
		t.Fatal(err)
	}
	tgt := target(t, "cand.py", map[string]string{"helper.py": "K = 7\n", "tests.json": `{"tests": [{"args": [1], "expected": 2}]}`})
	suitePath := filepath.Join(filepath.Dir(tgt), "tests.json")
	home, _ := os.UserHomeDir()
	if home == "" {
		home = "/root"
	}
	src := `import os
def read(p):
    try:
        with open(p, "rb") as f:
            return f.read(100).decode("utf-8", "replace")
    except OSError as e:
        return type(e).__name__
def ls(p):
    try:
        return sorted(os.listdir(p))
    except OSError as e:
        return type(e).__name__
def helper():
    from helper import K
    return K
def scratch():
    open("mine.txt", "w").write("ok")
    return read("mine.txt")
def imports():
    import json, collections, decimal, ctypes, sqlite3, zoneinfo
    return read("/dev/urandom") != "" and len(os.urandom(4)) == 4
`
	cases := []fitness.Case{
		call("read", `["/etc/shadow"]`, `"FileNotFoundError"`),
		call("read", fmt.Sprintf("[%q]", secret), `"FileNotFoundError"`),
		call("read", fmt.Sprintf("[%q]", suitePath), `"FileNotFoundError"`),
		call("ls", fmt.Sprintf("[%q]", filepath.Dir(tgt)), `"FileNotFoundError"`),
		call("helper", "", "7"),
		call("scratch", "", `"ok"`),
		call("imports", "", "true"),
		call("ls", `["/etc"]`, `["ld.so.cache", "localtime"]`),
	}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: tgt, Workers: 1}, config{})
	if !e.Confinement().PrivateRoot {
		t.Skipf("no private root: %v", e.Confinement())
	}
	out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed {
			t.Errorf("case %d (%s %s): %v (%s)", i, cases[i].Function, cases[i].Args, r.Verdict, r.Detail)
		}
	}
	// The home directory: what is left of it is the path to the
	// interpreter (pyenv's lives under it), not the user's files.
	homeCase := []fitness.Case{call("ls", fmt.Sprintf("[%q]", home), `"x"`)}
	e2 := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: homeCase}, Target: tgt, Workers: 1}, config{})
	out, err = e2.Run(context.Background(), []byte(src), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := out.Results[0].Detail
	entries, _ := os.ReadDir(home)
	for _, en := range entries {
		if strings.HasPrefix(en.Name(), ".pyenv") {
			continue
		}
		if strings.Contains(d, "'"+en.Name()+"'") {
			t.Errorf("the candidate sees %s in %s: %s", en.Name(), home, d)
		}
	}
}
