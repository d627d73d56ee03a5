package cpython

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// BenchmarkEvaluate measures candidate evaluations per second on
// examples/middle (one small candidate, 200 cases), with 1 and 2 workers
// each driven by its own goroutine.
func BenchmarkEvaluate(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		workers int
		fork    bool // a fresh fork for every candidate (no reuse of pure ones)
	}{{1, false}, {2, false}, {1, true}, {2, true}} {
		name := fmt.Sprintf("workers=%d", bc.workers)
		if bc.fork {
			name += "/fork-per-candidate"
		}
		workers := bc.workers
		b.Run(name, func(b *testing.B) {
			e := newTestEngine(b, sandbox.Options{Suite: suite, Target: target, Workers: workers}, config{noReuse: bc.fork})
			ctx := context.Background()
			// Warm up: the first fork of a server touches more pages.
			if _, err := e.Run(ctx, src, sandbox.RunOptions{}); err != nil {
				b.Fatal(err)
			}
			evals := 0
			cpu0 := engineCPU(e)
			start := time.Now()
			for b.Loop() {
				var wg sync.WaitGroup
				errs := make([]error, workers)
				for w := 0; w < workers; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						out, err := e.Run(ctx, src, sandbox.RunOptions{})
						if err == nil && len(out.Results) != len(suite.Cases) {
							err = fmt.Errorf("%d results", len(out.Results))
						}
						errs[w] = err
					}()
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				evals += workers
			}
			b.ReportMetric(float64(evals)/time.Since(start).Seconds(), "evals/s")
			b.ReportMetric((engineCPU(e)-cpu0).Seconds()*1e6/float64(evals), "cpu-µs/eval")
		})
	}
}

// engineCPU is the CPU time used so far by this process and every server
// of e with its manager and reaped children. It is what bounds the rate on
// a busy machine, where wall-clock rates mostly measure the other load.
func engineCPU(e *Engine) time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	total := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	ticks := 0
	for _, pid := range serverPIDs(e) {
		ticks += statTicks(pid, true)
		for _, k := range descendants(pid) {
			ticks += statTicks(k, false)
		}
	}
	return total + time.Duration(ticks)*time.Second/100 // USER_HZ
}

// statTicks reads utime+stime (and cutime+cstime) of /proc/PID/stat.
func statTicks(pid int, children bool) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 15 {
		return 0
	}
	n := 0
	last := 12
	if children {
		last = 14
	}
	for _, x := range f[11 : last+1] {
		v, _ := strconv.Atoi(x)
		n += v
	}
	return n
}

// BenchmarkRoundTrip measures one candidate with a single trivial case:
// the cost of a request, a fork, an exit and the answer ("fork"), or of a
// request to the child kept by the previous pure candidate ("reused").
func BenchmarkRoundTrip(b *testing.B) {
	target, _ := middleSuite(b)
	suite := &fitness.Suite{MemoryMB: 512, Cases: []fitness.Case{{
		Kind: fitness.Call, Function: "f", Args: []byte("[]"), Expected: []byte("1"), Weight: 1, Timeout: 2,
	}}}
	for _, fork := range []bool{true, false} {
		name := "reused"
		if fork {
			name = "fork"
		}
		b.Run(name, func(b *testing.B) {
			e := newTestEngine(b, sandbox.Options{Suite: suite, Target: target, Workers: 1}, config{noReuse: fork})
			src := []byte("def f():\n    return 1\n")
			ctx := context.Background()
			cpu0 := engineCPU(e)
			n := 0
			for b.Loop() {
				out, err := e.Run(ctx, src, sandbox.RunOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if out.Results[0].Verdict != fitness.Passed {
					b.Fatal(out.Results[0])
				}
				n++
			}
			b.ReportMetric((engineCPU(e)-cpu0).Seconds()*1e6/float64(n), "cpu-µs/op")
		})
	}
}

// BenchmarkPoolStartup measures New (interpreter already resolved) with
// two workers, up to every server being ready, and Close.
func BenchmarkPoolStartup(b *testing.B) {
	target, suite := middleSuite(b)
	py := python(b)
	ctx := context.Background()
	for b.Loop() {
		e, err := New(ctx, sandbox.Options{Suite: suite, Target: target, Workers: 2, Python: py.Path})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.Close()
		b.StartTimer()
	}
}

// BenchmarkEvaluatePytest measures candidate evaluations per second of a
// pytest test file (examples/stack: 8 tests, 2 of them failing) under the
// real pytest, one worker.
func BenchmarkEvaluatePytest(b *testing.B) {
	py := realPytest(b)
	const dir = "../../examples/stack"
	suite, err := fitness.Load(dir + "/test_stack.py")
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(dir + "/stack.py")
	if err != nil {
		b.Fatal(err)
	}
	e := newTestEngine(b, sandbox.Options{Suite: suite, Target: dir + "/stack.py", Python: py.Path, Workers: 1}, config{})
	ctx := context.Background()
	// A candidate of the search: one token of pop, with what it changes
	// (the harness runs it on the items it collected once, its code put
	// into the original's functions).
	p, err := program.Parse("stack.py", src)
	if err != nil {
		b.Fatal(err)
	}
	var pt program.Patch
	for i, s := range p.Sites {
		if p.FirstLine(s.Stmt) == "return self.items.pop(0)" && p.SiteText(i) == "0" {
			pt = program.Patch{{Op: program.ReplaceText, Site: i, Text: "-1"}}
		}
	}
	cand, ch := p.RenderChange(pt)
	// The tests that reached the changed statement, as the search selects
	// them from the original's coverage.
	orig, err := e.Run(ctx, src, sandbox.RunOptions{Coverage: true})
	if err != nil {
		b.Fatal(err)
	}
	sel := reaching(orig, p.Stmts[ch.Reach[0]].Line)
	for _, bc := range []struct {
		name string
		src  []byte
		opts sandbox.RunOptions
		lifo fitness.Verdict // test_pop_is_lifo's verdict
	}{
		{"whole", src, sandbox.RunOptions{}, fitness.WrongAnswer},
		{"partial", cand, sandbox.RunOptions{Change: &ch}, fitness.Passed},
		{"selected", cand, sandbox.RunOptions{Change: &ch, Select: sel}, fitness.Passed},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := e.Run(ctx, bc.src, bc.opts); err != nil {
				b.Fatal(err)
			}
			evals := 0
			st := e.Stats()
			cpu0 := engineCPU(e)
			start := time.Now()
			for b.Loop() {
				out, err := e.Run(ctx, bc.src, bc.opts)
				if err != nil {
					b.Fatal(err)
				}
				if out.Results[5].Verdict != bc.lifo {
					b.Fatalf("test_pop_is_lifo: %v %s %s", out.Results[5].Verdict, out.Results[5].Detail, out.CompileError)
				}
				evals++
			}
			b.ReportMetric(float64(evals)/time.Since(start).Seconds(), "evals/s")
			b.ReportMetric((engineCPU(e)-cpu0).Seconds()*1e6/float64(evals), "cpu-µs/eval")
			b.ReportMetric(float64(e.Stats().Reused-st.Reused)/float64(evals), "reused")
		})
	}
	if e.Stats().Selected == 0 {
		b.Errorf("no candidate ran with a selection")
	}
}

// BenchmarkCaseCost isolates what one more case costs: a candidate runs
// on a suite of 5,000 trivial call cases and on one of 50, alternately,
// and the difference of their CPU times, over the 4,950 cases between
// them, is the cost of a case, in the tool (go-ns/case: the decoder and
// the judge) and in the server (py-ns/case: the harness's case loop, the
// call itself and the record). "pure" runs in a kept child (the loop for
// pure candidates), "fork" in a fresh fork per candidate (the general
// loop).
func BenchmarkCaseCost(b *testing.B) {
	const small, large = 50, 5000
	suite := func(n int) *fitness.Suite {
		s := &fitness.Suite{MemoryMB: 512}
		for i := range n {
			v := []byte(strconv.Itoa(i))
			s.Cases = append(s.Cases, fitness.Case{
				Kind: fitness.Call, Function: "f", Args: append(append([]byte("["), v...), ']'), Expected: v,
				Weight: 1, Timeout: 2, Tolerance: 1e-9,
			})
		}
		return s
	}
	src := []byte("def f(x):\n    return x\n")
	for _, fork := range []bool{false, true} {
		name := "pure"
		if fork {
			name = "fork"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			var engines [2]*Engine
			for k, n := range []int{small, large} {
				engines[k] = newTestEngine(b, sandbox.Options{Suite: suite(n), Target: target(b, "cand.py", nil), Workers: 1},
					config{noReuse: fork})
				if _, err := engines[k].Run(ctx, src, sandbox.RunOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			var goCPU, pyCPU [2]time.Duration
			var py0 [2]time.Duration
			for k, e := range engines {
				py0[k] = serverCPU(e)
			}
			evals := 0
			for b.Loop() {
				for k, e := range engines {
					t0 := selfCPU()
					out, err := e.Run(ctx, src, sandbox.RunOptions{})
					goCPU[k] += selfCPU() - t0
					if err != nil {
						b.Fatal(err)
					}
					if out.Results[len(out.Results)-1].Verdict != fitness.Passed {
						b.Fatal(out.Results[len(out.Results)-1])
					}
				}
				evals++
			}
			for k, e := range engines {
				pyCPU[k] = serverCPU(e) - py0[k]
			}
			per := func(d [2]time.Duration) float64 {
				return float64(d[1]-d[0]) / float64(evals) / (large - small)
			}
			b.ReportMetric(per(goCPU), "go-ns/case")
			b.ReportMetric(per(pyCPU), "py-ns/case")
		})
	}
}

// selfCPU is the CPU time this process used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serverCPU is the CPU time used so far by e's servers, their managers
// and their children, reaped or not.
func serverCPU(e *Engine) time.Duration {
	ticks := 0
	for _, pid := range serverPIDs(e) {
		ticks += statTicks(pid, true)
		for _, k := range descendants(pid) {
			ticks += statTicks(k, false)
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// BenchmarkDecodeRecords measures the tool's side of a case alone:
// decoding and judging the records of 5,000 call cases that returned an
// int, as the same observation as last time (memo) or a new one.
func BenchmarkDecodeRecords(b *testing.B) {
	const n = 5000
	var cases []fitness.Case
	for i := range n {
		v := []byte(strconv.Itoa(i))
		cases = append(cases, fitness.Case{Kind: fitness.Call, Function: "f", Expected: v, Weight: 1, Timeout: 2})
	}
	checks, err := fitness.NewChecks(cases, 0)
	if err != nil {
		b.Fatal(err)
	}
	records := func(delta int64) []byte {
		var p []byte
		for i := range n {
			p = binary.LittleEndian.AppendUint32(p, uint32(i))
			p = append(p, fitness.StatusReturned, 0)
			p = binary.LittleEndian.AppendUint64(p, math.Float64bits(1e-6))
			p = append(p, 'i')
			p = binary.LittleEndian.AppendUint64(p, uint64(int64(i)+delta))
			p = append(p, 0)
		}
		return p
	}
	same, other := records(0), records(1)
	for _, memo := range []bool{true, false} {
		name := "new"
		if memo {
			name = "memo"
		}
		b.Run(name, func(b *testing.B) {
			m := fitness.NewMemo(n)
			results := make([]fitness.Result, n)
			got := make([]bool, n)
			k := 0
			for b.Loop() {
				p := same
				if !memo && k%2 == 1 {
					p = other
				}
				k++
				if err := decodeRecords(p, checks, m, results, got, false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(k*n), "ns/case")
		})
	}
}

// plainForkServer is the yardstick of a fresh fork (issue 27): a fork
// server in 30 lines of Python, without a sandbox, deadlines or a
// harness. Per request (a u32 length and a candidate's source) it forks
// a child that compiles the source, imports it once, calls the function
// on every case's arguments and writes the reprs of the results to a
// pipe; the server reads them, waits for the child and answers with them.
const plainForkServer = `
import json, os, struct, sys
cases = json.loads(sys.argv[1])
fn = sys.argv[2]
def read(n):
    b = b""
    while len(b) < n:
        x = os.read(0, n - len(b))
        if not x:
            sys.exit(0)
        b += x
    return b
while True:
    src = read(struct.unpack("<I", read(4))[0])
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        d = {"__name__": "cand"}
        exec(compile(src, "cand.py", "exec"), d)
        f = d[fn]
        out = "\n".join(repr(f(*a)) for a in cases).encode()
        os.write(w, out)
        os._exit(0)
    os.close(w)
    out = b""
    while True:
        x = os.read(r, 1 << 16)
        if not x:
            break
        out += x
    os.close(r)
    os.waitpid(pid, 0)
    os.write(1, struct.pack("<I", len(out)) + out)
`

// BenchmarkPlainForkServer measures plainForkServer on examples/middle
// (200 cases), with the CPU time of this process, the server and its
// children per candidate: compare cpu-µs/eval with BenchmarkEvaluate's
// fork-per-candidate.
func BenchmarkPlainForkServer(b *testing.B) {
	target, suite := middleSuite(b)
	src, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	var args []json.RawMessage
	for _, c := range suite.Cases {
		args = append(args, c.Args)
	}
	argv, err := json.Marshal(args)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(python(b).Path, "-S", "-c", plainForkServer, string(argv), suite.Function)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		in.Close()
		cmd.Wait()
	}()
	req := binary.LittleEndian.AppendUint32(nil, uint32(len(src)))
	req = append(req, src...)
	run := func() {
		if _, err := in.Write(req); err != nil {
			b.Fatal(err)
		}
		var n [4]byte
		if _, err := io.ReadFull(out, n[:]); err != nil {
			b.Fatal(err)
		}
		res := make([]byte, binary.LittleEndian.Uint32(n[:]))
		if _, err := io.ReadFull(out, res); err != nil {
			b.Fatal(err)
		}
		if k := bytes.Count(res, []byte("\n")) + 1; k != len(suite.Cases) {
			b.Fatalf("%d results", k)
		}
	}
	run() // warm up
	cpu := func() time.Duration {
		return selfCPU() + time.Duration(statTicks(cmd.Process.Pid, true))*time.Second/100
	}
	cpu0 := cpu()
	n := 0
	for b.Loop() {
		run()
		n++
	}
	b.ReportMetric((cpu()-cpu0).Seconds()*1e6/float64(n), "cpu-µs/eval")
}
