//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
)

type cmdState struct{}

var errUnsupported = errors.New("sandbox: only Linux is supported")

func runShim([]string) {
	fmt.Fprintln(os.Stderr, errUnsupported)
	os.Exit(125)
}

// Command is not supported on this platform.
func Command(cfg Config) (*Cmd, error) { return nil, errUnsupported }

// Start is not supported on this platform.
func (c *Cmd) Start() error { return errUnsupported }

// Wait is not supported on this platform.
func (c *Cmd) Wait() error { return errUnsupported }

// Kill is not supported on this platform.
func (c *Cmd) Kill() error { return errUnsupported }

// Contained does nothing on this platform.
func (c *Cmd) Contained() {}

// Cleanup does nothing on this platform.
func (c *Cmd) Cleanup() {}
