package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"repair/fitness"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
	"repair/sandbox/engines"
	"repair/sandbox/remote"
)

// killable serves a Server on loopback and can die like a killed process:
// its listener and every connection close at once, mid-request.
type killable struct {
	url      string
	hs       *http.Server
	requests atomic.Int64
	killAt   int64 // kill when the native endpoint got this many requests (0: never)
	once     sync.Once
	done     chan struct{}
}

func startKillable(t *testing.T, s *Server, killAt int64) *killable {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	k := &killable{url: "http://" + ln.Addr().String(), killAt: killAt, done: make(chan struct{})}
	h := s.Handler()
	k.hs = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == remote.EvaluatePath && k.requests.Add(1) == k.killAt {
			go k.kill() // requests in flight, this one included, get no answer
		}
		h.ServeHTTP(w, r)
	})}
	go func() {
		k.hs.Serve(ln)
		close(k.done)
	}()
	t.Cleanup(func() { k.kill(); <-k.done })
	return k
}

func (k *killable) kill() { k.once.Do(func() { k.hs.Close() }) }

// TestExecutors: a repair whose candidates run on two servers finds the
// same patch, after the same evaluations and generations, as a local
// run with the same seed; and so it does when one server dies mid-run.
func TestExecutors(t *testing.T) {
	tests := []struct {
		bug, tests string
		killAt     int64 // requests after which server A dies (0: never)
	}{
		{"middle", "tests.json", 0},
		{"stack", "test_stack.py", 0},
		{"clamp", "tests.json", 0},
		{"clamp", "tests.json", 4},
	}
	for _, tt := range tests {
		name := tt.bug
		if tt.killAt > 0 {
			name += "/one server killed"
		}
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "examples", tt.bug)
			target := filepath.Join(dir, tt.bug+".py")
			prog, err := program.ParseFile(target)
			if err != nil {
				t.Fatal(err)
			}
			suite, err := fitness.Load(filepath.Join(dir, tt.tests))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			opts := repair.Defaults()
			opts.Seed, opts.Workers = 1, 4
			// No calibrated time cap: a 50 ms cap can turn a slow case into a
			// timeout when the machine is loaded (locally too), and this
			// test is about where candidates run, not about timing.
			opts.SearchTimeout = 10 * time.Second
			sopts := sandbox.Options{Suite: suite, Target: target, Workers: 2}

			local, err := engines.Open(ctx, "cpython", sopts)
			if err != nil {
				t.Skipf("no local engine: %v", err)
			}
			defer local.Close()
			lrun, lm := recordRuns(local.Run)
			want, err := repair.Run(ctx, prog, suite, lrun, opts)
			if err != nil {
				t.Fatal(err)
			}

			a := startKillable(t, newRealServer(t, Options{Workers: 2, Queue: 16}), tt.killAt)
			b := startKillable(t, newRealServer(t, Options{Workers: 2, Queue: 16}), 0)
			eng, err := remote.New(ctx, sopts, remote.Config{Executors: []string{a.url, b.url}, Backoff: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			rrun, rm := recordRuns(eng.Run)
			got, err := repair.Run(ctx, prog, suite, rrun, opts)
			for k, v := range lm {
				if w, ok := rm[k]; ok && w.verdicts != v.verdicts {
					t.Logf("a candidate's verdicts differ:\n%s\nlocal:  %s %s\nremote: %s %s", k, v.verdicts, v.first, w.verdicts, w.first)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Fixes) == 0 {
				t.Fatalf("the local run found no fix")
			}
			if diff := cmp.Diff(want.Fixes, got.Fixes, cmpopts.IgnoreFields(repair.Fix{}, "Source", "Seconds")); diff != "" {
				t.Errorf("fixes mismatch (-local +remote):\n%s", diff)
			}
			// The best fitness and the evaluations of every generation must
			// match. The mean may not: the cpython engine now and then
			// reports a trivial candidate as timed out on a loaded machine,
			// locally as remotely (the differing verdicts are logged above).
			if diff := cmp.Diff(want.History, got.History, cmpopts.IgnoreFields(repair.Generation{}, "Seconds", "Mean")); diff != "" {
				t.Errorf("history mismatch (-local +remote):\n%s", diff)
			}
			ra, rb := a.requests.Load(), b.requests.Load()
			t.Logf("%d evaluations; server A got %d requests, B %d", got.Evaluations, ra, rb)
			if ra == 0 || rb == 0 {
				t.Errorf("the candidates did not spread: A %d, B %d requests", ra, rb)
			}
			if tt.killAt > 0 && ra < tt.killAt {
				t.Errorf("server A got %d requests; it should have died at %d", ra, tt.killAt)
			}
		})
	}
}

// verdicts are a candidate's verdicts (their initials) and the detail of
// its first case.
type verdicts struct{ verdicts, first string }

// recordRuns wraps a runner to record the verdicts of every candidate by
// source and run options.
func recordRuns(run repair.Runner) (repair.Runner, map[string]verdicts) {
	var mu sync.Mutex
	m := map[string]verdicts{}
	return func(ctx context.Context, src []byte, ro sandbox.RunOptions) (*fitness.Outcome, error) {
		o, err := run(ctx, src, ro)
		if err == nil {
			var b strings.Builder
			for _, r := range o.Results {
				b.WriteByte(r.Verdict.String()[0])
			}
			mu.Lock()
			m[fmt.Sprintf("%s%+v", src, ro)] = verdicts{b.String(), o.Results[0].Detail}
			mu.Unlock()
		}
		return o, err
	}, m
}
