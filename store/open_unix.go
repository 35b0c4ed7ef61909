//go:build unix

package store

import (
	"os"
	"syscall"
)

// syscallENOTDIR is returned by lstat when a path element is not a folder.
const syscallENOTDIR = syscall.ENOTDIR

// openNoBlock opens path for reading without blocking: opening a FIFO for
// reading would otherwise wait for a writer forever.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
