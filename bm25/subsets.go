package bm25

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Subsets ranks many queries of a few terms each over one index, each
// exactly as Search ranks it (the same hits, scores to the bit, in its
// order), at a small limit, whatever the number of distinct terms the
// queries ask: crmem recalls --report replays an agent's recalls,
// thousands of queries of a few words that ask a handful of hits each.
//
// Search adds up every posting of every query term. But on a memory of
// notes a term's share of a document's score varies little from one
// document to the next (most hold a word once): what ranks a document is
// which of the query's terms it holds. Subsets splits the documents by
// that set, from each term's bitmap of the documents that hold it, and
// visits the sets from the highest bound on their documents' scores (the
// sum of their terms' largest shares) down: a set of two terms or more is
// found a machine word of documents at a time (the bitmaps of its terms
// and-ed, those of the query's others cleared), only in the words where
// each two of its terms meet (a bit a word, kept for each pair of terms
// asked together: two common words often never meet), and each of its
// documents scored; a set of one term reads that term's documents from
// its highest share down, skipping those holding another query term.
// Once a bound
// (with a margin far above the rounding of a few additions) falls below
// the worst of the best limit hits so far, no document left can enter
// them or tie the cut, and the rest is skipped.
//
// A document's score is its shares added in term order, as Search adds
// them, each computed as Search computes it, so the hits and their scores
// are Search's to the bit. Make one with Index.Subsets; it is safe for
// concurrent use, for one version of its index: once the index changes,
// SearchTerms reports false and the caller ranks as before.
type Subsets struct {
	ix      *Index
	version uint64
	// Subsets numbers the documents from the shortest (the highest
	// share of a term held as often) up: pos is each one's place, doc
	// the document at each place, id its id; norms is the norms by
	// document.
	pos   []uint32
	doc   []uint32
	id    []uint64
	norms []float64

	mu       sync.Mutex
	terms    map[uint32]*termDocs // term id → its documents, made when first asked
	held     int                  // bytes in terms
	maxBytes int                  // bound on held (maxSubsetBytes)
	// meets is, for two terms asked together (the lower id first), the
	// blocks of 64 places where some document holds both (meet); those
	// kept take meetBytes, at most maxMeet (maxMeetBytes).
	meets     map[[2]uint32][]uint64
	meetBytes int
	maxMeet   int
}

// termDocs is one term's documents as Subsets reads them, by place.
type termDocs struct {
	once     sync.Once
	idf      float64
	max      float64   // the largest share
	postings []posting // by document, tombstones included
	has      []uint64  // bit p: the document at place p holds the term
	// rank is how many places of the blocks before each block of 64
	// (a word of has) hold the term; shares is the term's share of the
	// score of each place that holds it, in place order: the share of
	// place p is shares[rank[p/64] + the bits of has[p/64] below p].
	rank   []uint32
	shares []float64
	// blockMax is the largest share in each block of 64 places (a word
	// of has), rounded up to a float32 (half the bytes to read, still a
	// bound): the places go from the shortest document up, so a block's
	// shares are close and its bound tight.
	blockMax []float32
	// restMax is the largest share in each span of restSpan blocks and
	// every block after it: once the terms' add up below the cut, so
	// does every place left.
	restMax []float64
	// best is the places of the highest shares, at most bestLen, in
	// Search's order (ties by higher id), with their shares; all says
	// they are every document of the term.
	best      []uint32
	bestShare []float64
	all       bool
}

const (
	// maxSubsetTerms is the most terms of a query Subsets ranks: it
	// visits up to 2^n - 1 sets.
	maxSubsetTerms = 6
	// bestLen is how many of a term's best documents are kept in order.
	bestLen = 256
	// restSpan is how many blocks of 64 places share a restMax.
	restSpan = 8
	// maxMeetBytes bounds the memory of the pairs' meets kept (some
	// 40,000 pairs of a 100,000-entry memory); past it a pair's meet is
	// made for the query and dropped.
	maxMeetBytes = 8 << 20
	// maxSubsetBytes bounds the memory of the terms kept: once it is
	// taken, a query of a term not kept is left to the caller (dropping
	// the terms would make them again and again when the queries ask more
	// than fit, each costlier than the query).
	maxSubsetBytes = 64 << 20
)

// Subsets returns a ranker of many queries over ix as it is now.
func (ix *Index) Subsets() *Subsets {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	m := &Subsets{ix: ix, version: ix.version, terms: map[uint32]*termDocs{}, maxBytes: maxSubsetBytes,
		meets: map[[2]uint32][]uint64{}, maxMeet: maxMeetBytes}
	if ix.n == 0 {
		return m
	}
	m.norms = ix.docNorms()
	// A document's norm grows with its length: sorting by length (then
	// number), one integer each, orders them by norm.
	keys := make([]uint64, len(ix.docs))
	for d, info := range ix.docs {
		keys[d] = uint64(info.len)<<32 | uint64(d)
	}
	slices.Sort(keys)
	m.doc = make([]uint32, len(ix.docs))
	m.pos = make([]uint32, len(ix.docs))
	m.id = make([]uint64, len(ix.docs))
	for p, k := range keys {
		d := uint32(k)
		m.doc[p], m.pos[d], m.id[p] = d, uint32(p), ix.docs[d].id
	}
	return m
}

// SearchTerms is Index.SearchTerms(terms, limit) for limit 1..64 and at
// most six terms found in the index, while the index has not changed
// since m was made and its terms are kept or fit in the memory m keeps
// (64 MiB: a term of a 100,000-entry memory takes 30 KB and 8 bytes an
// entry that holds it, some 650 terms of 9,000 entries); ok is false otherwise,
// and the caller ranks by Search.
func (m *Subsets) SearchTerms(terms []string, limit int) (hits []Hit, ok bool) {
	if limit <= 0 || limit > heapLimit {
		return nil, false
	}
	terms = normalizeTerms(slices.Clone(terms))
	ix := m.ix
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if m.version != ix.version {
		return nil, false
	}
	if ix.n == 0 {
		return nil, true
	}
	ids := make([]uint32, 0, len(terms))
	for _, t := range terms {
		if id, found := ix.voc.lookup(t); found && ix.df(id) > 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) > maxSubsetTerms {
		return nil, false
	}
	if len(ids) == 0 {
		return nil, true
	}
	ts := make([]*termDocs, len(ids)) // in term order, as Search adds them
	for i, id := range ids {
		if ts[i], ok = m.term(id); !ok {
			return nil, false
		}
	}
	return m.top(ids, ts, limit), true
}

// term returns term id's documents, making them when first asked; ok is
// false when they are not made yet and would take the memory past
// maxSubsetBytes. The caller holds the index's read lock.
func (m *Subsets) term(id uint32) (*termDocs, bool) {
	m.mu.Lock()
	td := m.terms[id]
	if td == nil {
		size := m.termBytes(m.ix.df(id))
		if m.held+size > m.maxBytes {
			m.mu.Unlock()
			return nil, false
		}
		td = &termDocs{}
		m.terms[id] = td
		m.held += size
	}
	m.mu.Unlock()
	td.once.Do(func() { m.fill(td, id) })
	return td, true
}

// termBytes is about the memory of the documents of a term that df
// documents hold: its bitmap, ranks, block maxima, shares and best
// documents.
func (m *Subsets) termBytes(df int) int {
	n := len(m.ix.docs)
	return n/8 + n/16 + n/16 + n/(8*restSpan) + 8*df + bestLen*12
}

// fill makes term id's documents.
func (m *Subsets) fill(td *termDocs, id uint32) {
	ix := m.ix
	n := len(ix.docs)
	td.idf = idf(ix.n, ix.df(id))
	td.postings = ix.postings[id]
	words := (n + 63) / 64
	td.has = make([]uint64, words)
	held := 0
	for _, p := range td.postings {
		if p.tf != 0 {
			at := m.pos[p.doc]
			td.has[at/64] |= 1 << (at % 64)
			held++
		}
	}
	td.rank = make([]uint32, words)
	r := 0
	for w, x := range td.has {
		td.rank[w] = uint32(r)
		r += bits.OnesCount64(x)
	}
	spans := (words + restSpan - 1) / restSpan
	f := make([]float64, spans+held) // one allocation: fewer fresh pages
	td.restMax, td.shares = f[:spans:spans], f[spans:]
	for _, p := range td.postings {
		if p.tf != 0 {
			td.shares[td.place(m.pos[p.doc])] = termScore(td.idf, float64(p.tf), m.norms[p.doc])
		}
	}
	// The shares again in place order, from the shortest document up:
	// they mostly fall, so few enter the best once it is full.
	td.blockMax = make([]float32, words)
	best := make(bestHeap, 0, bestLen)
	r = 0
	for w, x := range td.has {
		most := 0.0
		for ; x != 0; x &= x - 1 {
			s := td.shares[r]
			r++
			most = max(most, s)
			if len(best) < bestLen || s >= best[0].Score {
				at := uint32(w*64 + bits.TrailingZeros64(x))
				best.offer(bestHit{Hit{ID: m.id[at], Score: s}, at})
			}
		}
		if most > 0 {
			td.blockMax[w] = roundUp32(most)
			td.max = max(td.max, most)
		}
	}
	rest := 0.0
	for w := len(td.blockMax) - 1; w >= 0; w-- {
		rest = max(rest, float64(td.blockMax[w]))
		if w%restSpan == 0 {
			td.restMax[w/restSpan] = rest
		}
	}
	slices.SortFunc(best, func(a, b bestHit) int { return compareHits(a.Hit, b.Hit) })
	td.all = len(best) < bestLen
	td.best = make([]uint32, len(best))
	td.bestShare = make([]float64, len(best))
	for i, h := range best {
		td.best[i], td.bestShare[i] = h.at, h.Score
	}
}

// bestHit is a hit of a term's best and its place.
type bestHit struct {
	Hit
	at uint32
}

// bestHeap is hitHeap of bestHits, bestLen of them: the root is the
// worst kept.
type bestHeap []bestHit

// offer keeps hit if the heap has room or hit ranks before the root.
func (h *bestHeap) offer(hit bestHit) {
	if len(*h) < bestLen {
		*h = append(*h, hit)
		for i := len(*h) - 1; i > 0; {
			p := (i - 1) / 2
			if !hitBefore((*h)[p].Hit, (*h)[i].Hit) {
				break
			}
			(*h)[p], (*h)[i] = (*h)[i], (*h)[p]
			i = p
		}
		return
	}
	if !hitBefore(hit.Hit, (*h)[0].Hit) {
		return
	}
	(*h)[0] = hit
	for i := 0; ; {
		w := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(*h) && hitBefore((*h)[w].Hit, (*h)[c].Hit) {
				w = c
			}
		}
		if w == i {
			return
		}
		(*h)[i], (*h)[w] = (*h)[w], (*h)[i]
		i = w
	}
}

// roundUp32 is x, positive and finite, as a float32 no smaller than x.
func roundUp32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Float32frombits(math.Float32bits(f) + 1) // the next float32 up
	}
	return f
}

// place is where in shares the share of place p is; the document at p
// holds the term.
func (td *termDocs) place(p uint32) uint32 {
	w := p / 64
	return td.rank[w] + uint32(bits.OnesCount64(td.has[w]&(1<<(p%64)-1)))
}

// subset is a set of a query's terms (bit i for its i-th term) and the
// bound on the scores of the documents that hold exactly those.
type subset struct {
	terms uint32
	bound float64
}

// top ranks the documents holding any of ts, by the set of them each
// holds, from the highest bound down. The caller holds the index's read
// lock.
func (m *Subsets) top(ids []uint32, ts []*termDocs, limit int) []Hit {
	sets := make([]subset, 0, 1<<len(ts)-1)
	for s := uint32(1); s < 1<<len(ts); s++ {
		b := 0.0
		for rest := s; rest != 0; rest &= rest - 1 {
			b += ts[bits.TrailingZeros32(rest)].max // in term order, as a score adds them
		}
		sets = append(sets, subset{s, b})
	}
	slices.SortFunc(sets, func(a, b subset) int {
		switch {
		case a.bound > b.bound:
			return -1
		case a.bound < b.bound:
			return 1
		}
		return 0
	})
	h := make(hitHeap, 0, limit)
	var pairs [maxSubsetTerms * maxSubsetTerms][]uint64 // the meet of terms i < j at i*maxSubsetTerms+j, once read
	blocks := make([]uint64, meetLen(len(m.doc)))
	for _, s := range sets {
		if len(h) == limit && s.bound*scoreMargin < h[0].Score {
			break // every set left scores below the cut
		}
		if bits.OnesCount32(s.terms) == 1 {
			m.topOne(ts, bits.TrailingZeros32(s.terms), &h, limit)
			continue
		}
		// The blocks where every two of the set's terms meet: the only
		// ones that may hold a document with all of them.
		first := true
		for a := s.terms; a != 0; a &= a - 1 {
			i := bits.TrailingZeros32(a)
			for b := a & (a - 1); b != 0; b &= b - 1 {
				j := bits.TrailingZeros32(b)
				p := &pairs[i*maxSubsetTerms+j]
				if *p == nil {
					*p = m.meet(ids[i], ids[j], ts[i], ts[j])
				}
				if first {
					copy(blocks, *p)
					first = false
				} else {
					for k, v := range *p {
						blocks[k] &= v
					}
				}
			}
		}
		m.topMany(ts, s.terms, blocks, &h, limit)
	}
	slices.SortFunc(h, compareHits)
	return h
}

// holdsOther reports whether the document at place p holds a term of ts
// other than the j-th.
func holdsOther(ts []*termDocs, j int, p uint32) bool {
	for k, td := range ts {
		if k != j && td.has[p/64]&(1<<(p%64)) != 0 {
			return true
		}
	}
	return false
}

// topOne offers h the documents that hold the j-th of ts and no other,
// from the highest share down, as long as one can enter h.
func (m *Subsets) topOne(ts []*termDocs, j int, h *hitHeap, limit int) {
	ix := m.ix
	td := ts[j]
	taken := 0
	for i, at := range td.best {
		if holdsOther(ts, j, at) {
			continue
		}
		hit := Hit{ID: ix.docs[m.doc[at]].id, Score: td.bestShare[i]}
		if len(*h) == limit && !hitBefore(hit, (*h)[0]) {
			return // the rest rank after this one
		}
		h.offer(hit, limit)
		if taken++; taken == limit {
			return // the rest rank after the limit taken
		}
	}
	if td.all || len(td.best) == 0 {
		return
	}
	// Past the best documents, read every posting: those that rank after
	// the last of them.
	last := Hit{ID: ix.docs[m.doc[td.best[len(td.best)-1]]].id, Score: td.bestShare[len(td.best)-1]}
	for _, p := range td.postings {
		if p.tf == 0 || holdsOther(ts, j, m.pos[p.doc]) {
			continue
		}
		hit := Hit{ID: ix.docs[p.doc].id, Score: termScore(td.idf, float64(p.tf), m.norms[p.doc])}
		if hitBefore(last, hit) && (len(*h) < limit || hitBefore(hit, (*h)[0])) {
			h.offer(hit, limit)
		}
	}
}

// topMany offers h every document that holds exactly the terms of set
// (two or more of ts) and can enter it, scored whole, reading only the
// blocks of 64 places blocks marks (bit b of word c: block 64c+b): a
// block whose terms' largest shares add up below the cut is skipped, and
// the rest once that holds of every block left.
func (m *Subsets) topMany(ts []*termDocs, set uint32, blocks []uint64, h *hitHeap, limit int) {
	var in, out [maxSubsetTerms][]uint64
	var inTerms [maxSubsetTerms]*termDocs
	ni, no := 0, 0
	for k, td := range ts {
		if set&(1<<k) != 0 {
			in[ni], inTerms[ni] = td.has, td
			ni++
		} else {
			out[no] = td.has
			no++
		}
	}
	for c, bw := range blocks {
		for ; bw != 0; bw &= bw - 1 {
			w := c*64 + bits.TrailingZeros64(bw)
			// The bounds first: most blocks a set meets once the heap
			// is full cannot reach the cut, and are skipped without
			// reading the bitmaps.
			if len(*h) == limit {
				cut, rest, block := (*h)[0].Score, 0.0, 0.0
				for _, td := range inTerms[:ni] { // in term order, as a score adds them
					rest += td.restMax[w/restSpan]
					block += float64(td.blockMax[w])
				}
				if rest*scoreMargin < cut {
					return // no place left can reach the cut
				}
				if block*scoreMargin < cut {
					continue
				}
			}
			x := in[0][w]
			for k := 1; k < ni; k++ {
				x &= in[k][w]
			}
			for k := range no {
				x &^= out[k][w]
			}
			for ; x != 0; x &= x - 1 {
				at := uint32(w*64 + bits.TrailingZeros64(x))
				score := 0.0
				for _, td := range inTerms[:ni] { // in term order, as Search adds them
					score += td.shares[td.place(at)]
				}
				if len(*h) < limit || score >= (*h)[0].Score {
					h.offer(Hit{ID: m.id[at], Score: score}, limit)
				}
			}
		}
	}
}

// meetLen is the length of a meet of n places: a bit per block of 64.
func meetLen(n int) int {
	return (n + 64*64 - 1) / (64 * 64)
}

// meet returns where terms a and b (ta and tb) meet: bit b of word c set
// when block 64c+b of places holds a document with both. It is kept for
// the next query that asks both, while the meets kept fit in
// maxMeetBytes.
func (m *Subsets) meet(a, b uint32, ta, tb *termDocs) []uint64 {
	key := [2]uint32{min(a, b), max(a, b)}
	m.mu.Lock()
	got, ok := m.meets[key]
	m.mu.Unlock()
	if ok {
		return got
	}
	got = make([]uint64, meetLen(len(ta.has)*64))
	meetInto(got, ta.has, tb.has)
	m.mu.Lock()
	if size := len(got) * 8; m.meetBytes+size <= m.maxMeet {
		m.meets[key] = got
		m.meetBytes += size
	}
	m.mu.Unlock()
	return got
}

// meetInto sets bit w%64 of dst[w/64] when x[w]&y[w] is not zero, without
// a branch: most blocks of two common words hold one or the other. A
// word of dst is made 8 blocks at a time, each block's bit shifted by a
// constant and the 8 or-ed apart from the word: shifting the word by one
// for each block made a chain two instructions long per block.
func meetInto(dst, x, y []uint64) {
	y = y[:len(x)]
	for c := range dst {
		xs := x[c*64 : min(c*64+64, len(x))]
		ys := y[c*64 : c*64+len(xs)]
		var bw uint64
		k := 0
		for ; k+8 <= len(xs); k += 8 {
			x8, y8 := xs[k:k+8:k+8], ys[k:k+8:k+8]
			v0, v1, v2, v3 := x8[0]&y8[0], x8[1]&y8[1], x8[2]&y8[2], x8[3]&y8[3]
			v4, v5, v6, v7 := x8[4]&y8[4], x8[5]&y8[5], x8[6]&y8[6], x8[7]&y8[7]
			b := (v0|-v0)>>63 | (v1|-v1)>>63<<1 | (v2|-v2)>>63<<2 | (v3|-v3)>>63<<3 |
				(v4|-v4)>>63<<4 | (v5|-v5)>>63<<5 | (v6|-v6)>>63<<6 | (v7|-v7)>>63<<7
			bw |= b << k
		}
		for ; k < len(xs); k++ {
			v := xs[k] & ys[k]
			bw |= (v | -v) >> 63 << k
		}
		dst[c] = bw
	}
}
