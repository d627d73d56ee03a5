package sandbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// cmdState is the platform part of a Cmd.
type cmdState struct {
	cmd     *exec.Cmd
	cgroup  *pidsCgroup
	started bool
	cleaned bool
}

// shimMsg is what the parent sends the shim on its config pipe.
type shimMsg struct {
	Config
	Dir        string `json:"dir"`
	Namespaces bool   `json:"namespaces"`
}

// Command prepares cfg.Path to run under the shim. It creates the private
// working directory; call [Cmd.Start] next, then [Cmd.Wait] (or
// [Cmd.Cleanup] when Start is never called or fails).
func Command(cfg Config) (*Cmd, error) {
	if !filepath.IsAbs(cfg.Path) {
		return nil, fmt.Errorf("sandbox: program path %q is not absolute", cfg.Path)
	}
	if len(cfg.Args) == 0 {
		cfg.Args = []string{cfg.Path}
	}
	removeStaleDirs(os.TempDir())
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &Cmd{Dir: dir, cfg: cfg, state: &cmdState{}}, nil
}

// dirPrefix starts the name of every private directory, followed by the
// pid of the process that made it.
const dirPrefix = "repair-sandbox-"

// removeStaleDirs removes the private directories of processes that died
// without cleaning up (killed with SIGKILL, say). With namespaces they are
// empty on the host: the tmpfs lived in the sandbox's mount namespace.
func removeStaleDirs(tmp string) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, dirPrefix) {
			continue
		}
		pidStr, _, ok := strings.Cut(strings.TrimPrefix(name, dirPrefix), "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid == os.Getpid() {
			continue
		}
		if unix.Kill(pid, 0) == unix.ESRCH {
			removeDir(filepath.Join(tmp, name))
		}
	}
}

// Start starts the shim, which confines itself and executes the program.
// It returns once the program is executing (or the shim failed). With
// IsolationAuto, a kernel that refuses namespaces makes it retry with the
// remaining layers only and set Confinement.Degraded; with IsolationStrict
// that is an error wrapping [ErrIsolation].
func (c *Cmd) Start() error {
	if c.state.started {
		return errors.New("sandbox: Start called twice")
	}
	c.state.started = true
	iso := c.cfg.Isolation
	useNS := iso != IsolationNone && !c.cfg.NoNamespaces
	degraded := ""
	switch {
	case iso == IsolationNone:
		degraded = "isolation disabled: rlimits only"
	case c.cfg.NoNamespaces:
		degraded = "namespaces disabled"
	}
	err := c.start(useNS)
	if err != nil && useNS {
		if iso == IsolationStrict {
			c.Cleanup()
			return fmt.Errorf("%w: %v", ErrIsolation, err)
		}
		degraded = "namespaces not permitted: " + err.Error()
		err = c.start(false)
	}
	if err != nil {
		c.Cleanup()
		return err
	}
	switch {
	case c.Confinement.Degraded != "" && degraded != "":
		c.Confinement.Degraded = degraded + "; " + c.Confinement.Degraded
	case degraded != "":
		c.Confinement.Degraded = degraded
	}
	if iso == IsolationStrict && !c.Confinement.Full() {
		c.Process.Kill()
		c.Wait()
		return fmt.Errorf("%w: %s", ErrIsolation, c.Confinement.Degraded)
	}
	return nil
}

func (c *Cmd) start(useNS bool) error {
	if !useNS && c.cfg.Isolation != IsolationNone {
		// Without a PID namespace the program sees this process, runs as
		// the same user and, when that user is not root, has the same
		// (no) capabilities: it could open our /proc/PID/mem and environ
		// (the expected values, a serve token). Not dumpable, we are out
		// of its reach (ptrace(2), "Ptrace access mode checking").
		unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	}
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer cfgW.Close()
	stR, stW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		return err
	}
	defer stR.Close()

	n := 3 + len(c.ExtraFiles)
	cmd := exec.Command("/proc/self/exe", shimArg, strconv.Itoa(n), strconv.Itoa(n+1))
	cmd.Env = []string{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, c.Stdout, c.Stderr
	cmd.ExtraFiles = append(append([]*os.File(nil), c.ExtraFiles...), cfgR, stW)
	attr := &syscall.SysProcAttr{Setpgid: true}
	if useNS {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	var cg *pidsCgroup
	if c.cfg.Isolation != IsolationNone && c.cfg.Limits.Processes > 0 && os.Geteuid() == 0 {
		cg, _ = newPidsCgroup(c.cfg.Limits.Processes + 1) // +1: the shim itself before exec
		if cg != nil && cg.v2 {
			attr.UseCgroupFD = true
			attr.CgroupFD = cg.fd
		}
	}
	cmd.SysProcAttr = attr
	err = cmd.Start()
	cfgR.Close()
	stW.Close()
	if err != nil {
		if cg != nil {
			cg.remove()
		}
		stage := "start"
		if useNS {
			stage = "namespaces"
		}
		return &ShimError{Stage: stage, Msg: err.Error()}
	}
	fail := func(err error) error {
		cmd.Process.Kill()
		cmd.Wait()
		if cg != nil {
			cg.remove()
		}
		return err
	}
	if cg != nil {
		if err := cg.add(cmd.Process.Pid); err != nil {
			cg.remove()
			cg = nil
		}
	}
	msg := shimMsg{Config: c.cfg, Dir: c.Dir, Namespaces: useNS}
	data, err := json.Marshal(msg)
	if err != nil {
		return fail(err)
	}
	if _, err := cfgW.Write(data); err != nil {
		return fail(fmt.Errorf("sandbox: sending the shim its configuration: %w", err))
	}
	cfgW.Close()
	// The status pipe is close-on-exec in the shim: EOF means the program
	// is executing or the shim has exited.
	status, _ := io.ReadAll(io.LimitReader(stR, 1<<16))
	var conf Confinement
	var shimErr *ShimError
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "C "):
			json.Unmarshal([]byte(line[2:]), &conf)
		case strings.HasPrefix(line, "E "):
			stage, msg, _ := strings.Cut(line[2:], "\t")
			shimErr = &ShimError{Stage: stage, Msg: msg}
		}
	}
	if shimErr == nil && !strings.HasPrefix(string(status), "C ") {
		shimErr = &ShimError{Stage: "start", Msg: "the shim exited without reporting (does main call sandbox.Init first?)"}
	}
	if shimErr != nil {
		return fail(shimErr)
	}
	conf.PidsCgroup = cg != nil
	c.state.cmd = cmd
	c.state.cgroup = cg
	c.Process = cmd.Process
	c.Confinement = conf
	return nil
}

// Kill kills the program and everything it started. With a PID namespace
// killing the program (its init) is enough: the kernel kills the rest.
// Without one, the processes of its pids cgroup and its living
// descendants (orphans become its children: the shim made it a child
// subreaper) are killed first.
func (c *Cmd) Kill() error {
	if c.Process == nil {
		return errors.New("sandbox: not started")
	}
	if !c.Confinement.Namespaces {
		if cg := c.state.cgroup; cg != nil && !cg.v2 {
			killCgroup(cg.dir)
		}
		killChildren(c.Process.Pid)
	}
	return c.Process.Kill()
}

// killCgroup kills every process listed in a cgroup v1 directory.
func killCgroup(dir string) {
	for round := 0; round < 10; round++ {
		data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if err != nil || len(bytes.TrimSpace(data)) == 0 {
			return
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
				unix.Kill(pid, unix.SIGKILL)
			}
		}
	}
}

// killChildren kills the living children of pid until none is left: those
// it adopts meanwhile too (it is a child subreaper).
func killChildren(pid int) {
	for round := 0; round < 100; round++ {
		alive := 0
		for _, k := range childrenOf(pid) {
			if processState(k) == 'Z' {
				continue
			}
			alive++
			killChildren(k)
			unix.Kill(k, unix.SIGKILL)
		}
		if alive == 0 {
			return
		}
	}
}

func childrenOf(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var kids []int
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if k, err := strconv.Atoi(f); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids
}

// processState is the state letter of /proc/PID/stat ('Z' for a zombie),
// or 0 when the process is gone.
func processState(pid int) byte {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return 0
	}
	return data[i+2]
}

// Wait waits for the program to exit, then removes the private working
// directory and the cgroup.
func (c *Cmd) Wait() error {
	if c.state.cmd == nil {
		c.Cleanup()
		return errors.New("sandbox: not started")
	}
	err := c.state.cmd.Wait()
	c.Cleanup()
	return err
}

// Cleanup removes the private working directory and the cgroup. Wait calls
// it; call it yourself only when Start was not called or failed. It is safe
// to call more than once.
func (c *Cmd) Cleanup() {
	if c.state.cleaned {
		return
	}
	c.state.cleaned = true
	if c.state.cgroup != nil {
		c.state.cgroup.remove()
	}
	removeDir(c.Dir)
}

// removeDir removes dir even where its owner took write permission away
// (lib/ is read-only, and a candidate may make a directory mode 000).
func removeDir(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}

// ---- the shim side -------------------------------------------------------

// Secure bits (include/uapi/linux/securebits.h): no capabilities for uid 0
// on execve, none kept or raised on uid changes, all locked.
const secureBits = 1<<0 | 1<<1 | // SECBIT_NOROOT, _LOCKED
	1<<2 | 1<<3 | // SECBIT_NO_SETUID_FIXUP, _LOCKED
	1<<5 | // SECBIT_KEEP_CAPS_LOCKED (KEEP_CAPS off)
	1<<6 | 1<<7 // SECBIT_NO_CAP_AMBIENT_RAISE, _LOCKED

// runShim confines the process in this order: mounts (namespace mode),
// rlimits, capabilities, no_new_privs, seccomp; then it executes the
// program with the configured (by default empty) environment.
func runShim(args []string) {
	// Everything below is per thread (capabilities, securebits,
	// no_new_privs) or must happen on the thread that calls execve.
	runtime.LockOSThread()
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "sandbox shim: bad arguments")
		os.Exit(125)
	}
	cfgFD, err1 := strconv.Atoi(args[0])
	stFD, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "sandbox shim: bad arguments")
		os.Exit(125)
	}
	syscall.CloseOnExec(stFD)
	status := os.NewFile(uintptr(stFD), "status")
	fail := func(stage string, err error) {
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		fmt.Fprintf(status, "E %s\t%s\n", stage, msg)
		os.Exit(126)
	}
	cf := os.NewFile(uintptr(cfgFD), "config")
	data, err := io.ReadAll(cf)
	cf.Close()
	if err != nil {
		fail("config", err)
	}
	var m shimMsg
	if err := json.Unmarshal(data, &m); err != nil {
		fail("config", err)
	}

	var conf Confinement
	var notes []string
	degrade := func(stage string, err error) {
		if m.Isolation == IsolationStrict {
			fail(stage, err)
		}
		notes = append(notes, stage+": "+err.Error())
	}
	if m.Namespaces {
		stage, note, err := setupMounts(&m, &conf)
		if err != nil {
			fail(stage, err)
		}
		if note != "" {
			degrade("mount", errors.New(note))
		}
		conf.Namespaces = true
	} else if err := setupPlainDir(&m); err != nil {
		fail("workdir", err)
	}
	if err := os.Chdir(m.Dir); err != nil {
		fail("workdir", err)
	}
	if err := setLimits(m.Limits, m.Namespaces); err != nil {
		fail("rlimit", err)
	}
	if m.Isolation != IsolationNone {
		// Orphans of the program become its children, so that it can
		// reap them (it is PID 1 of its namespace anyway).
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
		if err := dropCapabilities(); err != nil {
			degrade("capabilities", err)
		} else {
			conf.NoCapabilities = true
		}
		if err := seccomp.SetNoNewPrivs(); err != nil {
			degrade("no_new_privs", err)
		} else {
			conf.NoNewPrivs = true
		}
		if !seccomp.Supported() {
			degrade("seccomp", errors.New("not supported by the kernel"))
		} else if err := loadFilter(); err != nil {
			degrade("seccomp", err)
		} else {
			conf.Seccomp = true
		}
	}
	conf.Degraded = strings.Join(notes, "; ")
	env := m.Env
	if env == nil {
		env = []string{}
	}
	argv0, err := syscall.BytePtrFromString(m.Path)
	if err != nil {
		fail("exec", err)
	}
	argv, err := syscall.SlicePtrFromStrings(m.Args)
	if err != nil {
		fail("exec", err)
	}
	envv, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		fail("exec", err)
	}
	report, _ := json.Marshal(conf)
	fmt.Fprintf(status, "C %s\n", report)
	// RLIMIT_AS comes last and execve follows with raw system calls and no
	// allocation in between: the Go runtime of the shim reserves far more
	// address space than a candidate may use, and would crash if it had to
	// map memory under the limit.
	debug.SetGCPercent(-1)
	var as *unix.Rlimit
	if l := m.Limits.AddressSpace; l > 0 {
		as = &unix.Rlimit{Cur: uint64(l), Max: uint64(l)}
		var cur unix.Rlimit
		if err := unix.Getrlimit(unix.RLIMIT_AS, &cur); err == nil && as.Max > cur.Max {
			as.Cur, as.Max = cur.Max, cur.Max
		}
	}
	if as != nil {
		if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, 0, unix.RLIMIT_AS, uintptr(unsafe.Pointer(as)), 0, 0, 0); e != 0 {
			fail("rlimit", fmt.Errorf("address space: %w", e))
		}
	}
	_, _, e := syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(argv0)),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
	fail("exec", fmt.Errorf("%s: %w", m.Path, e))
}

// setupMounts runs in the new mount namespace: nothing propagates back,
// the program gets a root of its own (privateRoot) or, where that fails,
// every mount of the host read-only; /proc is the PID namespace's own;
// the private directory is a fresh tmpfs holding a read-only lib/. note
// says why the private root is missing, if it is.
func setupMounts(m *shimMsg, conf *Confinement) (stage, note string, err error) {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return "mount", "", fmt.Errorf("making / private: %w", err)
	}
	unix.Sethostname([]byte("sandbox"))
	stage, err = privateRoot(m, conf)
	if err == nil {
		conf.PrivateRoot, conf.ReadOnlyFS = true, true
		return "", "", nil
	}
	note = fmt.Sprintf("private root: %s: %v", stage, err)
	unix.Unmount(m.Dir, unix.MNT_DETACH) // what privateRoot mounted there
	conf.Proc = false
	// A fresh /proc shows only the sandbox's processes. The kernel refuses
	// it when the current /proc is partly hidden (as in some containers);
	// then the old one stays, read-only like everything else.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err == nil {
		conf.Proc = true
	}
	if err := readOnlyRoot(); err != nil {
		return "mount", note, fmt.Errorf("making the file system read-only: %w", err)
	}
	conf.ReadOnlyFS = true
	allowHarmlessDevices()
	stage, err = privateDir(m, m.Dir)
	return stage, note, err
}

// privateDir mounts the private directory at dir (its path as the
// program sees it): a fresh tmpfs with the configured files in a
// read-only lib/.
func privateDir(m *shimMsg, dir string) (string, error) {
	size := m.Limits.ScratchBytes
	if size <= 0 {
		size = 64 << 20
	}
	opts := fmt.Sprintf("size=%d,nr_inodes=4096,mode=0755", size)
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return "mount", fmt.Errorf("tmpfs on %s: %w", dir, err)
	}
	lib := filepath.Join(dir, "lib")
	if err := copyFiles(lib, m.Files, m.Tree); err != nil {
		return "workdir", err
	}
	if err := unix.Mount(lib, lib, "", unix.MS_BIND, ""); err != nil {
		return "mount", fmt.Errorf("bind %s: %w", lib, err)
	}
	if err := setReadOnly(lib, false, true); err != nil {
		return "mount", fmt.Errorf("read-only %s: %w", lib, err)
	}
	return "", nil
}

// systemPaths are what every program needs to start besides its own
// files: the dynamic loader and the shared libraries (with the merged-/usr
// symbolic links that lead to them), the loader's cache, and the time
// zone data (without them local time is UTC).
var systemPaths = []string{
	"/lib", "/lib32", "/lib64", "/libx32", "/usr/lib", "/usr/lib32", "/usr/lib64",
	"/usr/libx32", "/usr/local/lib", "/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo",
}

// privateRoot makes the program's root a read-only tmpfs holding only
// what it may read, each at its host path: the system paths, the
// configured read-only paths and the program, bound read-only; the
// harmless devices; a fresh /proc of the PID namespace, read-only; and the
// private directory (privateDir) at m.Dir. The host's other files, the
// suite, the home directory and the rest of /tmp are not there at all.
// The new root is mounted on m.Dir of the host (an empty directory the
// parent made), then pivoted to.
func privateRoot(m *shimMsg, conf *Confinement) (string, error) {
	root := m.Dir
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755"); err != nil {
		return "mount", fmt.Errorf("tmpfs on %s: %w", root, err)
	}
	paths := append(append(append([]string(nil), systemPaths...), m.ReadOnly...), m.Path)
	binds, links, err := resolveBinds(paths)
	if err != nil {
		return "mount", err
	}
	for _, l := range links {
		at := filepath.Join(root, l.path)
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return "mount", err
		}
		if err := os.Symlink(l.target, at); err != nil && !errors.Is(err, fs.ErrExist) {
			return "mount", err
		}
	}
	for _, b := range binds {
		if err := bindReadOnly(root, b, false); err != nil {
			return "mount", err
		}
	}
	for _, d := range harmlessDevices {
		if _, err := os.Stat(d); err == nil {
			if err := bindReadOnly(root, d, true); err != nil {
				return "mount", err
			}
		}
	}
	proc := filepath.Join(root, "proc")
	if err := os.Mkdir(proc, 0o555); err != nil {
		return "mount", err
	}
	if err := unix.Mount("proc", proc, "proc", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err == nil {
		conf.Proc = true
	} else if err := unix.Mount("/proc", proc, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return "mount", fmt.Errorf("/proc: %w", err)
	} else if err := setReadOnly(proc, true, true); err != nil {
		return "mount", fmt.Errorf("/proc: %w", err)
	}
	dir := filepath.Join(root, m.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "workdir", err
	}
	if stage, err := privateDir(m, dir); err != nil {
		return stage, err
	}
	if err := unix.Mount("", root, "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return "mount", fmt.Errorf("read-only root: %w", err)
	}
	// pivot_root(".", ".") stacks the old root on the new one; detaching
	// it leaves the new one alone (pivot_root(2), as runc does).
	if err := os.Chdir(root); err != nil {
		return "pivot", err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return "pivot", err
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return "pivot", fmt.Errorf("detaching the old root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return "pivot", err
	}
	return "", nil
}

// link is a symbolic link of the host to recreate in a private root.
type link struct{ path, target string }

// resolveBinds resolves paths on the host: the symbolic links met on the
// way (such as /lib -> usr/lib) to recreate, and the real paths to bind,
// sorted, without those that do not exist or lie inside another.
func resolveBinds(paths []string) (binds []string, links []link, err error) {
	seen := map[string]bool{}
	var real []string
	for _, p := range paths {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		r, ls, ok := resolvePath(filepath.Clean(p))
		if !ok {
			continue
		}
		for _, l := range ls {
			if !seen["link:"+l.path] {
				seen["link:"+l.path] = true
				links = append(links, l)
			}
		}
		if !seen[r] && r != "/" {
			seen[r] = true
			real = append(real, r)
		}
	}
	sort.Strings(real)
	for _, r := range real {
		inside := false
		for _, b := range binds {
			if r == b || strings.HasPrefix(r, b+"/") {
				inside = true
				break
			}
		}
		if !inside {
			binds = append(binds, r)
		}
	}
	// A link whose own path lies inside a bound tree is there already.
	var keep []link
	for _, l := range links {
		inside := false
		for _, b := range binds {
			if strings.HasPrefix(l.path, b+"/") {
				inside = true
				break
			}
		}
		if !inside {
			keep = append(keep, l)
		}
	}
	return binds, keep, nil
}

// resolvePath follows p's symbolic links component by component: the real
// path, the links on the way, and whether it exists.
func resolvePath(p string) (string, []link, bool) {
	var links []link
	rest := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		if c == "" || c == "." {
			continue
		}
		if c == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return "", nil, false
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return "", nil, false
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, false
		}
		links = append(links, link{next, target})
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(strings.Trim(target, "/"), "/"), rest...)
	}
	return cur, links, true
}

// bindReadOnly binds the host path p at the same path under root,
// read-only and nosuid (and nodev, unless device).
func bindReadOnly(root, p string, device bool) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	at := filepath.Join(root, p)
	if fi.IsDir() {
		err = os.MkdirAll(at, 0o755)
	} else if err = os.MkdirAll(filepath.Dir(at), 0o755); err == nil {
		var f *os.File
		if f, err = os.OpenFile(at, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Close()
		}
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(p, at, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", p, err)
	}
	if err := setReadOnly(at, fi.IsDir(), !device); err != nil {
		return fmt.Errorf("read-only %s: %w", p, err)
	}
	return nil
}

// setReadOnly makes the mount at p (and the mounts below it when
// recursive) read-only and nosuid, and nodev when nodev: mount_setattr,
// else a bind remount (Linux before 5.12; the mounts below stay as they
// are then).
func setReadOnly(p string, recursive, nodev bool) error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID}
	if nodev {
		attr.Attr_set |= unix.MOUNT_ATTR_NODEV
	} else {
		attr.Attr_clr = unix.MOUNT_ATTR_NODEV
	}
	flags := uint(0)
	if recursive {
		flags = unix.AT_RECURSIVE
	}
	err := unix.MountSetattr(unix.AT_FDCWD, p, flags, &attr)
	if err == nil || !errors.Is(err, unix.ENOSYS) {
		return err
	}
	mflags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY | unix.MS_NOSUID)
	if nodev {
		mflags |= unix.MS_NODEV
	}
	return unix.Mount("", p, "", mflags, "")
}

// readOnlyRoot makes every mount read-only, nosuid and nodev: a read-only
// mount still lets uid 0 write to the device files it owns (/dev/kmsg, a
// terminal), nodev does not. mount_setattr(2) with AT_RECURSIVE (Linux
// 5.12+), else a bind remount of each mount point (without nodev).
func readOnlyRoot() error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &attr)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	return remountEachReadOnly()
}

// harmlessDevices stay usable under nodev: each is bound onto itself and
// its bind mount made read-only, nosuid, but not nodev.
var harmlessDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

func allowHarmlessDevices() {
	for _, d := range harmlessDevices {
		if err := unix.Mount(d, d, "", unix.MS_BIND, ""); err != nil {
			continue
		}
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID, Attr_clr: unix.MOUNT_ATTR_NODEV}
		if err := unix.MountSetattr(unix.AT_FDCWD, d, 0, &attr); err != nil {
			unix.Unmount(d, unix.MNT_DETACH)
		}
	}
}

// remountEachReadOnly is the pre-5.12 fallback: the flags a user namespace
// inherited locked (nosuid, nodev, noexec, the atime flags) must be
// repeated in the remount or the kernel refuses it.
func remountEachReadOnly() error {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		point := unescapeMountPath(f[4])
		flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
		for _, o := range strings.Split(f[5], ",") {
			switch o {
			case "nosuid":
				flags |= unix.MS_NOSUID
			case "nodev":
				flags |= unix.MS_NODEV
			case "noexec":
				flags |= unix.MS_NOEXEC
			case "noatime":
				flags |= unix.MS_NOATIME
			case "nodiratime":
				flags |= unix.MS_NODIRATIME
			case "relatime":
				flags |= unix.MS_RELATIME
			}
		}
		if err := unix.Mount("", point, "", flags, ""); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("remount %s: %w", point, err)
		}
	}
	return nil
}

// unescapeMountPath undoes the octal escapes of /proc/self/mountinfo.
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// setupPlainDir prepares the private directory without a mount namespace:
// it is the real temporary directory the parent made.
func setupPlainDir(m *shimMsg) error {
	lib := filepath.Join(m.Dir, "lib")
	if err := copyFiles(lib, m.Files, m.Tree); err != nil {
		return err
	}
	return filepath.WalkDir(lib, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = os.Chmod(p, 0o555)
		}
		return err
	})
}

func copyFiles(dir string, files []string, tree []TreeFile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range tree {
		rel := filepath.FromSlash(f.Rel)
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("sandbox: %q is not a relative path inside lib", f.Rel)
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		data, err := os.ReadFile(f.Src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o444); err != nil {
			return err
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o444); err != nil {
			return err
		}
	}
	return nil
}

// setLimits applies l. RLIMIT_NPROC counts every process of the user in
// the user namespace, so it is only meaningful in a namespace of our own.
func setLimits(l Limits, ownUserNS bool) error {
	set := func(res int, v uint64) error {
		var cur unix.Rlimit
		if err := unix.Getrlimit(res, &cur); err != nil {
			return err
		}
		if v > cur.Max {
			v = cur.Max // raising the hard limit needs privilege
		}
		return unix.Setrlimit(res, &unix.Rlimit{Cur: v, Max: v})
	}
	// RLIMIT_AS is set by runShim just before execve.
	lims := []struct {
		res int
		v   int64
	}{
		{unix.RLIMIT_CPU, int64(l.CPUSeconds)},
		{unix.RLIMIT_FSIZE, l.FileSize},
		{unix.RLIMIT_NOFILE, int64(l.OpenFiles)},
	}
	if ownUserNS {
		lims = append(lims, struct {
			res int
			v   int64
		}{unix.RLIMIT_NPROC, int64(l.Processes)})
	}
	for _, x := range lims {
		if x.v <= 0 {
			continue
		}
		if err := set(x.res, uint64(x.v)); err != nil {
			return fmt.Errorf("resource %d: %w", x.res, err)
		}
	}
	return set(unix.RLIMIT_CORE, 0)
}

// dropCapabilities empties the bounding, ambient, inheritable, permitted
// and effective sets of the calling thread and locks the securebits so that
// execve cannot give uid 0 its capabilities back (capabilities(7)).
func dropCapabilities() error {
	var hdr unix.CapUserHeader
	var data [2]unix.CapUserData
	hdr.Version = unix.LINUX_CAPABILITY_VERSION_3
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	if data[0].Permitted != 0 || data[1].Permitted != 0 {
		for c := 0; c <= 63; c++ {
			err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
			if errors.Is(err, unix.EINVAL) {
				break // past the last capability
			}
			if err != nil {
				return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
			}
		}
		if err := unix.Prctl(unix.PR_SET_SECUREBITS, secureBits, 0, 0, 0); err != nil {
			return fmt.Errorf("securebits: %w", err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("ambient capabilities: %w", err)
	}
	data = [2]unix.CapUserData{}
	hdr.Version = unix.LINUX_CAPABILITY_VERSION_3
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
