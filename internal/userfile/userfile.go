// Package userfile reads the files a user names on the command line (a
// target, a suite, a plan, a token) without trusting them to be ordinary:
// a FIFO must not block the tool, a device such as /dev/zero must not be
// read without end, a huge file must not exhaust memory.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"repair/internal/inputerr"
)

// Read returns the contents of the regular file at path, at most max
// bytes. It opens the file without blocking (O_NONBLOCK: opening a FIFO
// that nobody writes returns at once) and refuses, as an [inputerr.Error]
// naming the file, anything that is not a regular file once opened
// (following symbolic links) and a file larger than max. Errors of the
// file system (no such file, permission denied, a directory: EISDIR) are
// returned as *fs.PathError, for the caller's own message.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if fi.Size() > max {
		return nil, inputerr.New("%s: larger than %s (%s)", path, Size(max), Size(fi.Size()))
	}
	// The size may change while we read: read one byte more than allowed
	// to notice.
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > max {
		return nil, inputerr.New("%s: larger than %s", path, Size(max))
	}
	return data, nil
}

// Open opens the regular file at path for reading, as Read does: a
// directory is an *fs.PathError wrapping EISDIR, any other file that is
// not regular an [inputerr.Error].
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	switch m := fi.Mode(); {
	case m.IsDir():
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	case !m.IsRegular():
		f.Close()
		return nil, inputerr.New("%s: not a regular file (%s)", path, kind(m))
	}
	// Reads of a regular file never block; clear the flag all the same
	// for whoever reads f.
	if err := syscall.SetNonblock(int(f.Fd()), false); err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// IsDir reports whether err says the path is a directory.
func IsDir(err error) bool { return errors.Is(err, syscall.EISDIR) }

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "mode " + m.String()
}

// Size formats a byte count for messages: "16 MiB", "200 KiB", "12 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
