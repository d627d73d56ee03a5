package serve

import (
	"bufio"
	"strings"
	"testing"
)

// TestMetricsExposition: the text a scraper reads — families with HELP and
// TYPE, label pairs sorted by name and escaped, cumulative histogram
// buckets with +Inf, _sum and _count, the process's own metrics.
func TestMetricsExposition(t *testing.T) {
	m := newMetrics(func() (int, int) { return 3, 1 })
	m.requests.WithLabelValues("execute_code", "200").Inc()
	m.requests.WithLabelValues("execute_code", "200").Inc()
	m.requests.WithLabelValues("evaluate", "503").Inc()
	m.verdicts.WithLabelValues("evaluate", "say \"hi\"\n\\").Inc()
	m.evaluation.WithLabelValues("evaluate").Observe(0.001)
	m.evaluation.WithLabelValues("evaluate").Observe(100)
	m.busy.Set(2)
	m.rejected.Inc()
	var sb strings.Builder
	w := bufio.NewWriter(&sb)
	m.write(w)
	w.Flush()
	out := sb.String()
	for _, want := range []string{
		"# HELP repair_serve_requests_total HTTP requests by endpoint and status code.\n# TYPE repair_serve_requests_total counter\n" +
			`repair_serve_requests_total{code="200",endpoint="execute_code"} 2` + "\n" +
			`repair_serve_requests_total{code="503",endpoint="evaluate"} 1` + "\n",
		`repair_serve_verdicts_total{endpoint="evaluate",verdict="say \"hi\"\n\\"} 1`,
		"# TYPE repair_serve_evaluation_seconds histogram\n",
		`repair_serve_evaluation_seconds_bucket{endpoint="evaluate",le="0.0005"} 0` + "\n" +
			`repair_serve_evaluation_seconds_bucket{endpoint="evaluate",le="0.00125"} 1` + "\n",
		`repair_serve_evaluation_seconds_bucket{endpoint="evaluate",le="74.50580596923828"} 1` + "\n" +
			`repair_serve_evaluation_seconds_bucket{endpoint="evaluate",le="+Inf"} 2` + "\n" +
			`repair_serve_evaluation_seconds_sum{endpoint="evaluate"} 100.001` + "\n" +
			`repair_serve_evaluation_seconds_count{endpoint="evaluate"} 2` + "\n",
		"repair_serve_busy_workers 2\n",
		"repair_serve_rejected_total 1\n",
		"repair_serve_engines 3\n",
		"repair_serve_engines_idle 1\n",
		"# TYPE go_goroutines gauge\ngo_goroutines ",
		"# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("exposition lacks %q:\n%s", want, out)
		}
	}
}
