// The tables and reports of a batch's results.

package batch

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"repair/session"
)

// statusOrder is the order of the statuses in counts.
var statusOrder = []string{Repaired, Suspect, Passes, Untrusted, Apart, NotRepaired, NoCompile, Misnamed, Failed}

// statusPlural is a status said of several submissions.
var statusPlural = map[string]string{
	Suspect: "suspect patches", Passes: "pass", Apart: "fail apart", NoCompile: "do not compile", Failed: "errors",
}

// Counts says how many submissions have each status.
func Counts(rs []Result) string {
	n := map[string]int{}
	for _, r := range rs {
		n[r.Status]++
	}
	var parts []string
	for _, s := range statusOrder {
		if n[s] > 0 {
			what := s
			if p, ok := statusPlural[s]; ok && n[s] > 1 {
				what = p
			}
			parts = append(parts, fmt.Sprintf("%d %s", n[s], what))
		}
	}
	return strings.Join(parts, ", ")
}

// JSONReport is the JSON report: the counts and every submission's record.
func JSONReport(version, tests string, rs []Result, elapsed time.Duration, workers int) []byte {
	counts := map[string]int{}
	for _, r := range rs {
		counts[r.Status]++
	}
	if rs == nil {
		rs = []Result{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(struct {
		Tool        string         `json:"tool"`
		Version     string         `json:"version"`
		Tests       string         `json:"tests"`
		Seconds     float64        `json:"seconds"`
		Workers     int            `json:"workers"`
		Counts      map[string]int `json:"counts"`
		Submissions []Result       `json:"submissions"`
	}{"repair batch", version, tests, elapsed.Seconds(), workers, counts, rs})
	return b.Bytes()
}

// WriteTable writes the Markdown table of the results.
func WriteTable(w io.Writer, rs []Result) {
	fmt.Fprintln(w, "| submission | status | passed before | seconds | evaluations | what |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rs {
		what := strings.Join(r.Describe, "; ")
		if what == "" {
			what = r.Detail
		}
		fmt.Fprintf(w, "| %s | %s | %d/%d | %.1f | %d | %s |\n", r.Submission, r.Status, r.Passed, r.Cases, r.Seconds, r.Evaluations, mdCell(what))
	}
}

// WriteCSV writes the results as CSV.
func WriteCSV(w io.Writer, rs []Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"submission", "status", "passed", "cases", "seconds", "evaluations", "insertions", "deletions", "edits", "detail"})
	for _, r := range rs {
		cw.Write([]string{r.Submission, r.Status, fmt.Sprint(r.Passed), fmt.Sprint(r.Cases), fmt.Sprintf("%.2f", r.Seconds),
			fmt.Sprint(r.Evaluations), fmt.Sprint(r.Insertions), fmt.Sprint(r.Deletions), strings.Join(r.Describe, "; "), r.Detail})
	}
	cw.Flush()
	return cw.Error()
}

// mdCell keeps a table cell on one line and its pipes literal.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// MarkdownReport is the Markdown report: the counts, the table, and each
// submission with its patch.
func MarkdownReport(tests string, rs []Result, elapsed time.Duration, workers int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Batch repair against %s\n\n", tests)
	fmt.Fprintf(&b, "%s in %.1f s on %s: %s.\n\n", session.Plural(len(rs), "submission"), elapsed.Seconds(), session.Plural(workers, "worker"), Counts(rs))
	WriteTable(&b, rs)
	for _, r := range rs {
		fmt.Fprintf(&b, "\n## %s: %s\n\n", r.Submission, r.Status)
		if len(r.Uses) > 0 && r.Status != Untrusted {
			fmt.Fprintf(&b, "Uses %s: with these, code under test can forge a test file's verdicts; never a donor.\n\n", strings.Join(r.Uses, ", "))
		}
		switch {
		case r.Status == Repaired || r.Status == Suspect:
			if r.Status == Suspect {
				fmt.Fprintf(&b, "Passed %d of %d cases as handed in. No repair: the patch found passes every case, but %s:\n\n", r.Passed, r.Cases, suspectWhy(r))
			} else {
				fmt.Fprintf(&b, "Passed %d of %d cases as handed in. The repair (%s):\n\n", r.Passed, r.Cases, Size(r.Insertions, r.Deletions))
			}
			for _, d := range r.Describe {
				fmt.Fprintf(&b, "- %s\n", d)
			}
			if len(r.Donors) > 0 {
				fmt.Fprintf(&b, "\nDonors (most similar first): %s.\n", strings.Join(r.Donors, ", "))
			}
			if r.Guard != nil {
				fmt.Fprintf(&b, "\nOverfitting guard: %s.\n", r.Guard)
			}
			fmt.Fprintf(&b, "\n```diff\n%s```\n", r.Patch)
		case r.Status == NotRepaired:
			fmt.Fprintf(&b, "Passes %d of %d cases; no repair within the time budget (%d candidates tried).\n", r.Passed, r.Cases, r.Evaluations)
		case r.Detail != "":
			fmt.Fprintf(&b, "%s\n", r.Detail)
		default:
			fmt.Fprintf(&b, "Passes all %d cases.\n", r.Cases)
		}
	}
	return b.Bytes()
}
