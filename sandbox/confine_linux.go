// The shim side of the sandbox: runShim confines the process (mounts,
// rlimits, capabilities, no_new_privs, seccomp) and executes the program.

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

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
	// The configuration is one JSON value; the parent closes the pipe
	// once this process is in its pids cgroup, which the program must
	// not run outside.
	cf := os.NewFile(uintptr(cfgFD), "config")
	var m shimMsg
	if err := json.NewDecoder(cf).Decode(&m); err != nil {
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
	} else if note, err := setupPlainDir(&m); err != nil {
		fail("workdir", err)
	} else if note != "" {
		notes = append(notes, note)
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
	if _, err := io.Copy(io.Discard, cf); err != nil {
		fail("config", err)
	}
	cf.Close()
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
