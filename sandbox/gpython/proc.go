package gpython

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"repair/fitness"
	"repair/sandbox"
)

// proc is one worker process, as the engine sees it.
type proc struct {
	cmd    *sandbox.Cmd
	in     *os.File // requests
	out    *os.File // responses
	r      *bufio.Reader
	shm    shared
	stderr *tailBuffer
	hello  hello
	strs   strCache      // strings of its records (see strCache)
	memo   *fitness.Memo // the verdicts of the observations last judged (see fitness.Memo)
	stage  string        // while it starts: what it was doing at its last sign of progress (awaitStart)

	killOnce  sync.Once
	waitErr   error // the exit status, once killed
	dead      atomic.Bool
	unmapOnce sync.Once
}

// unmap releases the shared area. Only the goroutine that owns the worker
// (the one running it, or the one replacing it) calls it.
func (p *proc) unmap() {
	p.unmapOnce.Do(func() { unix.Munmap(p.shm) })
}

// start starts a worker under the shim and waits until it is ready;
// closing stop (when not nil) kills it while it starts.
func (e *Engine) start(stop <-chan struct{}) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	fd, err := unix.MemfdCreate("repair-gpython", unix.MFD_CLOEXEC)
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("gpython: shared memory: %w", err)
	}
	shmFile := os.NewFile(uintptr(fd), "repair-gpython-shm")
	defer shmFile.Close() // the mapping and the worker's copy stay
	if err := unix.Ftruncate(fd, shmSize); err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("gpython: shared memory: %w", err)
	}
	mem, err := unix.Mmap(fd, 0, shmSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("gpython: shared memory: %w", err)
	}
	cmd, err := sandbox.Command(sandbox.Config{
		Path:      e.exe,
		Args:      []string{e.exe, workerArg},
		Isolation: e.opts.Isolation,
		Files:     e.files,
		Limits: sandbox.Limits{
			// No AddressSpace: the Go runtime reserves far more than it
			// uses; the worker sets RLIMIT_DATA and a heap limit itself.
			FileSize:     64 << 20,
			OpenFiles:    256,
			Processes:    64, // threads of the Go runtime
			ScratchBytes: 64 << 20,
		},
		NoNamespaces: e.cfg.noNamespaces,
		// The worker boots while the pids cgroup takes it; it runs
		// nothing before the suite, sent once it is contained.
		EarlyStart: true,
	})
	if err != nil {
		unix.Munmap(mem)
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	p := &proc{cmd: cmd, in: inW, out: outR, r: bufio.NewReaderSize(outR, 64<<10), shm: shared(mem), stderr: &tailBuffer{max: 4 << 10}, strs: strCache{}, memo: fitness.NewMemo(len(e.cases))}
	cmd.ExtraFiles = []*os.File{inR, outW, shmFile} // fds 3, 4, 5
	cmd.Stderr = p.stderr
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		unix.Munmap(mem)
		closeAll(inW, outR)
		return nil, fmt.Errorf("gpython: starting a worker: %w", err)
	}
	defer sandbox.KillOnStop(stop, p.kill)()
	select {
	case <-e.prepared:
	case <-stop:
		p.kill()
		p.unmap()
		return nil, errors.New("gpython: the engine stopped while a worker started")
	}
	cmd.Contained()
	if err := p.sendAlive(e.suiteMsg, e.startQuiet); err != nil {
		p.kill()
		p.unmap()
		return nil, p.failure("sending the suite", err)
	}
	kind, payload, err := p.awaitStart(e.startQuiet)
	if err == nil && kind != msgHello {
		err = fmt.Errorf("unexpected message %q: %.200s", kind, payload)
	}
	if err == nil {
		err = json.Unmarshal(payload, &p.hello)
	}
	if err != nil {
		p.kill()
		p.unmap()
		return nil, p.failure("starting the worker", err)
	}
	return p, nil
}

// StartQuiet is how long a starting worker may make no progress: reading
// the suite (the engine's writes of it accepted), then decoding it and
// compiling the test file, while it pings (msgPing) as long as it
// allocates. A start has no bound of its own: a large suite takes long to
// load on a busy machine. A worker silent this long is killed, and the
// error names the stage it was at.
const StartQuiet = 60 * time.Second

// sendAlive writes the suite to a starting worker in pieces, each of
// which it may take quiet to accept (sandbox.WriteAlive).
func (p *proc) sendAlive(suite []byte, quiet time.Duration) error {
	p.stage = fmt.Sprintf("reading the suite (%d KB)", (len(suite)+1023)>>10)
	return sandbox.WriteAlive(p.in, msgSuite, suite, quiet, "worker", p.stage)
}

// awaitStart reads the first message of a starting worker that is not a
// ping, as long as the worker pings within quiet of its last ping.
func (p *proc) awaitStart(quiet time.Duration) (byte, []byte, error) {
	p.stage = "reading the suite"
	var waited func() time.Duration
	if p.cmd != nil && p.cmd.Process != nil {
		pid := p.cmd.Process.Pid
		waited = func() time.Duration { return sandbox.TreeRunDelay(pid) }
	}
	return sandbox.AwaitStart(p.recv, msgPing, quiet, "worker", &p.stage, waited)
}

func (p *proc) failure(what string, err error) error {
	if st := (*sandbox.Stalled)(nil); errors.As(err, &st) {
		return fmt.Errorf("gpython: %w", err)
	}
	if msg := strings.TrimSpace(p.stderr.String()); strings.Contains(msg, workerArg) {
		return fmt.Errorf("gpython: %s: the executable does not serve as a worker (its main must call gpython.Init after sandbox.Init): %s", what, firstLines(msg, 1))
	} else if msg != "" {
		return fmt.Errorf("gpython: %s: %v: %s", what, err, firstLines(msg, 3))
	}
	return fmt.Errorf("gpython: %s: %w", what, err)
}

func (p *proc) send(payload []byte, timeout time.Duration, kind byte, head ...[]byte) error {
	p.in.SetWriteDeadline(time.Now().Add(timeout))
	return writeMsg(p.in, kind, append(head, payload)...)
}

func (p *proc) recv(deadline time.Time) (byte, []byte, error) {
	p.out.SetReadDeadline(deadline)
	return readMsg(p.r)
}

// kill stops the worker (and, as PID 1 of its namespace, anything else in
// its sandbox), reaps it and releases its files. Safe to call more than
// once.
func (p *proc) kill() {
	p.killOnce.Do(func() {
		p.dead.Store(true)
		if p.cmd.Process != nil {
			p.cmd.Kill()
			p.waitErr = p.cmd.Wait()
		} else {
			p.cmd.Cleanup()
		}
		p.in.Close()
		p.out.Close()
	})
}

// reap waits for a worker that is exiting on its own (its pipe reached
// EOF), killing it if it takes long, and returns how it ended.
func (p *proc) reap() error {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			p.cmd.Kill()
		}
	}()
	p.killOnce.Do(func() {
		p.dead.Store(true)
		p.waitErr = p.cmd.Wait()
		close(done)
		p.in.Close()
		p.out.Close()
	})
	return p.waitErr
}

// how a run on one worker ended
type ending uint8

const (
	endDone      ending = iota // every case from start reported
	endCompile                 // the candidate does not compile
	endTimeout                 // the running case passed its deadline: worker killed
	endCrash                   // the worker died
	endBroken                  // the worker talked garbage or went silent
	endOverBound               // the candidate ran past the engine's bound of its wall time: worker killed
)

// runResult is how a run on one worker ended.
type runResult struct {
	end     ending
	running int // the case that was running when the worker died or was killed, or -1
	err     error
	noProbe bool
	partial bool // compiled partially (partial.go)
	walled  bool // endTimeout: at the wall backstop, not the limit of CPU time
}

// caseWatch is the engine's watch over the running case from outside the
// worker, for a case stuck where no probe runs (one long builtin call, a
// sleep): the worker's CPU time against the case's limit, read on the
// worker's CPU clock when the case could have used it, and the wall
// backstop of its own timeout (sandbox.CaseWall), moved by the time the
// worker's threads waited for a CPU. The shim execs the worker, so its
// process is the one the engine started.
type caseWatch struct {
	i             int
	t0            int64 // nanotime: the case's start, as the worker wrote it
	limit, grace  int64 // ns
	backstop      int64 // nanotime
	cpu0, delay0  int64 // the worker's CPU time and run delay at the first look
	killAt        int64 // nanotime
	cpuOK, walled bool
}

// watch starts watching case i, started at t0, under cap (seconds, 0 for
// none).
func (p *proc) watch(e *Engine, i int, t0 int64, cap float64) caseWatch {
	own := effectiveTimeout(e.cases[i].Timeout, 0)
	t := effectiveTimeout(own, cap)
	grace := int64(e.grace)
	if t < own {
		grace = min(grace, int64(capGrace+time.Duration(4*cap*float64(time.Second))))
	}
	w := caseWatch{i: i, t0: t0, limit: int64(t * 1e9), grace: grace}
	w.backstop = t0 + int64(sandbox.CaseWall(own)*1e9) + grace
	w.cpu0, w.cpuOK = processCPUOf(p.cmd.Process.Pid)
	w.delay0 = runDelayOf(p.cmd.Process.Pid)
	w.killAt = min(t0+w.limit+grace, w.backstop)
	return w
}

// extend reports whether the case may go on at now, past killAt, and
// moves killAt: it has not used its limit of CPU time and is within its
// backstop.
func (w *caseWatch) extend(pid int, now int64) bool {
	if now >= w.backstop {
		d := runDelayOf(pid)
		if d-w.delay0 <= int64(500*time.Microsecond) {
			w.walled = true
			return false
		}
		w.backstop += d - w.delay0
		w.delay0 = d
	}
	cpu, ok := processCPUOf(pid)
	if !ok || !w.cpuOK {
		return false
	}
	// Only the CPU time seen used counts, and the grace with it: the
	// worker's probes hold the limit itself, exactly; this is for a case
	// no probe stops, and a look the machine delayed must not kill a
	// case the worker would have let run (a case first seen late gets up
	// to one more limit, as under the cpython engine's manager).
	used := cpu - w.cpu0
	if used >= w.limit+w.grace {
		return false
	}
	w.killAt = min(now+w.limit+w.grace-used, w.backstop)
	return true
}

// processCPUOf is the CPU time of process pid in nanoseconds, read on its
// CPU clock (clock_getcpuclockid(3): CPUCLOCK_SCHED of the whole process).
func processCPUOf(pid int) (int64, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(int32(((^pid)<<3)|2), &ts) != nil {
		return 0, false
	}
	return ts.Nano(), true
}

// runDelayOf is the time the threads of process pid have waited for a
// CPU, in nanoseconds (sandbox.RunDelay), or 0.
func runDelayOf(pid int) int64 { return int64(sandbox.RunDelay(pid)) }

// run sends a candidate (cases start..end-1 of its range first..end-1) and
// collects the records into res until the worker is done, dies or passes a
// deadline.
func (p *proc) run(ctx context.Context, e *Engine, src []byte, flags byte, start, first, end int, cap float64, res *results, bound time.Time) runResult {
	stop := context.AfterFunc(ctx, func() {
		p.in.SetWriteDeadline(time.Unix(1, 0))
		p.out.SetReadDeadline(time.Unix(1, 0))
	})
	defer stop()
	// The worker is idle: forget what its previous candidate left in the
	// shared area, so that a worker that died in between (killed from
	// outside) is not taken to have reported those records for this one.
	p.shm.clearRunning()
	p.shm.word(shmEnd).Store(shmRecords)
	var head [runHeader]byte
	head[0] = flags
	binary.LittleEndian.PutUint32(head[1:], uint32(start))
	binary.LittleEndian.PutUint64(head[5:], math.Float64bits(cap))
	binary.LittleEndian.PutUint32(head[13:], uint32(first))
	binary.LittleEndian.PutUint32(head[17:], uint32(end))
	if err := p.send(src, e.watchdog, msgRun, head[:]); err != nil {
		return runResult{end: endBroken, running: -1, err: fmt.Errorf("sending a candidate: %v", err)}
	}
	lastProgress := time.Now()
	lastCase := -1
	w := caseWatch{i: -1}
	for {
		wake := time.Now().Add(e.poll)
		if wake.After(bound) {
			wake = bound
		}
		if i, t0 := p.shm.running(); i >= 0 && i < len(e.cases) {
			if i != lastCase {
				lastCase, lastProgress = i, time.Now()
			}
			if i != w.i || t0 != w.t0 {
				w = p.watch(e, i, t0, cap)
			}
			if limit := monoTime(w.killAt); limit.Before(wake) {
				wake = limit
			}
		}
		kind, payload, err := p.recv(wake)
		if ctx.Err() != nil {
			p.kill()
			return runResult{end: endBroken, running: -1, err: ctx.Err()}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if !time.Now().Before(bound) {
				i, _ := p.shm.running()
				p.kill()
				p.collect(res)
				p.unmap()
				return runResult{end: endOverBound, running: i}
			}
			i, t0 := p.shm.running()
			if i >= 0 && i < len(e.cases) && i == w.i && t0 == w.t0 {
				if now := nanotime(); now >= w.killAt && !w.extend(p.cmd.Process.Pid, now) {
					p.kill()
					p.collect(res)
					p.unmap()
					return runResult{end: endTimeout, running: i, walled: w.walled}
				}
			}
			if i != lastCase {
				lastCase, lastProgress = i, time.Now()
			}
			// A running case has its deadline; the watchdog is for a
			// worker silent outside any case.
			if i < 0 && time.Since(lastProgress) > e.watchdog {
				p.kill()
				p.collect(res)
				p.unmap()
				return runResult{end: endBroken, running: i, err: fmt.Errorf("no answer for %v", e.watchdog)}
			}
			continue
		}
		if err != nil {
			p.reap()
			i, _ := p.shm.running()
			p.collect(res)
			p.unmap()
			return runResult{end: endCrash, running: i, err: err}
		}
		lastProgress = time.Now()
		switch kind {
		case msgChunk:
			if err := res.add(payload, p.strs, p.memo); err != nil {
				p.kill()
				return runResult{end: endBroken, running: -1, err: err}
			}
		case msgCompile:
			res.compileError(strings.ToValidUTF8(string(payload), "\uFFFD"))
			return runResult{end: endCompile, running: -1}
		case msgDone:
			if err := res.add(p.shm.records(), p.strs, p.memo); err != nil {
				p.kill()
				return runResult{end: endBroken, running: -1, err: err}
			}
			return runResult{end: endDone, running: -1, noProbe: len(payload) > 0 && payload[0] == 1, partial: len(payload) > 1 && payload[1] == 1}
		case msgFatal:
			p.kill()
			return runResult{end: endBroken, running: -1, err: fmt.Errorf("worker failed: %.300s", payload)}
		default:
			p.kill()
			return runResult{end: endBroken, running: -1, err: fmt.Errorf("unexpected message %q", kind)}
		}
	}
}

// collect takes the records a dead (or killed) worker published.
func (p *proc) collect(res *results) {
	res.add(p.shm.records(), p.strs, p.memo) // records after a bad one are dropped
}

// crashVerdict says what a worker's death means for the case it was
// running: its stack overflowed (recursion the probes did not see), it ran
// out of memory, or it crashed otherwise.
func (p *proc) crashVerdict() (fitness.Verdict, string) {
	tail := p.stderr.String()
	switch {
	case strings.Contains(tail, "stack overflow") || strings.Contains(tail, "stack exceeds"):
		return fitness.RuntimeError, "RecursionError: maximum recursion depth exceeded (the worker's stack overflowed)"
	case strings.Contains(tail, "out of memory") || strings.Contains(tail, "cannot allocate memory"):
		return fitness.MemoryLimitExceeded, "MemoryError"
	}
	if sig, ok := p.killedBy(); ok {
		return fitness.RuntimeError, "killed by signal " + unix.SignalName(sig)
	}
	msg := firstLines(strings.TrimSpace(tail), 1)
	if msg == "" && p.waitErr != nil {
		msg = p.waitErr.Error()
	}
	return fitness.RuntimeError, "the gpython worker crashed: " + msg
}

// killedBy reports the signal that ended the worker, when a signal did
// without the worker saying why first (a Go fatal error writes its cause
// to stderr and exits with status 2): the worker was killed from outside
// (by a user, by the kernel's OOM killer), not by what its candidate did.
func (p *proc) killedBy() (syscall.Signal, bool) {
	var ee *exec.ExitError
	if errors.As(p.waitErr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return ws.Signal(), true
		}
	}
	return 0, false
}

// monoTime converts a nanotime reading to a time.Time for deadlines.
func monoTime(t int64) time.Time {
	return time.Now().Add(time.Duration(t - nanotime()))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " ")
}

// tailBuffer keeps the first and the last max bytes written to it: a Go
// fatal error names its cause first, and a candidate may print a lot.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	head []byte
	b    []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.b)
}
