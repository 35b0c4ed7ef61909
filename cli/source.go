package cli

import (
	"fmt"
	"io/fs"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
)

// openSource opens the memory file, whatever its format, for a subcommand
// that reads it through store.Source (role storeSource): a CRMEM v1 file
// or crabtalk's store, read once and indexed. A missing file is an error,
// as for every read. What the read noticed (a torn tail, entries that had
// to be converted) is printed as warnings on stderr.
func (o *opener) openSource() (string, store.Source, error) {
	return o.openSourceIndexed(store.IndexBackground)
}

// openSourceIndexed is openSource with the bm25 index built as mode says:
// lint, which needs none, opens with store.IndexOnDemand.
func (o *opener) openSourceIndexed(mode store.IndexMode) (string, store.Source, error) {
	path, err := o.dbPath()
	if err != nil {
		return "", nil, err
	}
	// open.DB repairs an unfinished append of crmem's first, cutting only
	// while this guard passes (as repairAtStart), and warns of it.
	opts := open.Options{Store: store.Options{Index: mode, Sessions: o.sessionsFolder(), Guard: o.guard}, DaemonSocket: config.DaemonSocket(o.getenv)}
	src, err := open.SourceWith(path, opts) // a regular file only: a FIFO or device fails at once
	if err != nil {
		return path, nil, o.readError(path, err)
	}
	if !src.Exists() {
		return path, nil, o.memoryFileError(path, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist})
	}
	o.warnings(path, src.Features().Warnings)
	return path, src, nil
}

// readContents reads the memory file once, whatever its format, for a
// subcommand that reads it and exits (ls, show, search, export, dump): a
// CRMEM v1 file decoded, or crabtalk's store through its adapter, with no
// index built. What the read noticed is printed as warnings on stderr.
func (o *opener) readContents() (*store.Contents, error) {
	path, err := o.dbPath()
	if err != nil {
		return nil, err
	}
	if err := o.repairAtStart(path); err != nil {
		return nil, err
	}
	c, err := open.Contents(path, o.sessionsFolder()) // a regular file only: a FIFO or device fails at once
	return o.readContentsDone(path, c, err)
}

// readContentsDone is what readContents does with what reading the memory
// file at path gave: the error as the user reads it, or the contents with
// their warnings printed.
func (o *opener) readContentsDone(path string, c *store.Contents, err error) (*store.Contents, error) {
	if err != nil {
		return nil, o.readError(path, err)
	}
	if c.Features.Caps.Trailing && c.File.Trailing > 0 {
		// Read as v1 only with bytes after its last entry: named like a
		// store, it gets both readers' reasons rather than a memory with
		// no entries (unreadableStore; nil for any other name).
		if both := unreadableStore(path); both != nil {
			return nil, both
		}
	}
	o.warnings(path, c.Features.Warnings)
	return c, nil
}

// readError is why the memory file at path could not be read: for a file
// named like crabtalk's store that neither reader takes, both readers'
// reasons (unreadableStore, worked out only then: a file that reads costs
// no second read); otherwise err, naming the file.
func (o *opener) readError(path string, err error) error {
	if both := unreadableStore(path); both != nil {
		return both
	}
	return o.memoryFileError(path, err)
}

// warnings prints what reading the memory file at path noticed.
func (o *opener) warnings(path string, ws []string) {
	for _, w := range ws {
		fmt.Fprintf(o.errOut, "crmem: %s: warning: %s\n", quotePath(path), sanitizeLine(w))
	}
}
