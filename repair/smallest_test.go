package repair

import (
	"context"
	"strings"
	"testing"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// TestSmallestFixOverDonorCode: when a fix copies a donor's code (a
// pasted block) and a one-token edit of the target passes too, the search
// goes on after the first and delivers the smaller.
func TestSmallestFixOverDonorCode(t *testing.T) {
	const target = "def grade(s):\n    if s > 90:\n        return \"A\"\n    return \"B\"\n"
	const donor = "def grade(s):\n    if s == 90:\n        s = s + 1\n        print(s)\n        return \"A\"\n    if s > 90:\n        return \"A\"\n    return \"B\"\n"
	// Fixed: the one-token edit, or the donor's check of 90 anywhere
	// before the last return.
	fixed := func(src string) bool {
		lines := strings.Split(src, "\n")
		return strings.Contains(src, "if s >= 90:") && !strings.Contains(src, "if s > 90:") ||
			strings.Contains(strings.Join(lines[:len(lines)-2], "\n"), "if s == 90:")
	}
	donorFirst := 0
	for seed := uint64(1); seed <= 8; seed++ {
		p, err := program.ParseWithDonors("grade.py", []byte(target), []string{"classmate-1"}, [][]byte{[]byte(donor)})
		if err != nil {
			t.Fatal(err)
		}
		s := fakeSuite(2)
		run := func(ctx context.Context, src []byte, o sandbox.RunOptions) (*fitness.Outcome, error) {
			out := &fitness.Outcome{}
			ok := fixed(string(src))
			for i := range s.Cases {
				r := fitness.Result{Verdict: fitness.Passed, Lines: []int{1, 2, 4}}
				if i%2 == 1 {
					r.Lines = []int{1, 2, 3}
					if !ok {
						r.Verdict = fitness.WrongAnswer
					}
				}
				if !o.Coverage {
					r.Lines = nil
				}
				out.Results = append(out.Results, r)
			}
			return out, nil
		}
		var log strings.Builder
		o := Defaults()
		o.Generations, o.Population, o.Seed, o.Log, o.Workers = 50, 10, seed, &log, 1
		res, err := Run(context.Background(), p, s, run, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Fixes) == 0 {
			t.Fatalf("seed %d: no fix\n%s", seed, log.String())
		}
		if n := changedLines(res.Fixes[0].Diff); n != 2 {
			t.Errorf("seed %d: the fix delivered changes %d lines, want the one-token fix (2):\n%s\n%s", seed, n, res.Fixes[0].Diff, log.String())
		}
		if strings.Contains(log.String(), "copies code from a donor; searching on") {
			donorFirst++
		}
	}
	if donorFirst == 0 {
		t.Error("no seed found the donor's block first: the test does not test the search going on")
	}
}
