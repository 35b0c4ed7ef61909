//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// openFile opens path as o allows, not yet checked: stat'ed first, so
// anything but a regular file is refused before it is opened.
func openFile(path string, o Options) (*os.File, error) {
	if o.Within != "" || o.NoFollow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, err := resolveLink(path, o)
			if err != nil {
				return nil, err
			}
			path = target
		}
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return os.Open(path)
}

// ReadInto is ReadFile (buf is unused here).
func ReadInto(path string, _ []byte, o Options) ([]byte, error) {
	return ReadFile(path, o)
}
