package cpython

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"repair/sandbox"
)

// plainScript runs plain pytest for the parity check (see plain.py).
//
//go:embed plain.py
var plainScript string

// PlainTest, Cause and PlainRun are what plain pytest said (the parity
// check's reference, sandbox.PlainPytester).
type (
	PlainTest = sandbox.PlainTest
	Cause     = sandbox.Cause
	PlainRun  = sandbox.PlainRun
)

// RealPytest reports whether the real pytest runs the suite's test file.
func (e *Engine) RealPytest() bool { return e.pytest != nil }

// PlainPytest runs the test file under plain pytest, on the original
// target, in the sandbox the candidates run in: the same interpreter,
// environment, tree, working directory, ini options, conftest files and
// installed plugins, with the target's import root first on sys.path, but
// without the harness (see plain.py). It is the reference of the parity
// check. A nil PlainRun without error means the engine has no such run: a
// data suite, no pytest, or no project tree. With Options.Parity the run
// started with the engine, once it had collected the tests: PlainPytest
// waits for it.
func (e *Engine) PlainPytest(ctx context.Context) (*PlainRun, error) {
	if p := e.plain; p != nil {
		select {
		case <-p.done:
			return p.run, p.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return e.plainPytest(ctx)
}

// plainStart is plain pytest's run started with the engine.
type plainStart struct {
	done   chan struct{} // closed once run and err are set
	run    *PlainRun
	err    error
	cancel context.CancelFunc
}

// startPlain starts plain pytest's run of the original in the background
// (nil when the engine has none): on two cores it then runs beside the
// first server's start instead of after it, beside the original's run.
func (e *Engine) startPlain() *plainStart {
	if e.pytest == nil || e.tree == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &plainStart{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(p.done)
		p.run, p.err = e.plainPytest(ctx)
	}()
	return p
}

// stop kills the run if it still runs and waits for it: nothing of it
// outlives the engine. (p may be nil.)
func (p *plainStart) stop() {
	if p != nil {
		p.cancel()
		<-p.done
	}
}

func (e *Engine) plainPytest(ctx context.Context) (*PlainRun, error) {
	if e.pytest == nil || e.tree == nil {
		return nil, nil
	}
	timeout := 0.0
	for _, c := range e.opts.Suite.Cases {
		timeout = max(timeout, c.Timeout)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer outR.Close()
	inR, inW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return nil, err
	}
	defer inW.Close()
	// The script comes on file descriptor 4, not in the command line.
	scriptR, err := scriptPipe(plainScript)
	if err != nil {
		inR.Close()
		outW.Close()
		return nil, err
	}
	defer scriptR.Close()
	mb := e.memoryMB
	cmd, err := sandbox.Command(sandbox.Config{
		Path:      e.python.Path,
		Args:      []string{e.python.Path, "-s", "-B", "-c", loader(4)},
		Isolation: e.opts.Isolation,
		Project:   e.tree.Root,
		ReadOnly:  e.readOnly,
		Limits: sandbox.Limits{
			AddressSpace: int64(mb+256) << 20,
			FileSize:     64 << 20,
			OpenFiles:    1024,
			Processes:    maxTasks,
			ScratchBytes: 64 << 20,
		},
		NoNamespaces: e.cfg.noNamespaces,
	})
	if err != nil {
		inR.Close()
		outW.Close()
		return nil, err
	}
	env := e.env(cmd.Dir)
	cmd.Setenv(env)
	stdout := &tailBuffer{max: 4 << 10}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, stdout, stdout
	cmd.ExtraFiles = []*os.File{outW, scriptR}
	workDirs := []string{}
	if e.opts.Env.Standard {
		// HOME and TMPDIR, as the harness makes them for candidates.
		workDirs = []string{sandbox.HomeDir, sandbox.TmpDir}
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	scriptR.Close()
	if err != nil {
		return nil, fmt.Errorf("cpython: plain pytest: %w", err)
	}
	done := make(chan struct{})
	// The whole run gets what the engine gives a candidate: the sum of
	// the cases' bounds and a few seconds.
	bound := time.NewTimer(e.bound + 10*time.Second)
	defer bound.Stop()
	var killed atomic.Bool
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-ctx.Done():
		case <-bound.C:
		case <-done:
			return
		}
		killed.Store(true)
		cmd.Kill()
	}()
	root := cmd.ProjectRoot()
	tgts := []string{}
	for _, t := range e.tree.Targets {
		tgts = append(tgts, t.ImportRoot)
	}
	conf, _ := json.Marshal(map[string]any{
		"root": root, "cwd": e.tree.Cwd, "test_file": filepath.Join(root, filepath.FromSlash(e.tree.TestFile)),
		"import_roots": tgts, "timeout": timeout, "work_dirs": workDirs,
		"wall_factor": sandbox.CaseWallFactor, "wall_slack": sandbox.CaseWallSlack,
	})
	inW.Write(conf)
	inW.Close()
	data, _ := io.ReadAll(io.LimitReader(outR, 64<<20))
	outR.Close()
	cmd.Kill() // what the tests left running, if anything
	werr := cmd.Wait()
	close(done)
	<-stopped
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var got struct {
		Tests  []PlainTest `json:"tests"`
		Errors []PlainTest `json:"errors"`
		Exit   int         `json:"exit"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		why := strings.TrimSpace(stdout.String())
		if killed.Load() {
			why = fmt.Sprintf("it ran past %v", (e.bound + 10*time.Second).Round(time.Second))
		} else if werr != nil && why == "" {
			why = werr.Error()
		}
		return nil, fmt.Errorf("%w: %s", errPlain, lastLine(why))
	}
	run := &PlainRun{Tests: got.Tests, Errors: got.Errors, Exit: got.Exit, Tree: e.tree, Sandbox: root}
	for _, list := range [][]PlainTest{run.Tests, run.Errors} {
		for i := range list {
			if c := list[i].Cause; c != nil && c.Path != "" {
				c.Path = hostPath(c.Path, root, e.tree.Root)
			}
		}
	}
	return run, nil
}

// errPlain: plain pytest gave no result.
var errPlain = errors.New("plain pytest gave no result")

// hostPath maps a path in the sandbox's copy of the tree (at root) back to
// the host's tree (at host).
func hostPath(p, root, host string) string {
	if root == host {
		return p
	}
	if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return filepath.Join(host, rel)
	}
	return p
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
