package serve

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"repair/fitness"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
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
		{"clamp", "tests.json", 30},
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
			sopts := sandbox.Options{Suite: suite, Target: target, Workers: 2}

			local, err := repair.OpenEngine(ctx, "cpython", sopts)
			if err != nil {
				t.Skipf("no local engine: %v", err)
			}
			defer local.Close()
			want, err := repair.Run(ctx, prog, suite, local.Run, opts)
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
			got, err := repair.Run(ctx, prog, suite, eng.Run, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(want.Fixes) == 0 {
				t.Fatalf("the local run found no fix")
			}
			if diff := cmp.Diff(want.Fixes, got.Fixes, cmpopts.IgnoreFields(repair.Fix{}, "Source")); diff != "" {
				t.Errorf("fixes mismatch (-local +remote):\n%s", diff)
			}
			if diff := cmp.Diff(want.History, got.History, cmpopts.IgnoreFields(repair.Generation{}, "Seconds")); diff != "" {
				t.Errorf("history mismatch (-local +remote):\n%s", diff)
			}
			ra, rb := a.requests.Load(), b.requests.Load()
			t.Logf("%d evaluations; server A got %d requests, B %d", got.Evaluations, ra, rb)
			if ra == 0 || rb == 0 {
				t.Errorf("the candidates did not spread: A %d, B %d requests", ra, rb)
			}
			if tt.killAt > 0 && ra != tt.killAt {
				t.Errorf("server A got %d requests; it should have died at %d", ra, tt.killAt)
			}
		})
	}
}
