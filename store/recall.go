package store

import (
	"sync"

	"github.com/crmem/crmem/bm25"
)

// The agent's recall of a CRMEM v1 file: BM25 over its entries as they are
// (bm25, bit for bit the reference's), explained term by term.

// indexRecall is the recall of a memory that follows its file (a DB): BM25
// over the memory's index, waiting for the index when it is being built.
type indexRecall struct{ mem func() *Memory }

// Rank ranks the memory's entries for query.
func (r indexRecall) Rank(query string, limit int) ([]bm25.Hit, error) {
	if limit <= 0 {
		return nil, nil
	}
	m := r.mem()
	return m.Search(query, allWithin(limit, m.Len())), nil
}

// Recall is Rank with each hit explained.
func (r indexRecall) Recall(query string, limit int) ([]bm25.Hit, []RecallHit, error) {
	if limit <= 0 {
		return nil, nil, nil
	}
	m := r.mem()
	hits := m.Search(query, allWithin(limit, m.Len()))
	return hits, explainHits(m, query, hits), nil
}

// Hits ranks every entry of the memory for query.
func (r indexRecall) Hits(query string, limit int, explain bool) (Hits, error) {
	return hitsIn(r.mem(), query, limit, explain), nil
}

// Terms are query's bm25 terms, whole words all.
func (indexRecall) Terms(query string) []RecallTerm { return wholeWords(query) }

// Words are the query's words BM25 does not take whole.
func (indexRecall) Words(query string) []QueryWord { return indexWords(query) }

// Index is the memory's bm25 index, once it is built.
func (r indexRecall) Index() *bm25.Index { return r.mem().Index() }

// Stand is BM25's ranking of every entry and where ids stand in it.
func (r indexRecall) Stand(query string, limit int, ids []uint64) (Ranking, error) {
	return standIn(r.mem().Index(), query, limit, ids), nil
}

// RecallStats are the index's document count and total length.
func (r indexRecall) RecallStats() RecallStats { return indexStats(r.mem().Index()) }

// Stored is false: BM25 over the entries as they are.
func (indexRecall) Stored() bool { return false }

// fileRecall is the recall of a file read once (Contents): a ranking scans
// the entries without building an index (bm25.Rank); the first explained
// recall builds one, which then serves every later call.
type fileRecall struct {
	f   *File
	mu  sync.Mutex
	mem *Memory // built by the first Recall or RecallStats
}

// Rank ranks the file's entries for query.
func (r *fileRecall) Rank(query string, limit int) ([]bm25.Hit, error) {
	if limit <= 0 {
		return nil, nil
	}
	if m := r.built(); m != nil {
		return m.Search(query, allWithin(limit, m.Len())), nil
	}
	found := r.f.Search(query, allWithin(limit, len(r.f.Entries)))
	hits := make([]bm25.Hit, len(found))
	for i, h := range found {
		hits[i] = bm25.Hit{ID: h.Entry.ID, Score: h.Score}
	}
	return hits, nil
}

// Recall is Rank with each hit explained, over the index.
func (r *fileRecall) Recall(query string, limit int) ([]bm25.Hit, []RecallHit, error) {
	if limit <= 0 {
		return nil, nil, nil
	}
	m := r.memory()
	hits := m.Search(query, allWithin(limit, m.Len()))
	return hits, explainHits(m, query, hits), nil
}

// Hits ranks every entry of the file for query, over the index.
func (r *fileRecall) Hits(query string, limit int, explain bool) (Hits, error) {
	return hitsIn(r.memory(), query, limit, explain), nil
}

// Terms are query's bm25 terms, whole words all.
func (*fileRecall) Terms(query string) []RecallTerm { return wholeWords(query) }

// Words are the query's words BM25 does not take whole.
func (*fileRecall) Words(query string) []QueryWord { return indexWords(query) }

// Index is the file's bm25 index, built by the first call that needs it.
func (r *fileRecall) Index() *bm25.Index { return r.memory().Index() }

// Stand is BM25's ranking of every entry and where ids stand in it, over
// the index.
func (r *fileRecall) Stand(query string, limit int, ids []uint64) (Ranking, error) {
	return standIn(r.memory().Index(), query, limit, ids), nil
}

// RecallStats are the index's document count and total length.
func (r *fileRecall) RecallStats() RecallStats { return indexStats(r.memory().Index()) }

// Stored is false: BM25 over the entries as they are.
func (*fileRecall) Stored() bool { return false }

// memory builds the index once. The memory shares the file's entries
// (NewMemoryWith only gives a nil alias list an empty one), so the file's
// entries stay readable beside it.
func (r *fileRecall) memory() *Memory {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mem == nil {
		r.mem = NewMemoryWith(r.f, IndexNow)
	}
	return r.mem
}

// built is the memory once the index is built, else nil.
func (r *fileRecall) built() *Memory {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mem
}

// Both recalls of a v1 file expand the word being typed by their index.
var (
	_ Expander = indexRecall{}
	_ Expander = (*fileRecall)(nil)
)

// allWithin is limit as bm25 takes it: 0 (every hit) when limit is at
// least the n entries there are.
func allWithin(limit, n int) int {
	if limit >= n {
		return 0
	}
	return limit
}

// hitsIn ranks m's entries for query: the first limit hits (limit <= 0:
// none), explained when explain asks, and every hit unsorted
// (bm25.Index.SearchTermsAll), so a caller that counts or lays out every
// hit never sorts them all.
func hitsIn(m *Memory, query string, limit int, explain bool) Hits {
	top, all := m.Index().SearchTermsAll(bm25.QueryTerms(query), max(limit, 1))
	if limit <= 0 {
		top = nil
	}
	h := Hits{Top: top, All: all}
	if explain {
		h.Parts = explainHits(m, query, top)
	}
	return h
}

// wholeWords are query's bm25 terms as RecallTerms: BM25 over the entries
// takes no prefixes (a `*` is punctuation to its tokenizer).
func wholeWords(query string) []RecallTerm {
	terms := bm25.QueryTerms(query)
	out := make([]RecallTerm, len(terms))
	for i, t := range terms {
		out[i] = RecallTerm{Text: t}
	}
	return out
}

// explainHits explains each of hits, in order, as the index scores it.
func explainHits(m *Memory, query string, hits []bm25.Hit) []RecallHit {
	ix := m.Index()
	out := make([]RecallHit, len(hits))
	for i, h := range hits {
		ex := ix.Explain(query, h.ID)
		rh := RecallHit{Score: h.Score, DocLen: uint32(ex.DocLen), Weight: 1, Parts: make([]Part, len(ex.Terms))}
		if e, ok := m.Get(h.ID); ok {
			rh.Name = e.Name
		}
		for j, t := range ex.Terms {
			rh.Parts[j] = Part{Query: t.Term, Term: t.Term, TF: t.TF, DF: t.DF, IDF: t.IDF, Contrib: t.Contrib}
		}
		out[i] = rh
	}
	return out
}

// indexStats are ix's document count and total length.
func indexStats(ix *bm25.Index) RecallStats {
	return RecallStats{Docs: uint64(ix.Len()), TotalLen: uint64(ix.TotalLen())}
}

// standIn is ix's ranking of every document for query and where ids stand
// in it, every query term a part (bm25.Index.Stand).
func standIn(ix *bm25.Index, query string, limit int, ids []uint64) Ranking {
	cut, st := ix.Stand(query, limit, ids)
	rk := Ranking{Ranked: cut.Ranked, Top: cut.Top, Standings: make(map[uint64]Standing, len(st))}
	for _, s := range st {
		sd := Standing{Rank: s.Rank, Score: s.Score, DocLen: s.DocLen}
		for _, t := range s.Terms {
			sd.Parts = append(sd.Parts, Part{Query: t.Term, Term: t.Term, TF: t.TF, DF: t.DF, IDF: t.IDF, Contrib: t.Contrib})
		}
		rk.Standings[s.ID] = sd
	}
	return rk
}
