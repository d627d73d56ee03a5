package fitness

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strings"
)

// Ending says how a case's code ended in the candidate's process.
type Ending uint8

const (
	// Returned: a call case's function returned; Observation.Value holds
	// the result (and Args the arguments after the call, when the case
	// checks them).
	Returned Ending = iota + 1
	// Raised: the code raised an exception (for an I/O case: anything but
	// SystemExit with code 0 or None).
	Raised
	// Finished: an I/O case's program ran to its end (or exited with
	// SystemExit 0); Observation.Stdout holds its output.
	Finished
)

// Status bytes of an observation record (see [ReadObservation]): 0 to 5
// are verdicts, these are endings.
const (
	StatusReturned byte = 16
	StatusRaised   byte = 17
	StatusFinished byte = 18
)

// Observation is what the candidate's process reports of one call or I/O
// case: never a verdict, which [Check.Judge] decides.
type Observation struct {
	Ending Ending
	// Value is the returned value; Args, when HasArgs, the arguments after
	// the call (a list).
	Value   Value
	HasArgs bool
	Args    Value
	// Exception lists the class names of the raised exception's type and
	// its bases (__mro__), most derived first; Memory says it is a
	// MemoryError. Detail is the exception's line as details show it
	// ("ValueError: bad (line 7)").
	Exception []string
	Memory    bool
	Detail    string
	// Stdout is an I/O case's standard output (at most the output cap);
	// Overflow says the program wrote more.
	Stdout   string
	Overflow bool
}

// ReadObservation decodes the observation part of a record whose status
// byte is status (one of the Status constants) from the start of p, and
// returns the rest of p. The encoding, after the status byte:
//
//	StatusReturned  the value (see [DecodeValue]), a u8 1 and the
//	                arguments after the call as a list, or a u8 0
//	StatusRaised    a u8 flags (1: a MemoryError), a u8 count n, then n
//	                class names each a u8 length and UTF-8
//	StatusFinished  a u8 1 when the output overflowed, else 0, then the
//	                output as a u32 length and UTF-8
//
// The detail of a raised exception travels in the record's detail field.
func ReadObservation(status byte, p []byte) (Observation, []byte, error) {
	var o Observation
	var err error
	switch status {
	case StatusReturned:
		o.Ending = Returned
		if o.Value, p, err = DecodeValue(p); err != nil {
			return o, nil, err
		}
		if len(p) < 1 {
			return o, nil, errTruncated
		}
		has := p[0]
		p = p[1:]
		if has == 1 {
			o.HasArgs = true
			if o.Args, p, err = DecodeValue(p); err != nil {
				return o, nil, err
			}
		}
	case StatusRaised:
		o.Ending = Raised
		if len(p) < 2 {
			return o, nil, errTruncated
		}
		o.Memory = p[0]&1 != 0
		n := int(p[1])
		p = p[2:]
		o.Exception = make([]string, 0, n)
		for range n {
			if len(p) < 1 || len(p) < 1+int(p[0]) {
				return o, nil, errTruncated
			}
			o.Exception = append(o.Exception, strings.ToValidUTF8(string(p[1:1+int(p[0])]), "\uFFFD"))
			p = p[1+int(p[0]):]
		}
	case StatusFinished:
		o.Ending = Finished
		if len(p) < 1 {
			return o, nil, errTruncated
		}
		o.Overflow = p[0] == 1
		b, rest, err := lengthPrefixed(p[1:])
		if err != nil {
			return o, nil, err
		}
		o.Stdout = strings.ToValidUTF8(string(b), "\uFFFD")
		p = rest
	default:
		return o, nil, fmt.Errorf("unknown observation status %d", status)
	}
	return o, p, nil
}

// AppendObservation appends o's encoding (see [ReadObservation]) to b and
// returns its status byte: the writer's side, for engines written in Go.
func AppendObservation(b []byte, o *Observation) (byte, []byte) {
	switch o.Ending {
	case Returned:
		b = AppendValue(b, o.Value)
		if !o.HasArgs {
			return StatusReturned, append(b, 0)
		}
		return StatusReturned, AppendValue(append(b, 1), o.Args)
	case Raised:
		flags := byte(0)
		if o.Memory {
			flags = 1
		}
		names := o.Exception
		if len(names) > 255 {
			names = names[:255]
		}
		b = append(b, flags, byte(len(names)))
		for _, n := range names {
			if len(n) > 255 {
				n = n[:255]
			}
			b = append(append(b, byte(len(n))), n...)
		}
		return StatusRaised, b
	}
	over := byte(0)
	if o.Overflow {
		over = 1
	}
	return StatusFinished, appendBytes(append(b, over), []byte(o.Stdout))
}

// Check is one case's expectation, decoded once per suite. Engines judge
// what a candidate's process observed against it in the tool's own
// process: the expected values never reach a candidate.
type Check struct {
	kind               Kind
	expected           any
	hasExpected        bool
	expectedArgs       any
	hasExpectedArgs    bool
	raises             string // the class name (the last part of a dotted name)
	raisesText         string
	stdout             *string
	tol                float64
	execEval           bool   // compare output by ExecEval's rules
	inplace            int    // EiplGrader's in-place mode (Case.Inplace)
	typeKind, typeElem string // EiplGrader's expected_type, parsed
	expectedType       string
	outputCap          int
	expectedRepr       string
	argsRepr           string
	probe              bool // Case.Probe
}

// NewChecks decodes the expectations of cases. outputCap is the engine's
// cap of an I/O case's output, for the detail of an overflow.
func NewChecks(cases []Case, outputCap int) ([]Check, error) {
	out := make([]Check, len(cases))
	for i := range cases {
		c := &cases[i]
		k := &out[i]
		k.kind, k.tol, k.outputCap, k.stdout, k.execEval = c.Kind, c.Tolerance, outputCap, c.Stdout, c.OutputRule == "execeval"
		k.inplace, k.expectedType, k.probe = c.Inplace, c.ExpectedType, c.Probe
		if c.ExpectedType != "" {
			var ok bool
			if k.typeKind, k.typeElem, ok = eiplType(c.ExpectedType); !ok {
				return nil, fmt.Errorf("case %s: expected_type: unknown type %q", c.Name, c.ExpectedType)
			}
		}
		if c.Raises != "" {
			k.raisesText = c.Raises
			k.raises = c.Raises[strings.LastIndexByte(c.Raises, '.')+1:]
		}
		var err error
		if c.Expected != nil {
			k.hasExpected = true
			if k.expected, k.expectedRepr, err = decodeExpectation(c.Expected); err != nil {
				return nil, fmt.Errorf("case %s: expected: %w", c.Name, err)
			}
		}
		if c.ExpectedArgs != nil {
			k.hasExpectedArgs = true
			if k.expectedArgs, k.argsRepr, err = decodeExpectation(c.ExpectedArgs); err != nil {
				return nil, fmt.Errorf("case %s: expected_args: %w", c.Name, err)
			}
		}
	}
	return out, nil
}

func decodeExpectation(raw []byte) (any, string, error) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, "", err
	}
	v = parseNumbers(v)
	ordered, err := ParseJSONValue(raw)
	if err != nil {
		return nil, "", err
	}
	return v, ordered.Repr(), nil
}

// parseNumbers replaces the json.Numbers of a decoded value by int64,
// *big.Int or float64, which [Equal] and [EqualValue] classify without
// parsing: a check compares its expectation millions of times.
func parseNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		n := numberValue(string(x))
		switch {
		case n.kind != kNumber:
			return v
		case !n.isInt:
			return n.f
		case n.big != nil:
			return n.big
		}
		return n.i
	case []any:
		for i := range x {
			x[i] = parseNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = parseNumbers(x[k])
		}
	}
	return v
}

// WantsArgs reports whether the case checks its arguments after the call:
// only then does the candidate's process encode them.
func (k *Check) WantsArgs() bool {
	return k.hasExpectedArgs || k.inplace > 0 || k.probe && k.kind == Call
}

// Judge decides the verdict of case k from what the candidate's process
// observed, with a detail for anything but PASSED. A probe case
// (Case.Probe) always passes, with the observation's [Behaviour] as its
// detail.
func (k *Check) Judge(o *Observation) (Verdict, string) {
	switch {
	case k.probe:
		return Passed, Behaviour(o)
	case k.kind == Call && o.Ending == Returned:
		if k.raisesText != "" {
			return WrongAnswer, fmt.Sprintf("expected %s to be raised, got %s", k.raisesText, o.Value.Repr())
		}
		got, what := o.Value, ""
		if k.inplace == 1 || k.inplace == 2 && o.Value.Kind == VNone {
			// EiplGrader's in-place modes check the first argument.
			if !o.HasArgs || len(o.Args.Items) == 0 {
				return WrongAnswer, "expected the first argument after the call, got nothing"
			}
			got, what = o.Args.Items[0], "the first argument "
		}
		if k.hasExpected && !EqualValue(k.expected, got, k.tol) {
			return WrongAnswer, "expected " + what + k.expectedRepr + ", got " + got.Repr()
		}
		if k.typeKind != "" && !valueHasType(got, k.typeKind, k.typeElem) {
			return WrongAnswer, fmt.Sprintf("expected %sa %s, got %s", what, k.expectedType, got.Repr())
		}
		if k.hasExpectedArgs && (!o.HasArgs || !EqualValue(k.expectedArgs, o.Args, k.tol)) {
			got := "nothing"
			if o.HasArgs {
				got = o.Args.Repr()
			}
			return WrongAnswer, fmt.Sprintf("expected arguments %s after the call, got %s", k.argsRepr, got)
		}
		return Passed, ""
	case o.Ending == Raised && k.kind != Test:
		if k.kind == Call && k.raises != "" {
			for _, n := range o.Exception {
				if n == k.raises {
					return Passed, ""
				}
			}
		}
		if o.Memory {
			return MemoryLimitExceeded, "MemoryError"
		}
		return RuntimeError, o.Detail
	case k.kind == IO && o.Ending == Finished:
		if o.Overflow {
			return WrongAnswer, fmt.Sprintf("output longer than %d bytes", k.outputCap)
		}
		if k.stdout != nil {
			d := ""
			if k.execEval {
				d = ExecEvalDifference(*k.stdout, o.Stdout)
			} else {
				d = StdoutDifference(*k.stdout, o.Stdout, k.tol)
			}
			if d != "" {
				return WrongAnswer, d
			}
		}
		return Passed, ""
	}
	return RuntimeError, "the sandbox reported an observation that does not fit the case"
}

// JudgeVerdict decides what a verdict reported by the sandbox for case k
// stands for. Of a call or I/O case, only what the candidate's process
// cannot fake in its favour is accepted: TIME_LIMIT_EXCEEDED,
// RUNTIME_ERROR and MEMORY_LIMIT_EXCEEDED (a death, a deadline, a case
// not run). A test case's verdict is decided in the candidate's process by
// the test file's own asserts, and is taken as it is.
func (k *Check) JudgeVerdict(v Verdict, detail string) (Verdict, string) {
	if k.kind == Test {
		return v, detail
	}
	switch v {
	case TimeLimitExceeded, RuntimeError, MemoryLimitExceeded:
		return v, detail
	}
	return RuntimeError, "the candidate's process reported a verdict of its own"
}

// StdoutDifference is "" when [EqualStdout] holds, else a detail naming
// the first difference: "line 3: expected '7', got '8'" or "expected 4
// lines, got 3".
func StdoutDifference(expected, actual string, tol float64) string {
	e, a := stdoutLines(expected), stdoutLines(actual)
	for i := 0; i < len(e) && i < len(a); i++ {
		if !EqualStdout(e[i], a[i], tol) {
			return fmt.Sprintf("line %d: expected %s, got %s", i+1, shortStr(e[i]), shortStr(a[i]))
		}
	}
	if len(e) != len(a) {
		return fmt.Sprintf("expected %d lines, got %d", len(e), len(a))
	}
	return ""
}

func shortStr(s string) string {
	if len(s) > ReprMax+2 {
		s = s[:ReprMax+2]
	}
	return shorten(PyStrRepr(s), ReprMax)
}

// ParseJSONValue decodes one JSON text into a [Value] that keeps the
// order of object keys (for reprs in details): arrays become lists,
// objects dicts, numbers ints when they have no '.', 'e' or 'E'.
func ParseJSONValue(raw []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseJSONValue(dec)
	if err != nil {
		return Value{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Value{}, errors.New("more than one JSON value")
	}
	return v, nil
}

func parseJSONValue(dec *json.Decoder) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			v := Value{Kind: VList}
			for dec.More() {
				x, err := parseJSONValue(dec)
				if err != nil {
					return Value{}, err
				}
				v.Items = append(v.Items, x)
			}
			_, err := dec.Token()
			return v, err
		case '{':
			v := Value{Kind: VDict}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return Value{}, err
				}
				k, _ := kt.(string)
				x, err := parseJSONValue(dec)
				if err != nil {
					return Value{}, err
				}
				v.Items = append(v.Items, Value{Kind: VStr, Str: k})
				v.Vals = append(v.Vals, x)
			}
			_, err := dec.Token()
			return v, err
		}
		return Value{}, fmt.Errorf("unexpected %v", t)
	}
	return FromJSON(tok), nil
}

// A Memo remembers, for each case, the last observation it judged and the
// verdict: a search evaluates thousands of candidates that give a case the
// same value (the original's, or the same wrong one), and an observation
// judged once need not be decoded and compared again. Not safe for
// concurrent use: one per worker.
type Memo struct {
	last []memoEntry
}

type memoEntry struct {
	set     bool
	status  byte
	payload string
	detail  string
	verdict Verdict
	out     string
}

// NewMemo is a Memo for n cases.
func NewMemo(n int) *Memo { return &Memo{last: make([]memoEntry, n)} }

// Judge decodes the observation of case i (status and payload, see
// [ReadObservation]; detail is the record's detail) and judges it with
// checks[i], or returns the verdict of the same observation judged last
// time. The error reports a payload that does not decode.
func (m *Memo) Judge(checks []Check, i int, status byte, payload []byte, detail string) (Verdict, string, error) {
	e := &m.last[i]
	if e.set && e.status == status && e.payload == string(payload) && e.detail == detail {
		return e.verdict, e.out, nil
	}
	o, rest, err := ReadObservation(status, payload)
	if err != nil {
		return 0, "", err
	}
	if len(rest) != 0 {
		return 0, "", errors.New("observation: trailing bytes")
	}
	o.Detail = detail
	v, out := checks[i].Judge(&o)
	*e = memoEntry{set: true, status: status, payload: string(payload), detail: detail, verdict: v, out: out}
	return v, out, nil
}

// ObservationSize is the length of the observation at the start of p
// whose status byte is status: it walks the encoding without decoding it.
func ObservationSize(status byte, p []byte) (int, error) {
	n := 0
	switch status {
	case StatusReturned:
		k, err := valueSize(p, 0)
		if err != nil {
			return 0, err
		}
		n = k
		if len(p) < n+1 {
			return 0, errTruncated
		}
		n++
		if p[n-1] == 1 {
			if k, err = valueSize(p[n:], 0); err != nil {
				return 0, err
			}
			n += k
		}
	case StatusRaised:
		if len(p) < 2 {
			return 0, errTruncated
		}
		count := int(p[1])
		n = 2
		for range count {
			if len(p) < n+1 || len(p) < n+1+int(p[n]) {
				return 0, errTruncated
			}
			n += 1 + int(p[n])
		}
	case StatusFinished:
		if len(p) < 1 {
			return 0, errTruncated
		}
		b, rest, err := lengthPrefixed(p[1:])
		if err != nil {
			return 0, err
		}
		_ = b
		n = len(p) - len(rest)
	default:
		return 0, fmt.Errorf("unknown observation status %d", status)
	}
	return n, nil
}

// valueSize is the length of the encoded value at the start of p.
func valueSize(p []byte, depth int) (int, error) {
	if len(p) == 0 {
		return 0, errTruncated
	}
	if depth > MaxDepth+1 {
		return 0, errors.New("value nested too deeply")
	}
	switch p[0] {
	case 'N', 'T', 'F':
		return 1, nil
	case 'i', 'f':
		if len(p) < 9 {
			return 0, errTruncated
		}
		return 9, nil
	case 'I', 's', 'x':
		_, rest, err := lengthPrefixed(p[1:])
		if err != nil {
			return 0, err
		}
		return len(p) - len(rest), nil
	case 'l', 't', 'S', 'z', 'd':
		if len(p) < 5 {
			return 0, errTruncated
		}
		count := uint64(binary.LittleEndian.Uint32(p[1:]))
		if p[0] == 'd' {
			count *= 2
		}
		if count > uint64(len(p)-5) {
			return 0, errTruncated
		}
		n := 5
		for range count {
			k, err := valueSize(p[n:], depth+1)
			if err != nil {
				return 0, err
			}
			n += k
		}
		return n, nil
	}
	return 0, fmt.Errorf("unknown value tag %q", p[0])
}

// valueHasType reports whether v has the EiplGrader type (kind, elem) of
// eiplType.
func valueHasType(v Value, kind, elem string) bool {
	switch kind {
	case "int":
		return v.Kind == VInt
	case "float":
		return v.Kind == VFloat
	case "str":
		return v.Kind == VStr
	case "bool":
		return v.Kind == VBool
	case "list":
		if v.Kind != VList {
			return false
		}
		for _, it := range v.Items {
			if elem != "" && !valueHasType(it, elem, "") {
				return false
			}
		}
		return true
	}
	return false
}

// Behaviour describes an observation in one line that is equal for two
// observations exactly when they are: "returned 3", "returned None,
// arguments [[1, 2]]", "raised ValueError", "printed '7\\n'", then a tab and
// a digest of the whole observation (a repr is shortened; the digest is
// not). [ShowBehaviour] drops the digest.
func Behaviour(o *Observation) string {
	var b strings.Builder
	switch o.Ending {
	case Returned:
		b.WriteString("returned " + o.Value.Repr())
		if o.HasArgs {
			b.WriteString(", arguments " + o.Args.Repr())
		}
	case Raised:
		name := "an exception"
		if len(o.Exception) > 0 {
			name = o.Exception[0]
		}
		b.WriteString("raised " + name)
	case Finished:
		b.WriteString("printed " + shortStr(o.Stdout))
	}
	_, enc := AppendObservation(nil, o)
	h := fnv.New64a()
	h.Write([]byte{byte(o.Ending)})
	h.Write(enc)
	fmt.Fprintf(&b, "\t%016x", h.Sum64())
	return b.String()
}

// ShowBehaviour is a [Behaviour] (or any detail) without its digest.
func ShowBehaviour(s string) string {
	if i := strings.LastIndexByte(s, '\t'); i >= 0 {
		return s[:i]
	}
	return s
}
