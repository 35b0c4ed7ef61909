package cli

import (
	"fmt"
	"os"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/open"
)

// storeImportFormat is the import format of path when it is crabtalk's
// store: --from crabdb (a file that is not a store is then an error naming
// what it is), or no --from and a regular file that is a store. It is ""
// otherwise.
func storeImportFormat(path, from string) (export.Format, error) {
	switch {
	case from == string(export.Crabdb):
		data, err := store.ReadFile(path)
		if err != nil {
			return "", fileError{path, err}
		}
		if d := open.Detect(data); !d.Store {
			what := "not a crabtalk store"
			if d.Name != "" {
				what += " but a " + d.Name + " memory file"
				if f, err := export.Detect(path); err == nil {
					what += " (--from " + string(f) + ")"
				}
			}
			return "", fileError{path, fmt.Errorf("--from crabdb: %s", what)}
		}
		return export.Crabdb, nil
	case from == "" && path != "-":
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && isStoreFile(path) {
			return export.Crabdb, nil
		}
	}
	return "", nil
}

// importCrabdb reads crabtalk's store at path for import, through the same
// adapter every read verb uses: its entries in key order with ids from 1,
// created_at cut to seconds; what the read noticed and what converting the
// entries changed are the notices, each naming the file.
func importCrabdb(path string) (*export.Imported, error) {
	c, err := open.Contents(path, "")
	if err != nil {
		return nil, fileError{path, err}
	}
	res := &export.Imported{Entries: c.File.Entries}
	for i := range res.Entries {
		res.Entries[i].ID = uint64(i + 1)
	}
	for _, w := range c.Features.Warnings {
		res.Notices = append(res.Notices, quotePath(path)+": warning: "+w)
	}
	for _, n := range c.Notices {
		res.Notices = append(res.Notices, quotePath(path)+": "+n)
	}
	return res, nil
}
