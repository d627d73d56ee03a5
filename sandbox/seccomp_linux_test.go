package sandbox

import (
	"encoding/binary"
	"runtime"
	"testing"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData is struct seccomp_data laid out for x/net/bpf's VM, which
// reads words big-endian: each u32 field (and each half of a u64
// argument, low half first as on a little-endian machine) is written
// big-endian at its offset.
func seccompData(nr, archID uint32, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], archID)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[16+8*i:], uint32(a))
		binary.BigEndian.PutUint32(b[20+8*i:], uint32(a>>32))
	}
	return b
}

// TestFilterProgram runs the shim's seccomp program on system calls: the
// deny list, and above all the architecture check (a 64-bit process can
// make i386 system calls, whose numbers the list does not know).
func TestFilterProgram(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the vectors are amd64's")
	}
	insts, err := program()
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(insts)
	if err != nil {
		t.Fatal(err)
	}
	native := uint32(arch.X86_64.ID)
	const i386 = 0x40000003 // AUDIT_ARCH_I386
	eperm := uint32(seccomp.ActionErrno) | uint32(unix.EPERM)
	allow := uint32(seccomp.ActionAllow)
	kill := uint32(seccomp.ActionKillProcess)
	tests := []struct {
		name string
		data []byte
		want uint32
	}{
		{"write", seccompData(unix.SYS_WRITE, native, 1), allow},
		{"socket", seccompData(unix.SYS_SOCKET, native, unix.AF_INET, unix.SOCK_STREAM), eperm},
		{"socketpair(AF_UNIX)", seccompData(unix.SYS_SOCKETPAIR, native, unix.AF_UNIX), allow},
		{"i386 socket", seccompData(359, i386, unix.AF_INET, unix.SOCK_STREAM), kill},
		{"i386 write", seccompData(4, i386, 1), kill},
		{"i386 ptrace", seccompData(26, i386), kill},
		{"x32 socket", seccompData(0x40000000|unix.SYS_SOCKET, native, unix.AF_INET), uint32(seccomp.ActionErrno) | uint32(unix.ENOSYS)},
		{"ptrace", seccompData(unix.SYS_PTRACE, native), eperm},
		{"unshare", seccompData(unix.SYS_UNSHARE, native, unix.CLONE_NEWUSER), eperm},
		{"clone a user namespace", seccompData(unix.SYS_CLONE, native, unix.CLONE_NEWUSER), eperm},
		{"clone a thread", seccompData(unix.SYS_CLONE, native, unix.CLONE_VM|unix.CLONE_THREAD), allow},
		{"shmget", seccompData(unix.SYS_SHMGET, native), eperm},
		{"mq_open", seccompData(unix.SYS_MQ_OPEN, native), eperm},
		{"kill(-1)", seccompData(unix.SYS_KILL, native, 0xFFFFFFFFFFFFFFFF, 9), eperm},
		{"kill(-1), zero-extended", seccompData(unix.SYS_KILL, native, 0xFFFFFFFF, 9), eperm},
		{"kill(a child)", seccompData(unix.SYS_KILL, native, 1234, 9), allow},
		{"kill(its group)", seccompData(unix.SYS_KILL, native, 0xFFFFFFFFFFFFFB2E, 9), allow},
	}
	for _, tt := range tests {
		got, err := vm.Run(tt.data)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if uint32(got) != tt.want {
			t.Errorf("%s: %#x; want %#x", tt.name, got, tt.want)
		}
	}
}
