package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/sandbox"
)

// Config configures the remote engine besides the sandbox.Options that
// every engine takes.
type Config struct {
	// Executors are the base URLs of the servers ("http://host:5000").
	Executors []string
	// Engine is the runtime the servers use: "cpython", "gpython", or
	// empty (or "auto") for each server's default.
	Engine string
	// Token is sent as a bearer token when not empty.
	Token string
	// Client is the HTTP client; nil means one tuned for many concurrent
	// requests to few hosts.
	Client *http.Client
	// AttemptTimeout bounds one request to one server; 0 derives it from
	// the suite (30 s plus twice the sum of the case timeouts).
	AttemptTimeout time.Duration
	// Backoff is the pause of a server after its second failure in a row
	// (doubled on each further one, up to 30 s; none after a first one);
	// 0 means 1 s.
	Backoff time.Duration
}

// Engine evaluates candidates on `repair serve` servers through their
// native endpoint. It implements [sandbox.Engine].
//
// Each candidate goes to the server with the fewest requests in flight
// relative to its workers. A server that fails (connection refused or
// reset, a 5xx, a timeout) is paused with an exponential backoff once it
// failed twice in a row, and the candidate goes to another one; a server that answers 503 (busy) is
// skipped for its Retry-After. Since evaluating a candidate is
// deterministic, where it ran does not change its outcome. Run fails only
// when every server failed several times in a row for one candidate, or
// when a server refuses the request itself (bad token, bad suite).
type Engine struct {
	servers  []*server
	client   *http.Client
	token    string
	engine   string
	spec     []byte
	id       string
	nCases   int
	timeout  time.Duration
	backoff  time.Duration
	maxFails int

	name, desc atomic.Pointer[string]
	rr         atomic.Uint64
	closed     atomic.Bool
}

var _ sandbox.Engine = (*Engine)(nil)

// server is one executor and what the engine knows about it.
type server struct {
	base     string
	inflight atomic.Int64
	knows    atomic.Bool // holds the suite: send its ID only

	mu        sync.Mutex
	workers   int
	downUntil time.Time // failed: skip until then
	busyUntil time.Time // answered 503: skip until then
	fails     int       // consecutive failures
}

// New checks the executors (at least one must answer) and returns an
// engine bound to opts.Suite. opts.Workers, Isolation and Python are the
// servers' business and are ignored.
func New(ctx context.Context, opts sandbox.Options, cfg Config) (*Engine, error) {
	if len(cfg.Executors) == 0 {
		return nil, errors.New("remote: no executors")
	}
	if len(opts.Targets) > 1 {
		return nil, inputerr.New("--target: several files are repaired together on a local cpython engine only, not with --executor")
	}
	spec, err := NewSuite(opts.Target, opts.Suite)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("remote: encoding the suite: %w", err)
	}
	e := &Engine{
		client:  cfg.Client,
		token:   cfg.Token,
		engine:  cfg.Engine,
		spec:    raw,
		id:      SuiteID(raw),
		nCases:  len(spec.Cases),
		timeout: cfg.AttemptTimeout,
		backoff: cfg.Backoff,
	}
	if e.engine == "auto" {
		e.engine = ""
	}
	if e.client == nil {
		e.client = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        256,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	if e.timeout <= 0 {
		var sum float64
		for _, c := range spec.Cases {
			sum += c.Timeout
		}
		e.timeout = 30*time.Second + time.Duration(2*sum*float64(time.Second))
	}
	if e.backoff <= 0 {
		e.backoff = time.Second
	}
	seen := map[string]bool{}
	for _, u := range cfg.Executors {
		base, err := baseURL(u)
		if err != nil {
			return nil, err
		}
		if seen[base] {
			continue
		}
		seen[base] = true
		e.servers = append(e.servers, &server{base: base, workers: 1})
	}
	e.maxFails = max(3, 2*len(e.servers))

	// Ask every server for its health at once; one answer is enough.
	type probe struct {
		h   *Health
		err error
	}
	probes := make([]probe, len(e.servers))
	var wg sync.WaitGroup
	for i, s := range e.servers {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			h, err := e.health(pctx, s)
			probes[i] = probe{h, err}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var errs []string
	answered := 0
	for i, p := range probes {
		s := e.servers[i]
		var te *tokenError
		if errors.As(p.err, &te) {
			return nil, p.err
		}
		if p.err != nil {
			errs = append(errs, p.err.Error())
			s.failed(e.backoff)
			continue
		}
		if e.engine != "" && !contains(p.h.Engines, e.engine) {
			return nil, fmt.Errorf("executor %s: no %s engine (it has %s)", s.base, e.engine, strings.Join(p.h.Engines, ", "))
		}
		answered++
		s.workers = max(1, p.h.Workers)
		if e.name.Load() == nil {
			n := p.h.Engine
			if e.engine != "" {
				n = e.engine
			}
			e.name.Store(&n)
		}
	}
	if answered == 0 {
		return nil, fmt.Errorf("no executor answers: %s", strings.Join(errs, "; "))
	}
	return e, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CheckURL reports whether s is a usable executor URL.
func CheckURL(s string) error {
	_, err := baseURL(s)
	return err
}

// baseURL checks an executor URL and drops a trailing slash. A bare
// host:port means http.
func baseURL(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("executor %q: want http://HOST:PORT or https://HOST:PORT", s)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// What the engine can do beyond Run (see sandbox's capabilities). It
// honours none of sandbox.Features: the servers run candidates with their
// own environment, and the protocol carries no lenient plan nor the check
// of delivered fixes.
var (
	_ sandbox.Describer = (*Engine)(nil)
	_ sandbox.Sizer     = (*Engine)(nil)
)

// Name is the runtime the servers run candidates with ("cpython").
func (e *Engine) Name() string {
	if n := e.name.Load(); n != nil && *n != "" {
		return *n
	}
	return "remote"
}

// Describe says which engine the servers run and where, for the summary
// line: "cpython 3.11.7 (isolation: full) on 2 executors".
func (e *Engine) Describe() string {
	d := e.Name()
	if p := e.desc.Load(); p != nil {
		d = *p
	}
	n := len(e.servers)
	if n == 1 {
		return fmt.Sprintf("%s on executor %s", d, e.servers[0].base)
	}
	return fmt.Sprintf("%s on %d executors", d, n)
}

// Capacity is the number of candidates the servers evaluate at once, as
// they said when the engine started (1 for a server that did not answer).
func (e *Engine) Capacity() int {
	n := 0
	for _, s := range e.servers {
		s.mu.Lock()
		n += s.workers
		s.mu.Unlock()
	}
	return n
}

// Close drops idle connections. The servers evict the suite on their own.
func (e *Engine) Close() error {
	if e.closed.Swap(true) {
		return nil
	}
	e.client.CloseIdleConnections()
	return nil
}

// callError is a failed request to one server.
type callError struct {
	server string
	status int           // 0: no HTTP answer
	code   string        // the ErrorResponse code
	msg    string        // the ErrorResponse message, or the transport error
	retry  time.Duration // Retry-After of a 503
}

func (c *callError) Error() string {
	if c.status == 0 {
		return fmt.Sprintf("executor %s: %s", c.server, c.msg)
	}
	return fmt.Sprintf("executor %s: %d %s: %s", c.server, c.status, http.StatusText(c.status), c.msg)
}

// permanent reports whether the request itself was refused, so that no
// other server would take it either.
func (c *callError) permanent() bool {
	switch c.status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return true
	}
	return c.code == CodeEngine
}

// Run evaluates src on one of the servers.
func (e *Engine) Run(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	if e.closed.Load() {
		return nil, sandbox.ErrClosed
	}
	req := EvaluateRequest{
		SuiteID: e.id, Engine: e.engine, Coverage: opts.Coverage,
		Timeout: opts.Timeout.Seconds(), AbandonAfterTimeout: opts.AbandonAfterTimeout,
		First: opts.Cases.First, End: opts.Cases.End,
	}
	if utf8.Valid(src) {
		s := string(src)
		req.Source = &s
	} else {
		req.SourceBase64 = src
	}
	withID, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("remote: encoding the request: %w", err)
	}
	var withSuite []byte // built when a server needs the suite

	fails := 0
	var last error
	tried := make([]bool, len(e.servers))
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, wait := e.pick(tried)
		if s == nil {
			// Every server is paused: wait for the first to come back.
			if err := sleep(ctx, wait); err != nil {
				return nil, err
			}
			clear(tried)
			continue
		}
		body, sentSuite := withID, false
		if !s.knows.Load() {
			if withSuite == nil {
				r := req
				r.Suite = e.spec
				if withSuite, err = json.Marshal(r); err != nil {
					return nil, fmt.Errorf("remote: encoding the request: %w", err)
				}
			}
			body, sentSuite = withSuite, true
		}
		resp, err := e.call(ctx, s, body)
		if err == nil {
			s.succeeded()
			if len(resp.Outcome.Results) != e.nCases {
				return nil, fmt.Errorf("executor %s: %d results for %d cases", s.base, len(resp.Outcome.Results), e.nCases)
			}
			if resp.SuiteID == e.id {
				s.knows.Store(true)
			}
			if e.desc.Load() == nil && resp.Engine != "" {
				d := resp.Engine
				e.desc.Store(&d)
			}
			if opts.Coverage {
				for i := range resp.Outcome.Results {
					if resp.Outcome.Results[i].Lines == nil {
						resp.Outcome.Results[i].Lines = []int{}
					}
				}
			}
			return resp.Outcome, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		var ce *callError
		if !errors.As(err, &ce) {
			return nil, err
		}
		switch {
		case ce.code == CodeUnknownSuite:
			s.knows.Store(false) // evicted or restarted: send the suite again
			if sentSuite {
				return nil, err // it does not keep what it was just sent
			}
		case ce.status == http.StatusServiceUnavailable && ce.code == CodeBusy:
			s.busy(ce.retry)
			tried[indexOf(e.servers, s)] = true
		case ce.permanent():
			return nil, err
		default:
			s.knows.Store(false) // it may have restarted
			s.failed(e.backoff)
			tried[indexOf(e.servers, s)] = true
			last = err
			fails++
			if fails >= e.maxFails {
				return nil, fmt.Errorf("every executor failed (%d attempts), last: %w", fails, last)
			}
		}
	}
}

func indexOf(list []*server, s *server) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// pick returns the available server with the least load (in-flight
// requests per worker) that this candidate has not tried yet, else any
// available one, else nil and how long until the first is available again.
func (e *Engine) pick(tried []bool) (*server, time.Duration) {
	now := time.Now()
	var best *server
	var bestLoad float64
	bestTried := true
	wait := time.Duration(-1)
	start := int(e.rr.Add(1) % uint64(len(e.servers)))
	for k := range e.servers {
		i := (start + k) % len(e.servers)
		s := e.servers[i]
		s.mu.Lock()
		until := s.downUntil
		if s.busyUntil.After(until) {
			until = s.busyUntil
		}
		workers := s.workers
		s.mu.Unlock()
		if until.After(now) {
			if d := until.Sub(now); wait < 0 || d < wait {
				wait = d
			}
			continue
		}
		load := float64(s.inflight.Load()) / float64(workers)
		// An untried server beats a tried one; then the lighter load.
		if best == nil || (bestTried && !tried[i]) || (bestTried == tried[i] && load < bestLoad) {
			best, bestLoad, bestTried = s, load, tried[i]
		}
	}
	if best == nil {
		return nil, max(wait, time.Millisecond)
	}
	return best, 0
}

// failed pauses a server after a failure: not at all after a first one
// (behind a load-balancing Service, the next connection may reach another
// pod), then first, doubling up to 30 s.
func (s *server) failed(first time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails++
	if s.fails == 1 {
		return
	}
	d := first << min(s.fails-2, 5)
	s.downUntil = time.Now().Add(min(d, 30*time.Second))
}

func (s *server) succeeded() {
	s.mu.Lock()
	s.fails = 0
	s.downUntil = time.Time{}
	s.mu.Unlock()
}

func (s *server) busy(d time.Duration) {
	if d <= 0 {
		d = 100 * time.Millisecond
	}
	s.mu.Lock()
	s.busyUntil = time.Now().Add(min(d, 5*time.Second))
	s.mu.Unlock()
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// maxResponse bounds an answer (coverage of many cases can be large).
const maxResponse = 256 << 20

// call sends one request to one server.
func (e *Engine) call(ctx context.Context, s *server, body []byte) (*EvaluateResponse, error) {
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+EvaluatePath, bytes.NewReader(body))
	if err != nil {
		return nil, &callError{server: s.base, msg: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if e.token != "" {
		hreq.Header.Set("Authorization", "Bearer "+e.token)
	}
	hresp, err := e.client.Do(hreq)
	if err != nil {
		return nil, &callError{server: s.base, msg: transportError(err)}
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, maxResponse))
	if err != nil {
		return nil, &callError{server: s.base, msg: transportError(err)}
	}
	if hresp.StatusCode != http.StatusOK {
		ce := &callError{server: s.base, status: hresp.StatusCode}
		var er ErrorResponse
		if json.Unmarshal(data, &er) == nil && er.Error != "" {
			ce.msg, ce.code = er.Error, er.Code
		} else {
			ce.msg = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
		if secs, err := strconv.Atoi(hresp.Header.Get("Retry-After")); err == nil {
			ce.retry = time.Duration(secs) * time.Second
		}
		return nil, ce
	}
	var resp EvaluateResponse
	if err := json.Unmarshal(data, &resp); err != nil || resp.Outcome == nil {
		if err == nil {
			err = errors.New("no outcome")
		}
		return nil, &callError{server: s.base, status: http.StatusBadGateway, msg: "bad answer: " + err.Error()}
	}
	return &resp, nil
}

// transportError shortens the errors of net/http.
func transportError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	return err.Error()
}

// health asks a server for its health.
func (e *Engine) health(ctx context.Context, s *server) (*Health, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+HealthPath, nil)
	if err != nil {
		return nil, err
	}
	if e.token != "" {
		hreq.Header.Set("Authorization", "Bearer "+e.token)
	}
	hresp, err := e.client.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("executor %s: %s", s.base, transportError(err))
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("executor %s: %s", s.base, transportError(err))
	}
	if hresp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("executor %s: %s", s.base, hresp.Status)
	}
	var h Health
	if err := json.Unmarshal(data, &h); err != nil || h.Status == "" {
		return nil, fmt.Errorf("executor %s: not a repair server (GET %s answered %.80q)", s.base, HealthPath, data)
	}
	// /healthz needs no token: try one on an endpoint that does, so that
	// a missing or wrong token shows now, not at the first candidate.
	areq, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+RuntimesPath, nil)
	if err != nil {
		return nil, err
	}
	if e.token != "" {
		areq.Header.Set("Authorization", "Bearer "+e.token)
	}
	aresp, err := e.client.Do(areq)
	if err != nil {
		return nil, fmt.Errorf("executor %s: %s", s.base, transportError(err))
	}
	io.Copy(io.Discard, io.LimitReader(aresp.Body, 1<<20))
	aresp.Body.Close()
	if aresp.StatusCode == http.StatusUnauthorized || aresp.StatusCode == http.StatusForbidden {
		what := "a token is required (--executor-token-file)"
		if e.token != "" {
			what = "the token was refused"
		}
		return nil, &tokenError{fmt.Sprintf("executor %s: %s", s.base, what)}
	}
	return &h, nil
}

// tokenError: a server refused the token; no other server is tried.
type tokenError struct{ msg string }

func (e *tokenError) Error() string { return e.msg }
