package cpython

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// The engine keeps these between runs, in the user's cache directory
// ($REPAIR_CACHE_DIR, else $XDG_CACHE_HOME/repair or ~/.cache/repair;
// REPAIR_CACHE_DIR=off keeps nothing), as Go keeps its build cache: what
// the interpreter probe printed (FindPython), keyed by the interpreter's
// file and the variables that change its sys.path; what the pytest probe
// printed (FindPytest); the harness's compiled code (msgCode), keyed by
// the interpreter and the harness's sources; and the original program's
// compiled code (msgOriginal, "original-" entries), keyed by the
// interpreter's file and the program's source (originalKey), each entry
// starting with its own key. Each saves a start of the interpreter or a
// compile, 10 to 30 ms of a repair's start-up (the original's: about 30
// ms of CPU per server for a file of 5,000 lines). Go writes every entry;
// the compiled code is what a server sent before any candidate ran in it,
// and a server checks that what it is given is code of its own
// interpreter (the harness's: its version; the original's:
// partial.original_tag) and compiles when it is not. A file that is not
// the user's own, is writable by others, or whose checksum does not match
// is ignored (and rewritten); a cache that cannot be written costs
// nothing but the time. An entry unused for 30 days is removed when
// another of its kind is written.

// cacheMax bounds what the engine reads from the cache.
const cacheMax = 16 << 20

// cacheDir is the engine's cache directory, or "" for none.
func cacheDir() string {
	if d := os.Getenv("REPAIR_CACHE_DIR"); d != "" {
		if d == "off" || !filepath.IsAbs(d) {
			return ""
		}
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil || !filepath.IsAbs(d) {
		return ""
	}
	return filepath.Join(d, "repair")
}

// cacheKey names a cache entry of the given kind by the SHA-256 of parts.
func cacheKey(kind string, parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		var n [8]byte
		for i, l := 0, len(p); i < 8; i, l = i+1, l>>8 {
			n[i] = byte(l)
		}
		h.Write(n[:])
		h.Write(p)
	}
	return kind + "-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// readCache returns the entry name, or nil when there is none to trust.
func readCache(name string) []byte {
	dir := cacheDir()
	if dir == "" {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < sha256.Size || fi.Size() > cacheMax || fi.Mode().Perm()&0o022 != 0 {
		return nil
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, cacheMax))
	if err != nil || len(data) < sha256.Size {
		return nil
	}
	sum, body := data[:sha256.Size], data[sha256.Size:]
	if got := sha256.Sum256(body); string(got[:]) != string(sum) {
		return nil
	}
	if now := time.Now(); now.Sub(fi.ModTime()) > cacheTouch {
		// In use: trimCache keeps it.
		os.Chtimes(f.Name(), now, now)
	}
	return body
}

// An entry unused for cacheUnused is removed when another entry of its
// kind is written (a new build of the tool, a new interpreter); an entry
// read is marked used at most once per cacheTouch.
const (
	cacheUnused = 30 * 24 * time.Hour
	cacheTouch  = 24 * time.Hour
)

// trimCache removes the entries of kind in dir unused for cacheUnused, and
// temporary files a writer left behind as long ago.
func trimCache(dir, kind string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, ent := range ents {
		if !strings.HasPrefix(ent.Name(), kind+"-") {
			continue
		}
		if fi, err := ent.Info(); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > cacheUnused {
			os.Remove(filepath.Join(dir, ent.Name()))
		}
	}
}

// writeCache stores data as the entry name, atomically (a reader sees
// the old entry or the new one), readable by the user alone.
func writeCache(name string, data []byte) {
	dir := cacheDir()
	if dir == "" || len(data) > cacheMax-sha256.Size {
		return
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, name+".tmp*")
	if err != nil {
		return
	}
	sum := sha256.Sum256(data)
	_, err1 := f.Write(sum[:])
	_, err2 := f.Write(data)
	err3 := f.Close()
	if err1 != nil || err2 != nil || err3 != nil || os.Rename(f.Name(), filepath.Join(dir, name)) != nil {
		os.Remove(f.Name())
		return
	}
	if kind, _, ok := strings.Cut(name, "-"); ok {
		trimCache(dir, kind)
	}
}
