package bm25

import (
	"runtime"
	"slices"

	"github.com/crmem/crmem/internal/workgroup"
)

// BuildAsked is BuildFunc(n, doc) for a caller that ranks queries of the
// given terms only (crmem recalls --report replays an agent's recalls, a
// few hundred words at most, over a memory of millions): every document
// with its length, the number of documents and their total length as
// BuildFunc has them, but the postings of those terms alone. A query of
// those terms ranks on it as on BuildFunc's index (Search, Subsets, Groups,
// Many: the same hits, scores to the bit), and DocFreq of one of them is
// the same; any other term is as absent. The documents are counted as
// Rank counts them (one pass, its terms looked up in a perfect hash of
// the asked ones, most pieces counted without a look-up), not tokenized
// into a vocabulary of every word, which cost a tenth of the replay.
//
// ok is false when the ids do not ascend (BuildFunc then turns an
// earlier document of a repeated id into tombstones): the caller builds
// the whole index. doc is called from several goroutines, once per
// position.
func BuildAsked(n int, doc func(i int) Doc, terms []string) (ix *Index, ok bool) {
	terms = normalizeTerms(slices.Clone(terms))
	ix = New()
	if n == 0 {
		return ix, true
	}
	q := newQueryMatcher(terms)
	parts := rankParts(n, runtime.GOMAXPROCS(0))
	lens := make([]uint32, n)
	ids := make([]uint64, n)
	var g workgroup.Group
	for _, p := range parts {
		g.Go(func() { p.countAsked(q, doc, lens, ids) })
	}
	g.Wait()

	ix.docs = make([]docInfo, n)
	for i := range n {
		if i > 0 && ids[i] <= ids[i-1] {
			return nil, false
		}
		ix.docs[i] = docInfo{id: ids[i], len: lens[i], live: lens[i] > 0}
	}
	ix.byID, ix.sorted = map[uint64]uint32{}, uint32(n) // ascending: found in docs
	df := make([]int, len(terms))
	for _, p := range parts {
		ix.n += p.n
		ix.total += p.total
		for _, h := range p.hits {
			df[h.term]++
		}
	}
	// Only the terms some document holds are in the vocabulary, as in
	// BuildFunc's.
	id := make([]uint32, len(terms))
	for j, t := range terms {
		if df[j] > 0 {
			id[j] = ix.voc.add(t)
			ix.postings = append(ix.postings, make([]posting, 0, df[j]))
		}
	}
	ix.dead = make([]uint32, len(ix.postings))
	for _, p := range parts { // in document order, so each list is sorted
		from := uint32(0)
		for _, m := range p.matches {
			for _, h := range p.hits[from:m.end] {
				ix.postings[id[h.term]] = append(ix.postings[id[h.term]], posting{doc: uint32(m.pos), tf: h.n})
			}
			from = m.end
		}
		p.matches, p.hits = nil, nil
	}
	return ix, true
}

// countAsked counts the part's documents as count does, and keeps every
// document's length and id (lens, ids: by position), a match or not.
func (p *rankPart) countAsked(q *queryMatcher, doc func(i int) Doc, lens []uint32, ids []uint64) {
	tc := &termCounts{n: make([]uint32, len(q.short)+len(q.long))}
	var (
		sc scanner
		ac asciiCounter
	)
	for i := p.lo; i < p.hi; i++ {
		d := doc(i)
		dl, _ := q.countText(&sc, &ac, d.Content, tc)
		for _, a := range d.Aliases {
			n, _ := q.countText(&sc, &ac, a, tc)
			dl += n
		}
		lens[i], ids[i] = dl, d.ID
		p.endDoc(tc, i, d.ID, dl)
	}
}
