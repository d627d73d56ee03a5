package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
	"repair/sandbox/remote"
)

const echoRequest = `{"language": "Python 3", "source_code": "echo", "unittests": [{"input": "1", "output": ["1"]}]}`

func blockRequest() string {
	return `{"language": "Python 3", "source_code": "block", "unittests": [{"input": "1", "output": ["ok"]}]}`
}

func do(t *testing.T, h http.Handler, method, path, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestToken(t *testing.T) {
	s, _ := newFakeServer(t, Options{Token: "s3cret", Queue: 4})
	h := s.Handler()
	tests := []struct {
		name, method, path, auth string
		want                     int
	}{
		{"no token", "POST", "/api/execute_code", "", 401},
		{"wrong token", "POST", "/api/execute_code", "Bearer nope", 401},
		{"not bearer", "POST", "/api/execute_code", "Basic czNjcmV0", 401},
		{"token", "POST", "/api/execute_code", "Bearer s3cret", 200},
		{"runtimes need it", "GET", "/api/all_runtimes", "", 401},
		{"native needs it", "POST", "/api/v1/evaluate", "", 401},
		{"metrics need it", "GET", "/metrics", "", 401},
		{"metrics", "GET", "/metrics", "Bearer s3cret", 200},
		{"healthz does not", "GET", "/healthz", "", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, h, tt.method, tt.path, echoRequest, "Authorization", tt.auth)
			if rec.Code != tt.want {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.want, rec.Body)
			}
			if tt.want == 401 && rec.Header().Get("WWW-Authenticate") == "" {
				t.Errorf("401 without WWW-Authenticate")
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	s, _ := newFakeServer(t, Options{MaxBody: 1000, Queue: 4})
	h := s.Handler()
	big := `{"language": "Python 3", "source_code": "` + strings.Repeat("x", 2000) + `", "unittests": []}`
	for _, path := range []string{"/api/execute_code", remote.EvaluatePath} {
		// With a Content-Length, and without one (chunked).
		rec := do(t, h, "POST", path, big)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: status %d, want 413", path, rec.Code)
		}
		req := httptest.NewRequest("POST", path, io.MultiReader(strings.NewReader(big)))
		req.ContentLength = -1
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "larger than 1000 bytes") {
			t.Errorf("%s chunked: status %d, want 413: %s", path, rec.Code, rec.Body)
		}
	}
	if b, w := s.adm.load(); b != 0 || w != 0 {
		t.Errorf("load after refusals: busy %d, waiting %d", b, w)
	}
}

// TestQueueFull: with every worker busy and the queue full, a request is
// answered 503 with Retry-After at once, and served again once a worker
// is free.
func TestQueueFull(t *testing.T) {
	s, hooks := newFakeServer(t, Options{Workers: 1, Queue: 1})
	h := s.Handler()
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range 2 { // one runs, one waits
		wg.Go(func() { codes[i] = do(t, h, "POST", "/api/execute_code", blockRequest()).Code })
		if i == 0 {
			<-hooks.started
		}
	}
	waitFor(t, func() bool { _, w := s.adm.load(); return w == 1 })
	rec := do(t, h, "POST", "/api/execute_code", echoRequest)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("full: status %d, Retry-After %q; want 503, 1", rec.Code, rec.Header().Get("Retry-After"))
	}
	var e remote.ErrorResponse
	if json.Unmarshal(rec.Body.Bytes(), &e) != nil || !strings.Contains(e.Error, "queue is full") {
		t.Errorf("503 body %s", rec.Body)
	}
	close(hooks.release)
	wg.Wait()
	if diff := cmp.Diff([]int{200, 200}, codes); diff != "" {
		t.Errorf("statuses mismatch (-want +got):\n%s", diff)
	}
	if rec := do(t, h, "POST", "/api/execute_code", echoRequest); rec.Code != 200 {
		t.Errorf("after: status %d", rec.Code)
	}
	metrics := do(t, h, "GET", "/metrics", "").Body.String()
	for _, want := range []string{
		`repair_serve_rejected_total 1`,
		`repair_serve_requests_total{code="503",endpoint="execute_code"} 1`,
		`repair_serve_requests_total{code="200",endpoint="execute_code"} 3`,
		`repair_serve_verdicts_total{endpoint="execute_code",verdict="PASSED"} 3`,
		`repair_serve_queue_depth 0`,
		`repair_serve_busy_workers 0`,
		`repair_serve_evaluation_seconds_count{endpoint="execute_code"} 3`,
		`repair_serve_engine_starts_total 2`, // the block suite (the waiting request reuses its instance) and the echo suite
		`go_goroutines`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// waitFor polls cond; the test's own deadline bounds it.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		time.Sleep(time.Millisecond)
	}
}

// TestGracefulShutdown: on cancellation the server stops taking
// connections, lets the request in flight finish, and closes its engines.
func TestGracefulShutdown(t *testing.T) {
	s, hooks := newFakeServer(t, Options{Workers: 1, Queue: 4})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, s, time.Minute) }()

	type answer struct {
		code int
		body string
		err  error
	}
	inflight := make(chan answer, 1)
	go func() {
		resp, err := http.Post(url+"/api/execute_code", "application/json", strings.NewReader(blockRequest()))
		if err != nil {
			inflight <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		inflight <- answer{code: resp.StatusCode, body: string(b)}
	}()
	<-hooks.started
	cancel()
	waitFor(t, func() bool { return s.draining.Load() })
	// New connections are refused once the listener is closed.
	waitFor(t, func() bool {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(hooks.release)
	a := <-inflight
	if a.err != nil || a.code != 200 || !strings.Contains(a.body, `"PASSED"`) {
		t.Fatalf("request in flight: %d %s %v", a.code, a.body, a.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if o, c := hooks.opened.Load(), hooks.closed.Load(); o != c {
		t.Errorf("%d engines opened, %d closed", o, c)
	}
}

func TestPoolEviction(t *testing.T) {
	h := newHooks()
	now := time.Unix(0, 0)
	p := newPool(&pool{open: h.open, max: 2, idleTTL: time.Minute, now: func() time.Time { return now }})
	sp := func(key string) *spec {
		in := "1"
		return &spec{key: key, runtime: "cpython", suite: &remote.Suite{Module: "m", MemoryMB: 1,
			Cases: []fitness.Case{{Name: "a", Kind: fitness.IO, Stdin: &in, Weight: 1, Timeout: 1}}}}
	}
	a, b, c := sp("a"), sp("b"), sp("c")
	ctx := context.Background()
	get := func(s *spec) *instance {
		t.Helper()
		in, err := p.get(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	ia := get(a)
	ia2 := get(a) // a second instance of a: the first is busy
	p.put(a, ia, false)
	p.put(a, ia2, false)
	if got := get(a); got != ia2 {
		t.Errorf("get did not reuse the most recent idle instance")
	} else {
		p.put(a, got, false)
	}
	now = now.Add(time.Second)
	ib := get(b) // 3 instances, max 2: the oldest idle of a goes on put
	p.put(b, ib, false)
	if live, idle := p.stats(); live != 2 || idle != 2 {
		t.Errorf("live %d idle %d, want 2 2", live, idle)
	}
	ic := get(c)
	p.put(c, ic, true) // broken: closed
	if live, _ := p.stats(); live != 2 {
		t.Errorf("a broken instance was kept")
	}
	now = now.Add(2 * time.Minute)
	p.evictIdle()
	if live, idle := p.stats(); live != 0 || idle != 0 {
		t.Errorf("after the idle timeout: live %d idle %d", live, idle)
	}
	p.close()
	if o, c := h.opened.Load(), h.closed.Load(); o != 4 || c != 4 {
		t.Errorf("opened %d closed %d, want 4 4", o, c)
	}
	if _, err := p.get(ctx, a); !errors.Is(err, sandbox.ErrClosed) {
		t.Errorf("get after close: %v", err)
	}
}

func TestSpecCache(t *testing.T) {
	c := newSpecCache(10)
	for _, k := range []string{"a", "b", "c"} {
		c.add(&spec{key: k, size: 4})
	}
	// 12 bytes > 10: a, the least recently used, is gone.
	if c.get("a") != nil || c.get("b") == nil || c.get("c") == nil || c.len() != 2 {
		t.Errorf("after 3 adds: a %v b %v c %v len %d", c.get("a"), c.get("b"), c.get("c"), c.len())
	}
	first := c.get("b")
	if got := c.add(&spec{key: "b", size: 4}); got != first {
		t.Errorf("add of a known key replaced it")
	}
}

// TestNewEngines: the server offers the runtimes whose engine works, and
// refuses to start without one.
func TestNewEngines(t *testing.T) {
	h := newHooks()
	tests := []struct {
		engine  string
		want    []string
		wantErr string
	}{
		// ExecEval's other Python runtimes run on the first engine.
		{"auto", []string{"Python 3", "Python 3 + libs", "PyPy 3", "PyPy 3-64", "Python 2", "PyPy 2"}, ""},
		{"cpython", []string{"Python 3", "Python 3 + libs", "PyPy 3", "PyPy 3-64", "Python 2", "PyPy 2"}, ""},
		{"gpython", nil, "no engine works: gpython: gpython: not in this build"},
	}
	for _, tt := range tests {
		t.Run(tt.engine, func(t *testing.T) {
			s, err := New(context.Background(), Options{Engine: tt.engine, Open: h.open, Workers: 1})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("New error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var got []string
			for _, rt := range s.Runtimes() {
				got = append(got, rt.RuntimeName)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("runtimes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRemoveOrphans: a server removes the directories that a killed
// server left, and only those.
func TestRemoveOrphans(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := cmd.Process.Pid
	names := map[string]bool{ // name → kept
		fmt.Sprintf("repair-serve-%d-123", dead):        false,
		fmt.Sprintf("repair-serve-%d-456", os.Getpid()): true,
		"repair-serve-1-789":                            true, // alive (init)
		"repair-serve-x-1":                              true, // not ours
		"repair-sandbox-1-1":                            true,
	}
	for n := range names {
		if err := os.Mkdir(filepath.Join(tmp, n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	removeOrphans()
	for n, kept := range names {
		_, err := os.Stat(filepath.Join(tmp, n))
		if (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", n, err == nil, kept)
		}
	}
}

func TestOnceWriter(t *testing.T) {
	var b strings.Builder
	w := &onceWriter{w: &b}
	for _, s := range []string{"degraded: no namespaces\n", "degraded: no namespaces\n", "other\nlast\n", "other\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got, want := b.String(), "degraded: no namespaces\nother\nlast\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
