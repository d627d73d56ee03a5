package sandbox

import (
	seccomp "github.com/elastic/go-seccomp-bpf"
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
