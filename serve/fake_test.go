package serve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

// fakeEngine runs a tiny language instead of Python, so that every
// verdict is deterministic and instant. A program is one line:
//
//	print(TEXT)   prints TEXT ("print(6 * 7)" prints 42)
//	echo          prints its stdin
//	loop          times out (the detail names the case's time limit)
//	raise         raises ValueError
//	memory        runs out of memory (the detail names the limit)
//	block         waits until the test's release channel is closed, then prints ok
//	broken        breaks the engine (Run returns an error)
//	panic         panics (a bug of the server)
//
// Anything else does not compile. I/O cases compare the output with
// fitness.EqualStdout.
type fakeEngine struct {
	suite   *fitness.Suite
	hooks   *fakeHooks
	closed  atomic.Bool
	running atomic.Int64
}

// fakeHooks are shared by every fake engine of one test server.
type fakeHooks struct {
	started chan struct{} // a "block" program started (buffered)
	release chan struct{} // closed: "block" programs go on
	opened  atomic.Int64  // engines opened (the probe included)
	closed  atomic.Int64  // engines closed
	mu      sync.Mutex
	lastOpt sandbox.Options
}

func newHooks() *fakeHooks {
	return &fakeHooks{started: make(chan struct{}, 64), release: make(chan struct{})}
}

func (h *fakeHooks) open(ctx context.Context, runtime string, opts sandbox.Options) (sandbox.Engine, error) {
	if runtime != "cpython" {
		return nil, fmt.Errorf("%s: not in this build", runtime)
	}
	h.opened.Add(1)
	h.mu.Lock()
	h.lastOpt = opts
	h.mu.Unlock()
	return &fakeEngine{suite: opts.Suite, hooks: h}, nil
}

func (e *fakeEngine) Name() string { return "cpython" }

func (e *fakeEngine) Close() error {
	if !e.closed.Swap(true) {
		e.hooks.closed.Add(1)
	}
	return nil
}

func (e *fakeEngine) Run(ctx context.Context, src []byte, opts sandbox.RunOptions) (*fitness.Outcome, error) {
	if e.closed.Load() {
		return nil, sandbox.ErrClosed
	}
	if n := e.running.Add(1); n > 1 {
		panic("fake engine: more runs at once than its one worker")
	}
	defer e.running.Add(-1)
	prog := strings.TrimSpace(string(src))
	out := &fitness.Outcome{Results: make([]fitness.Result, len(e.suite.Cases))}
	var printed *string
	switch {
	case prog == "print(6 * 7)":
		s := "42\n"
		printed = &s
	case strings.HasPrefix(prog, "print(") && strings.HasSuffix(prog, ")"):
		s := prog[len("print("):len(prog)-1] + "\n"
		printed = &s
	case prog == "echo", prog == "loop", prog == "raise", prog == "memory":
	case prog == "block":
		e.hooks.started <- struct{}{}
		select {
		case <-e.hooks.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		s := "ok\n"
		printed = &s
	case prog == "broken":
		return nil, errors.New("fake: the worker died")
	case prog == "panic":
		panic("fake: a bug")
	default:
		out.CompileError = "SyntaxError: invalid syntax (line 1)"
		for i := range out.Results {
			out.Results[i] = fitness.Result{Verdict: fitness.CompilationError, Detail: out.CompileError}
		}
		return out, nil
	}
	for i, c := range e.suite.Cases {
		r := fitness.Result{Seconds: 0.001}
		switch {
		case prog == "loop":
			r.Verdict, r.Seconds, r.Detail = fitness.TimeLimitExceeded, c.Timeout, fmt.Sprintf("timed out after %gs", c.Timeout)
		case prog == "raise":
			r.Verdict, r.Detail = fitness.RuntimeError, "ValueError: boom (line 1)"
		case prog == "memory":
			r.Verdict, r.Detail = fitness.MemoryLimitExceeded, fmt.Sprintf("MemoryError (limit %d MB)", e.suite.MemoryMB)
		default:
			got := ""
			if printed != nil {
				got = *printed
			} else if c.Stdin != nil {
				got = *c.Stdin
			}
			if c.Stdout != nil && !fitness.EqualStdout(*c.Stdout, got, c.Tolerance) {
				r.Verdict, r.Detail = fitness.WrongAnswer, fmt.Sprintf("expected %q, got %q", *c.Stdout, got)
			}
		}
		if opts.Coverage {
			r.Lines = []int{1}
		}
		out.Results[i] = r
	}
	return out, nil
}

// newFakeServer starts a Server on fake engines.
func newFakeServer(t *testing.T, opts Options) (*Server, *fakeHooks) {
	t.Helper()
	h := newHooks()
	opts.Open = h.open
	opts.Describe = func(sandbox.Engine) string { return "fake cpython" }
	if opts.Workers == 0 {
		opts.Workers = 2
	}
	if opts.Version == "" {
		opts.Version = "test"
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, h
}
