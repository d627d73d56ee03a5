package userfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"repair/internal/inputerr"
)

// Every kind of file a user might name: read when regular and small
// enough, refused at once with one line naming it otherwise, never
// blocking (a FIFO nobody writes) and never reading without end
// (/dev/zero).
func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.py")
	os.WriteFile(small, []byte("x = 1\n"), 0o644)
	big := filepath.Join(dir, "big.py")
	os.WriteFile(big, make([]byte, 2000), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.py")
	os.Symlink(small, link)
	tests := []struct {
		path  string
		data  string
		input string // a substring of an inputerr message
		fsErr error  // an error of the file system
	}{
		{small, "x = 1\n", "", nil},
		{link, "x = 1\n", "", nil},
		{big, "", "big.py: larger than 1000 bytes (1 KiB)", nil},
		{fifo, "", "fifo: not a regular file (a FIFO)", nil},
		{"/dev/zero", "", "/dev/zero: not a regular file (a character device)", nil},
		{dir, "", "", syscall.EISDIR},
		{filepath.Join(dir, "nope"), "", "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		start := time.Now()
		data, err := Read(tt.path, 1000)
		if time.Since(start) > 10*time.Second {
			t.Errorf("%s: took %v", tt.path, time.Since(start))
		}
		switch {
		case tt.input != "":
			if !inputerr.Is(err) || !strings.Contains(err.Error(), tt.input) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v; want an input error %q", tt.path, err, tt.input)
			}
		case tt.fsErr != nil:
			var pe *fs.PathError
			if !errors.As(err, &pe) || !errors.Is(err, tt.fsErr) {
				t.Errorf("%s: %v; want a path error %v", tt.path, err, tt.fsErr)
			}
		default:
			if err != nil || string(data) != tt.data {
				t.Errorf("%s: %q, %v", tt.path, data, err)
			}
		}
	}
}
