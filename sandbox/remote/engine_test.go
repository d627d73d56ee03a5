package remote

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// fakeServer speaks the native protocol: every case passes, except that
// a source "fail" fails every case. fail, if set, decides per request
// whether to answer an error instead.
type fakeServer struct {
	t       *testing.T
	srv     *httptest.Server
	engines []string
	token   string // required by RuntimesPath when set

	mu       sync.Mutex
	suites   map[string]int // ID → cases
	requests int
	withSuit int
	sources  [][]byte
	runOpts  []EvaluateRequest                     // Coverage, Timeout, AbandonAfterTimeout of each request
	fail     func(n int) (status int, code string) // n: 1-based request number
	hangup   func(n int) bool                      // drop the connection
}

func newFake(t *testing.T) *fakeServer {
	f := &fakeServer{t: t, suites: map[string]int{}, engines: []string{"cpython"}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == HealthPath {
		json.NewEncoder(w).Encode(Health{Status: "ok", Engine: f.engines[0], Engines: f.engines, Workers: 2})
		return
	}
	if r.URL.Path == RuntimesPath {
		if f.token != "" && r.Header.Get("Authorization") != "Bearer "+f.token {
			w.WriteHeader(http.StatusUnauthorized)
		}
		io.WriteString(w, "[]")
		return
	}
	data, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests++
	n := f.requests
	fail, hangup := f.fail, f.hangup
	f.mu.Unlock()
	if hangup != nil && hangup(n) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	if fail != nil {
		if status, code := fail(n); status != 0 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(ErrorResponse{Error: "injected", Code: code})
			return
		}
	}
	var req EvaluateRequest
	if err := json.Unmarshal(data, &req); err != nil {
		f.t.Errorf("bad request: %v", err)
		w.WriteHeader(400)
		return
	}
	id := req.SuiteID
	f.mu.Lock()
	if len(req.Suite) > 0 {
		f.withSuit++
		var s Suite
		if err := json.Unmarshal(req.Suite, &s); err != nil {
			f.t.Errorf("bad suite: %v", err)
		}
		id = SuiteID(req.Suite)
		f.suites[id] = len(s.Cases)
	}
	nCases, ok := f.suites[id]
	src := []byte(nil)
	if req.Source != nil {
		src = []byte(*req.Source)
	} else {
		src = req.SourceBase64
	}
	f.sources = append(f.sources, src)
	f.runOpts = append(f.runOpts, EvaluateRequest{Coverage: req.Coverage, Timeout: req.Timeout, AbandonAfterTimeout: req.AbandonAfterTimeout})
	f.mu.Unlock()
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(ErrorResponse{Error: "unknown", Code: CodeUnknownSuite})
		return
	}
	out := &fitness.Outcome{Results: make([]fitness.Result, nCases)}
	if string(src) == "fail" {
		for i := range out.Results {
			out.Results[i] = fitness.Result{Verdict: fitness.WrongAnswer, Detail: "no"}
		}
	}
	json.NewEncoder(w).Encode(EvaluateResponse{SuiteID: id, Engine: "fake 1.0", Outcome: out})
}

func (f *fakeServer) forget() {
	f.mu.Lock()
	clear(f.suites)
	f.mu.Unlock()
}

func (f *fakeServer) counts() (requests, withSuite int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests, f.withSuit
}

func testOptions(t *testing.T) sandbox.Options {
	t.Helper()
	dir := t.TempDir()
	target := filepath.Join(dir, "middle.py")
	if err := os.WriteFile(target, []byte("def middle(x, y, z):\n    return y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return sandbox.Options{Target: target, Suite: &fitness.Suite{MemoryMB: 512, Cases: validSuite().Cases}}
}

func newEngine(t *testing.T, cfg Config) *Engine {
	t.Helper()
	if cfg.Backoff == 0 {
		cfg.Backoff = 1 // nanosecond: retries at once in tests
	}
	e, err := New(context.Background(), testOptions(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestRunSendsSuiteOnce(t *testing.T) {
	f := newFake(t)
	e := newEngine(t, Config{Executors: []string{f.srv.URL}})
	for i := range 3 {
		out, err := e.Run(context.Background(), []byte("ok"), sandbox.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !out.Passed() || len(out.Results) != 2 {
			t.Fatalf("run %d: outcome %+v", i, out)
		}
	}
	if req, with := f.counts(); req != 3 || with != 1 {
		t.Errorf("%d requests, %d with the suite; want 3, 1", req, with)
	}
	// The server restarts: it answers unknown_suite once, then gets it.
	f.forget()
	if _, err := e.Run(context.Background(), []byte("ok"), sandbox.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if req, with := f.counts(); req != 5 || with != 2 {
		t.Errorf("after a restart: %d requests, %d with the suite; want 5, 2", req, with)
	}
	if got := e.Describe(); got != "fake 1.0 on executor "+f.srv.URL {
		t.Errorf("Describe() = %q", got)
	}
	if e.Name() != "cpython" || e.Capacity() != 2 {
		t.Errorf("Name, Capacity = %q, %d", e.Name(), e.Capacity())
	}
}

func TestRunSpreads(t *testing.T) {
	a, b := newFake(t), newFake(t)
	e := newEngine(t, Config{Executors: []string{a.srv.URL, b.srv.URL}})
	for range 10 {
		if _, err := e.Run(context.Background(), []byte("ok"), sandbox.RunOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ra, _ := a.counts()
	rb, _ := b.counts()
	if ra+rb != 10 || ra == 0 || rb == 0 {
		t.Errorf("requests %d and %d; want 10 spread over both", ra, rb)
	}
}

func TestRunRetries(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(a *fakeServer)
		wantErr string // empty: the run succeeds on b
	}{
		{"500", func(a *fakeServer) { a.fail = func(int) (int, string) { return 500, CodeInternal } }, ""},
		{"hangup", func(a *fakeServer) { a.hangup = func(int) bool { return true } }, ""},
		{"busy", func(a *fakeServer) { a.fail = func(int) (int, string) { return 503, CodeBusy } }, ""},
		{"bad gateway text", func(a *fakeServer) { a.fail = func(int) (int, string) { return 502, "" } }, ""},
		{"unauthorized", func(a *fakeServer) { a.fail = func(int) (int, string) { return 401, CodeUnauthorized } }, "401 Unauthorized: injected"},
		{"bad request", func(a *fakeServer) { a.fail = func(int) (int, string) { return 400, CodeBadRequest } }, "400 Bad Request: injected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := newFake(t), newFake(t)
			e := newEngine(t, Config{Executors: []string{a.srv.URL, b.srv.URL}})
			tt.setup(a)
			// Several runs, so that a is picked first at least once.
			for range 4 {
				out, err := e.Run(context.Background(), []byte("fail"), sandbox.RunOptions{})
				if tt.wantErr != "" {
					if err == nil {
						continue // b took it
					}
					if !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %q, want %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if out.Results[0].Verdict != fitness.WrongAnswer {
					t.Fatalf("outcome %+v", out)
				}
			}
			if tt.wantErr != "" {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			if ra, _ := a.counts(); ra == 0 {
				t.Errorf("the failing server was never tried")
			}
		})
	}
}

func TestRunAllFail(t *testing.T) {
	a, b := newFake(t), newFake(t)
	e := newEngine(t, Config{Executors: []string{a.srv.URL, b.srv.URL}})
	for _, f := range []*fakeServer{a, b} {
		f.fail = func(int) (int, string) { return 500, CodeInternal }
	}
	_, err := e.Run(context.Background(), []byte("x"), sandbox.RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "every executor failed (4 attempts)") {
		t.Fatalf("error %v", err)
	}
	// They come back: the next run succeeds.
	for _, f := range []*fakeServer{a, b} {
		f.mu.Lock()
		f.fail = nil
		f.mu.Unlock()
	}
	if _, err := e.Run(context.Background(), []byte("x"), sandbox.RunOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestRunSourceAndCoverage(t *testing.T) {
	f := newFake(t)
	e := newEngine(t, Config{Executors: []string{f.srv.URL}})
	srcs := [][]byte{[]byte("print('é')\n"), {0xff, 0xfe, 'x'}}
	opts := []sandbox.RunOptions{{Coverage: true}, {Coverage: true, Timeout: 250 * time.Millisecond, AbandonAfterTimeout: true}}
	for i, src := range srcs {
		out, err := e.Run(context.Background(), src, opts[i])
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Results {
			if r.Lines == nil {
				t.Errorf("coverage asked, Lines nil")
			}
		}
	}
	if diff := cmp.Diff(srcs, f.sources); diff != "" {
		t.Errorf("sources the server got mismatch (-want +got):\n%s", diff)
	}
	want := []EvaluateRequest{{Coverage: true}, {Coverage: true, Timeout: 0.25, AbandonAfterTimeout: true}}
	if diff := cmp.Diff(want, f.runOpts); diff != "" {
		t.Errorf("run options the server got mismatch (-want +got):\n%s", diff)
	}
}

func TestNew(t *testing.T) {
	good := newFake(t)
	locked := newFake(t)
	locked.token = "s3cret"
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }))
	t.Cleanup(other.Close)
	tests := []struct {
		name      string
		executors []string
		engine    string
		wantErr   string
		token     string
	}{
		{"one good", []string{good.srv.URL}, "", "", ""},
		{"one down of two", []string{gone.URL, good.srv.URL}, "", "", ""},
		{"all down", []string{gone.URL}, "", "no executor answers", ""},
		{"not ours", []string{other.URL}, "", "not a repair server", ""},
		{"no engine", []string{good.srv.URL}, "gpython", "no gpython engine (it has cpython)", ""},
		{"bad url", []string{"ftp://x"}, "", "want http://HOST:PORT", ""},
		{"no token", []string{locked.srv.URL, good.srv.URL}, "", "executor " + locked.srv.URL + ": a token is required (--executor-token-file)", ""},
		{"wrong token", []string{locked.srv.URL}, "", "executor " + locked.srv.URL + ": the token was refused", "nope"},
		{"token", []string{locked.srv.URL}, "", "", "s3cret"},
		{"none", nil, "", "no executors", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(context.Background(), testOptions(t), Config{Executors: tt.executors, Engine: tt.engine, Token: tt.token})
			if err == nil {
				defer e.Close()
			}
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("New() error %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestRunAfterClose(t *testing.T) {
	f := newFake(t)
	e := newEngine(t, Config{Executors: []string{f.srv.URL}})
	e.Close()
	if _, err := e.Run(context.Background(), []byte("x"), sandbox.RunOptions{}); err != sandbox.ErrClosed {
		t.Errorf("Run after Close: %v, want ErrClosed", err)
	}
}
