package bm25

import (
	"slices"
	"sync"
)

// Many ranks many queries over one index, each exactly as Search ranks
// it (the same hits, scores to the bit, and order), for a caller that
// replays thousands of queries whose terms repeat (crmem recalls
// --report). Make one with Index.Many; it is safe for concurrent use and
// follows the index's changes.
//
// For a term asked a second time it keeps the term's share of each of
// its documents' scores, computed once as Search computes it, beside its
// postings; a query whose terms all have theirs adds those up in term
// order, as Search does, without computing a share again (a division and
// a read of the document's length norm per posting); the best hits are
// taken in the pass that clears the scores for the next query, and a
// query of one term reads its list once, without an accumulator. A query
// with a term asked for the first time is ranked by Search.
type Many struct {
	ix *Index

	mu      sync.Mutex
	version uint64               // of the index the shares are for
	shares  map[uint32][]float64 // term id → share per posting (0 for a tombstone)
	held    int                  // postings in shares
	asked   map[uint32]bool      // term ids asked once
}

// Shares are kept for at most maxSharePostings postings in all: past that
// they are dropped and made again as queries ask (memory stays bounded,
// 32 MiB, however many distinct terms are asked).
const maxSharePostings = 1 << 22

// maxAsked bounds the terms noted as asked once.
const maxAsked = 1 << 16

// Many returns a ranker of many queries over ix.
func (ix *Index) Many() *Many {
	return &Many{ix: ix, shares: map[uint32][]float64{}, asked: map[uint32]bool{}}
}

// Search is Index.Search(query, limit).
func (m *Many) Search(query string, limit int) []Hit {
	return m.searchTerms(QueryTerms(query), limit)
}

// SearchTerms is Index.SearchTerms(terms, limit).
func (m *Many) SearchTerms(terms []string, limit int) []Hit {
	return m.searchTerms(normalizeTerms(slices.Clone(terms)), limit)
}

// searchTerms ranks sorted, deduplicated terms.
func (m *Many) searchTerms(terms []string, limit int) []Hit {
	ix := m.ix
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.n == 0 || len(terms) == 0 {
		return nil
	}
	ids := make([]uint32, 0, len(terms))
	for _, t := range terms {
		if id, ok := ix.voc.lookup(t); ok && ix.df(id) > 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	shares, ok := m.termShares(ids)
	if !ok {
		return ix.search(terms, limit)
	}
	if len(ids) == 1 && limit > 0 && limit <= heapLimit {
		return ix.listTop(ix.postings[ids[0]], shares[0], limit)
	}
	acc := ix.getAcc()
	for i, id := range ids {
		addShares(acc, ix.postings[id], shares[i])
	}
	if limit <= 0 || limit > heapLimit {
		defer ix.putAcc(acc)
		return ix.top(acc, limit)
	}
	return ix.takeTop(acc, limit)
}

// takeTop is topHeap that also zeroes the scores it reads and returns acc
// to the pool (putAcc), in the same pass.
func (ix *Index) takeTop(acc *accumulator, limit int) []Hit {
	h := make(hitHeap, 0, limit)
	score := acc.score
	low := 0.0 // the lowest score held once the heap is full
	for _, d := range acc.touched {
		s := score[d]
		score[d] = 0
		if len(h) == limit && s < low {
			continue
		}
		h.offer(Hit{ID: ix.docs[d].id, Score: s}, limit)
		if len(h) == limit {
			low = h[0].Score
		}
	}
	acc.touched = acc.touched[:0]
	ix.accPool.Put(acc)
	slices.SortFunc(h, compareHits)
	return h
}

// listTop ranks the documents of one term's postings, each posting's
// share given, as topHeap ranks them: a document's score is its share,
// so the list is read once, with no scores to gather.
func (ix *Index) listTop(list []posting, shares []float64, limit int) []Hit {
	h := make(hitHeap, 0, limit)
	shares = shares[:len(list)]
	for i, p := range list {
		if p.tf == 0 { // tombstone
			continue
		}
		if s := shares[i]; len(h) < limit || s >= h[0].Score {
			h.offer(Hit{ID: ix.docs[p.doc].id, Score: s}, limit)
		}
	}
	slices.SortFunc(h, compareHits)
	return h
}

// addShares is accumulate with each posting's share given.
func addShares(acc *accumulator, list []posting, shares []float64) {
	score := acc.score
	shares = shares[:len(list)]
	for i, p := range list {
		if p.tf == 0 { // tombstone
			continue
		}
		if score[p.doc] == 0 {
			acc.touched = append(acc.touched, p.doc)
		}
		score[p.doc] += shares[i]
	}
}

// termShares returns the shares of term ids for the index's current
// version, making those of terms asked before; ok is false when a term is
// asked for the first time (it is noted). The caller holds the index's
// read lock.
func (m *Many) termShares(ids []uint32) ([][]float64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ix := m.ix
	if m.version != ix.version {
		clear(m.shares)
		clear(m.asked)
		m.held, m.version = 0, ix.version
	}
	if len(m.asked) >= maxAsked {
		clear(m.asked)
	}
	ok := true
	for _, id := range ids {
		if _, have := m.shares[id]; !have && !m.asked[id] {
			m.asked[id] = true
			ok = false
		}
	}
	if !ok {
		return nil, false
	}
	out := make([][]float64, len(ids))
	var norms []float64
	for i, id := range ids {
		if s, have := m.shares[id]; have {
			out[i] = s
			continue
		}
		list := ix.postings[id]
		if m.held+len(list) > maxSharePostings {
			clear(m.shares)
			m.held = 0
		}
		if norms == nil {
			norms = ix.docNorms()
		}
		idf := idf(ix.n, ix.df(id))
		s := make([]float64, len(list))
		for k, p := range list {
			if p.tf > 0 {
				s[k] = termScore(idf, float64(p.tf), norms[p.doc])
			}
		}
		out[i] = s
		m.shares[id] = s
		m.held += len(list)
	}
	return out, true
}
