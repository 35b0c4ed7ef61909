package tui

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// screenProfile is the color profile of the terminal on standard output:
// what Bubble Tea works out at start (colorprofile.Detect on os.Stdout and
// os.Environ()), taken from lipgloss, whose package init has already
// worked out the same thing for the same output and environment. Inside
// tmux, Detect runs `tmux info` to learn whether tmux passes 24-bit colour
// on (unless NO_COLOR is set, any tmux or screen TERM sends it there);
// letting Bubble Tea detect again ran a second tmux process on every
// start (10–40 ms here).
func screenProfile() colorprofile.Profile { return lipgloss.Writer.Profile }
