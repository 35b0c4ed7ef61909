//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// sendSelfTerm sends SIGTERM to this process.
func sendSelfTerm() error {
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		return fmt.Errorf("send SIGTERM to self: %w", err)
	}
	return nil
}
