//go:build !unix

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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

// Dir is a folder whose files Dir.ReadInto reads (by path here).
type Dir struct{ path string }

// OpenDir checks that path is a folder.
func OpenDir(path string) (*Dir, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
	}
	return &Dir{path: path}, nil
}

// Close does nothing here.
func (d *Dir) Close() error { return nil }

// Entries lists the folder's entries, as os.ReadDir does.
func (d *Dir) Entries() ([]fs.DirEntry, error) { return os.ReadDir(d.path) }

// ReadInto is ReadInto(filepath.Join(d's path, name), buf, o).
func (d *Dir) ReadInto(name string, buf []byte, o Options) ([]byte, error) {
	return ReadInto(filepath.Join(d.path, name), buf, o)
}
