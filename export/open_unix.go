//go:build unix

package export

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading unless its last element is a
// symbolic link, without blocking (a FIFO would wait for a writer).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
