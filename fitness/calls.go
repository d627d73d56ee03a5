package fitness

import (
	"bytes"
	"encoding/json"
)

// RecordedCall is one call a test case made into the target from outside it (a
// test, a fixture, a helper module), recorded during the original
// program's run (sandbox.RunOptions.Record): a call of one of its
// functions (or a class's static or class method, "C.m"), or an object
// the test made with the methods it called on it, in order (Then). Only
// calls whose arguments encode as a JSON suite's values do are recorded.
type RecordedCall struct {
	// Function is the callee: "f", "C.m", or for an object the class "C".
	Function string `json:"function"`
	// Args and Kwargs are the arguments as JSON (an array, an object).
	Args   json.RawMessage `json:"args,omitempty"`
	Kwargs json.RawMessage `json:"kwargs,omitempty"`
	// Then, for an object, is a JSON array of the method calls made on it,
	// each [name, args, kwargs] (see Case.Then).
	Then json.RawMessage `json:"then,omitempty"`
	// Result is what the call returned, as JSON, when it encodes so;
	// Raised the class name of the exception it raised.
	Result json.RawMessage `json:"result,omitempty"`
	Raised string          `json:"raised,omitempty"`
}

// MaxCalls bounds the calls kept of one case.
const MaxCalls = 200

// ParseCalls decodes the calls a sandbox recorded for one case (a JSON
// array of RecordedCall): what does not decode, or has no function, is left out
// (the sandbox is not trusted).
func ParseCalls(data []byte) []RecordedCall {
	var raw []json.RawMessage
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&raw); err != nil {
		return nil
	}
	var out []RecordedCall
	for _, r := range raw {
		var c RecordedCall
		if json.Unmarshal(r, &c) != nil || c.Function == "" || !isDottedName(c.Function) {
			continue
		}
		if c.Args != nil && !bytes.HasPrefix(bytes.TrimSpace(c.Args), []byte("[")) ||
			c.Kwargs != nil && !bytes.HasPrefix(bytes.TrimSpace(c.Kwargs), []byte("{")) ||
			c.Then != nil && !bytes.HasPrefix(bytes.TrimSpace(c.Then), []byte("[")) {
			continue
		}
		out = append(out, c)
		if len(out) == MaxCalls {
			break
		}
	}
	return out
}
