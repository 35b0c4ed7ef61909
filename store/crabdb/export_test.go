package crabdb

import "github.com/crmem/crmem/store"

// What only the tests open a store with: the faces open one through
// store/open (OpenDBIfStore, Contents).

// NewSource reads the store at path.
func NewSource(path string) (*Source, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	return sourceOf(f), nil
}

// sourceOf is the Source over the store f read, with its memory.
func sourceOf(f *File) *Source {
	s := newSource(f)
	s.mem = store.NewMemoryWith(s.file(), store.IndexBackground)
	return s
}

// OpenDB opens the store at path as a store.DB that reads and writes
// through a Source: the one write path of both formats. opts.Guard is
// called before every write. An unfinished append of crmem's is repaired
// first (RepairAtStart), and what was done is one of its warnings.
func OpenDB(path string, opts store.Options) (*store.DB, error) {
	rep, err := RepairAtStart(path, opts.Guard)
	if err != nil {
		return nil, err
	}
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	return openBackend(path, f, rep, opts)
}

// Open reads the store at path (production reads it through openIfStore,
// which decides first whether it is a store).
func Open(path string) (*File, error) {
	data, fi, err := store.ReadFileInfo(path)
	if err != nil {
		return nil, err
	}
	return openData(path, data, fi)
}
