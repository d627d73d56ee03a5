package pygen

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"testing"
)

// Compiler checks sources with CPython's compile() in one long-lived
// python3 process, so that tests and fuzz targets can check thousands of
// rendered candidates cheaply. It is safe for concurrent use.
type Compiler struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// compileScript reads one base64 source a line and answers one JSON string
// a line: "" when it compiles, else "Type: line N: message".
const compileScript = `import base64, json, sys, warnings
warnings.simplefilter("ignore")
for line in sys.stdin:
    src = base64.b64decode(line)
    try:
        compile(src, "<candidate>", "exec", dont_inherit=True)
        msg = ""
    except SyntaxError as e:
        msg = "%s: line %s: %s" % (type(e).__name__, e.lineno, e.msg)
    except Exception as e:
        msg = "%s: %s" % (type(e).__name__, e)
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()
`

// ErrNoPython is returned by NewCompiler when python3 is not on PATH.
var ErrNoPython = errors.New("python3 not found")

// NewCompiler starts python3 (from PATH).
func NewCompiler() (*Compiler, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, ErrNoPython
	}
	cmd := exec.Command(py, "-I", "-S", "-c", compileScript)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("python3: %w", err)
	}
	return &Compiler{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// Compile returns "" when CPython compiles src, else its error ("SyntaxError:
// line 3: invalid syntax"). The error is for the compiler process itself.
func (c *Compiler) Compile(src []byte) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.in, base64.StdEncoding.EncodeToString(src)+"\n"); err != nil {
		return "", fmt.Errorf("python3: %w", err)
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return "", fmt.Errorf("python3: %w", err)
	}
	var msg string
	if err := json.Unmarshal(line, &msg); err != nil {
		return "", fmt.Errorf("python3: %w", err)
	}
	return msg, nil
}

// Close stops the python3 process.
func (c *Compiler) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.in.Close()
	return c.cmd.Wait()
}

var shared struct {
	once sync.Once
	c    *Compiler
	err  error
}

// Shared returns the Compiler of the whole test process, started on first
// use and kept until the process exits, or nil when python3 is not on
// PATH (the checks that need CPython are then left out). Another failure
// to start it fails t.
func Shared(t testing.TB) *Compiler {
	t.Helper()
	shared.once.Do(func() { shared.c, shared.err = NewCompiler() })
	if errors.Is(shared.err, ErrNoPython) {
		return nil
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c
}
