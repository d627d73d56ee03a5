package cpython

import (
	"context"
	"runtime"
	"strings"
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

// TestHostileArch: system calls of another ABI do not get around the
// filter. An i386 socket() through int 0x80 (number 359 there, which the
// filter's x86-64 list does not know) kills the process; an x32 socket()
// fails. Both used to create sockets, and the same route called unshare
// and ptrace.
func TestHostileArch(t *testing.T) {
	python(t)
	if runtime.GOARCH != "amd64" {
		t.Skip("x86-64 machine code")
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
	if r := out.Results[0]; r.Verdict != fitness.RuntimeError || !strings.Contains(r.Detail, "SIGSYS") {
		t.Errorf("i386 socket: %v (%s); want RUNTIME_ERROR, killed by SIGSYS", r.Verdict, r.Detail)
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
