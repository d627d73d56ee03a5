package fitness

import (
	"strings"
	"testing"
)

// TestProbeBehaviour: a probe case passes whatever the code did, and its
// detail tells two behaviours apart exactly when they differ, even past
// what a repr shows.
func TestProbeBehaviour(t *testing.T) {
	checks, err := NewChecks([]Case{{Name: "p", Kind: Call, Function: "f", Probe: true, Weight: 1, Timeout: 1}}, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	k := &checks[0]
	if !k.WantsArgs() {
		t.Errorf("a probe call does not observe its arguments")
	}
	long := func(last int64) Value {
		v := Value{Kind: VList}
		for i := 0; i < 200; i++ {
			v.Items = append(v.Items, Value{Kind: VInt, Int: 1})
		}
		v.Items = append(v.Items, Value{Kind: VInt, Int: last})
		return v
	}
	ret := func(v Value) *Observation { return &Observation{Ending: Returned, Value: v} }
	tests := []struct {
		name string
		a, b *Observation
		same bool
		show string // ShowBehaviour of a
	}{
		{"equal values", ret(Value{Kind: VInt, Int: 3}), ret(Value{Kind: VInt, Int: 3}), true, "returned 3"},
		{"different values", ret(Value{Kind: VInt, Int: 3}), ret(Value{Kind: VInt, Int: 4}), false, "returned 3"},
		{"past the repr", ret(long(1)), ret(long(2)), false, ""},
		{"arguments after the call", &Observation{Ending: Returned, Value: Value{Kind: VNone}, HasArgs: true, Args: Value{Kind: VList}},
			&Observation{Ending: Returned, Value: Value{Kind: VNone}, HasArgs: true, Args: Value{Kind: VList, Items: []Value{{Kind: VInt}}}}, false, "returned None, arguments []"},
		{"exceptions by class", &Observation{Ending: Raised, Exception: []string{"ValueError", "Exception"}, Detail: "ValueError: x (line 3)"},
			&Observation{Ending: Raised, Exception: []string{"ValueError", "Exception"}, Detail: "ValueError: x (line 9)"}, true, "raised ValueError"},
		{"output", &Observation{Ending: Finished, Stdout: "7\n"}, &Observation{Ending: Finished, Stdout: "8\n"}, false, `printed '7\n'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			va, da := k.Judge(tt.a)
			vb, db := k.Judge(tt.b)
			if va != Passed || vb != Passed {
				t.Fatalf("verdicts %v %v, want PASSED", va, vb)
			}
			if (da == db) != tt.same {
				t.Errorf("details %q and %q: same = %v, want %v", da, db, da == db, tt.same)
			}
			if tt.show != "" && ShowBehaviour(da) != tt.show {
				t.Errorf("shown as %q, want %q", ShowBehaviour(da), tt.show)
			}
			if strings.Contains(ShowBehaviour(da), "\t") {
				t.Errorf("shown with its digest: %q", ShowBehaviour(da))
			}
		})
	}
}
