// What a repair says of its outcome on stderr.

package session

import (
	"fmt"
	"io"
	"strings"
	"time"

	"repair/repair"
	"repair/sandbox"
)

// summarize says the search's outcome on stderr.
func summarize(w io.Writer, res *repair.Result, elapsed time.Duration) {
	rate := float64(res.Evaluations) / max(res.SearchTime.Seconds(), 1e-9)
	hits := res.Cache.Hits
	if len(res.Fixes) == 0 {
		fmt.Fprintf(w, "repair: no plausible patch (stopped: %s) after %s, %s (%.0f/s, %d cache hits), %.2fs; best fitness %.4f\n",
			res.StopReason, Plural(res.Generations, "generation"), Plural(res.Evaluations, "evaluation"), rate, hits, elapsed.Seconds(), res.BestFitness)
		if res.BestFitness >= 1 {
			// A candidate passed every case in the search's runs: say why
			// it is not a fix.
			fmt.Fprintf(w, "repair: candidates passed every case in the search's runs, but none became a fix: %d failed their validation run (flaky or order-dependent tests), %d were refused by the check of delivered fixes, and a delivery cut short by the time budget is not claimed\n",
				res.Rejected, len(res.Refused))
		}
		if res.BestDiff != "" {
			fmt.Fprintf(w, "repair: the best candidate (not a fix):\n%s", indent(res.BestDiff))
		}
		return
	}
	fix := res.Fixes[0]
	fmt.Fprintf(w, "repair: plausible patch found in generation %d after %s; %s, %s in all (%.0f/s, %d cache hits), %.2fs\n",
		fix.Generation, Plural(fix.Evaluations, "evaluation"), Plural(res.Generations, "generation"), Plural(res.Evaluations, "evaluation"), rate, hits, elapsed.Seconds())
	for _, d := range fix.Describe {
		fmt.Fprintf(w, "repair:   %s\n", d)
	}
	if fix.Guard != nil {
		fmt.Fprintf(w, "repair:   guard: %s\n", fix.Guard)
	}
	if n := len(res.Fixes); n > 1 {
		fmt.Fprintf(w, "repair: %d alternatives considered; %s\n", n, res.Why)
	} else {
		fmt.Fprintf(w, "repair: 1 alternative considered\n")
	}
	for i, other := range res.Fixes[1:] {
		fmt.Fprintf(w, "repair: fix %d of %d:\n", i+2, len(res.Fixes))
		for _, d := range other.Describe {
			fmt.Fprintf(w, "repair:   %s\n", d)
		}
		if other.Guard != nil {
			fmt.Fprintf(w, "repair:   guard: %s\n", other.Guard)
		}
	}
}

func indent(s string) string {
	var sb strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			sb.WriteString("    " + line)
		}
	}
	return sb.String()
}

// forkReasons lists the nonzero counts of fresh forks by reason.
func forkReasons(r sandbox.ForkReasons) string {
	var parts []string
	for _, c := range []struct {
		n    int64
		what string
	}{
		{r.First, "first of a server"}, {r.NoReuse, "the run or the server reuses no child (coverage, pytest, a package, several targets)"},
		{r.ImpureName, "not pure: a name reaching the interpreter"}, {r.ImpureImport, "not pure: an import"},
		{r.ImpureDunder, "not pure: a dunder"}, {r.ImpureString, "not pure: a mutable attribute's name"},
		{r.Impure, "not pure in its changed definitions"}, {r.AfterImpure, "after a candidate that kept no child"},
		{r.Guard, "the guard refused the child"}, {r.Served, "the child had served its candidates"},
		{r.Ended, "the child ended early"}, {r.Again, "again after an early end"},
	} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(parts, "; ")
}

// Plural is "1 worker" or "n workers".
func Plural(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, PluralNoun(n, noun))
}
