package cpython

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"repair/fitness"
	"repair/sandbox"
)

// TestCacheEntries: an entry reads back as written; one that is corrupt,
// writable by others, a symbolic link or (REPAIR_CACHE_DIR=off) switched
// off is not used; writing an entry removes the long-unused ones of its
// kind and nothing else.
func TestCacheEntries(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("REPAIR_CACHE_DIR", dir)
	writeCache("k-1", []byte("one"))
	if got := readCache("k-1"); string(got) != "one" {
		t.Fatalf("read back %q, want %q", got, "one")
	}
	path := filepath.Join(dir, "k-1")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode: %v %v", fi, err)
	}

	rows := []struct {
		name  string
		spoil func()
	}{
		{"checksum", func() {
			data, _ := os.ReadFile(path)
			data[len(data)-1] ^= 1
			os.WriteFile(path, data, 0o600)
		}},
		{"writable by others", func() { os.Chmod(path, 0o666) }},
		{"symbolic link", func() {
			other := filepath.Join(t.TempDir(), "elsewhere")
			data, _ := os.ReadFile(path)
			os.WriteFile(other, data, 0o600)
			os.Remove(path)
			os.Symlink(other, path)
		}},
		{"truncated", func() { os.WriteFile(path, []byte("short"), 0o600) }},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			os.Remove(path)
			writeCache("k-1", []byte("one"))
			if readCache("k-1") == nil {
				t.Fatal("fresh entry not read")
			}
			r.spoil()
			if got := readCache("k-1"); got != nil {
				t.Errorf("read %q from a spoiled entry", got)
			}
		})
	}

	old := time.Now().Add(-2 * cacheUnused)
	for _, n := range []string{"k-old", "j-old"} {
		writeCache(n, []byte("x"))
		os.Chtimes(filepath.Join(dir, n), old, old)
	}
	writeCache("k-new", []byte("y"))
	if _, err := os.Stat(filepath.Join(dir, "k-old")); !os.IsNotExist(err) {
		t.Errorf("an unused entry of the kind written stayed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "j-old")); err != nil {
		t.Errorf("an entry of another kind went: %v", err)
	}

	t.Setenv("REPAIR_CACHE_DIR", "off")
	writeCache("k-2", []byte("two"))
	if got := readCache("k-new"); got != nil {
		t.Errorf("cache off, read %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "k-2")); !os.IsNotExist(err) {
		t.Errorf("cache off, wrote an entry: %v", err)
	}
}

// TestHarnessCodeCached: the first server of a run keeps the harness's
// compiled code in the cache, and the first server of the next run (a
// fresh process: nothing kept in memory) runs it; code kept for another
// interpreter version is compiled again and replaced.
func TestHarnessCodeCached(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	t.Setenv("REPAIR_CACHE_DIR", dir)
	key := harnessKey(py.Path)
	ok := []fitness.Case{call("f", "[2]", "4")}
	src := "def f(x):\n    return x * 2\n"
	check := func(what string) {
		t.Helper()
		out := runOne(t, src, ok, sandbox.RunOptions{}, config{})
		if r := out.Results[0]; r.Verdict != fitness.Passed {
			t.Fatalf("%s: %v %s", what, r.Verdict, r.Detail)
		}
	}

	harnessCode.Delete(py.Path)
	check("no cache")
	kept := readCache(key)
	if len(kept) < 4 {
		t.Fatalf("no harness code in the cache after a server started (%d bytes)", len(kept))
	}

	// The next run reads it (and keeps it for its next servers): the
	// server compiled nothing, or the entry would have been rewritten.
	os.Chtimes(filepath.Join(dir, key), time.Unix(0, 0), time.Unix(0, 0))
	harnessCode.Delete(py.Path)
	check("cached")
	if v, _ := harnessCode.Load(py.Path); !bytes.Equal(v.([]byte), kept) {
		t.Error("the code read from the cache was not kept for the run's next servers")
	}
	if fi, err := os.Stat(filepath.Join(dir, key)); err != nil || fi.ModTime().Before(time.Now().Add(-time.Hour)) {
		t.Errorf("the entry read was not marked used: %v %v", fi, err)
	}

	// Another version's tag: compiled again, and the entry replaced.
	stale := append([]byte{kept[0] ^ 0xff, kept[1], kept[2], kept[3]}, kept[4:]...)
	writeCache(key, stale)
	harnessCode.Delete(py.Path)
	check("stale tag")
	if got := readCache(key); !bytes.Equal(got[:4], kept[:4]) {
		t.Errorf("stale entry not replaced: tag %x, want %x", got[:4], kept[:4])
	}
}

// TestProbeCached: FindPython keeps what the probe printed and a fresh
// process uses it; a change to what decides sys.path (PYTHONPATH) probes
// again.
func TestProbeCached(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	t.Setenv("REPAIR_CACHE_DIR", dir)
	forget := func() {
		interpMu.Lock()
		clear(interpCache)
		interpMu.Unlock()
	}
	t.Cleanup(forget)
	forget()
	if _, err := FindPython(context.Background(), py.Path); err != nil {
		t.Fatal(err)
	}
	key := probeKey(py.Path)
	out := readCache(key)
	if out == nil {
		t.Fatal("the probe's output was not kept")
	}
	// A marker version in the entry: a fresh process that reads it reports
	// it, so the probe did not run.
	marked := bytes.Replace(out, []byte("\n"+py.Version+"\n"), []byte("\n3.99.0\n"), 1)
	writeCache(key, marked)
	forget()
	it, err := FindPython(context.Background(), py.Path)
	if err != nil {
		t.Fatal(err)
	}
	if it.Version != "3.99.0" {
		t.Errorf("version %q: the kept probe was not used", it.Version)
	}

	t.Setenv("PYTHONPATH", t.TempDir())
	forget()
	if probeKey(py.Path) == key {
		t.Fatal("PYTHONPATH does not change the probe's key")
	}
	if it, err = FindPython(context.Background(), py.Path); err != nil || it.Version != py.Version {
		t.Errorf("with PYTHONPATH set: %v, %v; want a fresh probe (%s)", it, err, py.Version)
	}

	// An entry that does not parse is probed over.
	os.Unsetenv("PYTHONPATH")
	writeCache(probeKey(py.Path), []byte("garbage"))
	forget()
	if it, err = FindPython(context.Background(), py.Path); err != nil || it.Version != py.Version {
		t.Errorf("over a garbage entry: %v, %v", it, err)
	}
}

// TestPytestProbeCached: FindPytest keeps the pytest probe's answer and a
// fresh process uses it while the directories it watched (sys.path's and
// their parents) are as they were; a package added to one, or a change to
// what decides sys.path (PYTHONPATH), probes again.
func TestPytestProbeCached(t *testing.T) {
	py := realPytest(t)
	t.Setenv("REPAIR_CACHE_DIR", t.TempDir())
	// The directory the probe runs from is on its sys.path (first, as
	// for python -c): one old enough to keep, in a parent as old.
	site := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{site, filepath.Dir(site)} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(site)
	forget := func() {
		pytestMu.Lock()
		clear(pytestFinds)
		pytestMu.Unlock()
	}
	t.Cleanup(forget)
	find := func() string {
		forget()
		pt := FindPytest(context.Background(), py)
		if pt == nil {
			return ""
		}
		return pt.Version
	}
	want := find()
	if want == "" {
		t.Fatal("no pytest found")
	}
	key := pytestKey(py.Path)
	data := readCache(key)
	if data == nil {
		t.Fatal("the pytest probe's answer was not kept")
	}
	// A marker version in the entry: a fresh process that reads it reports
	// it, so the probe did not run.
	mark := func() {
		var k keptProbe
		if err := json.Unmarshal(data, &k); err != nil {
			t.Fatal(err)
		}
		k.Out = bytes.Replace(k.Out, []byte(want+"\n"), []byte("99.0\n"), 1)
		marked, _ := json.Marshal(k)
		writeCache(key, marked)
	}
	for _, row := range []struct {
		name   string
		change func()
		want   string
	}{
		{"nothing changed", func() {}, "99.0"},
		{"a package added", func() {
			if err := os.Mkdir(filepath.Join(site, "newpkg"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, want},
		{"PYTHONPATH changed", func() { t.Setenv("PYTHONPATH", t.TempDir()) }, want},
	} {
		t.Run(row.name, func(t *testing.T) {
			mark()
			row.change()
			if got := find(); got != row.want {
				t.Errorf("version %q; want %q", got, row.want)
			}
		})
	}
}

// originalSource is a target whose f says whether every code object of
// the module (nested functions, a class, its methods, a comprehension)
// names the file the server imports it from: what compiling it there
// gives, whichever server compiled the code it runs.
const originalSource = `import sys

MOD = sys._getframe().f_code


class C:
    def m(self):
        return [x for x in (1, 2)]


def walk(co):
    yield co
    for k in co.co_consts:
        if type(k) is type(co):
            yield from walk(k)


def f():
    def g():
        return lambda: 1
    return [sorted({c.co_filename == __file__ for c in walk(MOD)}), len(list(walk(MOD))), g.__code__.co_filename == __file__]
`

// originalCases run f of originalSource: every code object named as the
// module's file.
var originalCases = []fitness.Case{call("f", "", `[[true], 9, true]`)}

// startOriginal starts an engine for the target src (a fresh file, the
// same name every time) and runs the original once, with coverage: the
// run the search starts with, on the code the server compiled or loaded.
func startOriginal(t *testing.T, dir, src string) *Engine {
	t.Helper()
	tgt := filepath.Join(dir, "prog.py")
	if err := os.WriteFile(tgt, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: originalCases}, Target: tgt}, config{})
	out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{Coverage: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Results[0]; r.Verdict != fitness.Passed || len(r.Lines) == 0 {
		t.Fatalf("the original: %v %s, lines %v", r.Verdict, r.Detail, r.Lines)
	}
	return e
}

// TestOriginalCodeShared: with the cache off, the first server of a run
// compiles the original and every server that starts after it (grown, of
// another engine of the same program: the guard's, the check's) loads
// that code instead, renamed to its own file; another program is
// compiled.
func TestOriginalCodeShared(t *testing.T) {
	py := python(t)
	t.Setenv("REPAIR_CACHE_DIR", "off")
	dir := t.TempDir()
	originals.Delete(originalKey(py.Path, originalSource))
	a := startOriginal(t, dir, originalSource)
	if n := a.stats.compiled.Load(); n != 1 {
		t.Fatalf("the first server compiled the original %d times, want 1", n)
	}
	s, err := a.start(nil) // as Grow and the pool start one more
	if err != nil {
		t.Fatal(err)
	}
	s.kill()
	if n := a.stats.compiled.Load(); n != 1 {
		t.Errorf("a second server of the engine compiled the original (%d compiles)", n)
	}
	b := startOriginal(t, dir, originalSource)
	if n := b.stats.compiled.Load(); n != 0 {
		t.Errorf("another engine of the same program compiled the original %d times, want 0", n)
	}
	other := originalSource + "\n# another program\n"
	originals.Delete(originalKey(py.Path, other))
	c := startOriginal(t, dir, other)
	if n := c.stats.compiled.Load(); n != 1 {
		t.Errorf("another program was compiled %d times, want 1", n)
	}
}

// TestOriginalCodeTogether: servers that start together (the search's
// engine and the guard's, the cache off) compile the original once: the
// others wait for that code rather than compile it too.
func TestOriginalCodeTogether(t *testing.T) {
	py := python(t)
	t.Setenv("REPAIR_CACHE_DIR", "off")
	src := originalSource + "\n# started together\n"
	originals.Delete(originalKey(py.Path, src))
	tgt := filepath.Join(t.TempDir(), "prog.py")
	if err := os.WriteFile(tgt, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	engines := make([]*Engine, 3)
	errs := make([]error, len(engines))
	var wg sync.WaitGroup
	for i := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			engines[i], errs[i] = newEngine(context.Background(), sandbox.Options{
				Suite: &fitness.Suite{MemoryMB: 256, Cases: originalCases}, Target: tgt, Workers: 1}, config{})
		}()
	}
	wg.Wait()
	var n int64
	for i, e := range engines {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		defer e.Close()
		out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := out.Results[0]; r.Verdict != fitness.Passed {
			t.Errorf("engine %d: %v %s", i, r.Verdict, r.Detail)
		}
		n += e.stats.compiled.Load()
	}
	if n != 1 {
		t.Errorf("%d engines started together compiled the original %d times, want 1", len(engines), n)
	}
}

// TestOriginalCodeCached: the original's code a run compiled is in the
// cache, and the next run (nothing kept in memory) loads it; an entry that
// fails its checksum, was made for another key, or holds what is not this
// interpreter's code (another version's tag, not a code object, not
// marshal data) is not used: the server compiles the original, and the
// entry is replaced with one the next run uses.
func TestOriginalCodeCached(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	t.Setenv("REPAIR_CACHE_DIR", dir)
	key := originalKey(py.Path, originalSource)
	originals.Delete(key)
	startOriginal(t, t.TempDir(), originalSource)
	entry := readCache(key)
	if len(entry) <= len(key) || string(entry[:len(key)]) != key {
		t.Fatalf("no entry for the original's code in the cache (%d bytes)", len(entry))
	}
	body := entry[len(key):]
	nl := bytes.IndexByte(body, '\n')
	tag, code := body[:nl+1], body[nl+1:]
	fields := strings.Fields(string(tag))
	if len(fields) != 5 || fields[0] != "repair-original" {
		t.Fatalf("tag %q", tag)
	}
	fields[2] = "30b00f0" // another interpreter's version
	otherTag := strings.Join(fields, " ") + "\n"
	otherKey := originalKey(py.Path, originalSource+"\n")
	write := func(data ...[]byte) func() {
		return func() { writeCache(key, bytes.Join(data, nil)) }
	}
	for _, row := range []struct {
		name     string
		spoil    func()
		compiled int64
	}{
		{"kept", func() {}, 0},
		{"checksum", func() {
			p := filepath.Join(dir, key)
			data, _ := os.ReadFile(p)
			data[len(data)-1] ^= 1
			os.WriteFile(p, data, 0o600)
		}, 1},
		{"another key's", write([]byte(otherKey), body), 1},
		{"another interpreter's", write([]byte(key), []byte(otherTag), code), 1},
		{"not a code object", write([]byte(key), tag, []byte("N")), 1},
		{"not marshal data", write([]byte(key), tag, []byte("\x00garbage")), 1},
		{"truncated", write([]byte(key), tag, code[:len(code)/2]), 1},
	} {
		t.Run(row.name, func(t *testing.T) {
			writeCache(key, entry)
			row.spoil()
			originals.Delete(key)
			e := startOriginal(t, t.TempDir(), originalSource)
			if n := e.stats.compiled.Load(); n != row.compiled {
				t.Errorf("the server compiled the original %d times, want %d", n, row.compiled)
			}
			// What the cache holds now serves the next run. (Each server
			// compiles under its own file name: the bytes differ.)
			if got := readCache(key); !bytes.HasPrefix(got, append([]byte(key), tag...)) {
				t.Fatalf("the cache holds %.80q, not a fresh entry", got)
			}
			originals.Delete(key)
			if n := startOriginal(t, t.TempDir(), originalSource).stats.compiled.Load(); n != 0 {
				t.Errorf("the next run compiled the original %d times over the entry replaced", n)
			}
		})
	}
}
