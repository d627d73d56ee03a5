package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
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
func AwaitStart(recv func(deadline time.Time) (byte, []byte, error), ping byte, quiet time.Duration, who string, stage *string) (byte, []byte, error) {
	for {
		kind, payload, err := recv(time.Now().Add(quiet))
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return 0, nil, &Stalled{who, quiet, *stage}
		}
		if err != nil || kind != ping {
			return kind, payload, err
		}
		if len(payload) > 0 {
			*stage = strings.ToValidUTF8(string(payload[:min(len(payload), MaxStage)]), "\uFFFD")
		}
	}
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
