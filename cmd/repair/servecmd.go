package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"repair/internal/inputerr"
	"repair/serve"
	"repair/session"
)

// serveFlags are the flags of 'serve'.
type serveFlags struct {
	cfg         session.Config // --workers, --sandbox, --python
	addr        string
	engine      string
	queue       int
	instances   int
	idleTimeout time.Duration
	tokenFile   string
	maxBodyMB   int
	maxTime     float64
	maxMemoryMB int
	maxCases    int
	grace       time.Duration
}

func newServeCmd(io streams) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the sandbox over HTTP: ExecEval's API, and executors for 'repair --executor'",
		Long: withExitCodes(`serve runs an HTTP service that executes untrusted Python programs in the
sandbox engines and answers verdicts:

  POST /api/execute_code   ExecEval's API (code-generation benchmarks): a program,
                           unit tests of stdin and accepted outputs → a verdict each
  GET  /api/all_runtimes   ExecEval's runtime listing ("Python 3", "gpython")
  POST /api/v1/evaluate    a candidate and a suite of ours → verdicts (and coverage);
                           what 'repair --executor URL' sends
  GET  /healthz            health and load
  GET  /metrics            Prometheus metrics

At most --workers candidates run at once and --queue more requests wait; beyond
that the answer is 503 with Retry-After. Time and memory limits that clients ask
for are capped by --max-time and --max-memory-mb. With --token-file, every
request but /healthz needs "Authorization: Bearer TOKEN". SIGTERM or Ctrl-C
stops accepting requests and lets those in flight finish (up to --grace).
The API is documented in docs/serve.md.`,
			exitLine{exitFound, "stopped by SIGTERM or Ctrl-C, the requests in flight finished"}),
		Example: `  repair serve
  repair serve --addr 0.0.0.0:5000 --token-file /etc/repair/token --workers 8
  repair --target middle.py --tests tests.json --executor http://10.0.0.5:5000,http://10.0.0.6:5000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd.Context(), &f, io)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:5000", "address to listen on (loopback by default; 0.0.0.0:5000 for every interface)")
	registerConfig(cmd, &f.cfg, "workers", "sandbox", "python")
	fl.StringVar(&f.engine, "engine", "auto", "runtimes offered: auto (every one that works), cpython or gpython")
	fl.IntVar(&f.queue, "queue", 256, "requests that may wait for a worker; beyond them the answer is 503")
	fl.IntVar(&f.instances, "instances", 0, "engine instances kept for their suites (0: 4×workers+16)")
	fl.DurationVar(&f.idleTimeout, "idle-timeout", 5*time.Minute, "close an engine instance idle for this long")
	fl.StringVar(&f.tokenFile, "token-file", "", "require this file's content as a bearer token on every request but /healthz")
	fl.IntVar(&f.maxBodyMB, "max-body-mb", 16, "largest request body accepted, in MiB")
	fl.Float64Var(&f.maxTime, "max-time", 60, "largest time limit of one test case, in seconds")
	fl.IntVar(&f.maxMemoryMB, "max-memory-mb", 4096, "largest memory limit of a program, in MiB")
	fl.IntVar(&f.maxCases, "max-cases", 10000, "most test cases (unit-test outputs) in one request")
	fl.DurationVar(&f.grace, "grace", time.Minute, "on SIGTERM, how long requests in flight may take to finish")
	_ = cmd.MarkFlagFilename("token-file")
	return cmd
}

func (f *serveFlags) options() (serve.Options, error) {
	fe := func(format string, args ...any) error { return &flagError{fmt.Errorf(format, args...)} }
	switch {
	case f.cfg.Workers < 0 || f.cfg.Workers > 1024:
		return serve.Options{}, fe("--workers must be from 0 (one per CPU) to 1024, got %d", f.cfg.Workers)
	case f.queue < 0:
		return serve.Options{}, fe("--queue must be >= 0, got %d", f.queue)
	case f.instances < 0:
		return serve.Options{}, fe("--instances must be >= 0, got %d", f.instances)
	case f.idleTimeout <= 0:
		return serve.Options{}, fe("--idle-timeout must be > 0, got %s", f.idleTimeout)
	case f.maxBodyMB <= 0:
		return serve.Options{}, fe("--max-body-mb must be > 0, got %d", f.maxBodyMB)
	case !(f.maxTime > 0):
		return serve.Options{}, fe("--max-time must be > 0, got %g", f.maxTime)
	case f.maxMemoryMB <= 0:
		return serve.Options{}, fe("--max-memory-mb must be > 0, got %d", f.maxMemoryMB)
	case f.maxCases <= 0:
		return serve.Options{}, fe("--max-cases must be > 0, got %d", f.maxCases)
	case f.grace < 0:
		return serve.Options{}, fe("--grace must be >= 0, got %s", f.grace)
	}
	switch f.engine {
	case "auto", "cpython", "gpython":
	default:
		return serve.Options{}, fe("--engine must be auto, cpython or gpython, got %q", f.engine)
	}
	iso, err := f.cfg.IsolationLevel()
	if err != nil {
		return serve.Options{}, err
	}
	o := serve.Options{
		Engine: f.engine, Workers: f.cfg.Workers, Queue: f.queue, Instances: f.instances,
		IdleTimeout: f.idleTimeout, Isolation: iso, Python: f.cfg.Python,
		MaxBody: int64(f.maxBodyMB) << 20, MaxTime: f.maxTime, MaxMemoryMB: f.maxMemoryMB, MaxCases: f.maxCases,
		Version: version,
	}
	if f.tokenFile != "" {
		if o.Token, err = session.ReadToken(f.tokenFile); err != nil {
			return o, err
		}
	}
	return o, nil
}

func runServe(ctx context.Context, f *serveFlags, io streams) error {
	opts, err := f.options()
	if err != nil {
		return err
	}
	opts.Log = io.Err
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return inputerr.New("--addr %s: %v", f.addr, session.Unwrap(err))
	}
	srv, err := serve.New(ctx, opts)
	if err != nil {
		ln.Close()
		if errors.Is(err, context.Canceled) {
			return err
		}
		if inputerr.Is(err) {
			return err
		}
		return fmt.Errorf("serve: %w", err)
	}
	var rts []string
	for _, rt := range srv.Runtimes() {
		rts = append(rts, fmt.Sprintf("%q (%s)", rt.RuntimeName, rt.Describe))
	}
	fmt.Fprintf(io.v.log(io.Err), "repair serve: listening on http://%s; runtimes %s; %d workers, queue %d\n",
		ln.Addr(), strings.Join(rts, ", "), srv.Workers(), opts.Queue)
	if opts.Token == "" && !loopback(ln.Addr()) {
		fmt.Fprintln(io.Err, "repair serve: warning: listening beyond loopback without --token-file: anyone who reaches this port can run code here")
	}
	err = serve.Serve(ctx, ln, srv, f.grace)
	fmt.Fprintln(io.v.log(io.Err), "repair serve: stopped")
	return err
}

func loopback(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}
