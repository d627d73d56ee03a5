// Opening engines: the main one, the guard's and the check's alike, on
// this machine or on `repair serve` executors; a suite of several test
// files as one engine per file.

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/internal/userfile"
	"repair/sandbox"
	"repair/sandbox/remote"
)

// engineOpts are the variants of an engine a session opens.
type engineOpts struct {
	// workers is the engine's pool (0: the session's).
	workers int
	// stderr gets the engine's notices (nil: none).
	stderr io.Writer
	// verify opens the engine of the check of delivered fixes
	// (sandbox.Options.Verify); parity starts plain pytest's run early
	// (Options.Parity); collected takes the suite's cases as collected
	// (Options.Collected).
	verify, parity, collected bool
}

// IsolationLevel is --sandbox's level.
func (f *Config) IsolationLevel() (sandbox.Isolation, error) {
	return ParseIsolation(f.Isolation)
}

// ParseIsolation reads a --sandbox value.
func ParseIsolation(s string) (sandbox.Isolation, error) {
	switch s {
	case "auto", "":
		return sandbox.IsolationAuto, nil
	case "strict":
		return sandbox.IsolationStrict, nil
	case "none":
		return sandbox.IsolationNone, nil
	}
	return 0, inputerr.New("--sandbox must be auto, strict or none, got %q", s)
}

// Workers is the size of the main engine's pool: --workers, 0 being one
// per CPU. It is the one place that resolves 0.
func Workers(n int) int {
	if n <= 0 {
		return runtime.NumCPU()
	}
	return n
}

// checkWorkers refuses a --workers out of range.
func (f *Config) checkWorkers() error {
	if f.Workers < 0 || f.Workers > 1024 {
		return inputerr.New("--workers must be from 0 (one per CPU) to 1024, got %d", f.Workers)
	}
	return nil
}

// openEngine starts an engine for in's target and the given suite.
func (f *Config) openEngine(ctx context.Context, in *Input, suite *fitness.Suite, eo engineOpts) (sandbox.Engine, error) {
	iso, err := f.IsolationLevel()
	if err != nil {
		return nil, err
	}
	if err := f.checkWorkers(); err != nil {
		return nil, err
	}
	workers := eo.workers
	if workers == 0 {
		workers = Workers(f.Workers)
	}
	stderr := eo.stderr
	if stderr == nil {
		stderr = io.Discard
	}
	env, err := f.environment(stderr)
	if err != nil {
		return nil, err
	}
	opts := sandbox.Options{
		Suite: suite, Target: in.Path, Targets: in.Paths, Workers: workers, Isolation: iso,
		Python: f.Python, Stderr: stderr, Env: env, Verify: eo.verify, Parity: eo.parity, Collected: eo.collected,
	}
	if suite.Parts != nil {
		return f.openParts(ctx, opts)
	}
	if len(f.Executors) > 0 {
		open, err := RemoteOpener(f.Executors, f.ExecutorToken)
		if err != nil {
			return nil, err
		}
		return open(ctx, f.Engine, opts)
	}
	eng, err := OpenEngine(ctx, f.Engine, opts)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		return nil, fmt.Errorf("start the %s engine: %w", f.Engine, err)
	}
	if !environ(eng) && len(env.Vars) > 0 {
		fmt.Fprintln(stderr, "repair: --env, --pass-env: the gpython engine's os.environ stays empty; use --engine cpython")
	}
	return eng, nil
}

// openParts opens a suite of several test files (fitness.Suite.Parts):
// a cpython engine per file, joined (sandbox.Multi), their collected
// cases the suite's (fitness.Suite.JoinParts). Plain pytest's parity
// check runs on one file at a time only: not here.
func (f *Config) openParts(ctx context.Context, opts sandbox.Options) (sandbox.Engine, error) {
	suite := opts.Suite
	switch {
	case len(f.Executors) > 0:
		return nil, inputerr.New("--executor: not with several test files (--tests %s)", suite.Path)
	case f.Engine != "auto" && f.Engine != "cpython":
		return nil, inputerr.New("--engine %s: several test files (--tests %s) need --engine cpython", f.Engine, suite.Path)
	}
	// The first file's engine opens alone (its notices are said once,
	// and what it finds of the interpreter and pytest is kept for the
	// others), then the others a few at a time.
	parts := make([]sandbox.Engine, len(suite.Parts))
	errs := make([]error, len(suite.Parts))
	open := func(i int) {
		o := opts
		o.Suite, o.Parity = suite.Parts[i], false
		if i > 0 {
			o.Stderr = io.Discard
		}
		parts[i], errs[i] = OpenEngine(ctx, "cpython", o)
	}
	open(0)
	for collectedNothing(errs[0]) && len(parts) > 1 {
		fmt.Fprintf(opts.Stderr, "repair: %s: pytest collects no test from it: left out\n", suite.Parts[0].Path)
		suite.DropPart(0)
		parts, errs = parts[1:], errs[1:]
		open(0)
	}
	if errs[0] == nil {
		var wg sync.WaitGroup
		slots := make(chan struct{}, runtime.NumCPU())
		for i := 1; i < len(parts); i++ {
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				open(i)
			})
		}
		wg.Wait()
	}
	// A file pytest collects nothing from (its tests are for another
	// interpreter, or it has none) is left out, as plain pytest runs it.
	for i := len(parts) - 1; i > 0; i-- {
		if collectedNothing(errs[i]) {
			fmt.Fprintf(opts.Stderr, "repair: %s: pytest collects no test from it: left out\n", suite.Parts[i].Path)
			suite.DropPart(i)
			parts = append(parts[:i:i], parts[i+1:]...)
			errs = append(errs[:i:i], errs[i+1:]...)
		}
	}
	sizes := make([]int, len(parts))
	for i, err := range errs {
		if err == nil {
			sizes[i] = len(suite.Parts[i].Cases)
			continue
		}
		for _, e := range parts {
			if e != nil {
				e.Close()
			}
		}
		if inputerr.Is(err) || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("start the cpython engine for %s: %w", suite.Parts[i].Path, err)
	}
	suite.JoinParts()
	fmt.Fprintf(opts.Stderr, "repair: %d test files, %d tests\n", len(parts), len(suite.Cases))
	return sandbox.NewMulti(parts, sizes), nil
}

// environment is the candidates' environment: the standard one, then
// --pass-env's variables of this environment, then --env's (a later one
// wins). A --pass-env variable that is not set here is said on stderr.
func (f *Config) environment(stderr io.Writer) (sandbox.Environment, error) {
	env := sandbox.Environment{Standard: true}
	if len(f.Executors) > 0 && len(f.Env)+len(f.PassEnv) > 0 {
		return env, inputerr.New("--env, --pass-env: not with --executor (candidates run with the servers' environment)")
	}
	for _, name := range f.PassEnv {
		if err := sandbox.CheckEnvVar(name, false); err != nil {
			return env, inputerr.New("--pass-env %v", err)
		}
		v, ok := os.LookupEnv(name)
		if !ok {
			fmt.Fprintf(stderr, "repair: --pass-env %s: not set here; the candidates do not get it\n", name)
			continue
		}
		env.Vars = append(env.Vars, name+"="+v)
	}
	for _, kv := range f.Env {
		if err := sandbox.CheckEnvVar(kv, true); err != nil {
			return env, inputerr.New("--env %v", err)
		}
		env.Vars = append(env.Vars, kv)
	}
	return env, nil
}

// RemoteOpener checks --executor and returns what starts a remote engine
// on those servers (the engine name selects their runtime).
func RemoteOpener(executors []string, tokenFile string) (func(context.Context, string, sandbox.Options) (sandbox.Engine, error), error) {
	var urls []string
	for _, u := range executors {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	if len(urls) == 0 {
		return nil, inputerr.New("--executor: no URL")
	}
	for _, u := range urls {
		if err := remote.CheckURL(u); err != nil {
			return nil, inputerr.New("--executor: %v", err)
		}
	}
	var token string
	if tokenFile != "" {
		var err error
		if token, err = ReadToken(tokenFile); err != nil {
			return nil, err
		}
	}
	return func(ctx context.Context, engine string, opts sandbox.Options) (sandbox.Engine, error) {
		eng, err := remote.New(ctx, opts, remote.Config{Executors: urls, Engine: engine, Token: token})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("--executor: %w", err)
		}
		return eng, nil
	}, nil
}

// ReadToken reads a bearer token file: its content without surrounding
// white space, which must not be empty.
func ReadToken(path string) (string, error) {
	data, err := userfile.Read(path, 64<<10)
	if err != nil {
		if inputerr.Is(err) {
			return "", inputerr.New("token file %v", err)
		}
		return "", inputerr.New("token file %s: %v", path, Unwrap(err))
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", inputerr.New("token file %s: empty", path)
	}
	if strings.ContainsAny(tok, " \t\r\n") {
		return "", inputerr.New("token file %s: the token must be one word", path)
	}
	return tok, nil
}

var _ = errors.Is
