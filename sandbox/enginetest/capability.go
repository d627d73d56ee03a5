package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/fitness"
	"repair/sandbox"
)

// Claims are what an engine says of itself: its name, the capabilities of
// package sandbox it implements, and its features.
type Claims struct {
	Name string
	// Capabilities are the names of the interfaces of sandbox/capability.go
	// it implements ("Describer", "Sizer", ...), in any order.
	Capabilities []string
	Features     sandbox.Features
}

// capabilities are sandbox's optional interfaces, by name.
var capabilities = map[string]func(sandbox.Engine) bool{
	"Describer":     func(e sandbox.Engine) bool { _, ok := e.(sandbox.Describer); return ok },
	"Sizer":         func(e sandbox.Engine) bool { _, ok := e.(sandbox.Sizer); return ok },
	"Grower":        func(e sandbox.Engine) bool { _, ok := e.(sandbox.Grower); return ok },
	"PlainPytester": func(e sandbox.Engine) bool { _, ok := e.(sandbox.PlainPytester); return ok },
	"Executable":    func(e sandbox.Engine) bool { _, ok := e.(sandbox.Executable); return ok },
	"Counter":       func(e sandbox.Engine) bool { _, ok := e.(sandbox.Counter); return ok },
	"Featurer":      func(e sandbox.Engine) bool { _, ok := e.(sandbox.Featurer); return ok },
}

// CapabilitySuite is a data suite of two cases for Capabilities: open
// the engine for it, on a target module whose original passes both.
func CapabilitySuite() *fitness.Suite {
	call := func(arg, want string) fitness.Case {
		return fitness.Case{Kind: fitness.Call, Function: "f", Args: json.RawMessage(arg), Expected: json.RawMessage(want),
			Weight: 1, Timeout: 10, Tolerance: fitness.DefaultTolerance}
	}
	return &fitness.Suite{MemoryMB: fitness.DefaultMemoryMB, Cases: []fitness.Case{call("[1]", "2"), call("[3]", "6")}}
}

// CapabilitySource passes CapabilitySuite.
const CapabilitySource = "def f(x):\n    return x * 2\n"

// Capabilities checks that e, opened for CapabilitySuite, is what claims
// say, and that each capability it has behaves: a description that is
// not empty, a capacity of at least 1 that grows with Grow, an
// interpreter that exists, counts that count a run, no plain pytest run
// for a data suite. And e still runs a candidate once it has grown.
func Capabilities(t *testing.T, e sandbox.Engine, claims Claims) {
	t.Helper()
	ctx := context.Background()
	if got := e.Name(); got != claims.Name {
		t.Errorf("Name() = %q, want %q", got, claims.Name)
	}
	var has []string
	for name, is := range capabilities {
		if is(e) {
			has = append(has, name)
		}
	}
	sort.Strings(has)
	want := append([]string(nil), claims.Capabilities...)
	sort.Strings(want)
	if diff := cmp.Diff(want, has); diff != "" {
		t.Errorf("capabilities (-claimed +implemented):\n%s", diff)
	}
	if diff := cmp.Diff(claims.Features, sandbox.FeaturesOf(e)); diff != "" {
		t.Errorf("features (-claimed +reported):\n%s", diff)
	}

	if d := sandbox.Describe(e); strings.TrimSpace(d) == "" {
		t.Errorf("Describe = %q, want a description", d)
	}
	if x, ok := e.(sandbox.Executable); ok {
		if fi, err := os.Stat(x.Executable()); err != nil || fi.IsDir() {
			t.Errorf("Executable() = %q: not a file (%v)", x.Executable(), err)
		}
	}
	if p, ok := e.(sandbox.PlainPytester); ok {
		run, err := p.PlainPytest(ctx)
		if run != nil || err != nil {
			t.Errorf("PlainPytest on a data suite = %v, %v; want nil, nil", run, err)
		}
	}

	before := sandbox.CountsOf(e)
	run := func() error {
		o, err := e.Run(ctx, []byte(CapabilitySource), sandbox.RunOptions{})
		if err == nil && !o.Passed() {
			err = fmt.Errorf("the original does not pass: %+v", o.Results)
		}
		return err
	}
	if err := run(); err != nil {
		t.Fatal(err)
	}
	after := sandbox.CountsOf(e)
	if (before.FastPaths == nil) != (after.FastPaths == nil) || (before.Hybrid == nil) != (after.Hybrid == nil) {
		t.Errorf("counts changed kind: %+v, then %+v", before, after)
	}
	if c, ok := e.(sandbox.Counter); ok {
		n := func(c sandbox.Counts) int64 {
			var sum int64
			if c.FastPaths != nil {
				sum += c.FastPaths.Candidates
			}
			if c.Hybrid != nil {
				sum += int64(c.Hybrid.Search + c.Hybrid.Validated)
			}
			return sum
		}
		if n(after) != n(before)+1 {
			t.Errorf("%T counts %d candidates, then %d after one run", c, n(before), n(after))
		}
	}

	s, ok := e.(sandbox.Sizer)
	if !ok {
		if _, grows := e.(sandbox.Grower); grows {
			t.Error("a Grower that is no Sizer: how many it has after Grow is unknown")
		}
		return
	}
	c := s.Capacity()
	if c < 1 {
		t.Errorf("Capacity() = %d, want at least 1", c)
	}
	g, ok := e.(sandbox.Grower)
	if !ok {
		return
	}
	n, err := g.Grow(ctx, c+1)
	if err != nil {
		t.Fatalf("Grow(%d): %v", c+1, err)
	}
	if n <= c || n > c+1 {
		t.Errorf("Grow(%d) = %d, want %d (it had %d)", c+1, n, c+1, c)
	}
	if got := s.Capacity(); got < n {
		t.Errorf("Capacity() = %d after Grow(%d) = %d", got, c+1, n)
	}
	// Two candidates at once: one may run on the worker Grow started.
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- run() }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("a run after Grow: %v", err)
		}
	}
}
