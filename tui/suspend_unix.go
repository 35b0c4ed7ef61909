//go:build unix

package tui

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// suspendCmd stops crmem as the shell's ctrl+z does (SIGTSTP to the
// process group) with the terminal handed back, and resumes on SIGCONT.
// It goes through the same settled exec as the editor, so the screen is
// always redrawn after fg.
func suspendCmd() tea.Cmd {
	return tea.Exec(&settledCommand{run: stopUntilContinued}, nil)
}

// stopUntilContinued stops the process group and returns once continued.
func stopUntilContinued() error {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGCONT)
	defer signal.Stop(c)
	if err := syscall.Kill(0, syscall.SIGTSTP); err != nil {
		return err
	}
	<-c
	return nil
}
