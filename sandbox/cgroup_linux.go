package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The kernel does not apply RLIMIT_NPROC to uid 0 of the initial user
// namespace (kernel/fork.c: copy_process exempts INIT_USER), and a user
// namespace that maps uid 0 onto itself is still that user. When the tool
// runs as root, a pids cgroup bounds fork bombs instead, if one can be
// created: cgroup v1's pids hierarchy, or cgroup v2 where the pids
// controller is enabled for our cgroup's children.

const cgroupPrefix = "repair-sandbox-"

var cgroupSeq atomic.Int64

// pidsCgroup is a cgroup made for one sandboxed process.
type pidsCgroup struct {
	dir string
	v2  bool
	fd  int // v2: open directory for CLONE_INTO_CGROUP; -1 otherwise
}

// newPidsCgroup creates a cgroup whose pids.max is max.
func newPidsCgroup(max int) (*pidsCgroup, error) {
	parent, v2, err := ownPidsCgroup()
	if err != nil {
		return nil, err
	}
	removeStaleCgroups(parent)
	dir := filepath.Join(parent, fmt.Sprintf("%s%d-%d", cgroupPrefix, os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	g := &pidsCgroup{dir: dir, v2: v2, fd: -1}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
		g.remove()
		return nil, err
	}
	if v2 {
		fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			g.remove()
			return nil, err
		}
		g.fd = fd
	}
	return g, nil
}

// add moves pid into the cgroup (v1; v2 uses CLONE_INTO_CGROUP).
func (g *pidsCgroup) add(pid int) error {
	if g.v2 {
		return nil
	}
	return os.WriteFile(filepath.Join(g.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
}

// remove deletes the cgroup. Its processes must be gone; the kernel may
// need a moment to notice, so this retries for up to a second.
func (g *pidsCgroup) remove() {
	if g.fd >= 0 {
		unix.Close(g.fd)
		g.fd = -1
	}
	for i := 0; i < 50; i++ {
		err := unix.Rmdir(g.dir)
		if err == nil || errors.Is(err, unix.ENOENT) || !errors.Is(err, unix.EBUSY) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ownPidsCgroup returns the directory of this process's pids cgroup and
// whether it is cgroup v2.
func ownPidsCgroup() (dir string, v2 bool, err error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	var v1Path, v2Path string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			v2Path = parts[2]
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "pids" {
				v1Path = parts[2]
			}
		}
	}
	if v1Path != "" {
		base := "/sys/fs/cgroup/pids"
		if _, err := os.Stat(filepath.Join(base, "cgroup.procs")); err == nil {
			return filepath.Join(base, v1Path), false, nil
		}
	}
	if v2Path != "" {
		base := "/sys/fs/cgroup"
		d := filepath.Join(base, v2Path)
		ctl, err := os.ReadFile(filepath.Join(d, "cgroup.subtree_control"))
		if err == nil && hasWord(string(ctl), "pids") {
			return d, true, nil
		}
	}
	return "", false, errors.New("no pids cgroup controller available")
}

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

// removeStaleCgroups removes cgroups left behind by processes that died
// without cleaning up.
func removeStaleCgroups(parent string) {
	ents, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, cgroupPrefix) {
			continue
		}
		pidStr, _, _ := strings.Cut(strings.TrimPrefix(name, cgroupPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if unix.Kill(pid, 0) == unix.ESRCH {
			unix.Rmdir(filepath.Join(parent, name))
		}
	}
}
