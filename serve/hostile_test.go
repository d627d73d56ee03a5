package serve

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostileRequests: one client's program cannot change another's
// verdict through the server. Requests for the same problem share an
// engine instance (one worker here, so one fork server): each sequence
// below is an attacker's request followed by a wrong program that must
// fail and a right one that must pass. Before the verdicts moved out of
// the candidate's process, the first sequence made wrong programs pass.
func TestHostileRequests(t *testing.T) {
	s := newRealServer(t, Options{Queue: 16, Workers: 1})
	h := s.Handler()
	tests := [][2]string{{"1 2\n", "3"}, {"10 -3\n", "7"}}
	wrong := "a, b = map(int, input().split())\nprint(a - b)\n"
	right := "a, b = map(int, input().split())\nprint(a + b)\n"
	rows := []struct {
		name     string
		attacker string
	}{
		{"replace the harness's comparison", `import sys
h = sys.modules["__main__"]
for name in ("compare_stdout", "tokens_equal", "equal"):
    setattr(h, name, lambda *a, **k: None)
if hasattr(h, "observe_output"):
    orig = h.observe_output
    h.observe_output = lambda out: orig(out)
print(0)
`},
		{"poison a reused child through operator.attrgetter", `import operator
def g():
    pass
get = lambda o, n: operator.attrgetter(n)(o)
b = get(g, "__glo" + "bals__")["__buil" + "tins__"]
b = b if type(b) is dict else get(b, "__di" + "ct__")
out = b["__imp" + "ort__"]("s" + "ys").stdout  # the harness's, so its globals:
hd = get(get(get(out, "write"), "__fu" + "nc__"), "__glo" + "bals__")
hd["compare_stdout"] = lambda *a: None
if "observe_output" in hd:
    hd["observe_output"] = lambda out: b"\x00\x02\x00\x00\x003\n"
print(0)
`},
		{"leave the answers in a file", `a, b = map(int, input().split())
open("answers", "a").write("%d %d %d\n" % (a, b, a + b))
print(a + b)
`},
		{"fill the working directory", `with open("fill", "ab") as f:
    try:
        while True:
            f.write(b"x" * (1 << 20))
            f.flush()
    except OSError:
        pass
print(0)
`},
	}
	cheat := `import os
a, b = map(int, input().split())
if os.path.exists("answers"):
    for line in open("answers"):
        x, y, r = map(int, line.split())
        if (x, y) == (a, b):
            print(r)
            raise SystemExit
open("scratch", "w").write(str(a - b))
print(open("scratch").read())
`
	verdicts := func(src string, cpu float64) []string {
		t.Helper()
		rec := do(t, h, "POST", "/api/execute_code", execRequestJSON(src, cpu, false, tests...))
		if rec.Code != 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		var resp ExecResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ut := range resp.Data {
			if ut.ExecOutcome != nil {
				got = append(got, *ut.ExecOutcome)
			}
		}
		return got
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			verdicts(row.attacker, 2)
			for _, victim := range []struct {
				name, src, want string
			}{{"wrong", wrong, "WRONG_ANSWER"}, {"cheat", cheat, "WRONG_ANSWER"}, {"right", right, "PASSED"}} {
				got := verdicts(victim.src, 2)
				if len(got) != 2 || got[0] != victim.want || got[1] != victim.want {
					t.Errorf("%s program after the attack: %v; want %s twice", victim.name, got, victim.want)
				}
			}
		})
	}
	// A program cannot read the server's token file (nor anything of the
	// host but the interpreter and the libraries).
	t.Run("read the token file", func(t *testing.T) {
		tokenFile := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		src := fmt.Sprintf("try:\n    print(open(%q).read())\nexcept OSError as e:\n    print(type(e).__name__)\n", tokenFile)
		rec := do(t, h, "POST", "/api/execute_code", execRequestJSON(src, 2, false, [2]string{"", "FileNotFoundError"}))
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"exec_outcome":"PASSED"`) {
			t.Errorf("reading %s: %s", tokenFile, rec.Body)
		}
	})
	// A program that stops its server's manager costs its time bound, not
	// the server's worker forever.
	t.Run("stop the manager", func(t *testing.T) {
		stop := `import os, signal
me, forker = os.getpid(), os.getppid()
for name in os.listdir("/proc"):
    if name.isdigit() and int(name) != me:
        try:
            stat = open("/proc/%s/stat" % name).read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == forker:
            os.kill(int(name), signal.SIGSTOP)
print(3)
`
		start := time.Now()
		got := verdicts(stop, 0.25)
		if strings.Join(got, " ") == "PASSED PASSED" {
			t.Errorf("stopping the manager: %v", got)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("the request took %v", d)
		}
		if got := verdicts(right, 2); len(got) != 2 || got[0] != "PASSED" || got[1] != "PASSED" {
			t.Errorf("the right program after: %v", got)
		}
	})
}
