package crabdb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/crmem/crmem/store"
)

// File is a store on disk, read-only, that can be reloaded: a reload after
// the daemon appended reads only the new bytes; after a compaction (the
// file was replaced) or a header change it reads the file again.
type File struct {
	path  string
	info  os.FileInfo // the file the store was read from
	head  []byte      // its 32-byte header
	store *Store
	hooks appendHooks // test hooks of Append
	// recheck, when set, is the check that nobody else writes the store,
	// run again by Append once its reserve is synced where it could not
	// take a write lease (the DB's Guard).
	recheck func() error
	// onHeld, when set, is given the signals an append held (holdSignals)
	// instead of their being sent to the process again (the DB's
	// OnHeldSignal).
	onHeld func(os.Signal)
	// appends counts the appends made through this File (tests).
	appends int
}

// openData is Open of the bytes data read from path, whose stat is fi.
func openData(path string, data []byte, fi os.FileInfo) (*File, error) {
	s, err := Read(data)
	if err != nil {
		return nil, &store.PathError{Path: path, Err: err}
	}
	return &File{path: path, info: fi, head: bytes.Clone(data[:HeaderLen]), store: s}, nil
}

// Path is the path the store was opened with.
func (f *File) Path() string { return f.path }

// Store is the store as last read.
func (f *File) Store() *Store { return f.store }

// Reload says how a reload went.
type Reload int

// The ways a reload can go.
const (
	Unchanged Reload = iota // nothing new
	Appended                // only the bytes after the last whole record were read
	Reread                  // the file was read again (replaced, header changed, shrunk)
)

// String names the way.
func (r Reload) String() string {
	return [...]string{"unchanged", "appended", "re-read"}[r]
}

// Reload brings the store up to date. When the file is the same one, its
// header is unchanged and it did not shrink, only the bytes after the last
// whole record are read and replayed (a record still being written stays a
// torn tail until it is whole); otherwise the file is read again. On error
// the store is as it was.
func (f *File) Reload() (Reload, error) {
	fh, fi, err := store.OpenRegular(f.path)
	if err != nil {
		return Unchanged, err
	}
	defer fh.Close()
	head := make([]byte, HeaderLen)
	if _, err := io.ReadFull(fh, head); err != nil || !os.SameFile(fi, f.info) ||
		!bytes.Equal(head, f.head) || fi.Size() < f.store.end {
		return f.reread()
	}
	if fi.Size() == f.store.size && fi.ModTime().Equal(f.info.ModTime()) {
		return Unchanged, nil
	}
	tail := make([]byte, max(0, fi.Size()-f.store.end))
	n, err := fh.ReadAt(tail, f.store.end)
	if err != nil && !errors.Is(err, io.EOF) {
		return Unchanged, fmt.Errorf("read %s: %w", f.path, err)
	}
	if err := f.store.Extend(tail[:n]); err != nil {
		// A checkpoint appends its snapshot before it rewrites the
		// header: bytes that do not replay may be one caught half done.
		// Read the file again, which decides with the header as it is now.
		return f.reread()
	}
	f.info = fi
	return Appended, nil
}

// reread reads the whole file again.
func (f *File) reread() (Reload, error) {
	data, fi, err := store.ReadFileInfo(f.path)
	if err != nil {
		return Unchanged, err
	}
	s, err := Read(data)
	if err != nil {
		return Unchanged, &store.PathError{Path: f.path, Err: err}
	}
	f.info, f.head, f.store = fi, bytes.Clone(data[:HeaderLen]), s
	return Reread, nil
}

// IsStore reports whether path is a regular file holding a store, decided
// by structure (Detect). Only its header is read unless it could be one, so
// asking about a large v1 file costs 32 bytes.
func IsStore(path string) bool {
	_, _, ok := readStore(path)
	return ok
}

// readStore reads the file at path, with the stat taken before reading it,
// when it holds a store (ok); otherwise only its header is read, unless it
// could be one.
func readStore(path string) (data []byte, fi os.FileInfo, ok bool) {
	f, fi, err := store.OpenRegular(path)
	if err != nil {
		return nil, nil, false
	}
	head := make([]byte, HeaderLen)
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || !mayBeStore(head, fi.Size()) {
		return nil, nil, false
	}
	data, fi, err = store.ReadFileInfo(path)
	if err != nil || Detect(data) != FormatStore {
		return nil, nil, false
	}
	return data, fi, true
}

// openIfStore opens path when it holds a store, by structure (the file is
// read once): ok is false, and nothing is opened, when it does not.
func openIfStore(path string) (f *File, ok bool, err error) {
	data, fi, ok := readStore(path)
	if !ok {
		return nil, false, nil
	}
	f, err = openData(path, data, fi)
	return f, true, err
}
