package store

import (
	"slices"

	"github.com/crmem/crmem/bm25"
)

// FileHit is one result of File.Search: its score and its entry.
type FileHit struct {
	Score float64
	Entry *Entry
}

// Search ranks the file's entries for query as a Memory made from it would
// (Memory.Search: exact recall, limit <= 0 means all), in one pass over
// their text and without building the index or any lookup map: the way
// for a process that searches once. Of two entries with one id, the later
// in file order is ranked, as in a Memory. The entries point into f.
func (f *File) Search(query string, limit int) []FileHit {
	ranked := bm25.Rank(len(f.Entries), func(i int) bm25.Doc { return docOf(&f.Entries[i]) }, query, limit)
	hits := make([]FileHit, len(ranked))
	for i, r := range ranked {
		hits[i] = FileHit{Score: r.Score, Entry: &f.Entries[r.Pos]}
	}
	return hits
}

// Lookup resolves a name in the file as a Memory made from it would
// (Memory.Lookup), without building its maps: by scanning the entries, as a
// process that looks up one name once should. A file whose ids do not
// strictly ascend (so some repeat, SPEC §1) goes through a Memory.
func (f *File) Lookup(name string) (Entry, bool) {
	if !ascendingIDs(f.Entries) {
		return NewMemoryWith(f, IndexOnDemand).Lookup(name)
	}
	for i := len(f.Entries) - 1; i >= 0; i-- { // the later of two with the name
		if f.Entries[i].Name == name {
			return f.Entries[i], true
		}
	}
	for _, e := range f.Entries { // ids ascend: the first is the lowest
		if slices.Contains(e.Aliases, name) {
			return e, true
		}
	}
	return Entry{}, false
}

// EntriesByID returns every entry in ascending id order, as a Memory made
// from the file would (Memory.Entries): the file's own slice when its ids
// strictly ascend, as in every file crmem or the reference writes.
func (f *File) EntriesByID() []Entry {
	if !ascendingIDs(f.Entries) {
		return NewMemoryWith(f, IndexOnDemand).Entries()
	}
	return f.Entries
}
