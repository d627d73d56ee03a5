package sandbox

import (
	"errors"
	"fmt"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// deniedSyscalls fail with EPERM inside the sandbox: networking (socket
// creation and connection), debugging other processes, everything that
// changes namespaces, mounts, the kernel, the clock, keys or swap, and the
// interfaces that bypass seccomp or leak kernel state (io_uring, bpf,
// perf_event_open, userfaultfd). The list follows Docker's default profile
// and the kernel's own list of privileged calls (see seccomp(2) and
// https://docs.docker.com/engine/security/seccomp/).
var deniedSyscalls = []string{
	// Networking: the network namespace is empty anyway, and candidates
	// have no business opening sockets. socketpair(AF_UNIX) stays allowed
	// (see below): it can only connect the two ends it creates.
	"socket", "connect", "bind", "listen", "accept", "accept4",
	// Other processes' memory and file descriptors.
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
	// Namespaces and mounts.
	"mount", "umount2", "pivot_root", "chroot", "setns", "unshare",
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree",
	"mount_setattr", "open_by_handle_at", "name_to_handle_at",
	// The kernel and the machine.
	"reboot", "kexec_load", "kexec_file_load", "init_module",
	"finit_module", "delete_module", "bpf", "perf_event_open",
	"userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
	"keyctl", "add_key", "request_key", "swapon", "swapoff",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"acct", "quotactl", "syslog", "vhangup", "iopl", "ioperm",
	"personality", "lookup_dcookie",
	// System V and POSIX IPC: objects that outlive a candidate in the
	// sandbox's IPC namespace, where the next one could read them.
	"shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop",
	"semctl", "msgget", "msgsnd", "msgrcv", "msgctl", "mq_open",
	"mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
	"mq_getsetattr",
}

// namespaceCloneFlags are the clone(2) flags that create namespaces.
const namespaceCloneFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUSER | unix.CLONE_NEWPID |
	unix.CLONE_NEWNET | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS | unix.CLONE_NEWCGROUP

// errnoAction returns an action that fails a call with errno.
func errnoAction(errno unix.Errno) seccomp.Action {
	return seccomp.Action(uint32(seccomp.ActionErrno) | uint32(errno))
}

// filter is the seccomp filter the shim loads last, just before execve. It
// is a deny list (default allow) so that any interpreter runs unchanged.
func filter() seccomp.Filter {
	return seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionAllow,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionErrno, Names: deniedSyscalls},
				// clone3 passes its flags in memory, where a filter
				// cannot read them: ENOSYS makes the C library fall
				// back to clone, whose flags are checked below
				// (Docker does the same).
				{Action: errnoAction(unix.ENOSYS), Names: []string{"clone3"}},
				{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{
					{Name: "clone", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.BitsSet, Value: namespaceCloneFlags},
					}},
					{Name: "socketpair", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX},
					}},
					// kill(-1, sig) signals every process the caller may
					// signal: without a PID namespace, all of the user's.
					// The pid is an int: both of its 64-bit spellings.
					{Name: "kill", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.Equal, Value: 0xFFFFFFFFFFFFFFFF},
					}},
					{Name: "kill", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.Equal, Value: 0xFFFFFFFF},
					}},
					// Faking terminal input (no terminal is reachable, but
					// this is cheap).
					{Name: "ioctl", Conditions: seccomp.ArgumentConditions{
						{Argument: 1, Operation: seccomp.Equal, Value: unix.TIOCSTI},
					}},
					{Name: "ioctl", Conditions: seccomp.ArgumentConditions{
						{Argument: 1, Operation: seccomp.Equal, Value: unix.TIOCLINUX},
					}},
				}},
			},
		},
	}
}

// Offsets in struct seccomp_data.
const (
	seccompDataNr   = 0
	seccompDataArch = 4
)

// program is the filter the shim loads: an architecture check, then the
// deny list. go-seccomp-bpf lets a system call of another architecture
// through to the default action, which for a deny list is Allow: a 64-bit
// process can make i386 system calls with int 0x80, whose numbers differ
// (socket is 359 there), so the list would not apply to them. The check
// kills the process on any architecture but the native one. (The x32 ABI
// shares the native architecture with bit 30 set in the number; the
// library's program fails those with ENOSYS, which TestFilterProgram
// checks.)
func program() ([]bpf.Instruction, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, err
	}
	f := filter()
	policy, err := f.Policy.Assemble()
	if err != nil {
		return nil, err
	}
	guard := []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompDataArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		bpf.RetConstant{Val: uint32(seccomp.ActionKillProcess)},
	}
	return append(guard, policy...), nil
}

// loadFilter loads program() on every thread (TSYNC). no_new_privs must be
// set already.
func loadFilter() error {
	insts, err := program()
	if err != nil {
		return fmt.Errorf("assembling the filter: %w", err)
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return fmt.Errorf("assembling the filter: %w", err)
	}
	filt := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filt[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filt)), Filter: &filt[0]}
	_, _, e := syscall.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	if e != 0 {
		if errors.Is(e, unix.ENOSYS) {
			return fmt.Errorf("seccomp is not supported by the kernel: %w", e)
		}
		return fmt.Errorf("loading the filter: %w", e)
	}
	return nil
}
