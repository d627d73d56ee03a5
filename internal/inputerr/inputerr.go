// Package inputerr marks errors caused by bad user input (a missing file, a
// syntax error, an invalid suite, a bad flag value). The command maps them to
// exit code 2; every other error means the tool or its environment failed
// (exit code 3).
package inputerr

import (
	"errors"
	"fmt"
)

// Error is a bad-input error. Its message is shown to the user as is, so it
// should be one line naming the file and the line or JSON path at fault.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// New returns a bad-input error with a formatted message.
func New(format string, args ...any) error {
	return &Error{Err: fmt.Errorf(format, args...)}
}

// Wrap marks err as a bad-input error; nil stays nil.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Err: err}
}

// Is reports whether err is (or wraps) a bad-input error.
func Is(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
