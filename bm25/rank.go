package bm25

import (
	"runtime"
	"slices"

	"github.com/crmem/crmem/internal/workgroup"
)

// Ranked is one result of Rank: a hit and the position of its document.
type Ranked struct {
	Hit
	Pos int
}

// Rank ranks n documents, returned by position, for query in one pass over
// their text, without building an index: for a process that searches once,
// BuildFunc(n, doc).Search(query, limit) costs a whole vocabulary and every
// posting list, where BM25 needs only each document's length and the query
// terms' frequencies. The hits, scores and order are exactly Search's on
// that index (a later document with an id replaces an earlier one, as in
// BuildFunc); each hit also carries its document's position. doc is called
// from several goroutines, and once more per position when ids do not
// ascend.
func Rank(n int, doc func(i int) Doc, query string, limit int) []Ranked {
	ranked, _, _ := RankASCII(n, doc, query, limit)
	return ranked
}

// RankASCII is Rank, and says which documents it found pure ASCII, so a
// caller that must check their text's UTF-8 need not read those again:
// mixed holds, in ascending order, the positions of the others (a byte of
// 0x80 or more in a text, or a text not scanned: a document another
// replaces, or every document for a query matched through a map), and
// scanned is false when no document was read at all (no documents, or a
// query without terms), which leaves every one unknown.
func RankASCII(n int, doc func(i int) Doc, query string, limit int) (ranked []Ranked, mixed []int, scanned bool) {
	terms := QueryTerms(query)
	if n == 0 || len(terms) == 0 {
		return nil, nil, false
	}
	q := newQueryMatcher(terms)
	shadowed := shadowedDocs(n, doc)
	parts := rankParts(n, runtime.GOMAXPROCS(0))
	var g workgroup.Group // doc's text may be a mapped file's (store.MapFile)
	for _, p := range parts {
		g.Go(func() { p.count(q, doc, shadowed) })
	}
	g.Wait()
	for _, p := range parts {
		mixed = append(mixed, p.mixed...)
	}
	return scoreParts(parts, len(terms), limit), mixed, true
}

// queryMatcher finds the query terms among a text's tokens: a short term
// (at most eight bytes) by its packed key, a longer one by its text.
//
// Every short candidate is looked up once, in a table made for the query
// (classTable) that holds the stopwords and the short terms; a query with
// too many short terms for that table looks its terms up in a map.
type queryMatcher struct {
	short    []uint64 // packed keys of the short terms
	shortPos []int    // their positions among the sorted terms
	long     []string // the longer terms
	longPos  []int
	table    *classTable       // nil: terms is used
	terms    map[uint64]uint32 // short key → tf index, when table is nil
	longs    map[string]uint32 // long term → tf index, for many long terms
	// By length, all ones where countASCII looks pieces up in the table
	// or among the stopwords (lookMasks).
	termMasks, stopMasks [9]uint64
	longLens             uint64 // bit L: a long term has L bytes (L < 64)
}

// manyLong is the number of long terms from which they are looked up in a
// map rather than compared one by one.
const manyLong = 8

func newQueryMatcher(terms []string) *queryMatcher {
	q := &queryMatcher{}
	for i, t := range terms {
		if k := packKey(t); k != 0 {
			q.short, q.shortPos = append(q.short, k), append(q.shortPos, i)
		} else {
			q.long, q.longPos = append(q.long, t), append(q.longPos, i)
		}
	}
	for _, t := range q.long {
		q.longLens |= 1 << min(len(t), 63) // 63: any length from 63 on
	}
	if len(q.long) > manyLong {
		q.longs = make(map[string]uint32, len(q.long))
		for j, t := range q.long {
			q.longs[t] = uint32(q.longPos[j])
		}
	}
	q.termMasks, q.stopMasks = lookMasks(q.short)
	if q.table = newClassTable(q.short, q.shortPos); q.table == nil {
		q.terms = make(map[uint64]uint32, len(q.short))
		for j, k := range q.short {
			q.terms[k] = uint32(q.shortPos[j])
		}
	}
	return q
}

// count adds text's query-term frequencies to tc and returns its number of
// tokens. The scanner's candidates are tokens but for one-character ASCII
// pieces (a key of one byte) and stopwords, which Build drops the same way.
// With a table, the scanner classifies the short pieces of pure-ASCII
// stretches as it finds them (scanner.classify), and counts the long ones
// when no query term is long; the candidates it keeps (all of them
// without a table) are classified here.
func (q *queryMatcher) count(sc *scanner, text string, tc *termCounts) uint32 {
	sc.table, sc.tc, sc.keepLong, sc.counted, sc.dropped = q.table, tc, len(q.long) > 0, 0, 0
	sc.scan(text)
	dropped := sc.dropped
	long := 0
	for _, key := range sc.keys {
		if key == 0 {
			if len(q.long) > 0 {
				q.matchLong(sc.longTerm(long), tc)
			}
			long++
			continue
		}
		class := q.class(key)
		dropped += class & 1
		if class > 1 {
			tc.add(class>>1 - 1)
		}
	}
	return sc.counted + uint32(len(sc.keys)) - dropped
}

// countText is count, by countASCII as far as text is ASCII when the query
// has a table; ascii says countASCII took all of it.
func (q *queryMatcher) countText(sc *scanner, ac *asciiCounter, text string, tc *termCounts) (n uint32, ascii bool) {
	if q.table == nil {
		return q.count(sc, text, tc), false
	}
	n, rest := q.countASCII(ac, text, tc)
	if rest < len(text) {
		return n + q.count(sc, text[rest:], tc), false
	}
	return n, true
}

// class is key's class (classTable.class), from the table or, for a query
// without one, from the stopwords and q.terms.
func (q *queryMatcher) class(key uint64) uint32 {
	switch {
	case q.table != nil:
		return q.table.class(key)
	case key <= 0xff || isStopKey(key):
		return 1
	}
	if j, ok := q.terms[key]; ok {
		return (j + 1) << 1
	}
	return 0
}

// classTable is a perfect hash of the stopwords and a query's short terms
// by packed key: a multiplier that gives each its own slot. A slot says
// whether its key is dropped (a stopword) or which term it is.
type classTable struct {
	mul   uint64
	shift uint // 64 − log2(len(slots))
	slots []classSlot
}

// class is key's class: 1 for a stopword or a key of one byte (dropped),
// (1 + the term's tf index) << 1 for a query term, 0 for any other token.
// It is worked out without a branch on what the key is (a stopword is
// about every third token, so such a branch is often mispredicted): a
// slot that does not hold key reads as an ordinary token. A key of one
// byte is in the table only as the stopword "a", whose class is 1 too.
// key must not be 0.
func (t *classTable) class(key uint64) uint32 {
	e := &t.slots[(key*t.mul)>>(t.shift&63)]
	diff := e.key ^ key
	class := e.class & (uint32((diff|-diff)>>63) - 1) // 0 unless e holds key
	high := key >> 8
	return class | (uint32((high|-high)>>63) ^ 1)
}

// classSlot is one key's class; an empty slot has key 0, which no short
// candidate has. The class is 1 for a stopword (dropped) and (1 + the
// term's tf index) << 1 for a term: one word, so that picking it or 0
// needs no branch.
type classSlot struct {
	key   uint64
	class uint32
}

// Table sizes and tries: a table of at least classLoad slots per key is
// tried with classTries multipliers, then one twice the size, up to
// classMaxBits. With 4 slots a key a multiplier works about one time in
// 180 for the 49 stopwords and a few terms (a few microseconds of tries):
// the 256 slots of 16 bytes take 4 KiB of the first-level cache, which
// every token's look-up reads, where 16 slots a key took 16 KiB.
const (
	classLoad    = 4
	classTries   = 1024
	classMaxBits = 14
)

// newClassTable makes the table for short terms (packed keys, with their
// tf indexes), or returns nil when none was found within the bounds (a
// query of hundreds of short terms).
func newClassTable(short []uint64, pos []int) *classTable {
	n := len(stopwords) + len(short)
	if n > classMaxKeys {
		return nil
	}
	bits := uint(6)
	for 1<<bits < classLoad*n {
		bits++
	}
	keys := make([]classSlot, 0, n)
	for _, w := range stopwords {
		keys = append(keys, classSlot{key: packKey(w), class: 1})
	}
	for j, k := range short {
		keys = append(keys, classSlot{key: k, class: (uint32(pos[j]) + 1) << 1})
	}
	placed := make([]uint64, 0, n) // room for the slots a try fills
	mul := uint64(0x9E3779B97F4A7C15)
	for ; bits <= classMaxBits; bits++ {
		t := &classTable{shift: 64 - bits, slots: make([]classSlot, 1<<bits)}
		for range classTries {
			t.mul = mul
			if t.fill(keys, placed) {
				return t
			}
			mul = mul*0x5851F42D4C957F2D + 0x14057B7EF767814F | 1 // next odd multiplier
		}
	}
	return nil
}

// classMaxKeys bounds the keys (stopwords and short terms) a table is
// looked for: beyond about 400 a collision-free multiplier for 2^14 slots
// is rarely among the tries, and each failed search costs them all.
const classMaxKeys = 400

// fill places every key in the empty table and reports whether no two
// collided; after a collision it empties the slots it filled (noted in
// placed's room), so a failed try costs the keys placed, not the table.
func (t *classTable) fill(keys []classSlot, placed []uint64) bool {
	placed = placed[:0]
	for _, k := range keys {
		i := (k.key * t.mul) >> t.shift
		if t.slots[i].key != 0 {
			for _, j := range placed {
				t.slots[j] = classSlot{}
			}
			return false
		}
		t.slots[i] = k
		placed = append(placed, i)
	}
	return true
}

// matchLong counts a long token if it is a query term.
func (q *queryMatcher) matchLong(term []byte, tc *termCounts) {
	if j, ok := q.longIndex(term); ok {
		tc.add(j)
	}
}

// longIndex returns the tf index of term if it is one of the query's long
// terms.
func (q *queryMatcher) longIndex(term []byte) (uint32, bool) {
	if q.longs != nil {
		j, ok := q.longs[string(term)]
		return j, ok
	}
	for j, t := range q.long {
		if t == string(term) {
			return uint32(q.longPos[j]), true
		}
	}
	return 0, false
}

// shadowedDocs marks the documents a later document with the same id
// replaces, or returns nil when ids ascend (as in every file crmem or the
// reference writes, so none repeats).
func shadowedDocs(n int, doc func(i int) Doc) []bool {
	// Checked first without a slice of n ids, which a fresh process pays
	// for in page faults.
	var prev uint64
	ascending := true
	for i := range n {
		id := doc(i).ID
		if i > 0 && id <= prev {
			ascending = false
			break
		}
		prev = id
	}
	if ascending {
		return nil
	}
	ids := make([]uint64, n)
	for i := range n {
		ids[i] = doc(i).ID
	}
	last := make(map[uint64]int, n)
	for i, id := range ids {
		last[id] = i
	}
	shadowed := make([]bool, n)
	for i, id := range ids {
		shadowed[i] = last[id] != i
	}
	return shadowed
}

// rankPart is one goroutine's range of documents and what Rank needs of
// them: the indexed documents' count and total length, and each matching
// document's position, length and query-term frequencies.
type rankPart struct {
	lo, hi  int
	n       int
	total   int64
	matches []rankMatch
	hits    []termHit // the matches' terms, each match's in term order
	mixed   []int     // the documents not found pure ASCII (RankASCII)
}

// rankMatch is a document holding at least one query term; its terms are
// the part's hits up to end, from the previous match's end.
type rankMatch struct {
	pos int
	id  uint64
	dl  uint32
	end uint32
}

// termHit is a query term in a document: its index and frequency.
type termHit struct {
	term, n uint32
}

// termCounts is one document's query-term frequencies by term index, and
// the terms met so far, so that a document costs what it holds, not what
// the query has: a query of thousands of terms once cleared and kept a
// frequency for every term per document (3.4 GB for 8,000 terms on 100k
// entries).
type termCounts struct {
	n    []uint32
	seen []uint32
}

// add counts one occurrence of term j.
func (c *termCounts) add(j uint32) {
	if c.n[j] == 0 {
		c.seen = append(c.seen, j)
	}
	c.n[j]++
}

// rankParts splits n documents into at most k contiguous ranges.
func rankParts(n, k int) []*rankPart {
	k = max(1, min(k, n/minPartDocs))
	parts := make([]*rankPart, k)
	for i := range k {
		parts[i] = &rankPart{lo: n * i / k, hi: n * (i + 1) / k}
	}
	return parts
}

// count scans the part's documents.
func (p *rankPart) count(q *queryMatcher, doc func(i int) Doc, shadowed []bool) {
	tc := &termCounts{n: make([]uint32, len(q.short)+len(q.long))}
	// Room for every document to match once, as address space: only the
	// pages the matches fill are touched, where growing by doubling
	// faulted in about twice that. Not huge pages: a query matching a few
	// documents would have a whole 2 MiB zeroed for them, and on the VMs
	// crmem was measured on a huge page fresh from the host costs
	// milliseconds.
	p.matches = make([]rankMatch, 0, p.hi-p.lo)
	p.hits = make([]termHit, 0, p.hi-p.lo)
	var (
		sc scanner
		ac asciiCounter
	)
	for i := p.lo; i < p.hi; i++ {
		if shadowed != nil && shadowed[i] {
			p.mixed = append(p.mixed, i)
			continue
		}
		if !p.countDoc(q, &sc, &ac, tc, i, doc(i)) {
			p.mixed = append(p.mixed, i)
		}
	}
}

// countDoc counts the document d at position i into the part and reports
// whether its texts were all pure ASCII.
func (p *rankPart) countDoc(q *queryMatcher, sc *scanner, ac *asciiCounter, tc *termCounts, i int, d Doc) bool {
	dl, ascii := q.countText(sc, ac, d.Content, tc)
	for _, a := range d.Aliases {
		n, pure := q.countText(sc, ac, a, tc)
		dl, ascii = dl+n, ascii && pure
	}
	p.endDoc(tc, i, d.ID, dl)
	return ascii
}

// endDoc adds the document at position i, with id and dl tokens, whose
// query-term frequencies tc holds, to the part, clears tc, and reports
// whether the document holds a query term (a match, which may rank).
func (p *rankPart) endDoc(tc *termCounts, i int, id uint64, dl uint32) bool {
	if dl == 0 {
		return false // not indexed: no tokens, so no terms
	}
	p.n++
	p.total += int64(dl)
	if len(tc.seen) == 0 {
		return false
	}
	slices.Sort(tc.seen) // Search adds the terms' shares in term order
	for _, j := range tc.seen {
		p.hits = append(p.hits, termHit{term: j, n: tc.n[j]})
		tc.n[j] = 0
	}
	tc.seen = tc.seen[:0]
	p.matches = append(p.matches, rankMatch{pos: i, id: id, dl: dl, end: uint32(len(p.hits))})
	return true
}

// scoreParts scores the matches as Search does: per document, each term's
// share in sorted term order, with Search's idf, norm and termScore.
func scoreParts(parts []*rankPart, nt, limit int) []Ranked {
	n, total := 0, int64(0)
	df := make([]int, nt)
	for _, p := range parts {
		n, total = n+p.n, total+p.total
		for _, h := range p.hits {
			df[h.term]++
		}
	}
	if n == 0 {
		return nil
	}
	idfs := make([]float64, nt)
	for j := range df {
		idfs[j] = idf(n, df[j])
	}
	avgdl := float64(total) / float64(n)
	var out rankHeap
	for _, p := range parts {
		start := uint32(0)
		for _, match := range p.matches {
			norm := docNorm(float64(match.dl), avgdl)
			score := 0.0
			for _, h := range p.hits[start:match.end] {
				score += termScore(idfs[h.term], float64(h.n), norm)
			}
			start = match.end
			out.offer(Ranked{Hit{ID: match.id, Score: score}, match.pos}, limit)
		}
	}
	slices.SortFunc(out, compareRanked)
	return out
}

// compareRanked orders results as Search does: higher score, then higher id.
func compareRanked(a, b Ranked) int { return compareHits(a.Hit, b.Hit) }

// rankHeap holds the best results seen so far: all of them when there is
// no limit, else at most limit in a heap whose root is the worst.
type rankHeap []Ranked

// offer adds r, dropping the worst result if the heap is then over limit.
func (h *rankHeap) offer(r Ranked, limit int) {
	if limit <= 0 {
		*h = append(*h, r)
		return
	}
	if len(*h) == limit {
		if compareRanked(r, (*h)[0]) >= 0 {
			return // no better than the worst kept
		}
		(*h)[0] = r
		h.down(0)
		return
	}
	*h = append(*h, r)
	h.up(len(*h) - 1)
}

// worse reports whether h[i] ranks below h[j].
func (h rankHeap) worse(i, j int) bool { return compareRanked(h[i], h[j]) > 0 }

func (h rankHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.worse(i, parent) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h rankHeap) down(i int) {
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h.worse(l, w) {
			w = l
		}
		if r < len(h) && h.worse(r, w) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
