package cli

import (
	"fmt"
	"os"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store/crabdb"
)

// isStoreImport reports whether import should read path as crabtalk's
// store: --from crabdb, or no --from and a file that is a store. With
// --from crabdb, a file that is not a store is an error naming what it is.
func isStoreImport(path, from string) (bool, error) {
	switch {
	case from == string(export.Crabdb):
		data, _, err := crabdb.ReadFile(path)
		if err != nil {
			return false, fileError{path, err}
		}
		if f := crabdb.Detect(data); f != crabdb.FormatStore {
			what := "not a crabtalk store"
			if f == crabdb.FormatV1 {
				what += fmt.Sprintf(" but a CRMEM v1 memory file (crmem export --db %s | crmem import - --merge)", path)
			}
			return false, fileError{path, fmt.Errorf("--from crabdb: %s", what)}
		}
		return true, nil
	case from == "" && path != "-":
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			return isStoreFile(path), nil
		}
	}
	return false, nil
}

// importStore brings a store's memory into the v1 memory file: replacing
// it, or with merge replacing same-named entries and adding the rest.
func (a *app) importStore(path string, merge bool) error {
	s, err := readStore(path)
	if err != nil {
		return err
	}
	for _, w := range s.Warnings() {
		fmt.Fprintf(a.stderr, "crmem: %s: warning: %s\n", quotePath(path), sanitizeLine(w))
	}
	stored, problems := s.Entries()
	entries, notices := toV1Entries(stored)
	for _, p := range problems {
		notices = append(notices, p.Reason)
	}
	for _, n := range notices {
		fmt.Fprintf(a.stderr, "crmem: %s: %s\n", quotePath(path), sanitizeLine(n))
	}
	what := fmt.Sprintf("%s (crabdb)", quotePath(path))
	if merge {
		return a.mergeEntries(entries, export.MergeTree, "imported "+what)
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s: no entries to import; the memory is left as it is", quotePath(path))
	}
	return a.replaceEntries(entries, "imported", what)
}
