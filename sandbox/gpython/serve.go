package gpython

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"
	_ "unsafe" // go:linkname

	"github.com/go-python/gpython/py"
	"golang.org/x/sys/unix"

	"repair/fitness"
	"repair/sandbox"
)

// workerArg is os.Args[1] of a worker process.
const workerArg = "-repair-gpython-worker"

// Init runs the gpython worker when the process was started as one by the
// engine, and never returns then; otherwise it returns at once. Every main,
// and every TestMain of a package whose tests start gpython engines, calls
// it right after sandbox.Init:
//
//	func TestMain(m *testing.M) {
//		sandbox.Init()
//		gpython.Init()
//		os.Exit(m.Run())
//	}
func Init() {
	if len(os.Args) < 2 || os.Args[1] != workerArg {
		return
	}
	os.Exit(serve())
}

// nanotime is the runtime's CLOCK_MONOTONIC reading, the clock of the
// shared area on both sides (a vDSO call, no system call).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Limits of a worker.
const (
	// maxStack is the Go stack a worker's goroutine may use: past it Go
	// aborts the process (recursion the probes did not see, such as a
	// lambda calling itself), which the engine reports as RUNTIME_ERROR.
	maxStack = 64 << 20
	// recursionLimit is the Python call depth the probes allow, CPython's
	// default limit, measured in Go stack (see calibrate).
	recursionLimit = 1000
	// dataHeadroom is what the Go runtime and the binary need beyond the
	// suite's memory limit (RLIMIT_DATA).
	dataHeadroom = 256 << 20
	// deadlineEvery and memoryEvery are how often (in probe steps) the
	// probes read the clock and the heap.
	deadlineEvery = 256
	memoryEvery   = 4096
)

// workerSuite is the suite as the engine sends it.
type workerSuite struct {
	Module     string            `json:"module"`
	Cases      []sandbox.RunCase `json:"cases"`
	MemoryMB   int               `json:"memory_mb"`
	OutputCap  int               `json:"output_cap"`
	TestSource string            `json:"test_source,omitempty"`
	TestModule string            `json:"test_module,omitempty"`
	TestFile   string            `json:"test_file,omitempty"`
	// Original is the original program, for partial compilation
	// (partial.go); "" for none.
	Original string `json:"original,omitempty"`
}

// hello is the worker's first message.
type hello struct {
	PidNS      bool `json:"pid_ns"`
	StackLimit int  `json:"stack_limit"`
}

// worker is the state of a worker process.
type worker struct {
	out    *os.File
	shm    shared
	recEnd int

	module, testModule string
	candFile, testFile string
	libDir             string
	workDir            string     // the private directory: all a candidate may use of the file system
	files              []*py.File // the files the running candidate opened
	obsBuf             []byte     // the encoding of a case's result (see returned)
	cases              []*wcase
	outputCap          int
	memLimit           uint64
	testCode           *py.Code
	testDecor          string   // prefix of the rewritten dotted decorators of the test file
	testPaths          []string // and their paths
	testFmt            string   // the name its rewritten f-strings call, "" if none (fstring.go)
	stackLimit         int      // bytes of Go stack; 0: no recursion check
	stackBase          int      // stack use of a case's first frame
	stackPerCall       int      // stack use of a Python call
	fastBias           int      // stack the reused-frame call of a case saves over py.Call (see call.go)
	recursionLimit     int      // sys.getrecursionlimit() of the running candidate

	probe *py.Method
	cap   float64  // seconds: the cap of every case's timeout in this run, 0 for none
	code  *py.Code // the running candidate
	decor string   // prefix of its rewritten dotted decorators
	paths []string // and their paths
	fmt   string   // the name its rewritten f-strings call, "" if none (fstring.go)
	pure  bool     // the running candidate is pure (see reuse.go)
	guard bool     // and a call may change its module's globals
	it    *interp  // the context of the previous candidate
	st    caseState
	heap  []metrics.Sample
	types typeSnapshot
	calls callFrames // frames of the top-level calls of pure candidates

	original []byte       // the original program, "" for none (partial.go)
	base     *partialBase // it compiled, at the first partial request
}

// caseState is what the probes of the running case read and write.
type caseState struct {
	start    int64 // nanotime
	deadline int64 // nanotime: when the case could have used its limit (maybe extended)
	hard     int64 // nanotime: the wall backstop (sandbox.CaseWall of its own timeout), moved by the run delay
	limit    int64 // ns of CPU time: its timeout, or the search's cap below it
	capped   bool  // limit is the search's cap
	obs      int64 // nanotime of the first look at the CPU clock, 0 before
	cpuObs   int64 // the process's CPU time then
	delayObs int64 // the time its threads had waited for a CPU, read when it first outlived its limit (-1 before)
	walled   bool  // the backstop, not the CPU time, ended it
	steps    uint64
	cov      []bool // executed lines, when coverage is on
	stop     error  // once set, every probe raises it again
	timedOut bool
	exited   int // os._exit status, -1 when not called
	memory   bool
	in       *inStream
	out      *output
	errOut   *output

	stackBias int // added to the stack depth the probes see (see call.go)
}

func serve() int {
	in := os.NewFile(fdRequests, "requests")
	out := os.NewFile(fdResponses, "responses")
	fail := func(err error) int {
		writeMsg(out, msgFatal, []byte(err.Error()))
		return 3
	}
	mem, err := unix.Mmap(fdShared, 0, shmSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return fail(fmt.Errorf("mapping the shared area: %v", err))
	}
	r := bufio.NewReaderSize(in, 64<<10)
	kind, payload, err := readMsg(r)
	if err != nil {
		return fail(err)
	}
	if kind != msgSuite {
		return fail(fmt.Errorf("expected the suite first, got %q", kind))
	}
	hb := startHeartbeat(out)
	w, err := newWorker(payload, shared(mem), out, hb)
	hb.stop()
	if err != nil {
		return fail(err)
	}
	h, _ := json.Marshal(hello{PidNS: os.Getpid() == 1, StackLimit: w.stackLimit})
	if err := writeMsg(out, msgHello, h); err != nil {
		return 3
	}
	for {
		kind, payload, err := readMsg(r)
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			return fail(err)
		}
		if kind != msgRun || len(payload) < runHeader {
			return fail(fmt.Errorf("unexpected request %q", kind))
		}
		start := int(binary.LittleEndian.Uint32(payload[1:]))
		w.cap = math.Float64frombits(binary.LittleEndian.Uint64(payload[5:]))
		if !(w.cap > 0 && w.cap < 1e7) {
			w.cap = 0
		}
		first := int(binary.LittleEndian.Uint32(payload[13:]))
		end := min(int(binary.LittleEndian.Uint32(payload[17:])), len(w.cases))
		if err := w.evaluate(payload[0], start, first, end, payload[runHeader:]); err != nil {
			return 3
		}
	}
}

func newWorker(payload []byte, shm shared, out *os.File, hb *heartbeat) (*worker, error) {
	hb.at("decoding the suite")
	var s workerSuite
	if err := json.Unmarshal(payload, &s); err != nil {
		return nil, fmt.Errorf("decoding the suite: %v", err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = r
	}
	lib := filepath.Join(cwd, "lib")
	w := &worker{
		workDir:    cwd,
		out:        out,
		shm:        shm,
		module:     s.Module,
		testModule: s.TestModule,
		libDir:     lib,
		candFile:   filepath.Join(lib, s.Module+".py"),
		outputCap:  s.OutputCap,
		original:   []byte(s.Original),
		heap:       []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}},
	}
	if w.outputCap <= 0 {
		w.outputCap = 64 << 10
	}
	mb := s.MemoryMB
	if mb <= 0 {
		mb = 512
	}
	w.memLimit = uint64(mb) << 20
	hb.at(fmt.Sprintf("loading the suite's %d cases", len(s.Cases)))
	for i, c := range s.Cases {
		wc, err := loadCase(c)
		if err != nil {
			return nil, fmt.Errorf("case %d: %v", i, err)
		}
		w.cases = append(w.cases, wc)
	}
	applyFixes() // before anything compiles
	if s.TestModule != "" {
		hb.at("compiling the test file " + s.TestFile)
		w.testFile = filepath.Join(lib, s.TestFile)
		src := []byte(s.TestSource)
		w.testDecor = probeName(src) + "d"
		src, w.testPaths = rewriteDecorators(src, w.testDecor)
		if s, ok := rewriteFStrings(src, w.testDecor[:len(w.testDecor)-1]+"f"); ok {
			src, w.testFmt = s, w.testDecor[:len(w.testDecor)-1]+"f"
		}
		w.testCode, err = py.Compile(string(src), w.testFile, py.ExecMode, 0, true)
		if err != nil {
			w.testCode = nil // every test case reports the compile error
		}
	}
	hb.at("setting the interpreter up")
	w.registerModules()
	w.probe = py.MustNewMethod("probe", w.probeFn, 0, "")
	w.types = snapshotTypes()

	// Limits: the Go stack (recursion the probes miss), the heap (a soft
	// limit for the collector, checked by the probes) and RLIMIT_DATA
	// (what a single huge allocation runs into).
	debug.SetMaxStack(maxStack)
	debug.SetTraceback("none") // a fatal error says only why
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(int64(w.memLimit))
	if !raceEnabled {
		lim := uint64(mb)<<20 + dataHeadroom
		unix.Setrlimit(unix.RLIMIT_DATA, &unix.Rlimit{Cur: lim, Max: lim})
	}
	runtime.GOMAXPROCS(1)
	w.calibrate()
	return w, nil
}

// calibrate measures the Go stack a Python call takes in this build, so
// that the probes can stop a recursion as deep as CPython's limit allows.
// It leaves the recursion check off when the stack cannot be measured.
func (w *worker) calibrate() {
	if stackUsed() < 0 {
		return
	}
	src := "def f(n):\n    if n:\n        return f(n - 1)\n    return d()\n"
	code, err := py.Compile(src, "calibrate.py", py.ExecMode, 0, true)
	if err != nil {
		return
	}
	it := w.newInterp()
	m, err := it.ctx.Store().NewModule(it.ctx, &py.ModuleImpl{Info: py.ModuleInfo{Name: "calibrate"}})
	if err != nil {
		return
	}
	m.Globals["d"] = py.MustNewMethod("d", func(py.Object) (py.Object, error) { return py.Int(stackUsed()), nil }, 0, "")
	if _, err := it.ctx.RunCode(code, m.Globals, m.Globals, nil); err != nil {
		return
	}
	depth := func(n int) int {
		r, err := py.Call(m.Globals["f"], py.Tuple{py.Int(n)}, nil)
		if err != nil {
			return -1
		}
		d, _ := r.(py.Int)
		return int(d)
	}
	d0, d1 := depth(0), depth(200)
	if d0 < 0 || d1 <= d0 {
		return
	}
	w.stackBase, w.stackPerCall = d0, (d1-d0)/200
	// The top-level call of a pure candidate's case skips py.Call's frames
	// (call.go): its probes add what it saves, so that the recursion limit
	// is the same whichever way the case was called.
	if r, err := w.call(m.Globals["f"], py.Tuple{py.Int(0)}, nil, true); err == nil {
		if d, ok := r.(py.Int); ok && int(d) > 0 && int(d) <= d0 {
			w.fastBias = d0 - int(d)
		}
	}
	w.calls.reset()
	w.setRecursionLimit(recursionLimit)
}

// setRecursionLimit is sys.setrecursionlimit: the probes raise
// RecursionError past n Python calls (and before the Go stack limit).
func (w *worker) setRecursionLimit(n int) {
	w.recursionLimit = n
	if w.stackPerCall == 0 {
		return
	}
	lim := int64(w.stackBase) + int64(n)*int64(w.stackPerCall)
	if max := int64(maxStack) * 3 / 4; lim > max {
		lim = max
	}
	w.stackLimit = int(lim)
}

// probeFn is the probe the instrumented source calls: probe(line, ...).
func (w *worker) probeFn(self py.Object, args py.Tuple) (py.Object, error) {
	st := &w.st
	if st.cov != nil {
		for _, a := range args {
			if l, ok := a.(py.Int); ok && l > 0 && int(l) < len(st.cov) {
				st.cov[l] = true
			}
		}
	}
	if st.stop != nil {
		return nil, st.stop
	}
	st.steps++
	if w.stackLimit > 0 && stackUsed()+st.stackBias > w.stackLimit {
		return nil, py.ExceptionNewf(recursionErrorType, "maximum recursion depth exceeded")
	}
	if st.steps%deadlineEvery == 0 && st.expired() {
		st.timedOut = true
		st.stop = py.ExceptionNewf(timeoutType, "time limit exceeded")
		return nil, st.stop
	}
	if st.steps%memoryEvery == 0 && w.overMemory() {
		st.memory = true
		return nil, py.ExceptionNewf(py.MemoryError, "")
	}
	return py.None, nil
}

// expired reports whether the case ran past its limit. The limit counts
// CPU time, as the cpython engine's does (sandbox.CaseWall): a case the
// machine starved gets the time it did not have, the wall time before the
// first look at the CPU clock counting as used. A case that sleeps or
// waits stops at the wall backstop, which the time the worker's threads
// waited for a CPU moves.
func (st *caseState) expired() bool {
	now := nanotime()
	if st.obs == 0 {
		st.obs, st.cpuObs = now, processCPU()
	}
	if now <= st.deadline {
		return false
	}
	used := processCPU() - st.cpuObs + (st.obs - st.start)
	if used >= st.limit*99/100 {
		return true
	}
	if st.delayObs < 0 {
		// Read once the case outlives its limit in wall time, not at
		// every case's start (the tasks' schedstat is a dozen reads).
		st.delayObs = runDelay()
	}
	if now >= st.hard {
		d := runDelay()
		if d-st.delayObs <= int64(500*time.Microsecond) {
			st.walled = true
			return true
		}
		st.hard += d - st.delayObs
		st.delayObs = d
	}
	st.deadline = min(st.hard, now+st.limit-used)
	return false
}

// runDelay is the time this process's threads have waited for a CPU, in
// nanoseconds (runDelayOf).
func runDelay() int64 { return runDelayOf(os.Getpid()) }

// processCPU is the CPU time of this process in nanoseconds.
func processCPU() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return ts.Nano()
}

// overMemory reports whether the heap holds more than the memory limit
// after a collection.
func (w *worker) overMemory() bool {
	metrics.Read(w.heap)
	if w.heap[0].Value.Kind() != metrics.KindUint64 || w.heap[0].Value.Uint64() <= w.memLimit {
		return false
	}
	runtime.GC()
	metrics.Read(w.heap)
	return w.heap[0].Value.Uint64() > w.memLimit
}

// compile compiles a candidate with probes; a source the probes break is
// compiled without them. The error is the message of a candidate that does
// not compile.
func (w *worker) compile(src []byte, coverage bool) (code *py.Code, probe string, err error) {
	defer func() {
		if r := recover(); r != nil {
			code, probe, err = nil, "", fmt.Errorf("SyntaxError: the compiler failed: %v", r)
		}
	}()
	name := probeName(src)
	w.decor = name + "d"
	src, w.paths = rewriteDecorators(src, w.decor)
	w.fmt = ""
	if s, ok := rewriteFStrings(src, name+"f"); ok {
		src, w.fmt = s, name+"f"
	}
	if ins, ok := instrument(src, name, coverage); ok {
		if code, err := py.Compile(string(ins), w.candFile, py.ExecMode, 0, true); err == nil {
			return code, name, nil
		}
	}
	code, err = py.Compile(string(src), w.candFile, py.ExecMode, 0, true)
	if err != nil {
		return nil, "", errors.New(compileMessage(err))
	}
	return code, "", nil
}

// compileMessage is "SyntaxError: msg (line N)".
func compileMessage(err error) string {
	exc := excOf(err)
	if exc == nil {
		return "SyntaxError: " + err.Error()
	}
	msg := exc.Base.Name + ": " + excMessage(exc)
	if l, ok := exc.Dict["lineno"].(py.Int); ok && l > 0 {
		msg += fmt.Sprintf(" (line %d)", int(l))
	}
	return msg
}

// evaluate runs cases start..end-1 of one candidate, whose range starts
// at first, and reports them. An error means the engine is gone.
func (w *worker) evaluate(flags byte, start, first, end int, src []byte) error {
	if start <= first {
		w.wipe()
	}
	w.recEnd = shmRecords
	w.shm.word(shmEnd).Store(shmRecords)
	var spans []partialSpan
	if flags&runPartial != 0 {
		var err error
		if spans, src, err = readSpans(src); err != nil {
			writeMsg(w.out, msgFatal, []byte(err.Error()))
			return err
		}
	}
	var (
		code    *py.Code
		probe   string
		err     error
		partial bool
	)
	if spans != nil && flags&runCoverage == 0 {
		if w.base == nil {
			w.base = newPartialBase(w.original, w.candFile)
		}
		if code, partial = w.compilePartial(src, spans); partial {
			probe = w.base.name
		}
	}
	if !partial {
		code, probe, err = w.compile(src, flags&runCoverage != 0)
	}
	if err != nil {
		return writeMsg(w.out, msgCompile, []byte(truncUTF8(err.Error(), 2000)))
	}
	w.code = code
	w.calls.reset()
	if w.recursionLimit != recursionLimit {
		w.setRecursionLimit(recursionLimit) // the previous candidate changed it
	}
	cov := flags&runCoverage != 0
	w.pure = !cov && pureCode(code)
	w.guard = w.pure && storesGlobals(code)
	it := w.it
	if it == nil || !it.clean || !w.pure {
		it = w.newInterp()
	}
	it.mod, it.snap = nil, nil
	w.it = it
	var lines int
	if cov {
		lines = strings.Count(string(src), "\n") + 2
	}
	check := flags&runCheck != 0
	// A case starts when the previous one ended, unless something that
	// takes time came in between: one clock reading per case.
	now := nanotime()
	for i := start; i < end; i++ {
		rec, done := w.runCase(it, code, probe, i, lines, check, now)
		recEnd := w.recEnd
		if err := w.publish(rec, cov); err != nil {
			return err
		}
		now = done
		if check || w.recEnd <= recEnd { // checked for limitations, or sent a full area
			now = nanotime()
		}
		if rec.Result.Verdict == fitness.TimeLimitExceeded && flags&runAbandon != 0 {
			for j := i + 1; j < end; j++ {
				r := record{Case: j, Result: fitness.Result{Verdict: fitness.TimeLimitExceeded, Detail: notRun}}
				if cov {
					r.Result.Lines = []int{}
				}
				if err := w.publish(r, cov); err != nil {
					return err
				}
			}
			break
		}
		if it.used {
			it = w.newInterp()
			w.it = it
			now = nanotime()
		}
	}
	w.shm.clearRunning()
	it.clean = w.pure
	it.mod, it.snap = nil, nil
	if mutatesTypes(code) {
		w.types.restore()
	}
	var done [4]byte
	if probe == "" {
		done[0] = 1 // ran without probes
	}
	if partial {
		done[1] = 1 // compiled partially
	}
	return writeMsg(w.out, msgDone, done[:])
}

// publish appends a record to the shared area (sending the area first when
// it is full) and publishes the new end.
func (w *worker) publish(r record, lines bool) error {
	// Encode in place when the record fits (append stays in the area).
	area := w.shm[w.recEnd:w.recEnd:len(w.shm)]
	buf := appendRecord(area, r, lines)
	if len(buf) > 0 && len(area) == 0 && cap(buf) == cap(area) {
		w.recEnd += len(buf)
		w.shm.word(shmEnd).Store(uint64(w.recEnd))
		return nil
	}
	// The area is full: send it, and start again at its beginning.
	if err := writeMsg(w.out, msgChunk, w.shm[shmRecords:w.recEnd]); err != nil {
		return err
	}
	w.recEnd = shmRecords
	w.shm.word(shmEnd).Store(shmRecords)
	if shmRecords+len(buf) > len(w.shm) {
		r.Result.Lines = nil
		buf = appendRecord(nil, r, lines)
	}
	copy(w.shm[w.recEnd:], buf)
	w.recEnd += len(buf)
	w.shm.word(shmEnd).Store(uint64(w.recEnd))
	return nil
}

// wipe empties the working directory but for lib/ before a candidate:
// every candidate starts from the same empty directory (a file one leaves
// must not make another pass, a full directory must not make it fail).
// The cases of one candidate share it, as they would in one process.
func (w *worker) wipe() {
	w.closeFiles()
	ents, err := os.ReadDir(w.workDir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Name() == "lib" {
			continue
		}
		p := filepath.Join(w.workDir, e.Name())
		if os.RemoveAll(p) != nil {
			// A directory made with mode 0 (os.mkdir(d, 0)) cannot be
			// listed by its owner until it gets its modes back.
			filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
				if d != nil && d.IsDir() {
					os.Chmod(q, 0o700)
				}
				return nil
			})
			os.RemoveAll(p)
		}
	}
}

// heartbeat tells the engine, while a worker starts, that it progresses:
// every second that the worker allocated memory (it decodes the suite,
// loads the cases, compiles the test file), a ping (msgPing) names the
// stage it is at. The engine waits as long as it pings (StartQuiet).
type heartbeat struct {
	stage atomic.Pointer[string]
	quit  chan struct{}
	done  chan struct{}
}

func startHeartbeat(out *os.File) *heartbeat {
	hb := &heartbeat{quit: make(chan struct{}), done: make(chan struct{})}
	hb.at("reading the suite")
	go func() {
		defer close(hb.done)
		allocs := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		var last uint64
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-hb.quit:
				return
			case <-tick.C:
			}
			metrics.Read(allocs)
			if now := allocs[0].Value.Uint64(); now != last {
				last = now
				// One write of a few bytes: whole between two messages
				// (the worker sends none until the heartbeat stops).
				writeMsg(out, msgPing, []byte(*hb.stage.Load()))
			}
		}
	}()
	return hb
}

// at names the stage the worker is at (nil: no heartbeat).
func (hb *heartbeat) at(stage string) {
	if hb != nil {
		hb.stage.Store(&stage)
	}
}

// stop stops the heartbeat and waits until it has: no ping follows.
func (hb *heartbeat) stop() {
	close(hb.quit)
	<-hb.done
}
