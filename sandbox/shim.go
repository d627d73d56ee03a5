package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// shimArg is os.Args[1] of a process started as the shim.
const shimArg = "-repair-sandbox-shim"

// Init turns the process into the isolation shim when it was started as one
// (by [Cmd.Start]): it confines itself, executes the configured program and
// never returns. Otherwise it returns at once.
//
// Every main, and every TestMain of a package whose tests start sandboxed
// processes, must call Init before anything else:
//
//	func TestMain(m *testing.M) {
//		sandbox.Init()
//		os.Exit(m.Run())
//	}
func Init() {
	if len(os.Args) < 2 || os.Args[1] != shimArg {
		return
	}
	runShim(os.Args[2:]) // does not return
}

// Config says what the shim runs and how it confines it.
type Config struct {
	// Path is the absolute path of the program to execute, Args its
	// argument list starting with argv[0].
	Path string
	Args []string
	// Env is the program's environment; nil means empty.
	Env []string
	// Isolation selects how strictly the program is confined.
	Isolation Isolation
	// Files are copied, by base name, into the read-only lib
	// subdirectory of the private working directory (see [Cmd.Dir]).
	Files []string
	// Tree are copied into lib at their relative paths (a package's
	// project, see [Project]).
	Tree []TreeFile
	// Project is a directory of the user's (absolute) the program reads
	// whole: with a mount namespace it is bound read-only at its own path
	// like ReadOnly; without one it is copied into the lib subdirectory of
	// the private directory (hidden directories, caches and virtual
	// environments left out; at most 10,000 files and 128 MiB), so that
	// nothing the program does writes the user's tree. [Cmd.ProjectRoot]
	// says where the program finds it.
	Project string
	// ReadOnly are the host paths (absolute; directories or files) the
	// program may read besides the system libraries: with namespaces the
	// program sees a root of its own holding only these, the libraries,
	// the harmless devices, its /proc and its private directory (see
	// [Confinement.PrivateRoot]). Path, the program itself, is always
	// there.
	ReadOnly []string
	// Limits are the resource limits of the program.
	Limits Limits
	// EarlyStart lets the program start while the pids cgroup takes it
	// (a cgroup v1 migration can take milliseconds), for a program that
	// runs nothing it is sent until told to: call [Cmd.Contained] before
	// sending it anything of the user's. Without it the program starts
	// in the cgroup.
	EarlyStart bool
	// NoNamespaces makes the shim act as if the kernel refused
	// namespaces: the degraded path that IsolationAuto falls back to.
	// For tests.
	NoNamespaces bool
}

// Limits are resource limits applied by the shim. Zero leaves a limit as it
// is (except the core file size, which is always 0).
type Limits struct {
	// AddressSpace is RLIMIT_AS in bytes.
	AddressSpace int64
	// CPUSeconds is RLIMIT_CPU.
	CPUSeconds int
	// FileSize is RLIMIT_FSIZE in bytes.
	FileSize int64
	// OpenFiles is RLIMIT_NOFILE.
	OpenFiles int
	// Processes bounds the number of processes and threads: RLIMIT_NPROC,
	// plus a pids cgroup where RLIMIT_NPROC does not bind (uid 0).
	Processes int
	// ScratchBytes is the size of the private working directory when it is
	// a tmpfs (default 64 MiB).
	ScratchBytes int64
}

// Confinement says which isolation is in force for a process.
type Confinement struct {
	// Namespaces: new user, PID, network, IPC, UTS and mount namespaces.
	Namespaces bool `json:"namespaces"`
	// ReadOnlyFS: every mount except the private directory is read-only.
	ReadOnlyFS bool `json:"readonly_fs"`
	// PrivateRoot: the program's root holds only Config.ReadOnly, the
	// system libraries, the harmless devices, /proc and the private
	// directory: not the user's files, the suite or the home directory.
	PrivateRoot bool `json:"private_root"`
	// Proc: a fresh /proc of the PID namespace.
	Proc bool `json:"proc"`
	// NoCapabilities: every capability set is empty and locked so.
	NoCapabilities bool `json:"no_capabilities"`
	// NoNewPrivs: PR_SET_NO_NEW_PRIVS.
	NoNewPrivs bool `json:"no_new_privs"`
	// Seccomp: the system call filter is loaded.
	Seccomp bool `json:"seccomp"`
	// PidsCgroup: the process count is bounded by a pids cgroup.
	PidsCgroup bool `json:"pids_cgroup"`
	// Degraded says why full isolation is not in force; empty when it is.
	Degraded string `json:"degraded,omitempty"`
}

// Full reports whether every isolation layer is in force.
func (c Confinement) Full() bool {
	return c.Namespaces && c.ReadOnlyFS && c.PrivateRoot && c.NoCapabilities && c.NoNewPrivs && c.Seccomp
}

func (c Confinement) String() string {
	var on []string
	add := func(b bool, s string) {
		if b {
			on = append(on, s)
		}
	}
	add(c.Namespaces, "namespaces(user,pid,net,ipc,uts,mount)")
	add(c.ReadOnlyFS, "read-only fs")
	add(c.PrivateRoot, "private root")
	add(c.Proc, "private /proc")
	add(c.NoCapabilities, "no capabilities")
	add(c.NoNewPrivs, "no_new_privs")
	add(c.Seccomp, "seccomp")
	add(c.PidsCgroup, "pids cgroup")
	on = append(on, "rlimits", "private work dir", "empty environment")
	s := strings.Join(on, ", ")
	if c.Degraded != "" {
		s += " (degraded: " + c.Degraded + ")"
	}
	return s
}

// Cmd is a program prepared to run under the shim. Set the exported I/O
// fields before Start; after Start, Process is the running program (the
// shim executes it in place, so its pid does not change).
type Cmd struct {
	// Stdin, Stdout and Stderr are the program's standard streams; nil
	// means /dev/null (see os/exec.Cmd).
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// ExtraFiles are passed as file descriptors 3, 4, ... as with
	// os/exec.Cmd.
	ExtraFiles []*os.File

	// Process is set by Start.
	Process *os.Process
	// Confinement is the isolation in force, set by Start.
	Confinement Confinement
	// Dir is the private working directory as the program sees it; the
	// configured Files are in Dir/lib. Set by Command.
	Dir string

	cfg   Config
	state *cmdState // platform specific
}

// ProjectRoot is where the program finds [Config.Project] once started:
// its own path with namespaces, else the copy in Dir/lib.
func (c *Cmd) ProjectRoot() string {
	if c.cfg.Project == "" {
		return ""
	}
	if c.Confinement.Namespaces {
		return c.cfg.Project
	}
	return filepath.Join(c.Dir, "lib")
}

// Setenv sets the program's environment (Config.Env) before Start: for
// variables naming the private directory, which Command makes.
func (c *Cmd) Setenv(env []string) { c.cfg.Env = env }
