package experiment

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Stats summarize a sample: its size, median and quartiles (linear
// interpolation between order statistics, Hyndman and Fan's type 7, R's
// default). N == 0 means an empty sample; the others are then NaN.
type Stats struct {
	N              int
	Median, Q1, Q3 float64
}

// Summarize returns the Stats of xs (which it sorts).
func Summarize(xs []float64) Stats {
	if len(xs) == 0 {
		return Stats{Median: math.NaN(), Q1: math.NaN(), Q3: math.NaN()}
	}
	sort.Float64s(xs)
	return Stats{N: len(xs), Median: Quantile(xs, 0.5), Q1: Quantile(xs, 0.25), Q3: Quantile(xs, 0.75)}
}

// Quantile is the q-quantile of the sorted sample xs by linear
// interpolation (type 7).
func Quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}

// z95 is the 0.975 quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval of a proportion of k
// successes in n trials: E. B. Wilson, "Probable inference, the law of
// succession, and statistical inference", JASA 22 (1927); recommended over
// the Wald interval for small n and proportions near 0 or 1 by A. Agresti
// and B. A. Coull, "Approximate is better than 'exact' for interval
// estimation of binomial proportions", The American Statistician 52
// (1998). With n == 0 both bounds are NaN.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	z2 := z95 * z95
	nf := float64(n)
	p := float64(k) / nf
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z95 / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return math.Max(0, center-half), math.Min(1, center+half)
}

// Row is the summary of a group of trials.
type Row struct {
	// Value is the group's value: a parameter's value, a bug's name, a
	// configuration ("population=20 weight_failing=0.1"), or "all".
	Value string
	// Trials counts the finished trials (outcome plausible or none),
	// Plausible those with a plausible patch, Errors the trials that
	// failed (not counted in Trials).
	Trials, Plausible, Errors int
	// Rate is Plausible/Trials and Low, High its 95% Wilson interval.
	Rate, Low, High float64
	// FixSeconds (localization and search time) and FixEvaluations are
	// those of the plausible trials until their first plausible patch;
	// Seconds is the wall time of every finished trial; Edits and Lines
	// are the sizes of the plausible patches.
	FixSeconds, FixEvaluations, Seconds, Edits, Lines Stats
	// fixEvals is the sample behind FixEvaluations, for box plots.
	fixEvals []float64
}

// Table is a summary by one grouping.
type Table struct {
	// By is a parameter name, "bug" or "configuration".
	By   string
	Rows []Row
}

// Report is the summary of a set of results.
type Report struct {
	// Results are the records summarized.
	Results *Results
	// Varied are the parameters with more than one value among the
	// records, in the order of Params.
	Varied []string
	// Bugs, Configs and Seeds count the distinct bugs, configurations
	// (combinations of the varied parameters) and seeds.
	Bugs, Configs, Seeds int
	// All summarizes every trial; Tables group them by each varied
	// parameter, then by bug, then (with two or more varied parameters) by
	// configuration.
	All    Row
	Tables []Table
	// configs are the rows per configuration, for the box plots.
	configs []Row
}

// NewReport summarizes results.
func NewReport(res *Results) *Report {
	rep := &Report{Results: res}
	recs := res.Records
	for _, p := range Params {
		vals := map[string]bool{}
		for i := range recs {
			vals[recs[i].Param(p.Name)] = true
		}
		if len(vals) > 1 {
			rep.Varied = append(rep.Varied, p.Name)
		}
	}
	seeds := map[uint64]bool{}
	for i := range recs {
		seeds[recs[i].Seed] = true
	}
	rep.Seeds = len(seeds)
	rep.All = summarizeRows(recs, func(*Record) string { return "all" }, nil)[0]
	for _, name := range rep.Varied {
		rep.Tables = append(rep.Tables, Table{By: name, Rows: summarizeRows(recs,
			func(r *Record) string { return r.Param(name) }, valueLess(name))})
	}
	bugs := summarizeRows(recs, func(r *Record) string { return r.Bug }, nil)
	rep.Bugs = len(bugs)
	rep.Tables = append(rep.Tables, Table{By: "bug", Rows: bugs})
	rep.configs = summarizeRows(recs, rep.configOf, rep.configLess)
	rep.Configs = len(rep.configs)
	if len(rep.Varied) > 1 {
		rep.Tables = append(rep.Tables, Table{By: "configuration", Rows: rep.configs})
	}
	return rep
}

// configOf is the configuration of a record: its varied parameters.
func (rep *Report) configOf(r *Record) string {
	if len(rep.Varied) == 0 {
		return "all"
	}
	var parts []string
	for _, name := range rep.Varied {
		parts = append(parts, name+"="+r.Param(name))
	}
	return strings.Join(parts, " ")
}

func (rep *Report) configLess(a, b string) bool {
	pa, pb := strings.Split(a, " "), strings.Split(b, " ")
	for i := range min(len(pa), len(pb)) {
		if pa[i] == pb[i] {
			continue
		}
		name, va, _ := strings.Cut(pa[i], "=")
		_, vb, _ := strings.Cut(pb[i], "=")
		return valueLess(name)(va, vb)
	}
	return len(pa) < len(pb)
}

// valueLess orders the values of a parameter: numbers and durations by
// value, the rest as strings.
func valueLess(name string) func(a, b string) bool {
	return func(a, b string) bool {
		fa, ea := numeric(a)
		fb, eb := numeric(b)
		if ea && eb && fa != fb {
			return fa < fb
		}
		return a < b
	}
}

func numeric(s string) (float64, bool) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	if d, err := time.ParseDuration(s); err == nil {
		return d.Seconds(), true
	}
	return 0, false
}

// summarizeRows groups recs by key and summarizes each group, ordered by
// less (nil: by name).
func summarizeRows(recs []Record, key func(*Record) string, less func(a, b string) bool) []Row {
	groups := map[string][]*Record{}
	var order []string
	for i := range recs {
		k := key(&recs[i])
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], &recs[i])
	}
	if less == nil {
		less = func(a, b string) bool { return a < b }
	}
	sort.SliceStable(order, func(i, j int) bool { return less(order[i], order[j]) })
	var rows []Row
	for _, k := range order {
		row := Row{Value: k}
		var fixSec, fixEv, sec, edits, lines []float64
		for _, r := range groups[k] {
			if r.Outcome == Error {
				row.Errors++
				continue
			}
			row.Trials++
			sec = append(sec, r.Seconds)
			if r.Outcome == Plausible {
				row.Plausible++
				fixSec = append(fixSec, r.LocalizeSeconds+r.SearchSeconds)
				fixEv = append(fixEv, float64(r.FirstFixEvaluations))
				edits = append(edits, float64(r.PatchEdits))
				lines = append(lines, float64(r.PatchLines))
			}
		}
		row.Rate = math.NaN()
		if row.Trials > 0 {
			row.Rate = float64(row.Plausible) / float64(row.Trials)
		}
		row.Low, row.High = Wilson(row.Plausible, row.Trials)
		row.fixEvals = append([]float64(nil), fixEv...)
		row.FixSeconds, row.FixEvaluations = Summarize(fixSec), Summarize(fixEv)
		row.Seconds, row.Edits, row.Lines = Summarize(sec), Summarize(edits), Summarize(lines)
		rows = append(rows, row)
	}
	return rows
}

// Markdown writes the report as Markdown tables.
func (rep *Report) Markdown(w io.Writer) error {
	res := rep.Results
	var b strings.Builder
	fmt.Fprintf(&b, "# Experiment report\n\n")
	fmt.Fprintf(&b, "%d trials (%d result lines, %d duplicates dropped): %d bugs, %d configurations, %d seeds.",
		len(res.Records), res.Lines, res.Duplicates, rep.Bugs, rep.Configs, rep.Seeds)
	if len(rep.Varied) > 0 {
		fmt.Fprintf(&b, " Varied: %s.", strings.Join(rep.Varied, ", "))
	}
	b.WriteString("\n\n")
	b.WriteString("Success rate: trials with a plausible patch among the finished trials, with its 95% Wilson score interval " +
		"(Wilson 1927; Agresti and Coull 1998). Time (localization and search, seconds) and evaluations are those " +
		"until the first plausible patch, and the patch size is that of the reduced patch, over the plausible trials: " +
		"median (interquartile range Q1–Q3).\n")
	if rep.All.Errors > 0 {
		fmt.Fprintf(&b, "\n%d trials failed (outcome error) and are left out of the rates; running the plan again retries them.\n", rep.All.Errors)
	}
	writeTable := func(title, col string, rows []Row) {
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		fmt.Fprintf(&b, "| %s | trials | plausible | success rate | 95%% CI | seconds to fix | evaluations to fix | patch edits | patch lines |\n", col)
		b.WriteString("|---|--:|--:|--:|:-:|--:|--:|--:|--:|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s | %s | %s | %s |\n",
				mdEscape(r.Value), r.Trials, r.Plausible, pct(r.Rate), ci(r.Low, r.High),
				medIQR(r.FixSeconds, 3), medIQR(r.FixEvaluations, 0), med(r.Edits), med(r.Lines))
		}
	}
	writeTable("All trials", "scope", []Row{rep.All})
	for _, t := range rep.Tables {
		title := "By " + t.By
		writeTable(title, t.By, t.Rows)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func ci(lo, hi float64) string {
	if math.IsNaN(lo) {
		return "–"
	}
	return fmt.Sprintf("%.1f–%.1f%%", 100*lo, 100*hi)
}

func num(x float64, prec int) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

func medIQR(s Stats, prec int) string {
	if s.N == 0 {
		return "–"
	}
	if s.Median == math.Trunc(s.Median) && s.Q1 == math.Trunc(s.Q1) && s.Q3 == math.Trunc(s.Q3) && prec == 0 {
		return fmt.Sprintf("%.0f (%.0f–%.0f)", s.Median, s.Q1, s.Q3)
	}
	p := max(prec, 1)
	return fmt.Sprintf("%s (%s–%s)", num(s.Median, p), num(s.Q1, p), num(s.Q3, p))
}

func med(s Stats) string {
	if s.N == 0 {
		return "–"
	}
	return strconv.FormatFloat(s.Median, 'g', 4, 64)
}

// CSVHeader are the columns of the CSV report.
var CSVHeader = []string{
	"group", "value", "trials", "plausible", "errors", "success_rate", "ci_low", "ci_high",
	"fix_seconds_median", "fix_seconds_q1", "fix_seconds_q3",
	"fix_evaluations_median", "fix_evaluations_q1", "fix_evaluations_q3",
	"seconds_median", "seconds_q1", "seconds_q3",
	"patch_edits_median", "patch_lines_median",
}

// CSV writes the report as one CSV table: a row for all trials (group
// "all"), then a row per value of each grouping (group: the parameter,
// "bug" or "configuration"). Missing figures are empty.
func (rep *Report) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	write := func(group string, r Row) error {
		return cw.Write([]string{group, r.Value, strconv.Itoa(r.Trials), strconv.Itoa(r.Plausible), strconv.Itoa(r.Errors),
			f(r.Rate), f(r.Low), f(r.High),
			f(r.FixSeconds.Median), f(r.FixSeconds.Q1), f(r.FixSeconds.Q3),
			f(r.FixEvaluations.Median), f(r.FixEvaluations.Q1), f(r.FixEvaluations.Q3),
			f(r.Seconds.Median), f(r.Seconds.Q1), f(r.Seconds.Q3),
			f(r.Edits.Median), f(r.Lines.Median)})
	}
	if err := write("all", rep.All); err != nil {
		return err
	}
	for _, t := range rep.Tables {
		for _, r := range t.Rows {
			if err := write(t.By, r); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
