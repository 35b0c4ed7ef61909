package store

import "github.com/crmem/crmem/bm25"

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
