//go:build !unix

package tui

import "errors"

// mkfifo makes a FIFO at path: not on this system.
func mkfifo(string) error { return errors.New("no FIFOs on this system") }
