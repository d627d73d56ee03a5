// What a run says while it runs: the trials of a dry run, a line per
// finished trial or a live progress bar.

package experiment

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// DryRun lists the trials a run with opts would run (id, bug, seed,
// varied parameters), and runs nothing.
func DryRun(plan *Plan, opts RunOptions, out io.Writer) error {
	pending, total, err := Pending(plan, opts)
	if err != nil {
		return err
	}
	for _, t := range pending {
		fmt.Fprintf(out, "%s %s seed=%d%s\n", t.ID, t.Bug.Name, t.Seed, varied(t.Params, plan.Varied))
	}
	fmt.Fprintf(out, "# %d of %d trials to run\n", len(pending), total)
	return nil
}

func varied(v Values, names []string) string {
	var sb strings.Builder
	for _, n := range names {
		fmt.Fprintf(&sb, " %s=%s", n, v[n])
	}
	return sb.String()
}

// ProgressPrinter prints a live progress bar on a terminal, else (and
// above the bar with verbose) one line per finished trial.
func ProgressPrinter(w io.Writer, live, verbose bool, names []string) func(Progress) {
	return func(p Progress) {
		eta := "–"
		if p.Done < p.Total {
			eta = p.ETA.Round(time.Second).String()
		}
		if live && verbose {
			fmt.Fprint(w, "\r\033[K")
			fmt.Fprint(w, trialLine(p, names, eta))
		}
		if live {
			const width = 30
			fill := width * p.Done / max(p.Total, 1)
			fmt.Fprintf(w, "\r\033[K[%s%s] %d/%d trials, %d plausible, %d errors, ETA %s",
				strings.Repeat("#", fill), strings.Repeat(".", width-fill), p.Done, p.Total, p.Plausible, p.Errors, eta)
			return
		}
		fmt.Fprint(w, trialLine(p, names, eta))
	}
}

// trialLine is the line of a finished trial.
func trialLine(p Progress, names []string, eta string) string {
	{
		r := p.Record
		what := r.Outcome
		switch r.Outcome {
		case Plausible:
			what = fmt.Sprintf("plausible after %d evaluations", r.FirstFixEvaluations)
		case None:
			what = fmt.Sprintf("none (%s, %d evaluations)", r.StopReason, r.Evaluations)
		case Error:
			what = "error: " + r.Error
		}
		return fmt.Sprintf("experiment: %d/%d %s seed=%d%s: %s, %.2fs; ETA %s\n",
			p.Done, p.Total, r.Bug, r.Seed, varied(p.Trial.Params, names), what, r.Seconds, eta)
	}
}
