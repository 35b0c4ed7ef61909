package bm25

import (
	"math"
	"slices"
)

// Search ranks documents for query: score > 0, highest first, ties by higher
// id, at most limit (limit <= 0 means all).
func (ix *Index) Search(query string, limit int) []Hit {
	terms := QueryTerms(query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.search(terms, limit)
}

// SearchTerms ranks for already-tokenized terms (sorted and deduplicated by
// the callee), e.g. a query plus prefix expansions.
func (ix *Index) SearchTerms(terms []string, limit int) []Hit {
	terms = normalizeTerms(slices.Clone(terms))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.search(terms, limit)
}

// SearchTermsCount is SearchTerms that also returns how many documents
// score above zero: the true number of hits, however many limit cut off.
func (ix *Index) SearchTermsCount(terms []string, limit int) ([]Hit, int) {
	terms = normalizeTerms(slices.Clone(terms))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.searchCount(terms, limit)
}

// SearchTermsAll is SearchTermsCount that also returns every document
// scoring above zero, in no particular order (its length is the true
// number of hits): for a view that lists all the hits in an order of its
// own, however many limit cut off the ranking.
func (ix *Index) SearchTermsAll(terms []string, limit int) (top, all []Hit) {
	terms = normalizeTerms(slices.Clone(terms))
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	top, _, all = ix.searchAll(terms, limit, true)
	return top, all
}

// SearchCount is Search that also returns the true number of hits.
func (ix *Index) SearchCount(query string, limit int) ([]Hit, int) {
	terms := QueryTerms(query)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.searchCount(terms, limit)
}

// idf is the reference's inverse document frequency, with a correctly
// rounded logarithm as the C library's.
func idf(n, df int) float64 {
	N, DF := float64(n), float64(df)
	return ln((N-DF+0.5)/(DF+0.5) + 1)
}

// docNorm is a document's length normalisation k1 × (1 − b + b × dl /
// avgdl), in the reference's order of operations. The explicit conversions
// forbid fused multiply-add, which would change the last bits.
func docNorm(dl, avgdl float64) float64 {
	return float64(K1 * (1 - B + float64(B*dl)/avgdl))
}

// termScore is one term's share of a document's score,
// idf × ((tf × (k1 + 1)) / (tf + norm)): the reference divides before
// multiplying by idf (the fixtures match to the bit only this way).
func termScore(idf, tf, norm float64) float64 {
	return idf * (float64(tf*(K1+1)) / (tf + norm))
}

// docNorms caches docNorm for every internal document number, valid for
// one version of the index.
type docNorms struct {
	version uint64
	norm    []float64
}

// docNorms returns the norms for the current version, computing them on
// the first search after a change; the caller holds the read lock, so the
// version cannot move meanwhile.
func (ix *Index) docNorms() []float64 {
	if c := ix.norms.Load(); c != nil && c.version == ix.version {
		return c.norm
	}
	ix.normMu.Lock()
	defer ix.normMu.Unlock()
	if c := ix.norms.Load(); c != nil && c.version == ix.version {
		return c.norm
	}
	// The previous version's array can be reused: a reader of that version
	// would hold the read lock, which the change that ended it excluded.
	c := &docNorms{version: ix.version}
	if old := ix.norms.Load(); old != nil && cap(old.norm) >= len(ix.docs) {
		c.norm = old.norm[:len(ix.docs)]
	} else {
		c.norm = make([]float64, len(ix.docs), len(ix.docs)+len(ix.docs)/8)
	}
	avgdl := ix.avgdl()
	for d, info := range ix.docs {
		c.norm[d] = 0
		if info.live {
			c.norm[d] = docNorm(float64(info.len), avgdl)
		}
	}
	ix.norms.Store(c)
	return c.norm
}

// search scores sorted, deduplicated terms; the caller holds the read lock.
func (ix *Index) search(terms []string, limit int) []Hit {
	hits, _ := ix.searchCount(terms, limit)
	return hits
}

// searchCount is search that also counts every document scoring above
// zero (every document a term touches: idf and tf are positive).
func (ix *Index) searchCount(terms []string, limit int) ([]Hit, int) {
	top, total, _ := ix.searchAll(terms, limit, false)
	return top, total
}

// searchAll ranks terms: the best limit hits, the number of documents
// scoring above zero and, when every is set, each of them, unordered.
func (ix *Index) searchAll(terms []string, limit int, every bool) (top []Hit, total int, all []Hit) {
	if ix.n == 0 || len(terms) == 0 {
		return nil, 0, nil
	}
	lists := make([]termList, 0, len(terms))
	walk := 0 // postings to walk
	for _, term := range terms {
		if t, ok := ix.voc.lookup(term); ok && ix.df(t) > 0 {
			lists = append(lists, termList{ix.postings[t], ix.df(t)})
			walk += len(ix.postings[t])
		}
	}
	if walk == 0 {
		return nil, 0, nil
	}
	acc := ix.getAcc()
	defer ix.putAcc(acc)
	norms := ix.cachedNorms(walk)
	for _, tl := range lists {
		idf, list := idf(ix.n, tl.df), tl.list
		if norms != nil {
			accumulate(acc, list, idf, norms)
		} else {
			accumulateInline(acc, list, idf, ix.docs, ix.avgdl())
		}
	}
	if every {
		all = make([]Hit, len(acc.touched))
		for i, d := range acc.touched {
			all[i] = Hit{ID: ix.docs[d].id, Score: acc.score[d]}
		}
	}
	return ix.top(acc, limit), len(acc.touched), all
}

// termList is one query term's postings (tombstones included) and df.
type termList struct {
	list []posting
	df   int
}

// cachedNorms returns the per-document norms when they are current or
// worth computing for a search that walks total postings; nil means compute
// each norm inline (a small search right after a change need not pay for
// every document's norm).
func (ix *Index) cachedNorms(total int) []float64 {
	if c := ix.norms.Load(); c != nil && c.version == ix.version {
		return c.norm
	}
	if total < len(ix.docs)/4 {
		return nil
	}
	return ix.docNorms()
}

// accumulateInline is accumulate computing each document's norm from its
// length, with bit-identical results.
func accumulateInline(acc *accumulator, list []posting, idf float64, docs []docInfo, avgdl float64) {
	score := acc.score
	touched, n := touchRoom(acc, len(list))
	for _, p := range list {
		if p.tf == 0 { // tombstone
			continue
		}
		s := termScore(idf, float64(p.tf), docNorm(float64(docs[p.doc].len), avgdl))
		old := score[p.doc]
		touched[n] = p.doc
		n += firstTouch(old)
		score[p.doc] = old + s
	}
	acc.touched = touched[:n]
}

// accumulate adds one term's contributions to the scores of its documents.
//
// A document is touched the first time its score becomes non-zero; that
// is data, not control flow (about every other posting of a later term,
// a mispredicted branch otherwise): its number is written at the end of
// touched every time, and the end advances only when its score was zero.
// The room for it is made before the loop, which then calls nothing.
func accumulate(acc *accumulator, list []posting, idf float64, norms []float64) {
	score := acc.score
	touched, n := touchRoom(acc, len(list))
	for _, p := range list {
		if p.tf == 0 { // tombstone
			continue
		}
		s := termScore(idf, float64(p.tf), norms[p.doc])
		old := score[p.doc]
		touched[n] = p.doc
		n += firstTouch(old)
		score[p.doc] = old + s
	}
	acc.touched = touched[:n]
}

// touchRoom returns acc.touched with room for n more documents, at its
// whole capacity, and its length.
func touchRoom(acc *accumulator, n int) ([]uint32, int) {
	t := slices.Grow(acc.touched, n)
	return t[:cap(t)], len(t)
}

// firstTouch is 1 when a score is still zero, else 0, without a branch:
// scores are never negative, so only +0 has all bits zero and every other
// score's bits, less one, keep the sign bit clear.
func firstTouch(score float64) int {
	return int((math.Float64bits(score) - 1) >> 63)
}

// accumulator holds per-document scores for one search: a dense array over
// internal document numbers and the list of numbers that became non-zero.
type accumulator struct {
	score   []float64
	touched []uint32
	pairs   []scored // topSelect's scratch
}

// getAcc returns a zeroed accumulator large enough for every document.
func (ix *Index) getAcc() *accumulator {
	acc, _ := ix.accPool.Get().(*accumulator)
	if acc == nil || len(acc.score) < len(ix.docs) {
		return &accumulator{score: make([]float64, len(ix.docs))}
	}
	return acc
}

// putAcc zeroes the touched scores and returns acc to the pool.
func (ix *Index) putAcc(acc *accumulator) {
	for _, d := range acc.touched {
		acc.score[d] = 0
	}
	acc.touched = acc.touched[:0]
	ix.accPool.Put(acc)
}

// hitBefore orders hits: higher score first, then higher id.
func hitBefore(a, b Hit) bool {
	return a.Score > b.Score || (a.Score == b.Score && a.ID > b.ID)
}

// compareHits is hitBefore as a sort comparison (scores are never NaN).
func compareHits(a, b Hit) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	case a.ID > b.ID:
		return -1
	case a.ID < b.ID:
		return 1
	}
	return 0
}

// heapLimit is the largest limit served by a bounded heap; larger limits
// (the TUI asks for a thousand) use quickselect, whose cost does not grow
// with the limit.
const heapLimit = 64

// top returns the best limit hits of acc in rank order without sorting
// every match: a bounded heap for small limits, quickselect for large ones.
func (ix *Index) top(acc *accumulator, limit int) []Hit {
	switch {
	case limit <= 0 || limit >= len(acc.touched):
		hits := make([]Hit, len(acc.touched))
		for i, d := range acc.touched {
			hits[i] = Hit{ID: ix.docs[d].id, Score: acc.score[d]}
		}
		slices.SortFunc(hits, compareHits)
		return hits
	case limit <= heapLimit:
		return ix.topHeap(acc, limit)
	}
	return ix.topSelect(acc, limit)
}

// topHeap selects with a bounded heap.
func (ix *Index) topHeap(acc *accumulator, limit int) []Hit {
	h := make(hitHeap, 0, limit)
	cut := math.Inf(-1) // the root's score once the heap is full
	score := acc.score
	for _, d := range acc.touched {
		s := score[d]
		if s < cut {
			continue
		}
		h.offer(Hit{ID: ix.docs[d].id, Score: s}, limit)
		if len(h) == limit {
			cut = h[0].Score
		}
	}
	slices.SortFunc(h, compareHits)
	return h
}

// scored is a candidate of topSelect: a score and an internal doc number.
type scored struct {
	score float64
	doc   uint32
}

// topSelect finds the limit-th best score with quickselect, then ranks the
// documents scoring above it plus every document tied with it (ties are
// broken by id, which only the ranking sees).
func (ix *Index) topSelect(acc *accumulator, limit int) []Hit {
	ps := acc.pairs[:0]
	for _, d := range acc.touched {
		ps = append(ps, scored{acc.score[d], d})
	}
	acc.pairs = ps
	selectTop(ps, limit)
	cut := ps[0].score
	for _, p := range ps[:limit] {
		cut = min(cut, p.score)
	}
	hits := make([]Hit, 0, limit+8)
	for _, p := range ps {
		if p.score >= cut {
			hits = append(hits, Hit{ID: ix.docs[p.doc].id, Score: p.score})
		}
	}
	slices.SortFunc(hits, compareHits)
	return hits[:limit:limit]
}

// selectTop reorders ps so that ps[:k] hold k of the highest scores
// (Hoare quickselect with a median-of-three pivot, descending).
func selectTop(ps []scored, k int) {
	lo, hi := 0, len(ps)-1
	for lo < hi {
		p := medianOf3(ps[lo].score, ps[lo+(hi-lo)/2].score, ps[hi].score)
		i, j := lo, hi
		for i <= j {
			for ps[i].score > p {
				i++
			}
			for ps[j].score < p {
				j--
			}
			if i <= j {
				ps[i], ps[j] = ps[j], ps[i]
				i, j = i+1, j-1
			}
		}
		switch { // now ps[lo:j+1] >= p >= ps[i:hi+1]
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// medianOf3 returns the middle value of a, b and c.
func medianOf3(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// hitHeap is a min-heap by rank: the root is the worst hit kept.
type hitHeap []Hit

// offer keeps hit if the heap has room or hit ranks before the root.
func (h *hitHeap) offer(hit Hit, limit int) {
	if len(*h) < limit {
		*h = append(*h, hit)
		h.up(len(*h) - 1)
		return
	}
	if hitBefore(hit, (*h)[0]) {
		(*h)[0] = hit
		h.down(0)
	}
}

func (h hitHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !hitBefore(h[p], h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (h hitHeap) down(i int) {
	for {
		w := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h) && hitBefore(h[w], h[c]) {
				w = c
			}
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
