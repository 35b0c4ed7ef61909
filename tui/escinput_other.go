//go:build !unix

package tui

import (
	"io"

	tea "charm.land/bubbletea/v2"
)

// inputOptions keeps Bubble Tea's own input where the terminal is not a
// Unix one (escInput needs poll on the file descriptor).
func inputOptions() []tea.ProgramOption { return nil }

// terminalFile is r: no input is wrapped here.
func terminalFile(r io.Reader) io.Reader { return r }
