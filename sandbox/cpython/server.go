package cpython

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// harnessFS is the harness: a package of Python modules (see
// docs/engines.md, "The cpython harness"). boot.py is the -c argument of
// the interpreter; the others travel in the first message (msgModules).
//
//go:embed harness/*.py
var harnessFS embed.FS

// harness is harness/boot.py (the bootstrap) and the other modules as
// msgModules carries them: each one's name and source, each followed by
// a NUL byte. Built at the first server's start, not at the program's:
// every process of the tool (a sandbox shim, a gpython worker) runs the
// package inits.
var harness = sync.OnceValues(loadHarness)

func loadHarness() (string, []byte) {
	ents, err := fs.ReadDir(harnessFS, "harness")
	if err != nil {
		panic(err)
	}
	var boot string
	var srcs []byte
	for _, ent := range ents {
		data, err := fs.ReadFile(harnessFS, "harness/"+ent.Name())
		if err != nil {
			panic(err)
		}
		name := strings.TrimSuffix(ent.Name(), ".py")
		if name == "boot" {
			boot = string(data)
			continue
		}
		srcs = append(append(append(append(srcs, name...), 0), data...), 0)
	}
	return boot, srcs
}

// harnessCode keeps, by interpreter, the harness's code as the first
// server of that interpreter compiled it (msgCode): the next servers run
// it instead of compiling their modules again (about 18 ms of CPU a
// server, BenchmarkServerStart). It comes from a server that had run
// nothing but the bootstrap and the compiler yet, and runs only in
// servers. The cache (cache.go) keeps it for the next runs.
var harnessCode sync.Map // interpreter path → []byte

// originals keeps, by originalKey, the original program's code as the
// first server that compiled it sent it (msgOriginal: the harness's
// partial.original_tag, then the code marshalled): the servers that start
// after it, in this engine or another of the same program (the guard's,
// the check's), load it instead of compiling the target (about 30 ms of
// CPU for 5,000 lines, a server's largest cost after the interpreter's
// own start), and the cache (cache.go) keeps it for the next runs. A
// server sends it before anything of the user's runs in it, and uses it
// only when it is this interpreter's code (harness/partial.py).
var originals sync.Map // originalKey → []byte

// lenientRuntime is the runtime of lenient runs (package lenient): the
// harness loads it at the first lenient candidate.
//
//go:embed lenient.py
var lenientRuntime string

// forkReasons is one past the last reason a candidate's first fresh child
// was forked (fork*, protocol.go): [ForkReasons] has what each means.
const forkReasons = forkAgain + 1

// maxTasks bounds the processes and threads of a server (its forker,
// manager and children) or of plain pytest's run: what a test suite
// starts beside a test runner on a developer's machine (a pool of 50
// threads, a few subprocesses) fits, a fork bomb stops there
// (BlockingIOError). Threads are bounded by the address space too: each
// reserves 2 MiB of it (harness/main.py, roomy_threads).
const maxTasks = 512

// maxMessage bounds what Go accepts from a server, which runs untrusted
// code and is itself not trusted.
const maxMessage = 256 << 20

// errBroken wraps every failure of a server: dead, wedged or talking
// garbage. The engine replaces the server.
var errBroken = errors.New("sandbox server broke")

// errOverBound: the candidate ran past the engine's bound of a stage's
// wall time (server.stageBound). The engine kills the server.
var errOverBound = errors.New("the candidate ran past its time bound")

// server is one fork server: the harness running under the shim.
type server struct {
	cmd    *sandbox.Cmd
	in     *os.File // requests
	out    *os.File // responses
	r      *bufio.Reader
	stderr *tailBuffer
	pidNS  bool
	delta  bool   // the server keeps the original's source: a partial candidate's changed text is enough (msgDelta)
	stage  string // while it starts: what it was doing at its last sign of progress (awaitStart)
	// setupCPU is the CPU seconds a child's setup may take, as the
	// server's hello said (0: not said).
	setupCPU float64

	killOnce sync.Once
	dead     atomic.Bool // broken or killed: replace before use

	memo *fitness.Memo // the verdicts of the observations last judged, per case

	walls *float64 // the wall caps the server has (msgWall): the first of RunOptions.WallCaps
	cpus  *float64 // and its CPU caps: the first of RunOptions.CPUCaps (nil: none)

	// buf is the payload of the last message run received, kept for the
	// next (every reader of a payload copies what it keeps): a chunk of
	// records costs no allocation.
	buf []byte
}

// maxKeptBuffer bounds the buffer a server keeps between messages.
const maxKeptBuffer = 1 << 20

// fitsU32 reports whether offsets into src fit a u32.
func fitsU32(src []byte) bool { return int64(len(src)) < 1<<32 }

// start starts a server and waits until it is ready; closing stop kills
// it while it starts.
func (e *Engine) start(stop <-chan struct{}) (*server, error) {
	s, kind, payload, err := e.startWith(nil, stop)
	if err != nil {
		return nil, err
	}
	if kind != msgHello {
		s.kill()
		return nil, s.failure("starting the harness", fmt.Errorf("unexpected message %q: %.200s", kind, payload))
	}
	s.setupCPU = helloSetupCPU(payload)
	s.pidNS = strings.Contains(string(payload), `"pid_ns": true`)
	s.delta = strings.Contains(string(payload), `"delta": true`)
	if bytes.Contains(payload, []byte(`"plugins"`)) || bytes.Contains(payload, []byte(`"not_isolated"`)) {
		var hello struct {
			Plugins     map[string]int `json:"plugins"`
			NotIsolated string         `json:"not_isolated"`
		}
		if json.Unmarshal(payload, &hello) == nil {
			e.noteSlowPath(hello.Plugins, hello.NotIsolated)
		}
	}
	if bytes.Contains(payload, []byte(`"rewritten"`)) {
		var hello struct {
			Rewritten json.RawMessage `json:"rewritten"`
		}
		if json.Unmarshal(payload, &hello) == nil {
			e.keepRewrite(hello.Rewritten)
		}
	}
	return s, nil
}

// startWith starts a server, sends it the suite message msg (nil: the
// engine's, once prepared) and returns its first answer. Closing stop
// (when not nil) kills the server while it starts: stopping an engine
// does not wait for a server's boot.
func (e *Engine) startWith(msg []byte, stop <-chan struct{}) (*server, byte, []byte, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, 0, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, 0, nil, err
	}
	mb := e.memoryMB
	boot, _ := harness()
	// The bootstrap comes on file descriptor 5, not in the command line
	// (where ps would show pages of code).
	bootR, err := scriptPipe(boot)
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, 0, nil, err
	}
	defer bootR.Close()
	cmd, err := sandbox.Command(sandbox.Config{
		Path:      e.python.Path,
		Args:      []string{e.python.Path, "-s", "-S", "-B", "-c", loader(5), "3", "4"},
		Isolation: e.opts.Isolation,
		Files:     e.files,
		Tree:      e.projectFiles(),
		Project:   e.treeRoot(),
		ReadOnly:  e.readOnly,
		Limits: sandbox.Limits{
			AddressSpace: int64(mb+256) << 20,
			FileSize:     64 << 20,
			OpenFiles:    1024,
			Processes:    maxTasks,
			ScratchBytes: 64 << 20,
		},
		NoNamespaces: e.cfg.noNamespaces,
		// The server boots and loads the harness while the pids cgroup
		// takes it; the suite, whose imports run the user's code, is
		// sent once it is contained.
		EarlyStart: true,
	})
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, 0, nil, err
	}
	cmd.Setenv(e.env(cmd.Dir))
	s := &server{cmd: cmd, in: inW, out: outR, r: bufio.NewReaderSize(outR, 64<<10), stderr: &tailBuffer{max: 4 << 10}, memo: fitness.NewMemo(e.nCases)}
	cmd.ExtraFiles = []*os.File{inR, outW, bootR}
	cmd.Stderr = s.stderr
	err = cmd.Start()
	inR.Close()
	outW.Close()
	bootR.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, 0, nil, fmt.Errorf("cpython: starting %s: %w", e.python.Path, err)
	}
	defer sandbox.KillOnStop(stop, s.kill)()
	if err := s.loadHarness(e.python.Path, e.startQuiet); err != nil {
		s.kill()
		return nil, 0, nil, s.failure("loading the harness", err)
	}
	if msg == nil {
		select {
		case <-e.prepared:
			msg = e.suiteMsg
		case <-stop:
			s.kill()
			return nil, 0, nil, errors.New("cpython: the engine stopped while a server started")
		}
	}
	cmd.Contained()
	key := e.origKey
	kept, done := keptOriginal(key, stop)
	defer done(false)
	if kept != nil {
		if err := s.sendAlive(msgOriginal, kept, e.startQuiet, "reading the target's code"); err != nil {
			s.kill()
			return nil, 0, nil, s.failure("sending the original's code", err)
		}
	}
	suite := e.withRoot(msg, cmd.ProjectRoot())
	if err := s.sendAlive(msgSuite, suite, e.startQuiet, "reading the suite ("+sizeText(len(suite))+")"); err != nil {
		s.kill()
		return nil, 0, nil, s.failure("sending the suite", err)
	}
	s.stage = "reading the suite"
	kind, payload, err := s.awaitStart(e.startQuiet)
	if err == nil && kind == msgOriginal {
		// The server compiled the original (Go kept none, or it was not
		// this interpreter's): before any candidate, or anything of the
		// user's, ran in it.
		if key != "" {
			keepOriginal(key, payload)
		}
		done(true)
		e.stats.compiled.Add(1)
		kind, payload, err = s.awaitStart(e.startQuiet)
	}
	if err == nil && kind == msgFatal {
		err = fmt.Errorf("%s", payload)
	}
	if err != nil {
		s.kill()
		return nil, 0, nil, s.failure("starting the harness", err)
	}
	return s, kind, payload, nil
}

// StartQuiet is how long a starting server may make no progress: the
// interpreter's start and the harness's (no word from it in between),
// reading the suite (Go's writes of it accepted), then its setup, whose
// heartbeat pings whenever it progressed (a module loaded, the heap grown,
// another stage: harness/alive.py, start_heartbeat). A start has no
// bound of its own: on a busy machine importing a large package or
// collecting a large test file takes minutes. A server silent this long
// sleeps, blocks or spins in place: it is killed, and the error names the
// stage it was at.
const StartQuiet = 60 * time.Second

// heartbeat is the seconds between the looks of a server's heartbeat
// while it starts, for a window of silence quiet.
func heartbeat(quiet time.Duration) float64 {
	return min(time.Second, quiet/4).Seconds()
}

// awaitStart reads the first message of a starting server that is not a
// ping, as long as the server pings within quiet of its last ping (each
// names the stage it is at: s.stage).
func (s *server) awaitStart(quiet time.Duration) (byte, []byte, error) {
	var waited func() time.Duration
	if s.cmd != nil && s.cmd.Process != nil {
		pid := s.cmd.Process.Pid
		waited = func() time.Duration { return sandbox.TreeRunDelay(pid) }
	}
	return sandbox.AwaitStart(s.recv, msgPing, quiet, "harness", &s.stage, waited)
}

// sendAlive writes one message to a starting server (send) in pieces,
// each of which it may take quiet to accept (sandbox.WriteAlive); stage
// says what the server does meanwhile.
func (s *server) sendAlive(kind byte, payload []byte, quiet time.Duration, stage string) error {
	s.stage = stage
	return sandbox.WriteAlive(s.in, kind, payload, quiet, "harness", stage)
}

func (s *server) stalledIf(err error, quiet time.Duration) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &sandbox.Stalled{Who: "harness", Quiet: quiet, Stage: s.stage}
	}
	return err
}

// sizeText is n bytes for a stage's text.
func sizeText(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", (n+1023)>>10)
	}
	return fmt.Sprintf("%d MB", (n+1<<20-1)>>20)
}

// loadHarness sends the bootstrap the harness (msgModules) with the code
// kept for interpreter path, and keeps the code it compiled, if any.
func (s *server) loadHarness(path string, quiet time.Duration) error {
	var kept []byte
	if v, ok := harnessCode.Load(path); ok {
		kept = v.([]byte)
	} else {
		// An earlier run's (cache.go); the bootstrap compiles the
		// sources when it is not this interpreter's code.
		kept = readCache(harnessKey(path))
	}
	head := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(kept)), uint32(len(kept)))
	_, sources := harness()
	s.stage = "starting the interpreter and loading the harness"
	if err := s.send(msgModules, append(head, kept...), sources, quiet); err != nil {
		return s.stalledIf(err, quiet)
	}
	kind, payload, err := s.awaitStart(quiet)
	if err != nil {
		return err
	}
	if kind != msgCode {
		return fmt.Errorf("unexpected message %q: %.200s", kind, payload)
	}
	if len(payload) > 0 {
		harnessCode.Store(path, payload)
		writeCache(harnessKey(path), payload)
	} else if kept != nil {
		harnessCode.Store(path, kept)
	}
	return nil
}

// compiling holds, by originalKey, a channel closed once the server that
// compiles that original (it was sent the suite with no code kept) has
// sent its code, or answered or failed without it; uncompiled the keys
// of those that did not send it (the source does not compile, the server
// died), whose servers then compile it each without waiting.
var compiling, uncompiled sync.Map // originalKey → chan struct{}, bool

// keptOriginal is the original's code kept as key, or nil: then the
// server compiles it. While another server compiles it (servers that
// start together: the search's and the guard's engine's), it waits for
// that code rather than compile it too, on the same cores, unless stop
// is closed. Call done(true) when the server sent its code, and
// done(false) (a no-op after done(true)) once it answered or failed.
func keptOriginal(key string, stop <-chan struct{}) (code []byte, done func(sent bool)) {
	nop := func(bool) {}
	if key == "" {
		return nil, nop
	}
	for {
		if v, ok := originals.Load(key); ok {
			return v.([]byte), nop
		}
		if _, ok := uncompiled.Load(key); ok {
			return nil, nop
		}
		ch := make(chan struct{})
		other, busy := compiling.LoadOrStore(key, ch)
		if !busy {
			var once sync.Once
			return nil, func(sent bool) {
				once.Do(func() {
					if !sent {
						uncompiled.Store(key, true)
					}
					compiling.Delete(key)
					close(ch)
				})
			}
		}
		select {
		case <-other.(chan struct{}):
			// Kept, or not: look again.
		case <-stop:
			return nil, nop
		}
	}
}

// keepOriginal keeps the original's code a server compiled (msgOriginal)
// as key, for the servers that start after it and in the cache.
func keepOriginal(key string, code []byte) {
	originals.Store(key, code)
	writeCache(key, append([]byte(key), code...))
}

// loadOriginal makes key the engine's original's, and finds the code an
// earlier run kept for it in the cache if no server of this run has sent
// it yet. An entry starts with its own key: one copied to another name is
// not taken for it.
func (e *Engine) loadOriginal(key string) {
	e.origKey = key
	if _, ok := originals.Load(key); ok || key == "" {
		return
	}
	if data := readCache(key); len(data) > len(key) && string(data[:len(key)]) == key {
		originals.LoadOrStore(key, data[len(key):])
	}
}

// originalKey names the code of the original program src for interpreter
// py: by this scheme's version, the interpreter's file (as probeKey: a new
// build in place is another) and src. The harness checks the rest of what
// compile depends on, the interpreter's version, magic number and
// optimization level (partial.original_tag); the file name the code was
// compiled under is not in the key, since each server's differs: a server
// renames the code it loads to its own (partial.load_original). Empty when
// there is nothing to keep.
func originalKey(py string, src string) string {
	if src == "" {
		return ""
	}
	id := fileIdentity(py)
	if id == nil {
		return ""
	}
	return cacheKey("original", []byte(originalScheme), []byte(py), id, []byte(src))
}

// originalScheme is the version of what originals and the cache keep of
// an original's code: change it with the format.
const originalScheme = "1"

// harnessKey names the harness's code for interpreter path in the cache.
func harnessKey(path string) string {
	boot, sources := harness()
	return cacheKey("harness", []byte(path), []byte(boot), sources)
}

func (s *server) failure(what string, err error) error {
	if st := (*sandbox.Stalled)(nil); errors.As(err, &st) {
		// One line, the stage named: what the server wrote is no clue
		// to a server that went silent.
		return fmt.Errorf("cpython: %w", err)
	}
	msg := strings.TrimSpace(s.stderr.String())
	if msg != "" {
		return fmt.Errorf("cpython: %s: %v: %s", what, err, msg)
	}
	return fmt.Errorf("cpython: %s: %w", what, err)
}

// send writes one message: length (of kind and payload), kind, payload.
// A large payload (a candidate's source) is written as it is, after the
// rest, not copied: on a large file the copy was a fresh buffer of the
// file's size per candidate.
func (s *server) send(kind byte, head, payload []byte, timeout time.Duration) error {
	buf := make([]byte, 5, 5+len(head)+min(len(payload), sendCopyMax))
	binary.LittleEndian.PutUint32(buf, uint32(1+len(head)+len(payload)))
	buf[4] = kind
	buf = append(buf, head...)
	if len(payload) <= sendCopyMax {
		buf, payload = append(buf, payload...), nil
	}
	s.in.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := s.in.Write(buf); err != nil || len(payload) == 0 {
		return err
	}
	_, err := s.in.Write(payload)
	return err
}

// sendCopyMax is the largest payload send copies after the message's
// head, to write the message at once.
const sendCopyMax = 16 << 10

// recv reads one message.
func (s *server) recv(deadline time.Time) (byte, []byte, error) {
	return s.recvInto(deadline, nil)
}

// recvInto reads one message, its payload into buf when it fits.
func (s *server) recvInto(deadline time.Time, buf []byte) (byte, []byte, error) {
	s.out.SetReadDeadline(deadline)
	var hdr [5]byte
	if _, err := io.ReadFull(s.r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:4])
	if n == 0 || n > maxMessage {
		return 0, nil, fmt.Errorf("bad message length %d", n)
	}
	payload := buf[:0]
	if cap(buf) < int(n-1) {
		payload = make([]byte, n-1)
	}
	payload = payload[:n-1]
	if _, err := io.ReadFull(s.r, payload); err != nil {
		return 0, nil, err
	}
	return hdr[4], payload, nil
}

// run evaluates one candidate, filling out.Results[i] and got[i] for every
// case the server reports. A non-nil error is ctx.Err() or wraps
// errBroken.
func (s *server) run(ctx context.Context, e *Engine, src []byte, opts sandbox.RunOptions, out *fitness.Outcome, got []bool) error {
	cov := opts.Coverage
	// A flags byte, then the cap of the case timeouts in seconds.
	flags := make([]byte, 1+capSize, 1+capSize+rangeSize)
	if cov {
		flags[0] |= runCoverage
	}
	if opts.AbandonAfterTimeout {
		flags[0] |= runAbandon
	}
	if opts.Record {
		flags[0] |= runRecord
	}
	binary.LittleEndian.PutUint64(flags[1:], math.Float64bits(opts.Timeout.Seconds()))
	if first, end := opts.Cases.Bounds(e.nCases); first > 0 || end < e.nCases {
		// Then the case range.
		flags[0] |= runRange
		flags = binary.LittleEndian.AppendUint32(flags, uint32(first))
		flags = binary.LittleEndian.AppendUint32(flags, uint32(end))
	}
	if opts.Lenient != nil {
		// Then the plan, after its length.
		plan := opts.Lenient.JSON()
		flags[0] |= runLenient
		flags = binary.LittleEndian.AppendUint32(flags, uint32(len(plan)))
		flags = append(flags, plan...)
	}
	var sel []bool  // the cases the harness is asked to run (withFailing), when it may skip the others
	var wide []bool // the cases it runs instead when the candidate changes a scope (SelectWide)
	if ch := opts.Change; ch != nil && len(ch.Defs) > 0 && !cov && !opts.Record && opts.Lenient == nil && fitsU32(src) {
		// Then the changed definitions: the harness compiles only them.
		flags[0] |= runPartial
		flags = binary.LittleEndian.AppendUint32(flags, uint32(len(ch.Defs)))
		for i := range ch.Defs {
			for _, v := range []int{ch.Cand[i].Start, ch.Cand[i].End, ch.Orig[i].Start, ch.Orig[i].End} {
				flags = binary.LittleEndian.AppendUint32(flags, uint32(v))
			}
		}
		if len(opts.Select) == e.nCases {
			// Then the cases to run, when the harness may skip the
			// others: bit 1, the case reaches an edit (or the original
			// fails it); bit 2, it reaches a changed definition (all, when
			// the wide selection is not given).
			flags[0] |= runSelect
			sel = e.withFailing(opts.Select)
			if len(opts.SelectWide) == e.nCases {
				wide = opts.SelectWide
			}
			for i, b := range sel {
				switch {
				case b:
					flags = append(flags, 3)
				case wide == nil || wide[i]:
					flags = append(flags, 2)
				default:
					flags = append(flags, 0)
				}
			}
		}
	}
	stop := context.AfterFunc(ctx, func() {
		s.in.SetWriteDeadline(time.Unix(1, 0))
		s.out.SetReadDeadline(time.Unix(1, 0))
	})
	defer stop()
	if len(opts.WallCaps) == e.nCases && e.nCases > 0 {
		var cpus *float64
		if len(opts.CPUCaps) == e.nCases {
			cpus = &opts.CPUCaps[0]
		}
		if &opts.WallCaps[0] != s.walls || cpus != s.cpus {
			// The wall caps, then the CPU caps when there are, once per
			// server and set of caps.
			caps := make([]byte, 0, 2*wallSize*len(opts.WallCaps))
			for _, w := range opts.WallCaps {
				caps = binary.LittleEndian.AppendUint64(caps, math.Float64bits(w))
			}
			if cpus != nil {
				for _, c := range opts.CPUCaps {
					caps = binary.LittleEndian.AppendUint64(caps, math.Float64bits(c))
				}
			}
			if err := s.send(msgWall, nil, caps, e.watchdog); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return fmt.Errorf("%w: sending the wall caps: %v", errBroken, err)
			}
			s.walls, s.cpus = &opts.WallCaps[0], cpus
		}
		flags[0] |= runWall
	}
	kind, body := byte(msgRun), src
	switch {
	case !s.delta:
	case flags[0]&runPartial != 0:
		if text, ok := delta(src, e.original, opts.Change); ok {
			kind, body = msgDelta, text
		}
	case len(e.original) > 0 && bytes.Equal(src, e.original):
		// The original itself (its coverage run, the guard's run on its
		// inputs): no definition changed, nothing to send.
		flags[0] |= runPartial
		flags = binary.LittleEndian.AppendUint32(flags, 0)
		kind, body = msgDelta, nil
	}
	if err := s.send(kind, flags, body, e.watchdog); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: sending a candidate: %v", errBroken, err)
	}
	// The harness ends each case and each child's setup at its limits;
	// Go's bound catches a harness that does not: it restarts whenever a
	// ping reports progress, a child or a case later than any before. A
	// candidate that writes the header the manager reads can make a case
	// look later only so often: at most one restart a case and a child,
	// and the manager forks a child only for a case not yet judged.
	stage := s.stageBound(e)
	bound := time.Now().Add(stage)
	children, running := int64(0), int64(-1)
	for {
		deadline := time.Now().Add(e.watchdog)
		if deadline.After(bound) {
			deadline = bound
		}
		kind, payload, err := s.recvInto(deadline, s.buf)
		if cap(payload) <= maxKeptBuffer {
			s.buf = payload[:0]
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				if !time.Now().Before(bound) {
					return errOverBound
				}
				return fmt.Errorf("%w: no answer for %v", errBroken, e.watchdog)
			}
			return fmt.Errorf("%w: %v %s", errBroken, err, strings.TrimSpace(s.stderr.String()))
		}
		switch kind {
		case msgPing:
			if len(payload) == pingSize {
				c, r := int64(binary.LittleEndian.Uint64(payload)), int64(binary.LittleEndian.Uint64(payload[8:]))
				if c > children || r > running {
					children, running = max(children, c), max(running, r)
					bound = time.Now().Add(stage)
				}
			}
		case msgChunk:
			if err := decodeRecords(payload, e.checks, s.memo, out.Results, got, cov); err != nil {
				return fmt.Errorf("%w: %v", errBroken, err)
			}
		case msgCompile:
			msg := string(payload)
			out.CompileError = msg
			for i := range out.Results {
				out.Results[i] = fitness.Result{Verdict: fitness.CompilationError, Detail: msg}
				got[i] = true
			}
		case msgDone:
			if len(payload) == doneSize {
				e.stats.reused.Add(int64(binary.LittleEndian.Uint32(payload)))
				forks := binary.LittleEndian.Uint32(payload[4:])
				e.stats.forks.Add(int64(forks))
				if why := binary.LittleEndian.Uint32(payload[16:]); why > 0 && why < forkReasons && forks > 0 {
					// The first fresh child, then the candidate's later
					// ones: its own children ended early.
					e.stats.fresh[why].Add(1)
					e.stats.fresh[forkAgain].Add(int64(forks - 1))
				}
				how := binary.LittleEndian.Uint32(payload[12:])
				if how&donePartial != 0 {
					e.stats.partial.Add(1)
				}
				if how&doneKept != 0 {
					e.stats.kept.Add(1)
				}
				if how&doneSelected != 0 && flags[0]&runSelect != 0 && out.CompileError == "" {
					// Only the selected cases ran: the others are skipped.
					out.Skipped = make([]bool, len(out.Results))
					for i, picked := range sel {
						if how&doneWide != 0 {
							picked = picked || wide == nil || wide[i]
						}
						if !picked && !got[i] {
							out.Skipped[i], got[i] = true, true
						}
					}
					e.stats.selected.Add(1)
				}
			}
			e.stats.candidates.Add(1)
			return nil
		case msgFatal:
			return fmt.Errorf("%w: harness failed: %s", errBroken, payload)
		default:
			return fmt.Errorf("%w: unexpected message %q", errBroken, kind)
		}
	}
}

// delta returns the text of the changed definitions of candidate src
// (ch's Cand spans, in order), when src is the original orig outside
// them (ch's Orig spans): what a server that keeps the original needs
// of a partial candidate (msgDelta). On a large file that is a function
// of hundreds, not the file; a candidate that does not match is sent
// whole.
func delta(src, orig []byte, ch *program.Change) ([]byte, bool) {
	if ch == nil || len(ch.Cand) == 0 || len(ch.Cand) != len(ch.Orig) || len(orig) == 0 {
		return nil, false
	}
	var text []byte
	pc, po := 0, 0
	for i, c := range ch.Cand {
		o := ch.Orig[i]
		if c.Start < pc || c.End < c.Start || c.End > len(src) || o.Start < po || o.End < o.Start || o.End > len(orig) ||
			!bytes.Equal(src[pc:c.Start], orig[po:o.Start]) {
			return nil, false
		}
		text = append(text, src[c.Start:c.End]...)
		pc, po = c.End, o.End
	}
	if !bytes.Equal(src[pc:], orig[po:]) {
		return nil, false
	}
	return text, true
}

// decodeRecords parses result records and judges them:
//
//	u32 case, u8 status, u8 flags, f64 seconds,
//	[status >= 16: the observation, see fitness.ReadObservation],
//	[recDetail: u16 n, n bytes of detail], [recLines: u32 n, n × u32 lines],
//	[recLinesRef: u16 k: the lines of the message's k-th record with recLines],
//	[recInjections: u16 n, n × (u32 line, kind, name, class)],
//	[recProgress: u16 asserts passed, u16 asserts: a failing test's progress],
//	[recCalls: u32 n, n bytes: the calls a test case made into the target, JSON],
//	[recCPU: f64 CPU seconds of the case]
//
// (recSameLines, without recLines: the case executed the lines of the
// record before it in p, not listed again.) Cases that executed the same
// lines share one Lines slice: a suite's cases take a few paths, and a
// record of a path listed before refers to its listing (recLinesRef).
// all little-endian; kind, name and class are a u8 length and UTF-8. A
// status below 16 is a verdict: of a case's death or deadline (the
// manager's), or of a test case (the test file's asserts); the checks
// decide what the others mean.
func decodeRecords(p []byte, checks []fitness.Check, memo *fitness.Memo, results []fitness.Result, got []bool, cov bool) error {
	le := binary.LittleEndian
	var prev []int // the lines of the last record that listed them
	var seen lineLists
	var listed [][]int // the lines of the records with recLines, in order
	for len(p) > 0 {
		if len(p) < recSize {
			return errors.New("truncated record")
		}
		idx, status, flags := le.Uint32(p), p[4], p[5]
		secs := math.Float64frombits(le.Uint64(p[6:]))
		p = p[recSize:]
		if int64(idx) >= int64(len(results)) || (status > byte(fitness.MemoryLimitExceeded) && status < fitness.StatusReturned) ||
			status == byte(fitness.CompilationError) {
			return fmt.Errorf("bad record (case %d, status %d)", idx, status)
		}
		if math.IsNaN(secs) || secs < 0 || secs > 1e7 {
			secs = 0
		}
		var payload []byte
		if status >= fitness.StatusReturned {
			n, err := fitness.ObservationSize(status, p)
			if err != nil {
				return fmt.Errorf("case %d: %w", idx, err)
			}
			payload, p = p[:n], p[n:]
		}
		r := fitness.Result{Seconds: secs}
		var detail string
		if flags&recDetail != 0 {
			if len(p) < 2 {
				return errors.New("truncated detail")
			}
			n := int(le.Uint16(p))
			if len(p) < 2+n {
				return errors.New("truncated detail")
			}
			detail = strings.ToValidUTF8(string(p[2:2+n]), "\uFFFD")
			p = p[2+n:]
		}
		if flags&recLines != 0 {
			if len(p) < 4 {
				return errors.New("truncated lines")
			}
			n := le.Uint32(p)
			if uint64(n)*4 > uint64(len(p)-4) {
				return errors.New("truncated lines")
			}
			lines := seen.of(p[4 : 4+4*int(n)])
			p = p[4+4*int(n):]
			prev = lines
			listed = append(listed, lines)
			if cov {
				r.Lines = lines
			}
		} else if flags&recLinesRef != 0 {
			if len(p) < 2 {
				return errors.New("truncated lines")
			}
			k := int(le.Uint16(p))
			if k >= len(listed) {
				return fmt.Errorf("the lines of record %d, of %d listed", k, len(listed))
			}
			p = p[2:]
			prev = listed[k]
			if cov {
				r.Lines = prev
			}
		} else if flags&recSameLines != 0 {
			if prev == nil {
				return errors.New("the same lines as no record before")
			}
			if cov {
				r.Lines = prev
			}
		}
		if flags&recInjections != 0 {
			var err error
			if r.Injections, p, err = decodeInjections(p); err != nil {
				return err
			}
		}
		var progress float64
		if flags&recProgress != 0 {
			if len(p) < progressSize {
				return errors.New("truncated progress")
			}
			if k, n := le.Uint16(p), le.Uint16(p[2:]); k < n {
				progress = float64(k) / float64(n)
			}
			p = p[progressSize:]
		}
		if flags&recCalls != 0 {
			if len(p) < 4 || uint64(le.Uint32(p)) > uint64(len(p)-4) {
				return errors.New("truncated calls")
			}
			n := int(le.Uint32(p))
			r.Calls = fitness.ParseCalls(p[4 : 4+n])
			p = p[4+n:]
		}
		if flags&recCPU != 0 {
			if len(p) < cpuSize {
				return errors.New("truncated CPU time")
			}
			if c := math.Float64frombits(le.Uint64(p)); c >= 0 && c < 1e7 {
				r.CPU = c
			}
			p = p[cpuSize:]
		}
		if status >= fitness.StatusReturned {
			var err error
			if r.Verdict, r.Detail, err = memo.Judge(checks, int(idx), status, payload, detail); err != nil {
				return fmt.Errorf("case %d: %w", idx, err)
			}
		} else {
			r.Verdict, r.Detail = checks[idx].JudgeVerdict(fitness.Verdict(status), detail)
			if r.Verdict == fitness.WrongAnswer || r.Verdict == fitness.RuntimeError {
				r.Progress = progress
			}
		}
		results[idx] = r
		got[idx] = true
	}
	return nil
}

// decodeInjections parses the injections of a record (see decodeRecords)
// and returns the rest of p.
func decodeInjections(p []byte) ([]fitness.Injection, []byte, error) {
	if len(p) < 2 {
		return nil, nil, errors.New("truncated injections")
	}
	n := int(binary.LittleEndian.Uint16(p))
	p = p[2:]
	out := make([]fitness.Injection, 0, n)
	for range n {
		if len(p) < 4 {
			return nil, nil, errors.New("truncated injection")
		}
		in := fitness.Injection{Line: int(binary.LittleEndian.Uint32(p))}
		p = p[4:]
		for _, s := range []*string{&in.Kind, &in.Name, &in.Class} {
			if len(p) < 1 || len(p) < 1+int(p[0]) {
				return nil, nil, errors.New("truncated injection")
			}
			*s = strings.ToValidUTF8(string(p[1:1+int(p[0])]), "\uFFFD")
			p = p[1+int(p[0]):]
		}
		out = append(out, in)
	}
	return out, p, nil
}

// kill stops the server and everything in its sandbox (it is PID 1 of its
// PID namespace, or they share its process group and die with it), then
// releases its files and private directory. Safe to call more than once.
func (s *server) kill() {
	s.dead.Store(true)
	s.killOnce.Do(func() {
		if s.cmd.Process != nil {
			s.cmd.Kill()
			s.cmd.Wait()
		} else {
			s.cmd.Cleanup()
		}
		s.in.Close()
		s.out.Close()
	})
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// treeRoot is the project's tree candidates read, if any.
func (e *Engine) treeRoot() string {
	if e.tree == nil {
		return ""
	}
	return e.tree.Root
}

// projectFiles are the files of the target's package project, if any.
func (e *Engine) projectFiles() []sandbox.TreeFile {
	if e.project == nil {
		return nil
	}
	return e.project.Files
}

// lineLists are the distinct lists of lines decodeRecords has made: a
// suite's cases take a few paths, and on a large module each list holds
// the lines of its import. Cases with the same lines share one slice,
// which localize then recognizes without comparing it again.
type lineLists struct {
	lists [][]int
}

// of returns the lines of raw (little-endian u32s): a list made before
// when it holds the same lines.
func (l *lineLists) of(raw []byte) []int {
	n := len(raw) / 4
	for _, x := range l.lists {
		if len(x) == n && sameLines(x, raw) {
			return x
		}
	}
	lines := make([]int, n)
	for i := range lines {
		lines[i] = int(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	if len(l.lists) < maxLineLists {
		l.lists = append(l.lists, lines)
	}
	return lines
}

// sameLines reports whether raw (little-endian u32s) holds lines.
func sameLines(lines []int, raw []byte) bool {
	for i, v := range lines {
		if uint32(v) != binary.LittleEndian.Uint32(raw[4*i:]) {
			return false
		}
	}
	return true
}

// maxLineLists bounds the lists lineLists keeps (and compares a new one
// with).
const maxLineLists = 16

// stageBound is the wall time s may take without progress while it runs
// a candidate: the engine's bound of a case, or of a child's setup at the
// limit this server said its setup has (its hello), whichever is more.
func (s *server) stageBound(e *Engine) time.Duration {
	setup := max(s.setupCPU, e.cfg.setupCPU)
	return max(e.stage, e.cfg.boundSlack+seconds(2*sandbox.CaseWall(setup)))
}

// helloSetupCPU is the setup limit a server's hello states ("setup_cpu",
// seconds), or 0.
func helloSetupCPU(hello []byte) float64 {
	if !bytes.Contains(hello, []byte(`"setup_cpu"`)) {
		return 0
	}
	var h struct {
		SetupCPU float64 `json:"setup_cpu"`
	}
	if json.Unmarshal(hello, &h) != nil || h.SetupCPU < 0 || math.IsNaN(h.SetupCPU) || math.IsInf(h.SetupCPU, 0) {
		return 0
	}
	return h.SetupCPU
}

// loader is the interpreter's -c argument that runs the script it reads
// from file descriptor fd (scriptPipe), closing it: one short line in
// the command line instead of the script. The script runs in __main__ as
// a -c argument would, with the same sys.argv.
func loader(fd int) string {
	return fmt.Sprintf(`exec(compile(__import__("os").fdopen(%d,"rb").read(),"<string>","exec"))`, fd)
}

// scriptPipe is the read end of a pipe that holds script and then ends:
// a child reads it whole (loader). A script beyond the pipe's buffer
// (64 KiB on Linux) would block the write; the harness's are a few KiB.
func scriptPipe(script string) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.WriteString(script)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("cpython: pass the script: %w", err)
	}
	return r, nil
}
