package cpython

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// machineCode runs x86-64 machine code (hex) through ctypes and returns
// what it leaves in eax.
const machineCode = `import ctypes, mmap
def run(hexcode):
    code = bytes.fromhex(hexcode)
    m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.write(code)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
    return ctypes.CFUNCTYPE(ctypes.c_int)(addr)()
`

// ia32Emulation reports whether the kernel runs i386 system calls made
// with int 0x80 from a 64-bit process (CONFIG_IA32_EMULATION, not turned
// off by ia32_emulation=0): a getpid() that way, in a process of py's
// outside any sandbox, returns the process's pid where it does, and the
// kernel answers with SIGSEGV where it does not.
func ia32Emulation(t *testing.T, py *Interpreter) bool {
	t.Helper()
	probe := machineCode + `
import os
# mov eax, 20 (getpid on i386); int 0x80; ret
print(run("b814000000" + "cd80" + "c3"), os.getpid())
`
	out, err := exec.Command(py.Path, "-c", probe).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGSEGV {
			return false
		}
	}
	if err != nil {
		t.Fatalf("the int 0x80 probe: %v (%s)", err, out)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		t.Fatalf("the int 0x80 probe printed %q", out)
	}
	got, err1 := strconv.Atoi(f[0])
	pid, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || got != pid {
		t.Fatalf("the int 0x80 probe: getpid returned %s, the process is %s", f[0], f[1])
	}
	return true
}

// TestHostileArch: system calls of another ABI do not get around the
// filter. An i386 socket() through int 0x80 (number 359 there, which the
// filter's x86-64 list does not know) kills the process: with SIGSYS
// where the kernel has IA-32 emulation (the filter's architecture check),
// with SIGSEGV where it has none (the kernel refuses int 0x80 before the
// filter sees it); either way no socket. An x32 socket() fails. Both used
// to create sockets, and the same route called unshare and ptrace.
func TestHostileArch(t *testing.T) {
	py := python(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("x86-64 machine code")
	}
	i386Signal := "SIGSYS"
	if !ia32Emulation(t, py) {
		i386Signal = "SIGSEGV"
		t.Log("the kernel has no IA-32 emulation: int 0x80 gets SIGSEGV")
	}
	src := machineCode + `
def i386():
    # mov eax, 359; mov ebx, AF_INET; mov ecx, SOCK_STREAM; xor edx, edx; int 0x80; ret
    return run("b867010000" + "bb02000000" + "b901000000" + "31d2" + "cd80" + "c3")

def x32():
    # mov eax, 0x40000029; mov edi, AF_INET; mov esi, SOCK_STREAM; xor edx, edx; syscall; ret
    return run("b829000040" + "bf02000000" + "be01000000" + "31d2" + "0f05" + "c3")

def shm():
    libc = ctypes.CDLL(None, use_errno=True)
    r = libc.shmget(0x1234, 4096, 0o1600)
    return [r, ctypes.get_errno()]
`
	cases := []fitness.Case{call("i386", "", "-1"), call("x32", "", "-38"), call("shm", "", "[-1, 1]")}
	e := newTestEngine(t, sandbox.Options{Suite: &fitness.Suite{MemoryMB: 256, Cases: cases}, Target: target(t, "cand.py", nil), Workers: 1}, config{})
	if !e.Confinement().Seccomp {
		t.Skipf("no seccomp: %v", e.Confinement())
	}
	out, err := e.Run(context.Background(), []byte(src), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Results[0]; r.Verdict != fitness.RuntimeError || !strings.Contains(r.Detail, i386Signal) {
		t.Errorf("i386 socket: %v (%s); want RUNTIME_ERROR, killed by %s", r.Verdict, r.Detail, i386Signal)
	}
	if r := out.Results[1]; r.Verdict != fitness.Passed {
		t.Errorf("x32 socket: %v (%s); want -ENOSYS", r.Verdict, r.Detail)
	}
	if r := out.Results[2]; r.Verdict != fitness.Passed {
		t.Errorf("shmget: %v (%s); want EPERM", r.Verdict, r.Detail)
	}
	// The server survives for the next candidate.
	out, err = e.Run(context.Background(), []byte("def i386():\n    return -1\ndef x32():\n    return -38\ndef shm():\n    return [-1, 1]\n"), sandbox.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range out.Results {
		if r.Verdict != fitness.Passed {
			t.Errorf("the next candidate, case %d: %v (%s)", i, r.Verdict, r.Detail)
		}
	}
}
