package cpython

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"repair/sandbox"
)

// Interpreter is a resolved CPython.
type Interpreter struct {
	// Path is the real executable (sys.executable), never a version
	// manager's shim.
	Path string
	// Version is "3.11.7".
	Version string
	// Trees are the directories the interpreter reads: its prefixes
	// (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)
	// and the directories of its sys.path, as absolute paths. The sandbox
	// shows candidates these and the system libraries, and nothing else of
	// the file system.
	Trees []string
}

// minMinor is the oldest supported CPython 3 minor version.
const minMinor = 8

// probe prints what FindPython needs. -s -S keep it fast and independent
// of site-packages.
const probe = `import sys
print(sys.executable)
print("%d.%d.%d" % sys.version_info[:3])
print(sys.implementation.name)
print("\0".join([sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix] + [p for p in sys.path if p]))`

var (
	interpMu    sync.Mutex
	interpCache = map[string]*Interpreter{} // by the path LookPath found
)

// FindPython resolves name ("python3" when empty; a name is looked up on
// PATH) to the real interpreter once per process, and once per change of
// the interpreter across runs (the probe's output is kept in the cache,
// cache.go): version managers such as pyenv install shims that cost about
// 100 ms per start. It requires
// CPython 3.8 or newer; anything else is an error wrapping
// [sandbox.ErrNoPython].
func FindPython(ctx context.Context, name string) (*Interpreter, error) {
	if name == "" {
		name = "python3"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", sandbox.ErrNoPython, err)
	}
	if real, ok := pyenvTarget(p); ok {
		// Skip the shim's own start (about 100 ms of shell script).
		p = real
	}
	interpMu.Lock()
	it, ok := interpCache[p]
	interpMu.Unlock()
	if ok {
		return it, nil
	}
	key := probeKey(p)
	var out []byte
	if key != "" {
		out = readCache(key)
	}
	if out != nil {
		it, err = parseProbe(p, out)
	}
	if out == nil || err != nil {
		// Not kept, or kept from an interpreter that changed: probe.
		if out, err = runProbe(ctx, p); err != nil {
			return nil, err
		}
		if it, err = parseProbe(p, out); err != nil {
			return nil, err
		}
		if key != "" {
			writeCache(key, out)
		}
	}
	interpMu.Lock()
	interpCache[p] = it
	interpMu.Unlock()
	return it, nil
}

// runProbe runs the probe with the interpreter at p.
func runProbe(ctx context.Context, p string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, p, "-s", "-S", "-c", probe)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s: %v: %s", sandbox.ErrNoPython, p, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// parseProbe is the interpreter at p from what the probe printed.
func parseProbe(p string, out []byte) (*Interpreter, error) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		return nil, fmt.Errorf("%w: %s: unexpected output %q", sandbox.ErrNoPython, p, out)
	}
	exe, version, impl := strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1]), strings.TrimSpace(lines[2])
	if impl != "cpython" {
		return nil, fmt.Errorf("%w: %s is %s, not CPython", sandbox.ErrNoPython, p, impl)
	}
	if !versionOK(version) {
		return nil, fmt.Errorf("%w: %s is Python %s", sandbox.ErrNoPython, p, version)
	}
	if exe == "" || !filepath.IsAbs(exe) {
		exe = p
	}
	if !filepath.IsAbs(exe) {
		var err error
		if exe, err = filepath.Abs(exe); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(exe); err != nil {
		return nil, fmt.Errorf("%w: %v", sandbox.ErrNoPython, err)
	}
	return &Interpreter{Path: exe, Version: version, Trees: interpreterTrees(exe, strings.Split(lines[3], "\x00"))}, nil
}

// probeKey names the cached probe of the interpreter at p (cache.go) by
// what decides its output under -s -S: the file (path, and the identity,
// size and time of what it resolves to), a virtual environment's
// pyvenv.cfg next to it or one directory up, and the variables that
// change sys.path. Empty when p cannot be read.
func probeKey(p string) string {
	parts := [][]byte{[]byte(p)}
	for _, f := range []string{p, filepath.Join(filepath.Dir(p), "pyvenv.cfg"), filepath.Join(filepath.Dir(filepath.Dir(p)), "pyvenv.cfg")} {
		id := fileIdentity(f)
		if id == nil && f == p {
			return ""
		}
		parts = append(parts, id)
	}
	for _, v := range []string{"PYTHONPATH", "PYTHONHOME", "PYTHONPLATLIBDIR", "PYTHONSAFEPATH"} {
		val, ok := os.LookupEnv(v)
		parts = append(parts, fmt.Appendf(nil, "%s=%t:%s", v, ok, val))
	}
	return cacheKey("python", parts...)
}

// fileIdentity is what tells the file f (what it resolves to) from
// another at the same path: its device, inode, size and times; nil when
// it cannot be read.
func fileIdentity(f string) []byte {
	fi, err := os.Stat(f)
	if err != nil {
		return nil
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil {
		return nil
	}
	return fmt.Appendf(nil, "%d %d %d %d %d", st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano(), st.Ctim.Nano())
}

// interpreterTrees are the directories of an interpreter at exe with the
// given prefixes and path entries: the existing absolute ones, without
// those inside another, and the directory of exe.
func interpreterTrees(exe string, dirs []string) []string {
	var out []string
	for _, d := range append(dirs, filepath.Dir(exe)) {
		d = filepath.Clean(d)
		if !filepath.IsAbs(d) || d == "/" {
			continue
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		out = append(out, d)
	}
	return out
}

// pyenvTarget resolves a pyenv shim the way pyenv does, without running
// it: the version named by $PYENV_VERSION, else by the nearest
// .python-version file from the working directory up, else by
// $PYENV_ROOT/version; "system" and anything unexpected are left to the
// shim. https://github.com/pyenv/pyenv#choosing-the-python-version
func pyenvTarget(shim string) (string, bool) {
	dir := filepath.Dir(shim)
	if filepath.Base(dir) != "shims" {
		return "", false
	}
	root := os.Getenv("PYENV_ROOT")
	if root == "" {
		root = filepath.Dir(dir)
	}
	if filepath.Clean(filepath.Join(root, "shims")) != filepath.Clean(dir) {
		return "", false
	}
	version := firstWord(os.Getenv("PYENV_VERSION"), ":")
	if version == "" {
		if wd, err := os.Getwd(); err == nil {
			for d := wd; ; d = filepath.Dir(d) {
				if v := versionFile(filepath.Join(d, ".python-version")); v != "" {
					version = v
					break
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
	}
	if version == "" {
		version = versionFile(filepath.Join(root, "version"))
	}
	if version == "" || version == "system" || strings.ContainsAny(version, "/\\") {
		return "", false
	}
	real := filepath.Join(root, "versions", version, "bin", filepath.Base(shim))
	if fi, err := os.Stat(real); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", false
	}
	return real, true
}

// versionFile returns the first version named in a pyenv version file.
func versionFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			return firstWord(line, " \t")
		}
	}
	return ""
}

func firstWord(s, seps string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, seps); i >= 0 {
		s = s[:i]
	}
	return s
}

func versionOK(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return major > 3 || (major == 3 && minor >= minMinor)
}
