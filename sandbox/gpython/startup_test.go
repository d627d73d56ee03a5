package gpython

import (
	"bufio"
	"os"
	"testing"
	"time"
)

// TestAwaitStart: a starting worker is waited for as long as it pings,
// however long that is in all; one that goes silent is given up with the
// stage of its last ping.
func TestAwaitStart(t *testing.T) {
	const quiet = 2 * time.Second
	tests := []struct {
		name  string
		pings int // one every 100 ms: 3 s in all, past the window
		hello bool
		want  string // the error, "" for none
	}{
		{name: "pings past the window, then hello", pings: 30, hello: true},
		{name: "silent after its pings", pings: 2, want: "the worker made no progress for 2s while compiling the test file test_x.py"},
		{name: "silent from the start", want: "the worker made no progress for 2s while reading the suite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			defer w.Close()
			go func() {
				for range tc.pings {
					writeMsg(w, msgPing, []byte("compiling the test file test_x.py"))
					time.Sleep(100 * time.Millisecond)
				}
				if tc.hello {
					writeMsg(w, msgHello, []byte("{}"))
				}
			}()
			p := &proc{out: r, r: bufio.NewReader(r)}
			kind, _, err := p.awaitStart(quiet)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && kind != msgHello:
				t.Fatalf("got %q, want the hello", kind)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
