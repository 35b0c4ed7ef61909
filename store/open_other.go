//go:build !unix

package store

import (
	"os"
	"syscall"
)

// syscallENOTDIR is returned by lstat when a path element is not a folder.
const syscallENOTDIR = syscall.ENOTDIR

// openNoBlock opens path for reading.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
