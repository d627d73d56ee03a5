package serve

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, on a registry of its own
// (several servers in one process, as in tests, do not share them).
type metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec   // endpoint, code
	verdicts   *prometheus.CounterVec   // endpoint, verdict
	evaluation *prometheus.HistogramVec // endpoint
	duration   *prometheus.HistogramVec // endpoint
	busy       prometheus.Gauge
	queue      prometheus.Gauge
	rejected   prometheus.Counter
	starts     prometheus.Counter
}

func newMetrics(instances func() (live, idle int)) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "repair_serve_requests_total",
			Help: "HTTP requests by endpoint and status code.",
		}, []string{"endpoint", "code"}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "repair_serve_verdicts_total",
			Help: "Verdicts of evaluated test cases (ExecEval unit tests, native cases) by endpoint and verdict.",
		}, []string{"endpoint", "verdict"}),
		evaluation: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "repair_serve_evaluation_seconds",
			Help:    "Time to evaluate one candidate on a worker (engine start included when the suite is new), by endpoint.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 14), // 0.5 ms .. ~75 s
		}, []string{"endpoint"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "repair_serve_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer (queueing included), by endpoint.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 14),
		}, []string{"endpoint"}),
		busy: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "repair_serve_busy_workers",
			Help: "Workers evaluating a candidate now.",
		}),
		queue: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "repair_serve_queue_depth",
			Help: "Requests waiting for a worker.",
		}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "repair_serve_rejected_total",
			Help: "Requests answered 503 because every worker was busy and the queue was full.",
		}),
		starts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "repair_serve_engine_starts_total",
			Help: "Engine instances started (one per new suite and extra concurrency).",
		}),
	}
	m.reg.MustRegister(m.requests, m.verdicts, m.evaluation, m.duration, m.busy, m.queue, m.rejected, m.starts,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "repair_serve_engines",
			Help: "Engine instances alive (busy and idle).",
		}, func() float64 { live, _ := instances(); return float64(live) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "repair_serve_engines_idle",
			Help: "Engine instances alive and idle, kept for their suite.",
		}, func() float64 { _, idle := instances(); return float64(idle) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
