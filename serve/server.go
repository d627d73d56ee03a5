package serve

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
	"repair/sandbox/engines"
	"repair/sandbox/remote"
)

// Options configure a Server. Zero values take the defaults named.
type Options struct {
	// Engine is the default runtime of native requests: "auto" (or
	// empty: cpython when available, else gpython), "cpython", "gpython".
	Engine string
	// Workers bounds the candidates evaluated at once (default: one per
	// CPU).
	Workers int
	// Queue bounds the requests waiting for a worker; when it is full a
	// request is answered 503 with Retry-After. 0 means no waiting.
	Queue int
	// Instances bounds the engine instances kept (idle ones are closed,
	// least recently used first, beyond it); default 4×Workers+16.
	Instances int
	// IdleTimeout closes instances idle for longer (default 5 minutes).
	IdleTimeout time.Duration
	// Isolation and Python are given to every engine.
	Isolation sandbox.Isolation
	Python    string
	// Token, when not empty, is the bearer token every request but
	// GET /healthz must carry.
	Token string
	// MaxBody bounds request bodies in bytes (default 16 MiB).
	MaxBody int64
	// BodyTimeout bounds the time a request's body may take to arrive
	// once the request is admitted (default 60 s): a client that trickles
	// it is answered 408 and its admission slot freed.
	BodyTimeout time.Duration
	// MaxTime caps the time limit of one case in seconds (default 60).
	MaxTime float64
	// MaxMemoryMB caps the memory limit of a candidate (default 4096).
	MaxMemoryMB int
	// MaxCases bounds the cases of one request (default 10000).
	MaxCases int
	// SuiteBudget bounds the bytes of native suites kept (default 256 MiB).
	SuiteBudget int
	// Version is reported by /healthz.
	Version string
	// Log receives one line per failure of the server itself and engine
	// notices (nil: discarded).
	Log io.Writer

	// Open starts an engine (default engines.Open) and Describe
	// describes one (default sandbox.Describe); tests replace them.
	Open     func(ctx context.Context, runtime string, opts sandbox.Options) (sandbox.Engine, error)
	Describe func(sandbox.Engine) string
}

// Server is the HTTP service: ExecEval's API and the native endpoint over
// a pool of engine instances. Create it with New, serve its Handler, and
// Close it.
type Server struct {
	opts     Options
	runtimes []Runtime // available, in the order of knownRuntimes
	aliases  []Runtime // ExecEval's other Python names, on runtimes[0]
	def      string    // default engine name
	limits   remote.Limits
	pool     *pool
	specs    *specCache
	adm      *admission
	m        *metrics
	log      *log.Logger
	draining atomic.Bool

	stop      chan struct{}
	janitor   sync.WaitGroup
	closeOnce sync.Once
}

// Runtime is one runtime of GET /api/all_runtimes, in ExecEval's fields,
// and the engine that runs it.
type Runtime struct {
	RuntimeName     string  `json:"runtime_name"`
	CompileCmd      string  `json:"compile_cmd"`
	CompileFlags    string  `json:"compile_flags"`
	ExecuteCmd      string  `json:"execute_cmd"`
	ExecuteFlags    string  `json:"execute_flags"`
	TimelimitFactor float64 `json:"timelimit_factor"`
	IsCompiled      bool    `json:"is_compiled"`
	HasSanitizer    bool    `json:"has_sanitizer"`

	// Engine is the engine's name ("cpython"), and Describe says which
	// interpreter and isolation it has ("cpython 3.11.7 (isolation: full)").
	Engine   string `json:"-"`
	Describe string `json:"-"`
}

// knownRuntimes are the runtimes a server may offer: ExecEval's "Python 3"
// on the cpython engine, and the embedded gpython engine. The time limit
// factor is ExecEval's for Python 3 (a request's limits.cpu times the
// factor is a case's time limit), so that verdicts match ExecEval's.
var knownRuntimes = []Runtime{
	{RuntimeName: "Python 3", Engine: "cpython", TimelimitFactor: 3, IsCompiled: true},
	{RuntimeName: "gpython", Engine: "gpython", TimelimitFactor: 3, IsCompiled: true},
}

// execEvalPythons are ExecEval's other Python runtimes with their time
// limit factors (its execution_engine/config.yaml). No PyPy or Python 2
// runs here: each is served by the first engine the server has (CPython
// when present), which /api/all_runtimes shows in execute_cmd and every
// answer names in its X-Repair-Runtime header, so that ExecEval's clients
// get verdicts instead of a 400 for these names. A Python 2 program that
// is not also Python 3 gets COMPILATION_ERROR.
var execEvalPythons = []struct {
	name   string
	factor float64
}{
	{"Python 3 + libs", 3}, {"PyPy 3", 2}, {"PyPy 3-64", 2}, {"Python 2", 3}, {"PyPy 2", 2},
}

// execEvalAliases are the runtimes of execEvalPythons on the first of
// the probed runtimes.
func execEvalAliases(probed []Runtime) []Runtime {
	base := probed[0]
	var out []Runtime
	for _, a := range execEvalPythons {
		rt := base
		rt.RuntimeName, rt.TimelimitFactor = a.name, a.factor
		rt.Describe = fmt.Sprintf("%s, standing in for %s", base.Describe, a.name)
		out = append(out, rt)
	}
	return out
}

// New probes the runtimes (each engine runs one trivial program) and
// returns a server that offers those that work. It fails when none does,
// or when opts.Engine names one that does not.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Queue < 0 {
		return nil, inputerr.New("serve: the queue must be >= 0, got %d", opts.Queue)
	}
	if opts.Instances <= 0 {
		opts.Instances = 4*opts.Workers + 16
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 5 * time.Minute
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = 60 * time.Second
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = 16 << 20
	}
	if opts.MaxTime <= 0 {
		opts.MaxTime = 60
	}
	if opts.MaxMemoryMB <= 0 {
		opts.MaxMemoryMB = 4096
	}
	if opts.MaxCases <= 0 {
		opts.MaxCases = 10000
	}
	if opts.SuiteBudget <= 0 {
		opts.SuiteBudget = 256 << 20
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Open == nil {
		opts.Open = engines.Open
	}
	if opts.Describe == nil {
		opts.Describe = sandbox.Describe
	}
	if opts.Engine == "" {
		opts.Engine = "auto"
	}
	s := &Server{
		opts:   opts,
		limits: remote.Limits{MaxCases: opts.MaxCases, MaxTimeout: opts.MaxTime, MaxMemoryMB: opts.MaxMemoryMB, MaxFiles: 256},
		specs:  newSpecCache(opts.SuiteBudget),
		log:    log.New(opts.Log, "repair serve: ", 0),
		stop:   make(chan struct{}),
	}
	s.pool = newPool(&pool{
		open: opts.Open,
		base: sandbox.Options{Isolation: opts.Isolation, Python: opts.Python, Stderr: &onceWriter{w: opts.Log}},
		desc: opts.Describe,
		max:  opts.Instances, idleTTL: opts.IdleTimeout,
	})
	s.m = newMetrics(s.pool.stats)
	s.pool.started = s.m.starts.Inc
	s.adm = newAdmission(opts.Workers, opts.Queue, func(busy, waiting int64) {
		s.m.busy.Set(float64(busy))
		s.m.queue.Set(float64(waiting))
	})

	var errs []string
	for _, rt := range knownRuntimes {
		if opts.Engine != "auto" && opts.Engine != rt.Engine {
			continue
		}
		info, err := s.probe(ctx, rt)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			errs = append(errs, fmt.Sprintf("%s: %v", rt.Engine, err))
			continue
		}
		s.runtimes = append(s.runtimes, info)
	}
	if len(s.runtimes) == 0 {
		if opts.Engine != "auto" && len(errs) == 0 {
			return nil, inputerr.New("--engine: unknown engine %q (want auto, cpython or gpython)", opts.Engine)
		}
		return nil, fmt.Errorf("no engine works: %s", strings.Join(errs, "; "))
	}
	s.def = s.runtimes[0].Engine
	s.aliases = execEvalAliases(s.runtimes)
	removeOrphans()
	s.janitor.Go(s.evictLoop)
	return s, nil
}

// probe starts the runtime's engine on a one-case program and runs it.
func (s *Server) probe(ctx context.Context, rt Runtime) (Runtime, error) {
	dir, err := os.MkdirTemp("", "repair-serve-probe-*")
	if err != nil {
		return rt, err
	}
	defer os.RemoveAll(dir)
	target := filepath.Join(dir, "probe.py")
	if err := os.WriteFile(target, []byte("print(6 * 7)\n"), 0o644); err != nil {
		return rt, err
	}
	in, out := "", "42\n"
	suite := &fitness.Suite{Path: filepath.Join(dir, "suite.json"), MemoryMB: fitness.DefaultMemoryMB, Cases: []fitness.Case{{
		Name: "probe", Kind: fitness.IO, Stdin: &in, Stdout: &out, Weight: 1, Timeout: 10, Tolerance: fitness.DefaultTolerance,
	}}}
	eng, err := s.opts.Open(ctx, rt.Engine, sandbox.Options{
		Suite: suite, Target: target, Workers: 1, Isolation: s.opts.Isolation, Python: s.opts.Python, Stderr: s.opts.Log,
	})
	if err != nil {
		return rt, err
	}
	defer eng.Close()
	o, err := eng.Run(ctx, []byte("print(6 * 7)\n"), sandbox.RunOptions{})
	if err != nil {
		return rt, err
	}
	if !o.Passed() {
		return rt, fmt.Errorf("the probe program did not pass: %v %s", o.Results[0].Verdict, o.Results[0].Detail)
	}
	rt.Describe = s.opts.Describe(eng)
	rt.ExecuteCmd = rt.Describe
	if x, ok := eng.(sandbox.Executable); ok {
		rt.ExecuteCmd = x.Executable()
	}
	return rt, nil
}

// Workers is the number of candidates evaluated at once.
func (s *Server) Workers() int { return s.opts.Workers }

// Runtimes are the runtimes the server offers.
func (s *Server) Runtimes() []Runtime {
	return append(append([]Runtime(nil), s.runtimes...), s.aliases...)
}

// runtimeByName finds a runtime by its ExecEval name.
func (s *Server) runtimeByName(name string) (Runtime, bool) {
	for _, rt := range s.Runtimes() {
		if rt.RuntimeName == name {
			return rt, true
		}
	}
	return Runtime{}, false
}

// engineRuntime resolves the engine of a native request.
func (s *Server) engineRuntime(name string) (Runtime, bool) {
	if name == "" || name == "auto" {
		name = s.def
	}
	for _, rt := range s.runtimes {
		if rt.Engine == name {
			return rt, true
		}
	}
	return Runtime{}, false
}

func (s *Server) evictLoop() {
	every := min(max(s.opts.IdleTimeout/4, time.Second), 30*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.pool.evictIdle()
		}
	}
}

// Close closes every engine instance (evaluations still running fail)
// and stops the server's goroutines. Stop serving the Handler first.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.draining.Store(true)
		close(s.stop)
		s.janitor.Wait()
		s.pool.close()
	})
	return nil
}

// endpoint names label the metrics.
const (
	epExecute  = "execute_code"
	epRuntimes = "all_runtimes"
	epEvaluate = "evaluate"
	epHealth   = "healthz"
	epMetrics  = "metrics"
	epOther    = "other"
)

// Handler serves the API:
//
//	POST /api/execute_code   ExecEval: run a program on unit tests (stdin → stdout)
//	GET  /api/all_runtimes   ExecEval: the runtimes
//	POST /api/v1/evaluate    native: a candidate on a suite of ours
//	GET  /healthz            health and load (no token needed)
//	GET  /metrics            Prometheus metrics
func (s *Server) Handler() http.Handler {
	metricsHandler := s.m.handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		ep := epOther
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Printf("panic serving %s: %v\n%s", r.URL.Path, p, debug.Stack())
				if !rec.wrote {
					writeError(rec, http.StatusInternalServerError, "", "internal error")
				}
			}
			s.m.requests.WithLabelValues(ep, strconv.Itoa(rec.status)).Inc()
			s.m.duration.WithLabelValues(ep).Observe(time.Since(start).Seconds())
		}()
		var method string
		var h func(http.ResponseWriter, *http.Request)
		switch r.URL.Path {
		case "/api/execute_code":
			ep, method, h = epExecute, http.MethodPost, s.executeCode
		case "/api/all_runtimes":
			ep, method, h = epRuntimes, http.MethodGet, s.allRuntimes
		case remote.EvaluatePath:
			ep, method, h = epEvaluate, http.MethodPost, s.evaluateNative
		case remote.HealthPath:
			ep, method, h = epHealth, http.MethodGet, s.health
		case "/metrics":
			ep, method, h = epMetrics, http.MethodGet, metricsHandler.ServeHTTP
		default:
			writeError(rec, http.StatusNotFound, "", fmt.Sprintf("no such endpoint: %s", r.URL.Path))
			return
		}
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			rec.Header().Set("Allow", method)
			writeError(rec, http.StatusMethodNotAllowed, "", fmt.Sprintf("%s wants %s, got %s", r.URL.Path, method, r.Method))
			return
		}
		if ep != epHealth && !s.authorized(r) {
			rec.Header().Set("WWW-Authenticate", `Bearer realm="repair"`)
			writeError(rec, http.StatusUnauthorized, remote.CodeUnauthorized, "a valid bearer token is required (Authorization: Bearer TOKEN)")
			return
		}
		h(rec, r)
	})
}

func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(tok)), []byte(s.opts.Token)) == 1
}

// statusRecorder remembers the status for the metrics.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(p)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	busy, waiting := s.adm.load()
	h := remote.Health{
		Status: "ok", Version: s.opts.Version, Engine: s.def,
		Workers: s.opts.Workers, Queue: s.opts.Queue, Busy: int(busy), Waiting: int(waiting),
	}
	for _, rt := range s.runtimes {
		h.Engines = append(h.Engines, rt.Engine)
	}
	status := http.StatusOK
	if s.draining.Load() {
		h.Status, status = "draining", http.StatusServiceUnavailable
	}
	writeJSON(w, status, h)
}

func (s *Server) allRuntimes(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Runtimes())
}

// readBody admits the request and reads its body: bounded in size, and in
// time (a client that sends its body too slowly is cut off). On failure it
// has answered; otherwise the caller must call s.adm.leave.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, code func(string) string) ([]byte, bool) {
	if r.ContentLength > s.opts.MaxBody {
		writeError(w, http.StatusRequestEntityTooLarge, code(remote.CodeTooLarge), fmt.Sprintf("the body is larger than %d bytes", s.opts.MaxBody))
		return nil, false
	}
	if s.draining.Load() {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, code(remote.CodeBusy), "the server is shutting down")
		return nil, false
	}
	if err := s.adm.enter(); err != nil {
		s.m.rejected.Inc()
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, code(remote.CodeBusy), err.Error())
		return nil, false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.opts.BodyTimeout))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	if err != nil {
		s.adm.leave()
		// The deadline stays: the server must not wait for the rest of a
		// trickled body before answering (it drains what the handler did
		// not read), and the connection is not kept.
		w.Header().Set("Connection", "close")
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			writeError(w, http.StatusRequestEntityTooLarge, code(remote.CodeTooLarge), fmt.Sprintf("the body is larger than %d bytes", s.opts.MaxBody))
		case errors.Is(err, os.ErrDeadlineExceeded):
			writeError(w, http.StatusRequestTimeout, code(remote.CodeBadRequest), fmt.Sprintf("the body did not arrive within %v", s.opts.BodyTimeout))
		default:
			writeError(w, http.StatusBadRequest, code(remote.CodeBadRequest), "reading the body: "+err.Error())
		}
		return nil, false
	}
	_ = rc.SetReadDeadline(time.Time{})
	return data, true
}

// errNoWorker wraps the reasons an admitted request got no worker.
var errNoWorker = errors.New("no worker")

// evaluate runs src on an instance of sp, holding a worker.
func (s *Server) evaluate(ctx context.Context, ep string, sp *spec, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, string, error) {
	if err := s.adm.acquire(ctx); err != nil {
		return nil, "", fmt.Errorf("%w: %v", errNoWorker, err)
	}
	defer s.adm.release()
	start := time.Now()
	in, err := s.pool.get(ctx, sp)
	if err != nil {
		return nil, "", err
	}
	broken := true // until Run returns: a panic must not leak the instance
	defer func() { s.pool.put(sp, in, broken) }()
	out, err := in.eng.Run(ctx, src, opts)
	broken = err != nil
	s.m.evaluation.WithLabelValues(ep).Observe(time.Since(start).Seconds())
	if err != nil {
		return nil, "", err
	}
	return out, in.desc, nil
}

// evalError answers a failed evaluation: the client went away, the
// server is closing, or the sandbox broke.
func (s *Server) evalError(w http.ResponseWriter, r *http.Request, err error, code func(string) string) {
	switch {
	case r.Context().Err() != nil:
		// The client is gone; nobody reads this.
		writeError(w, 499, "", "client closed the request")
	case errors.Is(err, sandbox.ErrClosed):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, code(remote.CodeBusy), "the server is shutting down")
	case inputerr.Is(err):
		writeError(w, http.StatusBadRequest, code(remote.CodeBadRequest), err.Error())
	default:
		s.log.Printf("evaluation failed: %v", err)
		writeError(w, http.StatusInternalServerError, code(remote.CodeInternal), "the sandbox failed: "+err.Error())
	}
}

// onceWriter passes each distinct line on once: every engine instance says
// its one-time notices (degraded isolation), the server says them once.
type onceWriter struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]bool
}

func (o *onceWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line == "" || o.seen[line] {
			continue
		}
		if len(o.seen) < 1000 {
			o.seen[line] = true
		}
		io.WriteString(o.w, line)
	}
	return len(p), nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = marshal(remote.ErrorResponse{Error: "encoding the answer: " + err.Error(), Code: remote.CodeInternal})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, remote.ErrorResponse{Error: msg, Code: code})
}

// marshal encodes v as one line of JSON without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// Serve serves the handler on ln until ctx ends, then shuts down
// gracefully: it stops accepting connections, lets the requests in
// flight finish (for at most grace), and closes the server.
func Serve(ctx context.Context, ln net.Listener, s *Server, grace time.Duration) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          s.log,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		hs.Close()
		err = fmt.Errorf("shutdown: requests still running after %s were cut off", grace)
	}
	<-errc // http.ErrServerClosed
	s.Close()
	return err
}
