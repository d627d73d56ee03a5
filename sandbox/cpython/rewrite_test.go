package cpython

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"testing"

	"repair/fitness"
	"repair/sandbox"
)

// TestRewriteShared: the test file's assertions, rewritten by the first
// server of a run (the collection), are not rewritten again by the
// servers that start after it, the check's too; a server given a
// rewriting that is not its file's (another key) or that does not load
// rewrites the file itself, and says so. The verdicts are pytest's
// either way, failed asserts' details included.
func TestRewriteShared(t *testing.T) {
	py := realPytest(t)
	tgt, suite := testFileDir(t, "def add(a, b):\n    return a + b + 1\n",
		"from cand import add\n\n\ndef test_one():\n    assert add(1, 2) == 3\n\n\ndef test_two():\n    x = add(2, 2)\n    assert x == 4\n")
	first := newTestEngine(t, sandbox.Options{Suite: suite, Target: tgt, Workers: 1, Python: py.Path}, config{})
	key := first.rewriteKey()
	v, ok := rewrites.Load(key)
	if !ok {
		t.Fatal("the first engine kept no rewriting of the test file")
	}
	kept := v.(json.RawMessage)
	var entry struct{ Key, Code string }
	if err := json.Unmarshal(kept, &entry); err != nil || entry.Key == "" || entry.Code == "" {
		t.Fatalf("kept %.100s: %v", kept, err)
	}
	garbage := base64.StdEncoding.EncodeToString([]byte("not marshalled code"))
	for _, row := range []struct {
		name   string
		shared json.RawMessage // what the next servers are given
		own    bool            // whether they rewrite the file themselves
	}{
		{"the first server's", kept, false},
		{"another file's", json.RawMessage(`{"key": "0123", "code": "` + entry.Code + `"}`), true},
		{"code that does not load", json.RawMessage(`{"key": "` + entry.Key + `", "code": "` + garbage + `"}`), true},
	} {
		t.Run(row.name, func(t *testing.T) {
			for _, verify := range []bool{false, true} {
				rewrites.Store(key, row.shared)
				s := *suite
				s.Cases = slices.Clone(suite.Cases)
				e := newTestEngine(t, sandbox.Options{Suite: &s, Target: tgt, Workers: 1, Python: py.Path, Verify: verify, Collected: true}, config{})
				now, _ := rewrites.Load(key)
				if own := !bytes.Equal(now.(json.RawMessage), row.shared); own != row.own {
					t.Errorf("verify %v: the server rewrote the test file itself: %v; want %v", verify, own, row.own)
				}
				out, err := e.Run(context.Background(), []byte("def add(a, b):\n    return a + b + 1\n"), sandbox.RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range out.Results {
					if r.Verdict != fitness.WrongAnswer {
						t.Errorf("verify %v: %s: %v (%s); want WRONG", verify, s.Cases[i].Name, r.Verdict, r.Detail)
					}
				}
				if d := out.Results[1].Detail; !bytes.Contains([]byte(d), []byte("assert 5 == 4")) {
					t.Errorf("verify %v: test_two's detail %q is not the rewritten assert's", verify, d)
				}
			}
		})
	}
}
