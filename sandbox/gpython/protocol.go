package gpython

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"repair/fitness"
)

// Between the engine and a worker, over two pipes, every message is a
// little-endian u32 length (of the kind byte and the payload), a kind byte,
// the payload (see doc.go):
const (
	msgSuite   = 'S' // engine → worker, once: the suite as JSON
	msgRun     = 'R' // engine → worker: u8 flags, u32 case to start at, f64 timeout cap (s, 0: none), u32 first and end of the case range, [the changed definitions,] the source
	msgHello   = 'H' // worker → engine: ready, JSON {pid_ns, stack}
	msgChunk   = 'C' // worker → engine: result records (the shared area was full)
	msgCompile = 'E' // worker → engine: the candidate does not compile
	msgDone    = 'D' // worker → engine: the candidate is done; records in the shared area
	msgFatal   = 'X' // worker → engine: the worker failed (then it exits)
	msgPing    = 'P' // worker → engine, before msgHello: it progressed, in the stage named (start-up liveness)
)

// Flags of a run request.
const (
	runCoverage = 1 << iota // report the executed lines of each case
	runCheck                // report gpython limitations the cases ran into
	runAbandon              // stop at the first timed-out case (the rest: TIME_LIMIT_EXCEEDED, not run)
	runPartial              // the changed definitions precede the source (partial.go: u32 count, four u32 each)
)

// maxMessage bounds a message either side accepts.
const maxMessage = 256 << 20

// File descriptors of a worker (the engine's ExtraFiles).
const (
	fdRequests  = 3
	fdResponses = 4
	fdShared    = 5
)

// The shared area: a memfd both processes map. The worker writes the case
// it runs and when it started (so that the engine can enforce the deadline
// from outside and knows which case a crash belongs to) and appends one
// record per finished case, publishing the end of the records after each.
const (
	shmSize    = 8 << 20
	shmCase    = 0  // u64: running case + 1, 0 when none
	shmStart   = 8  // i64: nanotime when it started
	shmEnd     = 16 // u64: end of the published records
	shmRecords = 64 // first record
)

type shared []byte

func (s shared) word(off int) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Pointer(&s[off]))
}

// running returns the running case and its start (nanotime), or -1.
func (s shared) running() (int, int64) {
	c := s.word(shmCase).Load()
	start := int64(s.word(shmStart).Load())
	if c == 0 {
		return -1, 0
	}
	return int(c - 1), start
}

func (s shared) setRunning(i int, start int64) {
	s.word(shmStart).Store(uint64(start))
	s.word(shmCase).Store(uint64(i + 1))
}

func (s shared) clearRunning() { s.word(shmCase).Store(0) }

// records returns the published records, or nil when the end is garbage.
func (s shared) records() []byte {
	end := s.word(shmEnd).Load()
	if end < shmRecords || end > uint64(len(s)) {
		return nil
	}
	return s[shmRecords:end]
}

// Record flags.
const (
	recDetail      = 1 << iota // u16 length, the detail (UTF-8)
	recLines                   // u32 count, u32 line numbers
	recUnsupported             // u16 length, the gpython limitation met
)

// runHeader is the size of a run request before the source.
const runHeader = 21

// notRun is the detail of the cases after a timeout with runAbandon.
const notRun = "not run: an earlier case timed out"

// recHeader is u32 case, u8 status (a verdict, or an observation's
// status, whose encoding follows the header), u8 flags, f64 seconds.
const recHeader = 14

// maxDetail bounds a detail, in bytes.
const maxDetail = 480

// record is one case's result as the worker reports it: a verdict
// (Status 0, Result.Verdict) or an observation for the engine to judge
// (Status, one of fitness's, and its encoding).
type record struct {
	Case        int
	Result      fitness.Result
	Unsupported string
	Status      byte
	Payload     []byte // the observation (in the engine: a slice of what the worker sent)
}

// appendRecord encodes r (its Lines only when lines is true).
func appendRecord(b []byte, r record, lines bool) []byte {
	le := binary.LittleEndian
	var flags byte
	detail := truncUTF8(r.Result.Detail, maxDetail)
	if detail != "" {
		flags |= recDetail
	}
	if lines {
		flags |= recLines
	}
	uns := truncUTF8(r.Unsupported, maxDetail)
	if uns != "" {
		flags |= recUnsupported
	}
	status := byte(r.Result.Verdict)
	if r.Status != 0 {
		status = r.Status
	}
	b = le.AppendUint32(b, uint32(r.Case))
	b = append(b, status, flags)
	b = le.AppendUint64(b, math.Float64bits(r.Result.Seconds))
	if r.Status != 0 {
		b = append(b, r.Payload...)
	}
	if detail != "" {
		b = le.AppendUint16(b, uint16(len(detail)))
		b = append(b, detail...)
	}
	if lines {
		b = le.AppendUint32(b, uint32(len(r.Result.Lines)))
		for _, l := range r.Result.Lines {
			b = le.AppendUint32(b, uint32(l))
		}
	}
	if uns != "" {
		b = le.AppendUint16(b, uint16(len(uns)))
		b = append(b, uns...)
	}
	return b
}

// decodeRecords parses records, trusting nothing: case numbers, verdicts
// and lengths are checked. It calls f for each good record, and stops at
// the first bad one. Strings come from strs when it has them (nil: none).
func decodeRecords(p []byte, n int, strs strCache, f func(record)) error {
	le := binary.LittleEndian
	for len(p) > 0 {
		if len(p) < recHeader {
			return errors.New("truncated record")
		}
		idx, status, flags := le.Uint32(p), p[4], p[5]
		secs := math.Float64frombits(le.Uint64(p[6:]))
		p = p[recHeader:]
		if int64(idx) >= int64(n) || (status > byte(fitness.MemoryLimitExceeded) && status < fitness.StatusReturned) ||
			status == byte(fitness.CompilationError) {
			return fmt.Errorf("bad record (case %d, status %d)", idx, status)
		}
		if math.IsNaN(secs) || secs < 0 || secs > 1e7 {
			secs = 0
		}
		r := record{Case: int(idx), Result: fitness.Result{Seconds: secs}}
		var s string
		var err error
		if status >= fitness.StatusReturned {
			k, err := fitness.ObservationSize(status, p)
			if err != nil {
				return fmt.Errorf("case %d: %w", idx, err)
			}
			r.Status, r.Payload, p = status, p[:k], p[k:]
		} else {
			r.Result.Verdict = fitness.Verdict(status)
		}
		if flags&recDetail != 0 {
			if s, p, err = cutString(p, strs); err != nil {
				return err
			}
			r.Result.Detail = s
		}
		if flags&recLines != 0 {
			if len(p) < 4 {
				return errors.New("truncated lines")
			}
			k := le.Uint32(p)
			if uint64(k)*4 > uint64(len(p)-4) {
				return errors.New("truncated lines")
			}
			lines := make([]int, k)
			for i := range lines {
				lines[i] = int(le.Uint32(p[4+4*i:]))
			}
			p = p[4+4*int(k):]
			r.Result.Lines = lines
		}
		if flags&recUnsupported != 0 {
			if s, p, err = cutString(p, strs); err != nil {
				return err
			}
			r.Unsupported = s
		}
		f(r)
	}
	return nil
}

func cutString(p []byte, strs strCache) (string, []byte, error) {
	if len(p) < 2 {
		return "", p, errors.New("truncated string")
	}
	k := int(binary.LittleEndian.Uint16(p))
	if len(p) < 2+k {
		return "", p, errors.New("truncated string")
	}
	return strs.get(p[2 : 2+k]), p[2+k:], nil
}

// strCache holds the strings of recent records by their bytes: the
// details of a suite's cases ("expected 5, got 9") come back candidate
// after candidate, and a string per record was a good part of the engine's
// allocations. One per worker: only the goroutine running the worker uses
// it.
type strCache map[string]string

// maxStrCache bounds a strCache (each string is at most maxDetail bytes).
const maxStrCache = 4096

// get returns p as valid UTF-8 (each bad byte U+FFFD).
func (c strCache) get(p []byte) string {
	if s, ok := c[string(p)]; ok {
		return s
	}
	s := strings.ToValidUTF8(string(p), "\uFFFD")
	if c != nil {
		if len(c) >= maxStrCache {
			clear(c)
		}
		if s == string(p) {
			c[s] = s // one string for key and value
		} else {
			c[string(p)] = s
		}
	}
	return s
}

// truncUTF8 cuts s to at most n bytes at a rune boundary.
func truncUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// writeMsg writes one message.
func writeMsg(w io.Writer, kind byte, parts ...[]byte) error {
	n := 1
	for _, p := range parts {
		n += len(p)
	}
	buf := make([]byte, 5, 4+n)
	binary.LittleEndian.PutUint32(buf, uint32(n))
	buf[4] = kind
	for _, p := range parts {
		buf = append(buf, p...)
	}
	_, err := w.Write(buf)
	return err
}

// readMsg reads one message.
func readMsg(r io.Reader) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:4])
	if n == 0 || n > maxMessage {
		return 0, nil, fmt.Errorf("bad message length %d", n)
	}
	payload := make([]byte, n-1)
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, nil, err
	}
	return hdr[4], payload, nil
}
