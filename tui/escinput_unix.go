//go:build unix

package tui

import (
	"errors"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"golang.org/x/sys/unix"
)

// Bubble Tea v2 (v2.0.9) reads keys through ultraviolet's TerminalReader,
// which holds a lone ESC byte for its EscTimeout (50 ms, reset once when
// the timer fires early: 50–100 ms, about 75 ms measured) in case it
// starts an escape sequence, so esc lagged everywhere. Bubble Tea does not
// expose that timeout. escInput is the terminal's input with the wait
// made short and done here instead: a read that returns ESC alone waits
// escWait for more bytes; none coming, it is the esc key, handed on as the
// unambiguous kitty-protocol sequence for it (CSI 27 u), which the reader
// decodes at once. A terminal writes an escape sequence or an alt+key
// (ESC x) in one go, so those arrive whole in one read, or within escWait
// when a slow link splits them, and pass through untouched.

// escWait is how long a lone ESC waits for the rest of a sequence: below
// a frame, so esc feels instant, and above the gaps between the bytes of
// one write on a slow link.
const escWait = 10 * time.Millisecond

// escKey is the esc key in the kitty keyboard protocol (CSI 27 u).
const escKey = "\x1b[27u"

// escInput wraps the terminal's input file. It is a term.File, so Bubble
// Tea still puts the terminal in raw mode and cancels reads on its file
// descriptor (for the editor and suspend) as for the file itself.
type escInput struct {
	*os.File
	wait time.Duration
}

// Read reads from the terminal, turning a lone ESC into escKey.
func (in *escInput) Read(p []byte) (int, error) {
	n, err := in.File.Read(p)
	if n != 1 || p[0] != 0x1b || err != nil || len(p) < len(escKey) {
		return n, err
	}
	more, err := readable(int(in.Fd()), in.wait)
	if err != nil || !more {
		return copy(p, escKey), nil
	}
	m, err := in.File.Read(p[1:])
	return 1 + m, err
}

// readable waits up to d for fd to have input.
func readable(fd int, d time.Duration) (bool, error) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(d/time.Millisecond))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return n > 0, err
	}
}

// inputOptions gives Bubble Tea the terminal's input wrapped in escInput:
// standard input when it is a terminal, else the controlling terminal, as
// Bubble Tea itself would choose. Where neither is a terminal, Bubble
// Tea's default is kept.
func inputOptions() []tea.ProgramOption {
	f := os.Stdin
	if !term.IsTerminal(f.Fd()) {
		tty, _, err := tea.OpenTTY()
		if err != nil {
			return nil
		}
		f = tty
	}
	return []tea.ProgramOption{tea.WithInput(&escInput{File: f, wait: escWait})}
}

// terminalFile is the file behind r when r is escInput, so a process
// given the terminal gets the terminal itself, not a pipe fed from it.
func terminalFile(r io.Reader) io.Reader {
	if in, ok := r.(*escInput); ok {
		return in.File
	}
	return r
}
