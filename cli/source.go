package cli

import (
	"fmt"
	"io/fs"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
)

// openSource opens the memory file, whatever its format, for a subcommand
// that reads it through store.Source (role storeSource): a CRMEM v1 file
// or crabtalk's store, read once and indexed. A missing file is an error,
// as for every read. What the read noticed (a torn tail, entries that had
// to be converted) is printed as warnings on stderr.
func (a *app) openSource() (string, store.Source, error) {
	path, err := a.dbPath()
	if err != nil {
		return "", nil, err
	}
	if err := unreadableStore(path); err != nil {
		return path, nil, err
	}
	src, err := crabdb.OpenSource(path) // a regular file only: a FIFO or device fails at once
	if err != nil {
		return path, nil, a.memoryFileError(path, err)
	}
	if !src.Exists() {
		return path, nil, a.memoryFileError(path, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist})
	}
	for _, w := range src.Features().Warnings {
		fmt.Fprintf(a.stderr, "crmem: %s: warning: %s\n", quotePath(path), sanitizeLine(w))
	}
	return path, src, nil
}

// readContents reads the memory file once, whatever its format, for a
// subcommand that reads it and exits (ls, show, search, export, dump): a
// CRMEM v1 file decoded, or crabtalk's store through its adapter, with no
// index built. What the read noticed is printed as warnings on stderr.
func (a *app) readContents() (*store.Contents, error) {
	path, err := a.dbPath()
	if err != nil {
		return nil, err
	}
	if err := unreadableStore(path); err != nil {
		return nil, err
	}
	c, err := crabdb.ReadContents(path) // a regular file only: a FIFO or device fails at once
	if err != nil {
		return nil, a.memoryFileError(path, err)
	}
	for _, w := range c.Features.Warnings {
		fmt.Fprintf(a.stderr, "crmem: %s: warning: %s\n", quotePath(path), sanitizeLine(w))
	}
	return c, nil
}
