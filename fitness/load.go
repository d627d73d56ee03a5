package fitness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"repair/internal/inputerr"
	"repair/internal/userfile"
)

// Suite-wide defaults, applied while loading.
const (
	DefaultTimeout = 2.0 // seconds per case
	// DefaultTestTimeout is a test file's (pytest, unittest) tests'
	// timeout: plain pytest sets none, and a real test may be heavier
	// than a call case. Timeouts are CPU time (the sandbox's
	// sandbox.CaseWall); the search caps them at ten times the
	// original's slowest case, so that a looping candidate costs little.
	DefaultTestTimeout = 10.0
	DefaultMemoryMB    = 512  // per candidate process
	DefaultTolerance   = 1e-9 // float comparison, absolute or relative
	DefaultWeight      = 1.0  // per case

	// MaxTimeout bounds a case's timeout, in seconds (a day): a longer
	// one is a typing mistake, and overflows the sandbox's timers.
	MaxTimeout = 24 * 60 * 60
)

// Load reads and validates the suite at path: a JSON suite object, a bare
// JSON array of cases, JSON lines (one case object per line), or a Python
// test file (see the package documentation); "doctest:FILE" makes a
// suite of the doctests of FILE (see loadDoctest). Every error about the file or
// its contents is an [inputerr.Error] whose message is one line naming the
// file and the line or JSON path at fault.
func Load(path string) (*Suite, error) {
	if file, ok := strings.CutPrefix(path, DoctestPrefix); ok {
		return loadDoctest(file)
	}
	// A FIFO or a device (/dev/zero) is refused, not read without end.
	data, err := userfile.Read(path, MaxFileSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		return nil, readError(path, err)
	}
	return Parse(path, data)
}

// MaxFileSize bounds a suite file: 256 MiB of JSON is a few million cases.
const MaxFileSize = 256 << 20

// readError turns a failure to read the suite file into a one-line message.
func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return inputerr.Wrap(&fileError{path + ": no such file", err})
	case errors.Is(err, fs.ErrPermission):
		return inputerr.Wrap(&fileError{path + ": permission denied", err})
	case userfile.IsDir(err):
		return inputerr.New("%s: is a directory, not a test suite file", path)
	}
	if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
		return inputerr.New("%s: is a directory, not a test suite file", path)
	}
	return fmt.Errorf("read suite %s: %w", path, err)
}

// Parse validates the contents of a suite file. path names the file in
// messages, resolves the suite's target, and selects the format by its
// name: "*.py" is a Python test file, "*.jsonl" and "*.ndjson" are JSON
// lines, anything else is JSON (a suite object, an array of cases, or JSON
// lines when the file holds several top-level objects). Every error is an
// [inputerr.Error].
func Parse(path string, data []byte) (*Suite, error) {
	s, err := parse(path, data)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	return s, nil
}

func parse(path string, data []byte) (*Suite, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a BOM some editors write
	if !utf8.Valid(data) {
		line, col := position(data, invalidUTF8(data))
		return nil, fmt.Errorf("%s:%d:%d: not UTF-8 text", path, line, col)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: empty file: no test cases", path)
	}
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".py":
		return parsePython(path, data)
	case ".jsonl", ".ndjson":
		return parseStream(path, data)
	}
	return parseJSON(path, data)
}

// invalidUTF8 returns the offset of the first byte that is not part of a
// valid UTF-8 sequence.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// position converts a byte offset into a 1-based line and a 1-based column
// counted in characters.
func position(data []byte, offset int) (line, col int) {
	offset = min(max(offset, 0), len(data))
	before := data[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCount(before)
}

// syntaxError describes a JSON syntax error in data at its line and column,
// with a clear word about the non-JSON literals NaN and Infinity that
// Python's json module writes by default.
func syntaxError(path string, data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		if errors.Is(err, errUnexpectedEOF) {
			line, col := position(data, len(bytes.TrimRight(data, " \t\r\n")))
			return fmt.Errorf("%s:%d:%d: unexpected end of JSON input", path, line, col)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	off := max(int(se.Offset)-1, 0) // Offset counts the offending byte
	msg := se.Error()
	if off >= len(data) || msg == "unexpected end of JSON input" {
		off = len(bytes.TrimRight(data, " \t\r\n"))
		msg = "unexpected end of JSON input"
	}
	rest := data[off:]
	if off > 0 && data[off-1] == '-' {
		rest = data[off-1:]
	}
	for _, lit := range []string{"NaN", "-Infinity", "Infinity"} {
		if bytes.HasPrefix(rest, []byte(lit)) {
			if lit == "-Infinity" {
				off--
			}
			msg = lit + " is not JSON: values must be plain JSON (no NaN or Infinity)"
			break
		}
	}
	line, col := position(data, off)
	return fmt.Errorf("%s:%d:%d: %s", path, line, col, msg)
}

// fileError is a short message that still unwraps to the system error.
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

var errUnexpectedEOF = errors.New("unexpected EOF")
