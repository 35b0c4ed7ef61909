//go:build !unix

package export

import (
	"errors"
	"io/fs"
	"os"
)

// openNoFollow opens path for reading unless it is a symbolic link.
func openNoFollow(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("a symbolic link")}
	}
	return os.Open(path)
}
