package experiment

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestWilson(t *testing.T) {
	// Reference values: R's binom::binom.confint(k, n, method = "wilson")
	// and Agresti and Coull (1998), table 1.
	tests := []struct {
		k, n     int
		lo, hi   float64
		nanBound bool
	}{
		{0, 10, 0, 0.2775328, false},
		{5, 10, 0.2365931, 0.7634069, false},
		{10, 10, 0.7224672, 1, false},
		{8, 12, 0.3906221, 0.8618799, false},
		{1, 1, 0.2065493, 1, false},
		{0, 0, 0, 0, true},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.k, tt.n)
		if tt.nanBound {
			if !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Errorf("Wilson(%d, %d) = %v, %v; want NaN", tt.k, tt.n, lo, hi)
			}
			continue
		}
		if math.Abs(lo-tt.lo) > 1e-6 || math.Abs(hi-tt.hi) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = %.7f, %.7f; want %.7f, %.7f", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		xs   []float64
		want Stats
	}{
		{[]float64{4, 1, 3, 2}, Stats{N: 4, Median: 2.5, Q1: 1.75, Q3: 3.25}},
		{[]float64{7}, Stats{N: 1, Median: 7, Q1: 7, Q3: 7}},
		{[]float64{10, 20, 30, 40, 50}, Stats{N: 5, Median: 30, Q1: 20, Q3: 40}},
		{[]float64{1, 2, 3, 4, 5, 6}, Stats{N: 6, Median: 3.5, Q1: 2.25, Q3: 4.75}},
	}
	for _, tt := range tests {
		if got := Summarize(append([]float64(nil), tt.xs...)); got != tt.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", tt.xs, got, tt.want)
		}
	}
	if s := Summarize(nil); s.N != 0 || !math.IsNaN(s.Median) {
		t.Errorf("Summarize(nil) = %+v", s)
	}
}

// record is a synthetic result line.
func record(id, bug string, pop, seed int, outcome string, evals int) Record {
	r := Record{
		ID: id, Bug: bug, Seed: uint64(seed), Outcome: outcome, Seconds: float64(evals) / 100,
		Parameters:         map[string]any{"population": float64(pop), "weight_failing": 0.01, "operators": "default"},
		FirstFixGeneration: -1,
	}
	if outcome == Plausible {
		r.FirstFixEvaluations, r.SearchSeconds, r.PatchEdits, r.PatchLines, r.FirstFixGeneration = evals, float64(evals)/100, 1, 2, 0
	}
	if outcome == Error {
		r.Error = "the sandbox broke"
	}
	return r
}

func writeLines(t *testing.T, path string, recs []Record, tail string) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	b.WriteString(tail)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadResults(t *testing.T) {
	dir := t.TempDir()
	a := []Record{
		record("01", "x", 10, 1, Plausible, 10),
		record("02", "x", 10, 2, Error, 0),
		record("03", "y", 20, 1, None, 100),
	}
	b := []Record{
		record("02", "x", 10, 2, None, 100),      // a retry of the failed trial wins
		record("01", "x", 10, 1, Plausible, 999), // a duplicate: the first line wins
	}
	writeLines(t, filepath.Join(dir, "results-1-of-2.jsonl"), a, `{"id": "04", "outc`)
	writeLines(t, filepath.Join(dir, "results-2-of-2.jsonl"), b, "")
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not results"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := ReadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Records {
		got = append(got, r.ID+" "+r.Outcome)
	}
	if diff := cmp.Diff([]string{"01 plausible", "02 none", "03 none"}, got); diff != "" {
		t.Fatalf("records mismatch (-want +got):\n%s", diff)
	}
	if res.Records[0].FirstFixEvaluations != 10 {
		t.Errorf("duplicate replaced the first line: %+v", res.Records[0])
	}
	if res.Lines != 5 || res.Duplicates != 2 || len(res.Torn) != 1 {
		t.Errorf("lines %d, duplicates %d, torn %v; want 5, 2, one file", res.Lines, res.Duplicates, res.Torn)
	}

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"id\": \"01\", \"outcome\": \"none\"}\nnot json\n"), 0o644)
	if _, err := ReadResults(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":2: not a result line") {
		t.Errorf("malformed line: %v", err)
	}
	os.WriteFile(bad, []byte("{\"id\": \"01\", \"outcome\": \"maybe\"}\n"), 0o644)
	if _, err := ReadResults(bad); err == nil || err.Error() != bad+`:1: unknown outcome "maybe"` {
		t.Errorf("bad outcome: %v", err)
	}
}

// TestReportHandCount checks the report's figures against counts made by
// hand on a small set of records.
func TestReportHandCount(t *testing.T) {
	recs := []Record{
		record("01", "x", 10, 1, Plausible, 10),
		record("02", "x", 10, 2, Plausible, 30),
		record("03", "x", 20, 1, None, 200),
		record("04", "x", 20, 2, Plausible, 20),
		record("05", "y", 10, 1, None, 200),
		record("06", "y", 10, 2, Error, 0),
		record("07", "y", 20, 1, Plausible, 40),
		record("08", "y", 20, 2, Plausible, 60),
	}
	rep := NewReport(&Results{Records: recs, Lines: len(recs)})
	if diff := cmp.Diff([]string{"population"}, rep.Varied); diff != "" {
		t.Errorf("varied mismatch (-want +got):\n%s", diff)
	}
	type fig struct {
		Value                     string
		Trials, Plausible, Errors int
		Rate                      float64
		EvalMedian                float64
	}
	figs := func(rows []Row) []fig {
		var out []fig
		for _, r := range rows {
			out = append(out, fig{r.Value, r.Trials, r.Plausible, r.Errors, r.Rate, r.FixEvaluations.Median})
		}
		return out
	}
	want := map[string][]fig{
		"all":        {{"all", 7, 5, 1, 5.0 / 7, 30}},
		"population": {{"10", 3, 2, 1, 2.0 / 3, 20}, {"20", 4, 3, 0, 3.0 / 4, 40}},
		"bug":        {{"x", 4, 3, 0, 3.0 / 4, 20}, {"y", 3, 2, 1, 2.0 / 3, 50}},
	}
	got := map[string][]fig{"all": figs([]Row{rep.All})}
	for _, tab := range rep.Tables {
		got[tab.By] = figs(tab.Rows)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("figures mismatch (-want +got):\n%s", diff)
	}
	lo, hi := Wilson(5, 7)
	if rep.All.Low != lo || rep.All.High != hi {
		t.Errorf("interval %v–%v, want %v–%v", rep.All.Low, rep.All.High, lo, hi)
	}

	var md bytes.Buffer
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"| all | 7 | 5 | 71.4% | 35.9–91.8% | 0.300 (0.200–0.400) | 30 (20–40) | 1 | 2 |",
		"| 10 | 3 | 2 | 66.7% | 20.8–93.9% | 0.200 (0.150–0.250) | 20 (15–25) | 1 | 2 |",
		"| y | 3 | 2 | 66.7% | 20.8–93.9% | 0.500 (0.450–0.550) | 50 (45–55) | 1 | 2 |",
		"1 trials failed (outcome error)",
	} {
		if !strings.Contains(md.String(), line) {
			t.Errorf("Markdown lacks %q:\n%s", line, md.String())
		}
	}
	var csv bytes.Buffer
	if err := rep.CSV(&csv); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if len(lines) != 1+1+2+2 {
		t.Errorf("CSV has %d lines, want header, all, 2 populations, 2 bugs:\n%s", len(lines), csv.String())
	}
	if want := "population,20,4,3,0,0.75,"; !strings.HasPrefix(lines[3], want) {
		t.Errorf("CSV line %q, want prefix %q", lines[3], want)
	}
}

func TestPlots(t *testing.T) {
	recs := []Record{
		record("01", "x", 10, 1, Plausible, 10),
		record("02", "x", 10, 2, Plausible, 30),
		record("03", "x", 20, 1, None, 200),
		record("04", "y", 20, 2, Plausible, 2000),
		record("05", "y", 10, 1, None, 200),
	}
	dir := filepath.Join(t.TempDir(), "plots")
	files, err := NewReport(&Results{Records: recs}).Plots(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"success-population.png", "success-population.svg", "success-bug.png", "success-bug.svg",
		"evaluations-to-fix.png", "evaluations-to-fix.svg"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".png":
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 200 {
				t.Errorf("%s: %v is too small", f, b)
			}
		case ".svg":
			if !bytes.Contains(data, []byte("<svg")) {
				t.Errorf("%s is not an SVG", f)
			}
		}
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "success-population.svg"))
	for _, text := range []string{"Success rate by population", "2/3", "1/2"} {
		if !bytes.Contains(svg, []byte(text)) {
			t.Errorf("success-population.svg lacks %q", text)
		}
	}
}

func TestRecordParam(t *testing.T) {
	var r Record
	if err := json.Unmarshal([]byte(`{"parameters": {"population": 1000000, "weight_failing": 0.01, "elitism": 1e-7, "operators": "default", "all": true}}`), &r); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"population": "1000000", "weight_failing": "0.01", "elitism": "1e-07", "operators": "default", "all": "true", "seed": ""} {
		if got := r.Param(name); got != want {
			t.Errorf("Param(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestPatchLines(t *testing.T) {
	diff := "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n x = 1\n--- y\n+-- z\n+w = 2\n"
	if got := patchLines(diff); got != 3 {
		t.Errorf("patchLines = %d, want 3", got)
	}
}

func TestAppender(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out", "results.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// A run killed while writing its second line.
	os.WriteFile(path, []byte("{\"id\":\"01\",\"outcome\":\"none\"}\n{\"id\":\"02\",\"out"), 0o644)
	a, err := openAppender(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openAppender(path); err == nil || !strings.Contains(err.Error(), "another run is writing it") {
		t.Errorf("second appender: %v, want refused", err)
	}
	r := record("03", "x", 10, 1, None, 5)
	if err := a.append(&r); err != nil {
		t.Fatal(err)
	}
	if err := a.close(); err != nil {
		t.Fatal(err)
	}
	res, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range res.Records {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"01", "03"}, ids); diff != "" || len(res.Torn) != 0 {
		t.Errorf("ids mismatch (-want +got):\n%s (torn %v)", diff, res.Torn)
	}
}
