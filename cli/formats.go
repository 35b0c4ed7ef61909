package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/face/config"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
)

// storeCommand says how a subcommand treats the memory file and so
// crabtalk's store. Every subcommand is given one in the command table
// (rootCommand) and carries it as its storeRoleKey annotation.
type storeCommand string

const (
	storeIgnores storeCommand = "ignores" // reads no memory file (tokens, version)
	storeSource  storeCommand = "reads"   // reads either format itself, through one store.Source (a.readContents, a.openSource)
	storeWrites  storeCommand = "writes"  // writes either format through store.DB (a store only while crabtalk's daemon is not running)
)

// storeRoleKey is the annotation holding a subcommand's storeCommand.
const storeRoleKey = "crmem.memory"

// errDefaultIsStore is why a write is refused when no path was given and
// crabtalk's home holds a store.crmem crmem cannot write (it is no store it
// reads whole) but no memory.db: the write must not create a memory.db
// beside it that every later run opens instead of the store (issue 17).
var errDefaultIsStore = fmt.Errorf("%w; a write without --db would create %s beside it, which later runs would open instead of the store: give --db to write one",
	store.ErrCrabdb, config.MemoryFileName)

// storeAware gives c its role toward crabtalk's store. A write subcommand
// writes either format through store.DB (a store as crabtalk writes it,
// checked first that its daemon is not running), but when no path was
// given and the default path is crabtalk's store.crmem holding no store
// it reads, the write is refused (errDefaultIsStore), leaving the file
// untouched. A read subcommand reads either format itself, through one
// store.Source.
func (o *opener) storeAware(c *cobra.Command, role storeCommand) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[storeRoleKey] = string(role)
	if role != storeWrites || c.RunE == nil {
		return
	}
	own := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		path, err := o.dbPath()
		if err == nil && o.givenDBPath() == "" && filepath.Base(path) == config.StoreFileName && !isStoreFile(path) {
			return fileError{path, errDefaultIsStore}
		}
		return own(cmd, args)
	}
}

// isStoreFile reports whether path is a regular file holding a crabtalk
// store (decided by structure, SPEC §10).
func isStoreFile(path string) bool { return open.IsStore(path) }

// unreadableStore gives both readers' reasons for a file named like a
// store (".crmem") that neither reads (open.Unreadable); any other file is
// left to the v1 reader (nil).
func unreadableStore(path string) error {
	if err := open.Unreadable(path); err != nil {
		return fileError{path, err}
	}
	return nil
}

// entryNames lists the memory file's entry names (for completion), in
// the file's order: a store's in key order, a v1 file's in file order.
func (o *opener) entryNames() ([]string, error) {
	path, err := o.dbPath()
	if err != nil {
		return nil, err
	}
	c, err := open.Contents(path, "")
	if err != nil {
		return nil, fileError{path, err}
	}
	names := make([]string, len(c.File.Entries))
	for i, e := range c.File.Entries {
		names[i] = e.Name
	}
	return names, nil
}
