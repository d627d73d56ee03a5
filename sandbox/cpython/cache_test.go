package cpython

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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
