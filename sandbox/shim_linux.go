// The parent side of the sandbox: Command starts the shim, Kill, Wait
// and Cleanup end it and what it left behind.

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
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// cmdState is the platform part of a Cmd.
type cmdState struct {
	cmd     *exec.Cmd
	cgroup  *pidsCgroup
	started bool
	cleaned bool
	join    *cgJoin // the pids cgroup taking the program, with Config.EarlyStart
}

// cgJoin is a pids cgroup taking a program that started before it: done
// closes once it holds the program or refused it (lost). once records it
// in the Cmd (Contained may be called from several goroutines: the
// worker's start, a Kill).
type cgJoin struct {
	done chan struct{}
	lost bool
	once sync.Once
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
	staleOnce.Do(func() { go removeStaleDirs(os.TempDir()) })
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &Cmd{Dir: dir, cfg: cfg, state: &cmdState{}}, nil
}

// dirPrefix starts the name of every private directory, followed by the
// pid of the process that made it.
const dirPrefix = "repair-sandbox-"

// staleOnce: the temporary directory is swept once per process, in the
// background (a directory of hundreds of entries costs a worker's start
// a third of a millisecond each time).
var staleOnce sync.Once

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
	var join *cgJoin
	fail := func(err error) error {
		cmd.Process.Kill()
		cmd.Wait()
		if join != nil {
			<-join.done
		}
		if cg != nil {
			cg.remove() // again, if the move failed: harmless
		}
		return err
	}
	msg := shimMsg{Config: c.cfg, Dir: c.Dir, Namespaces: useNS}
	data, err := json.Marshal(msg)
	if err != nil {
		return fail(err)
	}
	if _, err := cfgW.Write(data); err != nil {
		return fail(fmt.Errorf("sandbox: sending the shim its configuration: %w", err))
	}
	// The shim confines itself while the pids cgroup takes it (a cgroup
	// v1 migration can take milliseconds), and executes the program only
	// once the pipe closes: in the cgroup, or, with EarlyStart, while the
	// cgroup takes it and Contained waits.
	if cg != nil && c.cfg.EarlyStart {
		join = &cgJoin{done: make(chan struct{})}
		go func(pid int) {
			defer close(join.done)
			if err := cg.add(pid); err != nil {
				cg.remove()
				join.lost = true
			}
		}(cmd.Process.Pid)
	} else if cg != nil {
		if err := cg.add(cmd.Process.Pid); err != nil {
			cg.remove()
			cg = nil
		}
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
	conf.PidsCgroup = cg != nil && join == nil
	c.state.cmd = cmd
	c.state.cgroup = cg
	c.state.join = join
	c.Process = cmd.Process
	c.Confinement = conf
	return nil
}

// Contained waits until the pids cgroup holds the program, when
// Config.EarlyStart let it start before, and says so in
// Confinement.PidsCgroup; it returns at once otherwise. A cgroup the
// kernel refuses to move the program into is given up, as Start does.
func (c *Cmd) Contained() {
	j := c.state.join
	if j == nil {
		return
	}
	<-j.done
	j.once.Do(func() {
		if j.lost {
			c.state.cgroup = nil
		}
		c.Confinement.PidsCgroup = c.state.cgroup != nil
	})
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
		c.Contained()
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
	c.Contained()
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
