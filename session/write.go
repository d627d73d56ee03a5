// Writing files: the checks before a search that its outputs can be
// written, and --write, which applies the fix to the target files.

package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"repair/internal/inputerr"
)

// CheckWritable fails early, before any search, when flag's file (the
// report, the .orig copy of --write) cannot be written.
func CheckWritable(flag, path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return inputerr.New("%s %s: directory %s does not exist", flag, path, dir)
	}
	if !fi.IsDir() {
		return inputerr.New("%s %s: %s is not a directory", flag, path, dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return inputerr.New("%s %s: is a directory", flag, path)
	}
	f, err := os.CreateTemp(dir, ".repair-check-*")
	if err != nil {
		return inputerr.New("%s %s: cannot write in %s: %v", flag, path, dir, Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// checkTargetWritable refuses --write on a file nobody may write (its mode
// has no write bit: even root, who could, is not meant to), that cannot
// be opened for writing, or whose directories (of the .orig copy, next to
// the path given, and of the file it names through symbolic links, where
// the new contents are written and renamed) are not writable.
func checkTargetWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o222 == 0 {
		return inputerr.New("--write: %s is read-only", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return inputerr.New("--write: cannot write %s: %v", path, Unwrap(err))
	}
	f.Close()
	if err := CheckWritable("--write", path+".orig"); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return inputerr.New("--write: %s: %v", path, Unwrap(err))
	}
	if real != path {
		return CheckWritable("--write", real)
	}
	return nil
}

// writeTargets writes the repaired source over the target, or over each
// target file it changes when several are repaired together.
func writeTargets(log io.Writer, l *Input, fixed []byte) error {
	paths, olds, news := []string{l.Path}, [][]byte{l.Prog.Src}, [][]byte{fixed}
	if len(l.Paths) > 1 {
		var ok bool
		olds, _ = l.Prog.SplitFiles(l.Prog.Src)
		if news, ok = l.Prog.SplitFiles(fixed); !ok {
			return fmt.Errorf("--write: the repaired source lost a file boundary")
		}
		paths = l.Paths
	}
	for i, p := range paths {
		if string(olds[i]) == string(news[i]) {
			continue
		}
		if err := writeTarget(p, olds[i], news[i]); err != nil {
			return err
		}
		fmt.Fprintf(log, "repair: wrote %s (the original is in %s.orig)\n", p, p)
	}
	return nil
}

// writeTarget keeps the original in PATH.orig and replaces the file PATH
// names with the repaired source atomically (a new file renamed over it),
// keeping its mode. Through a symbolic link it replaces the file the link
// leads to, and the link stays a link.
func writeTarget(path string, orig, fixed []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return inputerr.New("--write: %s: %v", path, Unwrap(err))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return inputerr.New("--write: %s: %v", path, Unwrap(err))
	}
	if err := os.WriteFile(path+".orig", orig, fi.Mode().Perm()); err != nil {
		return inputerr.New("--write: %s.orig: %v", path, Unwrap(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".*")
	if err != nil {
		return inputerr.New("--write: %s: %v", real, Unwrap(err))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(fixed); err != nil {
		tmp.Close()
		return fmt.Errorf("--write: %s: %w", real, err)
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("--write: %s: %w", real, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--write: %s: %w", real, err)
	}
	return os.Rename(tmp.Name(), real)
}

// Unwrap is the cause of a file error without its path, for messages
// that name the file themselves.
func Unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
