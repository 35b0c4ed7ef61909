package cli

import (
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// needTerminal checks that the TUI can run: its screen goes to standard
// output, which must be a terminal, and keys come from standard input or,
// when that is a pipe, from /dev/tty. Otherwise it says so plainly and
// names the subcommands scripts use instead.
func (s streams) needTerminal(root *cobra.Command) error {
	what := ""
	switch {
	case !isTerminal(s.stdout):
		what = "standard output is not one"
	case !isTerminal(s.stdin) && !canOpenTTY():
		what = "standard input is not one and there is no /dev/tty"
	default:
		return nil
	}
	return &noTerminalError{reason: what, subcommands: scriptCommands(root)}
}

// noTerminalError is needTerminal's failure.
type noTerminalError struct {
	reason      string
	subcommands []string
}

func (e *noTerminalError) Error() string {
	return "the terminal UI needs a terminal (" + e.reason + "); in scripts use the subcommands: " +
		strings.Join(e.subcommands, ", ") + " (crmem --help)"
}

// canOpenTTY reports whether the process has a controlling terminal.
func canOpenTTY() bool {
	f, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// scriptCommands names the subcommands that work without a terminal, in
// the order --help lists them (alphabetical).
func scriptCommands(root *cobra.Command) []string {
	var out []string
	for _, c := range root.Commands() {
		switch {
		case !c.IsAvailableCommand(), c.Name() == "help", c.Name() == "completion", c.Name() == "edit":
			continue
		}
		out = append(out, c.Name())
	}
	return out
}

// isTerminal reports whether r is an interactive terminal (not merely a
// character device such as /dev/null).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
