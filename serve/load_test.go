package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"repair/sandbox/remote"
)

var (
	loadN    = flag.Int("load.n", 400, "requests of TestLoad/mixed (TestLoad/good sends five times as many)")
	loadConc = flag.Int("load.c", 16, "concurrent clients of TestLoad")
)

// loadCase is one request of the load test and what its answer must be.
type loadCase struct {
	class  string // good, unique, hostile, malformed, native
	method string
	path   string
	body   []byte
	status int      // wanted status
	want   []string // wanted exec_outcome (or verdict) per unit test; nil: any
	input  string   // wanted echo of the first unit test's input
}

// loadCases mixes good, hostile and malformed requests, deterministically
// by index. A good request's verdict depends on the request (a source
// that is right or off by one), and "unique" requests echo a nonce, so
// that a response given to the wrong request shows.
func loadCases(n int, goodOnly bool) []loadCase {
	cases := make([]loadCase, n)
	bigBody := `{"language": "Python 3", "source_code": "` + strings.Repeat("#", 100<<10) + `", "unittests": [{"input": "", "output": [""]}]}`
	malformed := []struct {
		method, path, body string
		status             int
	}{
		{"POST", "/api/execute_code", `{"language": "Python 3", "source_code": `, 400},
		{"POST", "/api/execute_code", `{"language": "Python 3", "source_code": 7, "unittests": [{"input": ""}]}`, 400},
		{"POST", "/api/execute_code", `{"language": "Cobol", "source_code": "x", "unittests": [{"input": ""}]}`, 400},
		{"POST", "/api/execute_code", `{"language": "Python 3", "source_code": "x", "unittests": [{"inptu": ""}]}`, 400},
		{"POST", "/api/execute_code", `[]`, 400},
		{"POST", "/api/execute_code", ``, 400},
		{"POST", "/api/execute_code", bigBody, 413},
		{"GET", "/api/execute_code", ``, 405},
		{"POST", "/api/v1/evaluate", `{"suite_id": "nope", "source": "x"}`, 404},
		{"POST", "/api/v1/evaluate", `{"suite": {"module": "1x", "memory_mb": 1, "cases": []}, "source": "x"}`, 400},
		{"DELETE", "/healthz", ``, 405},
		{"GET", "/api/../etc/passwd", ``, 404},
	}
	hostile := []string{
		"while True: pass",
		"x = bytearray(10**11)",
		"import os\nwhile True:\n    os.fork()",
		"while True: print('y' * 10000)",
		"import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nprint(2)",
	}
	native := func(src string) []byte {
		b, _ := json.Marshal(map[string]any{
			"suite": json.RawMessage(`{"module": "m", "memory_mb": 256, "cases": [` +
				`{"name": "a", "kind": "call", "function": "f", "args": [3], "expected": 6, "weight": 1, "timeout": 1, "tolerance": 1e-9},` +
				`{"name": "b", "kind": "io", "stdin": "4\n", "stdout": "8\n", "weight": 1, "timeout": 1, "tolerance": 1e-9}]}`),
			"source": src,
		})
		return b
	}
	for i := range cases {
		c := &cases[i]
		c.method, c.path, c.status = "POST", "/api/execute_code", 200
		k := i % 20
		if goodOnly {
			k = []int{0, 19}[i%10/9] // 90% ExecEval, 10% native, on suites that repeat // 80% shared suites, 10% unique, 10% native
		}
		switch {
		case k < 10:
			c.class = "good"
			off := 0
			if i%3 == 0 {
				off = 1
			}
			c.body = []byte(execRequestJSON(fmt.Sprintf("print(int(input()) * 2 + %d)", off), 1, false, [2]string{"7\n", "14"}, [2]string{"8\n", "16"}))
			c.want, c.input = []string{"PASSED", "PASSED"}, "7\n"
			if off == 1 {
				c.want = []string{"WRONG_ANSWER", "WRONG_ANSWER"}
			}
		case k < 14:
			c.class = "unique"
			c.body = []byte(execRequestJSON("print(int(input()) * 2)", 1, true, [2]string{fmt.Sprint(i), fmt.Sprint(2 * i)}))
			c.want, c.input = []string{"PASSED"}, fmt.Sprint(i)
		case k < 16:
			c.class = "hostile"
			c.body = []byte(execRequestJSON(hostile[(i/20*2+k-14)%len(hostile)], 0.1, true, [2]string{"h", "1"}))
			c.input = "h"
		case k < 19:
			c.class = "malformed"
			m := malformed[(i/20*3+k-16)%len(malformed)]
			c.method, c.path, c.body, c.status = m.method, m.path, []byte(m.body), m.status
		default:
			c.class, c.path = "native", remote.EvaluatePath
			if i%40 == 19 {
				c.body = native("def f(x):\n    return 2 * x\nif __name__ == '__main__':\n    print(f(int(input())))\n")
				c.want = []string{"PASSED", "PASSED"}
			} else {
				c.body = native("def f(x):\n    return x + 3\nif __name__ == '__main__':\n    print(f(int(input())))\n")
				c.want = []string{"PASSED", "WRONG_ANSWER"}
			}
		}
	}
	return cases
}

// check compares an answer with what the case wants.
func (c *loadCase) check(status int, body []byte) error {
	if status != c.status {
		return fmt.Errorf("status %d, want %d: %.200s", status, c.status, body)
	}
	if status >= 400 {
		var e remote.ErrorResponse
		if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
			return fmt.Errorf("a %d answer is not a JSON error: %.200s", status, body)
		}
		return nil
	}
	var got []string
	if c.class == "native" {
		var r remote.EvaluateResponse
		if err := json.Unmarshal(body, &r); err != nil || r.Outcome == nil {
			return fmt.Errorf("bad answer %v: %.200s", err, body)
		}
		for _, res := range r.Outcome.Results {
			got = append(got, res.Verdict.String())
		}
	} else {
		var r ExecResponse
		if err := json.Unmarshal(body, &r); err != nil || len(r.Data) == 0 {
			return fmt.Errorf("bad answer %v: %.200s", err, body)
		}
		if r.Data[0].Input != c.input {
			return fmt.Errorf("answer for input %q, want %q (mixed up)", r.Data[0].Input, c.input)
		}
		for _, ut := range r.Data {
			if ut.ExecOutcome != nil {
				got = append(got, *ut.ExecOutcome)
			}
		}
		if c.class == "hostile" && (len(got) != 1 || got[0] == "PASSED") {
			return fmt.Errorf("hostile program got %v", got)
		}
	}
	if c.want != nil && !slices.Equal(got, c.want) {
		return fmt.Errorf("verdicts %v, want %v", got, c.want)
	}
	return nil
}

// TestLoad serves a fixed number of requests from many concurrent
// clients over loopback HTTP, then shuts down: every answer must be the
// right one (no lost or mixed-up responses, every malformed request a 4xx
// with a JSON error), and afterwards the goroutines, the heap, the child
// processes and the temporary directories are back to where they were.
// It reports requests/s and latency percentiles. "mixed" mixes good,
// hostile (each holds a worker until its time limit) and malformed
// requests, and programs of new suites (each costs an engine start);
// "good" sends only good requests on suites that repeat (as pass@k
// samples of a problem or a repair's candidates do), for throughput. Bounded:
// -load.n requests (400; five times as many for "good"), -load.c
// clients (16), 2 minutes at most each.
//
//	go test ./serve -run TestLoad -v -load.n 1000 -load.c 32
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	t.Run("mixed", func(t *testing.T) { runLoad(t, loadCases(*loadN, false)) })
	t.Run("good", func(t *testing.T) { runLoad(t, loadCases(5**loadN, true)) })
}

func runLoad(t *testing.T, cases []loadCase) {
	tmpBefore := tempDirs(t)
	goBefore, heapBefore := settle()
	childrenBefore := children()

	s := newRealServer(t, Options{Workers: 2, Queue: 4 * *loadConc, MaxBody: 64 << 10, Version: "load"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srvCtx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- Serve(srvCtx, ln, s, time.Minute) }()

	tr := &http.Transport{MaxIdleConnsPerHost: *loadConc}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	type result struct {
		dur time.Duration
		err error
	}
	results := make([]result, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range *loadConc {
		wg.Go(func() {
			for i := range next {
				c := &cases[i]
				t0 := time.Now()
				req, _ := http.NewRequestWithContext(ctx, c.method, url+c.path, bytes.NewReader(c.body))
				resp, err := client.Do(req)
				if err != nil {
					results[i] = result{time.Since(t0), err}
					continue
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err == nil {
					err = c.check(resp.StatusCode, body)
				}
				results[i] = result{time.Since(t0), err}
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)

	byClass := map[string][]time.Duration{}
	var all []time.Duration
	failed := 0
	for i, r := range results {
		if r.err != nil {
			failed++
			if failed <= 10 {
				t.Errorf("request %d (%s %s %s): %v", i, cases[i].class, cases[i].method, cases[i].path, r.err)
			}
		}
		all = append(all, r.dur)
		byClass[cases[i].class] = append(byClass[cases[i].class], r.dur)
	}
	if failed > 0 {
		t.Errorf("%d of %d requests got a wrong answer", failed, len(cases))
	}
	t.Logf("%d requests, %d clients, %d workers: %.0f requests/s, p50 %s, p99 %s",
		len(cases), *loadConc, s.Workers(), float64(len(cases))/elapsed.Seconds(), pct(all, 50), pct(all, 99))
	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	slices.Sort(classes)
	for _, c := range classes {
		d := byClass[c]
		t.Logf("  %-9s %4d requests: p50 %s, p99 %s", c, len(d), pct(d, 50), pct(d, 99))
	}
	live, idle := s.pool.stats()
	t.Logf("engine instances: %d alive (%d idle) at the end", live, idle)

	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	tr.CloseIdleConnections()
	goAfter, heapAfter := settleTo(goBefore)
	t.Logf("goroutines %d → %d, heap %.1f → %.1f MiB", goBefore, goAfter, mib(heapBefore), mib(heapAfter))
	if goAfter > goBefore {
		t.Errorf("goroutines: %d after, %d before", goAfter, goBefore)
	}
	if heapAfter > heapBefore+16<<20 {
		t.Errorf("heap: %.1f MiB after, %.1f MiB before", mib(heapAfter), mib(heapBefore))
	}
	if got := children(); got > childrenBefore {
		t.Errorf("%d child processes left (%d before)", got, childrenBefore)
	}
	if got := tempDirs(t); got > tmpBefore {
		t.Errorf("%d repair-serve-* directories left in %s (%d before)", got, os.TempDir(), tmpBefore)
	}
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, (len(s)*p+99)/100-1)].Round(100 * time.Microsecond)
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func settle() (goroutines int, heap uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapAlloc
}

// settleTo waits (up to 10 s) for the goroutines to drop to want, then
// measures.
func settleTo(want int) (goroutines int, heap uint64) {
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return settle()
}

// children counts this process's child processes.
func children() int {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	n := 0
	for _, f := range tasks {
		data, _ := os.ReadFile(f)
		n += len(strings.Fields(string(data)))
	}
	return n
}

func tempDirs(t *testing.T) int {
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "repair-serve-*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}
