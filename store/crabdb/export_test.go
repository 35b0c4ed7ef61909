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
