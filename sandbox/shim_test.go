package sandbox_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// probeScript (testdata/probe.sh) prints one key=value line per property
// of its sandbox.
var probeScript = func() string {
	b, err := os.ReadFile(filepath.Join("testdata", "probe.sh"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func runProbe(t *testing.T, cfg sandbox.Config) (map[string]string, *sandbox.Cmd) {
	t.Helper()
	outside := t.TempDir()
	helper := filepath.Join(t.TempDir(), "helper.py")
	if err := os.WriteFile(helper, []byte("HELPER"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cfg.Path = sh
	cfg.Args = []string{"sh", "-c", "OUTSIDE=" + outside + "\n" + probeScript}
	cfg.Files = []string{helper}
	// The commands the probe runs (with namespaces the sandbox sees only
	// what it is given).
	cfg.ReadOnly = []string{"/bin", "/usr/bin"}
	cfg.Limits.OpenFiles = 100
	cfg.Limits.AddressSpace = 256 << 20
	cmd, err := sandbox.Command(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("probe: %v\n%s", err, errb.String())
	}
	got := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			got[k] = v
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "escaped.txt")); err == nil && cfg.Isolation != sandbox.IsolationNone && !cfg.NoNamespaces {
		t.Errorf("the sandbox wrote outside its directory")
	}
	if _, err := os.Stat(cmd.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("private directory %s left behind", cmd.Dir)
	}
	got["cwd"] = strings.Replace(got["cwd"], cmd.Dir, "$DIR", 1)
	return got, cmd
}

func TestShimFullIsolation(t *testing.T) {
	got, cmd := runProbe(t, sandbox.Config{Isolation: sandbox.IsolationStrict, Limits: sandbox.Limits{Processes: 32}})
	if !cmd.Confinement.Full() {
		t.Fatalf("confinement not full: %v", cmd.Confinement)
	}
	want := map[string]string{
		"uid":        "0",
		"env":        "0",
		"cwd":        "$DIR",
		"pid":        "1",
		"hostname":   "sandbox",
		"CapEff":     "0000000000000000",
		"CapPrm":     "0000000000000000",
		"CapBnd":     "0000000000000000",
		"CapAmb":     "0000000000000000",
		"NoNewPrivs": "1",
		"Seccomp":    "2",
		"procs":      got["procs"], // checked below
		"scratch":    "ok",
		"lib":        "readonly",
		"helper":     "HELPER",
		"outside":    "readonly",
		"visible":    "no",
		"devnull":    "ok",
		"urandom":    "ok",
		"kmsg":       "denied",
		"nofile":     "100",
		"as":         "262144",
	}
	if os.Getuid() != 0 {
		want["uid"] = "0" // mapped to root inside the namespace
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sandbox properties mismatch (-want +got):\n%s", diff)
	}
	// sh, and maybe a pipeline process or two: nothing of the host.
	if n := len(got["procs"]); n == 0 || n > 1 {
		t.Errorf("the sandbox sees %s processes; want only its own", got["procs"])
	}
}

func TestShimDegraded(t *testing.T) {
	got, cmd := runProbe(t, sandbox.Config{NoNamespaces: true})
	if cmd.Confinement.Namespaces || cmd.Confinement.Degraded == "" {
		t.Errorf("confinement = %+v; want degraded without namespaces", cmd.Confinement)
	}
	for k, want := range map[string]string{"env": "0", "cwd": "$DIR", "NoNewPrivs": "1", "Seccomp": "2", "CapEff": "0000000000000000", "scratch": "ok", "helper": "HELPER", "nofile": "100", "as": "262144"} {
		if got[k] != want {
			t.Errorf("%s = %q; want %q", k, got[k], want)
		}
	}
}

func TestShimStrictRefusesDegraded(t *testing.T) {
	cmd, err := sandbox.Command(sandbox.Config{Path: "/bin/true", Isolation: sandbox.IsolationStrict, NoNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Start()
	if !errors.Is(err, sandbox.ErrIsolation) {
		t.Fatalf("Start = %v; want ErrIsolation", err)
	}
	if _, err := os.Stat(cmd.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("private directory %s left behind", cmd.Dir)
	}
}

func TestShimExecFailure(t *testing.T) {
	cmd, err := sandbox.Command(sandbox.Config{Path: "/nonexistent/program"})
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Start()
	var se *sandbox.ShimError
	if !errors.As(err, &se) || se.Stage != "exec" {
		t.Fatalf("Start = %v; want a ShimError at stage exec", err)
	}
}

// TestShimAsNonRoot runs the shim tests again as an unprivileged user (when
// the tests run as root and can switch): RLIMIT_NPROC instead of a pids
// cgroup, no capabilities to drop, a user namespace of an ordinary user.
func TestShimAsNonRoot(t *testing.T) {
	if os.Getenv("REPAIR_SANDBOX_TEST_NONROOT") != "" {
		t.Skip("already the unprivileged run")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: the other tests already run unprivileged")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "repair-shim-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "shim.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if f, err := os.Open(filepath.Join(wd, "testdata", "probe.sh")); err != nil {
		t.Skip(err)
	} else {
		f.Close()
	}
	cmd := exec.Command(bin, "-test.run", "^TestShim(FullIsolation|Degraded|ExecFailure)$", "-test.v")
	cmd.Env = append(os.Environ(), "REPAIR_SANDBOX_TEST_NONROOT=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "permission denied") && !strings.Contains(string(out), "--- ") {
			t.Skipf("cannot run the tests as uid 65534: %s", out)
		}
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestShimFullIsolation") {
		t.Errorf("as uid 65534, TestShimFullIsolation did not pass:\n%s", out)
	}
}

// TestShimEarlyStart: with EarlyStart the program may start while the pids
// cgroup takes it; once Contained returns the cgroup holds it and says so.
func TestShimEarlyStart(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the pids cgroup needs root")
	}
	for _, early := range []bool{false, true} {
		inR, inW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := sandbox.Command(sandbox.Config{Path: "/bin/sh", Args: []string{"sh", "-c", "read x; true"},
			ReadOnly: []string{"/bin", "/usr/bin"}, Limits: sandbox.Limits{Processes: 8}, EarlyStart: early})
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = inR
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		inR.Close()
		cmd.Contained()
		cg, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		if !cmd.Confinement.PidsCgroup || !strings.Contains(string(cg), "/repair-sandbox-") {
			t.Errorf("EarlyStart %v: PidsCgroup %v, cgroups of the program:\n%s", early, cmd.Confinement.PidsCgroup, cg)
		}
		inW.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("EarlyStart %v: %v", early, err)
		}
	}
}
