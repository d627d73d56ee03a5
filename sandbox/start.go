package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Stalled is the error of a starting server or worker (Who) that made no
// progress for Quiet: it did not accept a piece of a message (WriteAlive)
// or said nothing, not even a ping, while at Stage (AwaitStart). A start
// has no bound of its own: on a busy machine importing a large package or
// collecting a large test file takes minutes, and is no sign of a stuck
// process as long as it progresses.
type Stalled struct {
	Who   string
	Quiet time.Duration
	Stage string
}

func (e *Stalled) Error() string {
	// In seconds, as the documentation says it ("60s", not "1m0s").
	return fmt.Sprintf("the %s made no progress for %gs while %s", e.Who, e.Quiet.Seconds(), e.Stage)
}

// MaxStage bounds the text of a stage that the tool takes from a ping.
const MaxStage = 400

// AwaitStart returns the first message recv gives that is not a ping
// (kind ping), as long as one comes within quiet of the last: a ping's
// payload, when it has one, names the stage the process is at (*stage,
// which the *Stalled error names).
//
// waited, when not nil, is the time the process and its descendants have
// waited for a CPU so far (TreeRunDelay): the silence is the wall time
// since the last ping less what they waited in it, so that on a busy
// machine a process that progresses, slowly for want of a CPU, is not
// taken for a stuck one. One that sleeps or blocks waits for no CPU; one
// that spins in place is caught after quiet of its own running.
func AwaitStart(recv func(deadline time.Time) (byte, []byte, error), ping byte, quiet time.Duration, who string, stage *string, waited func() time.Duration) (byte, []byte, error) {
	last, base := time.Now(), time.Duration(0)
	if waited != nil {
		base = waited()
	}
	deadline := last.Add(quiet)
	for {
		kind, payload, err := recv(deadline)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if waited != nil {
				// (A descendant that ended takes its waits with it: the
				// count may fall.)
				if silence := time.Since(last) - max(waited()-base, 0); silence < quiet {
					deadline = time.Now().Add(quiet - silence)
					continue
				}
			}
			return 0, nil, &Stalled{who, quiet, *stage}
		}
		if err != nil || kind != ping {
			return kind, payload, err
		}
		if len(payload) > 0 {
			*stage = strings.ToValidUTF8(string(payload[:min(len(payload), MaxStage)]), "\uFFFD")
		}
		last, deadline = time.Now(), time.Now().Add(quiet)
		if waited != nil {
			base = waited()
		}
	}
}

// RunDelay is the time the threads of process pid have waited for a
// CPU (Linux schedstat's run delay), or 0 where the kernel does not say.
func RunDelay(pid int) time.Duration {
	d, _ := runDelay(pid, false)
	return d
}

// TreeRunDelay is RunDelay summed over process pid and its descendants.
func TreeRunDelay(pid int) time.Duration {
	var sum time.Duration
	seen := map[int]bool{}
	var walk func(pid int)
	walk = func(pid int) {
		if seen[pid] || len(seen) > 4096 {
			return
		}
		seen[pid] = true
		d, children := runDelay(pid, true)
		sum += d
		for _, c := range children {
			walk(c)
		}
	}
	walk(pid)
	return sum
}

// runDelay reads the run delay of each thread of process pid and, with
// kids, the threads' children.
func runDelay(pid int, kids bool) (sum time.Duration, children []int) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, nil
	}
	for _, t := range tasks {
		if data, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat"); err == nil {
			if f := strings.Fields(string(data)); len(f) >= 2 {
				if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
					sum += time.Duration(n)
				}
			}
		}
		if !kids {
			continue
		}
		if data, err := os.ReadFile(dir + "/" + t.Name() + "/children"); err == nil {
			for _, c := range strings.Fields(string(data)) {
				if n, err := strconv.Atoi(c); err == nil {
					children = append(children, n)
				}
			}
		}
	}
	return sum, children
}

// alivePiece is what WriteAlive writes at once.
const alivePiece = 1 << 20

// WriteAlive writes one message, its u32 length (1 + len(payload)), kind
// and payload, to a starting process in pieces of a megabyte, each of
// which it may take quiet to accept: a suite of hundreds of megabytes
// takes long to read on a busy machine. A piece not accepted in time is a
// *Stalled error at stage.
func WriteAlive(w *os.File, kind byte, payload []byte, quiet time.Duration, who, stage string) error {
	var head [5]byte
	binary.LittleEndian.PutUint32(head[:], uint32(1+len(payload)))
	head[4] = kind
	for msg := head[:]; len(msg) > 0; {
		piece := min(len(msg), alivePiece)
		w.SetWriteDeadline(time.Now().Add(quiet))
		if _, err := w.Write(msg[:piece]); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return &Stalled{who, quiet, stage}
			}
			return err
		}
		if msg = msg[piece:]; len(msg) == 0 {
			msg, payload = payload, nil
		}
	}
	return nil
}
