package sandbox

import (
	"encoding/json"

	"repair/fitness"
)

// RunCase is what an engine's worker gets of a case: how to run it, never
// what it should give. The expected value, arguments, exception and
// output stay in the tool's process, in the case's [fitness.Check], which
// judges what the worker reports (see doc.go, "Who decides a verdict").
type RunCase struct {
	Kind     fitness.Kind    `json:"kind"`
	Function string          `json:"function,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
	Kwargs   json.RawMessage `json:"kwargs,omitempty"`
	Then     json.RawMessage `json:"then,omitempty"`
	Stdin    *string         `json:"stdin,omitempty"`
	Timeout  float64         `json:"timeout"`
	// WantArgs asks for the arguments after the call: the case checks
	// them.
	WantArgs bool `json:"want_args,omitempty"`
	// XFail and Skip are the test case's pytest marks as collected with
	// the original ([fitness.Case.XFail]).
	XFail bool `json:"xfail,omitempty"`
	Skip  bool `json:"skip,omitempty"`
}

// RunCases are the cases as workers get them; checks are the cases'
// checks (fitness.NewChecks), in the same order.
func RunCases(cases []fitness.Case, checks []fitness.Check) []RunCase {
	out := make([]RunCase, len(cases))
	for i, c := range cases {
		out[i] = RunCase{Kind: c.Kind, Function: c.Function, Args: c.Args, Kwargs: c.Kwargs, Then: c.Then,
			Stdin: c.Stdin, Timeout: c.Timeout, WantArgs: checks[i].WantsArgs(), XFail: c.XFail, Skip: c.Skip}
	}
	return out
}
