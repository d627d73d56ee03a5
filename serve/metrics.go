package serve

import (
	"bufio"
	"fmt"
	"iter"
	"maps"
	"math"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// metrics are the server's metrics in Prometheus's text exposition format
// (version 0.0.4), on a registry of its own (several servers in one
// process, as in tests, do not share them). They are written here rather
// than with the Prometheus client library: its package initialisation
// costs about 3 ms of CPU in every process of the tool, and every sandbox
// shim and gpython worker is one (docs/engines.md, "Start-up").
type metrics struct {
	requests   *counterVec   // endpoint, code
	verdicts   *counterVec   // endpoint, verdict
	evaluation *histogramVec // endpoint
	duration   *histogramVec // endpoint
	busy       *gauge
	queue      *gauge
	rejected   *counter
	starts     *counter
	instances  func() (live, idle int)
	start      time.Time
}

// buckets are the histograms' upper bounds: 0.5 ms to about 75 s, each
// 2.5 times the last.
var buckets = func() []float64 {
	b := make([]float64, 14)
	for i, v := 0, 0.0005; i < len(b); i, v = i+1, v*2.5 {
		b[i] = v
	}
	return b
}()

func newMetrics(instances func() (live, idle int)) *metrics {
	return &metrics{
		requests: &counterVec{name: "repair_serve_requests_total",
			help: "HTTP requests by endpoint and status code.", labels: []string{"endpoint", "code"}},
		verdicts: &counterVec{name: "repair_serve_verdicts_total",
			help: "Verdicts of evaluated test cases (ExecEval unit tests, native cases) by endpoint and verdict.", labels: []string{"endpoint", "verdict"}},
		evaluation: &histogramVec{name: "repair_serve_evaluation_seconds",
			help: "Time to evaluate one candidate on a worker (engine start included when the suite is new), by endpoint.", label: "endpoint"},
		duration: &histogramVec{name: "repair_serve_request_duration_seconds",
			help: "Time from a request's arrival to its answer (queueing included), by endpoint.", label: "endpoint"},
		busy:      &gauge{},
		queue:     &gauge{},
		rejected:  &counter{},
		starts:    &counter{},
		instances: instances,
		start:     time.Now(),
	}
}

func (m *metrics) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		bw := bufio.NewWriter(w)
		m.write(bw)
		bw.Flush()
	})
}

// write writes every metric, each family with its HELP and TYPE lines.
func (m *metrics) write(w *bufio.Writer) {
	m.requests.write(w)
	m.verdicts.write(w)
	m.evaluation.write(w)
	m.duration.write(w)
	live, idle := m.instances()
	single(w, "repair_serve_busy_workers", "gauge", "Workers evaluating a candidate now.", m.busy.get())
	single(w, "repair_serve_queue_depth", "gauge", "Requests waiting for a worker.", m.queue.get())
	single(w, "repair_serve_rejected_total", "counter", "Requests answered 503 because every worker was busy and the queue was full.", m.rejected.get())
	single(w, "repair_serve_engine_starts_total", "counter", "Engine instances started (one per new suite and extra concurrency).", m.starts.get())
	single(w, "repair_serve_engines", "gauge", "Engine instances alive (busy and idle).", float64(live))
	single(w, "repair_serve_engines_idle", "gauge", "Engine instances alive and idle, kept for their suite.", float64(idle))

	// The Go runtime's and the process's own, named as Prometheus's Go
	// client names them.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	single(w, "go_goroutines", "gauge", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	single(w, "go_memstats_alloc_bytes", "gauge", "Number of bytes allocated in heap and currently in use.", float64(ms.HeapAlloc))
	single(w, "go_memstats_sys_bytes", "gauge", "Number of bytes obtained from system.", float64(ms.Sys))
	single(w, "go_gc_cycles_total", "counter", "Number of completed GC cycles.", float64(ms.NumGC))
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		single(w, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", cpu.Seconds())
	}
	if rss, ok := residentBytes(); ok {
		single(w, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", rss)
	}
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		single(w, "process_open_fds", "gauge", "Number of open file descriptors.", float64(len(ents)))
	}
	single(w, "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", float64(m.start.UnixNano())/1e9)
}

// residentBytes is the process's resident set (/proc/self/statm).
func residentBytes() (float64, bool) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		return 0, false
	}
	return pages * float64(os.Getpagesize()), true
}

// single writes a metric without labels.
func single(w *bufio.Writer, name, typ, help string, v float64) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, typ, name, num(v))
}

// num formats a sample value as Prometheus's client does.
func num(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// labelPairs renders names and values as {a="x",b="y"}, names sorted as
// the exposition format's writers sort them, values escaped.
func labelPairs(names, values []string) string {
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	var sb strings.Builder
	sb.WriteByte('{')
	for k, i := range idx {
		if k > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(names[i])
		sb.WriteString(`="`)
		sb.WriteString(labelEscaper.Replace(values[i]))
		sb.WriteByte('"')
	}
	sb.WriteByte('}')
	return sb.String()
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)

// counter and gauge hold one value.
type counter struct {
	mu sync.Mutex
	v  float64
}

func (c *counter) Inc() { c.Add(1) }

func (c *counter) Add(d float64) {
	c.mu.Lock()
	c.v += d
	c.mu.Unlock()
}

func (c *counter) get() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.v
}

type gauge struct{ counter }

func (g *gauge) Set(v float64) {
	g.mu.Lock()
	g.v = v
	g.mu.Unlock()
}

// counterVec is a counter per combination of label values.
type counterVec struct {
	name, help string
	labels     []string
	mu         sync.Mutex
	series     map[string]*counter // by the rendered label pairs
}

func (c *counterVec) WithLabelValues(values ...string) *counter {
	key := labelPairs(c.labels, values)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.series == nil {
		c.series = map[string]*counter{}
	}
	s := c.series[key]
	if s == nil {
		s = &counter{}
		c.series[key] = s
	}
	return s
}

func (c *counterVec) write(w *bufio.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n", c.name, c.help, c.name)
	for k, s := range sortedSeries(&c.mu, c.series) {
		fmt.Fprintf(w, "%s%s %s\n", c.name, k, num(s.get()))
	}
}

// sortedSeries yields a family's series by key, in key order, as they
// are under mu.
func sortedSeries[T any](mu *sync.Mutex, series map[string]*T) iter.Seq2[string, *T] {
	mu.Lock()
	keys := slices.Sorted(maps.Keys(series))
	vals := make([]*T, len(keys))
	for i, k := range keys {
		vals[i] = series[k]
	}
	mu.Unlock()
	return func(yield func(string, *T) bool) {
		for i, k := range keys {
			if !yield(k, vals[i]) {
				return
			}
		}
	}
}

// histogramVec is a histogram (over buckets) per value of one label.
type histogramVec struct {
	name, help, label string
	mu                sync.Mutex
	series            map[string]*histogram // by label value
}

type histogram struct {
	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative
	sum    float64
	count  uint64
}

func (h *histogramVec) WithLabelValues(value string) *histogram {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.series == nil {
		h.series = map[string]*histogram{}
	}
	s := h.series[value]
	if s == nil {
		s = &histogram{counts: make([]uint64, len(buckets))}
		h.series[value] = s
	}
	return s
}

func (h *histogram) Observe(v float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i, _ := slices.BinarySearch(buckets, v); i < len(buckets) {
		h.counts[i]++
	}
	h.sum += v
	h.count++
}

func (h *histogramVec) write(w *bufio.Writer) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", h.name, h.help, h.name)
	for v, s := range sortedSeries(&h.mu, h.series) {
		s.mu.Lock()
		var cum uint64
		for i, le := range buckets {
			cum += s.counts[i]
			fmt.Fprintf(w, "%s_bucket%s %d\n", h.name, labelPairs([]string{h.label, "le"}, []string{v, num(le)}), cum)
		}
		fmt.Fprintf(w, "%s_bucket%s %d\n", h.name, labelPairs([]string{h.label, "le"}, []string{v, "+Inf"}), s.count)
		fmt.Fprintf(w, "%s_sum%s %s\n", h.name, labelPairs([]string{h.label}, []string{v}), num(s.sum))
		fmt.Fprintf(w, "%s_count%s %d\n", h.name, labelPairs([]string{h.label}, []string{v}), s.count)
		s.mu.Unlock()
	}
}
