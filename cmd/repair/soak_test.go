package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"repair/internal/testutil/proctest"
)

// TestSoakInterrupt (REPAIR_SOAK=DURATION, see repair/soak_test.go) runs
// the real binary on the soak program (mutants that loop, recurse,
// allocate and flood), sends it SIGINT in the middle of the search, and
// checks that it exits 1 saying it was interrupted, with no process of its
// left behind (this test adopts its orphans as a subreaper), no temporary
// directory left, and the target untouched. Several interrupts, at several
// points of the search, until the duration has passed.
func TestSoakInterrupt(t *testing.T) {
	v := os.Getenv("REPAIR_SOAK")
	if v == "" {
		t.Skip("set REPAIR_SOAK to a duration (e.g. 20s) to run the soak test")
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("REPAIR_SOAK=%q: want a duration such as 20s", v)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not found")
	}
	// Orphans of the binary become this process's children, so that the
	// scan below sees what the binary left behind.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skipf("cannot become a subreaper: %v", err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)

	orig, err := os.ReadFile("../../repair/testdata/soak/stats.py")
	if err != nil {
		t.Fatal(err)
	}
	tests, err := filepath.Abs("../../repair/testdata/soak/tests.json")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 0; i < 4 || time.Since(start) < d; i++ {
		gen := 1 + 2*(i%4) // interrupt after generation 1, 3, 5 or 7
		engine := []string{"cpython", "gpython"}[i%2]
		t.Run(engine+" after generation "+strconv.Itoa(gen), func(t *testing.T) {
			interrupt(t, orig, tests, engine, gen, i)
		})
	}
}

// interrupt runs one repair on engine and sends it SIGINT once it
// reported generation gen.
func interrupt(t *testing.T, orig []byte, tests, engine string, gen, seed int) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "stats.py")
	if err := os.WriteFile(target, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("repair", "-v", "--engine", engine, "--target", target, "--tests", tests, "--all",
		"--evaluations", "1000000", "--generations", "1000000", "--seed", strconv.Itoa(seed+1),
		"--report", filepath.Join(dir, "report.json"))
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	sc := bufio.NewScanner(stderr)
	mark := "repair: generation " + strconv.Itoa(gen) + ":"
	sent := false
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if !sent && strings.HasPrefix(sc.Text(), mark) {
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			sent = true
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !sent {
		t.Fatalf("the run ended before generation %d (%v):\n%s", gen, err, log.String())
	}
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v; want exit status 1\n%s", err, log.String())
	}
	if !strings.Contains(log.String(), "repair: interrupted") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", log.String())
	}
	if strings.Contains(log.String(), "panic") || strings.Contains(log.String(), "goroutine ") {
		t.Errorf("a panic or a stack trace on stderr:\n%s", log.String())
	}
	// Reap what the binary may have left to us, then look for the living.
	for {
		pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			break
		}
	}
	if left := proctest.Children(os.Getpid()); len(left) > 0 {
		t.Errorf("processes left after SIGINT:%s", proctest.Describe(left))
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("temporary directories left after SIGINT: %d, e.g. %s", len(ents), ents[0].Name())
	}
	if got, err := os.ReadFile(target); err != nil || !bytes.Equal(got, orig) {
		t.Errorf("the target changed (%v)", err)
	}
	if _, err := os.Stat(target + ".orig"); err == nil {
		t.Errorf("an interrupted run without --write made %s.orig", target)
	}
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(target), "report.json")); err == nil && !json.Valid(data) {
		t.Errorf("the report of an interrupted run is not valid JSON:\n%.300s", data)
	}
}
