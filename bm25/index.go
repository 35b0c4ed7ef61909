package bm25

import (
	"cmp"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

// Parameters of the reference ranking, and of crabtalk's store's own
// recall (store/crabdb), which uses the same.
const (
	K1 = 1.2
	B  = 0.75
)

// Doc is one entry's indexable text: content then aliases.
type Doc struct {
	ID      uint64
	Content string
	Aliases []string
}

// Hit is one ranked result.
type Hit struct {
	ID    uint64
	Score float64
}

// posting is one document's occurrence of a term: its internal document
// number and the term frequency. A posting with tf 0 is a tombstone: its
// document was removed (see Index).
type posting struct{ doc, tf uint32 }

// findDoc returns where doc's posting is, or would be, in a list sorted by
// document number whose numbers all lie below span, and whether it is
// there. Numbers in a list are spread fairly evenly over [0, span), so each
// step guesses the position by interpolating between the numbers known to
// bound the range (at first 0 and span, then probed ones, so a guess costs
// one memory access): a few probes, converging, instead of a binary
// search's cache miss per halving. After two guesses in a row that fail to
// halve the range comes a bisection, so a skewed list costs at most about
// three times a binary search.
func findDoc(list []posting, doc, span uint32) (int, bool) {
	lo, hi := 0, len(list)
	va, vb := uint64(0), uint64(span) // list[lo:hi] holds numbers in [va, vb)
	slow := 0                         // guesses in a row that did not halve the range
	for hi-lo > 8 {
		m := lo + (hi-lo)/2
		if slow < 2 && vb > va {
			off := (uint64(doc) - min(va, uint64(doc))) * uint64(hi-lo) / (vb - va)
			m = lo + int(min(off, uint64(hi-lo-1)))
		}
		p := list[m].doc
		if p == doc {
			return m, true
		}
		width := hi - lo
		if p < doc {
			lo, va = m+1, uint64(p)+1
		} else {
			hi, vb = m, uint64(p)
		}
		if 2*(hi-lo) > width {
			slow++
		} else {
			slow = 0
		}
	}
	for ; lo < hi; lo++ {
		if list[lo].doc >= doc {
			return lo, list[lo].doc == doc
		}
	}
	return lo, false
}

// docInfo describes one internal document number.
type docInfo struct {
	id   uint64
	len  uint32 // token count
	live bool   // false once the document is removed (or had no tokens)
}

// Index is an inverted index with BM25 ranking identical to the reference.
// It is safe for concurrent use. Make one with New or Build; the zero Index
// is not ready for use.
//
// Invariants:
//   - Internal document numbers are never reused: a new or replaced
//     document gets len(docs), so appending its postings keeps every
//     posting list sorted by document number, and a document's posting in
//     a list is found by searching (findDoc). The index keeps no
//     per-document term lists; Remove and Replace re-tokenize the old
//     document instead.
//   - Removing a document turns each of its postings into a tombstone (tf
//     0) and counts it in dead; a term's df is len(postings[t]) - dead[t].
//     Search, Explain, Expand and TermFreq skip tombstones. A list whose
//     tombstones outnumber its live postings is compacted in place, so
//     dead[t] <= live postings and an empty df means an empty list.
//   - Removed documents keep their numbers (live false) until the dead
//     numbers outnumber both the live documents and a quarter of the
//     vocabulary; then every number is reassigned densely in order and
//     every posting list rewritten (compactDocs). Each removal pays for
//     that in amortised time proportional to a document's terms.
type Index struct {
	mu sync.RWMutex

	voc      vocab       // term text ↔ term id
	postings [][]posting // term id → postings sorted by doc, tombstones included
	dead     []uint32    // term id → tombstones in its posting list

	docs     []docInfo         // internal doc number → id and length
	byID     map[uint64]uint32 // entry id → internal doc number (live only, from sorted on)
	sorted   uint32            // documents below it have ascending ids: found in docs, not in byID
	n        int               // indexed documents
	total    int64             // tokens over indexed documents
	scratch  []uint32          // term ids of the document being set
	at       []int             // posting positions of the document being removed
	accPool  sync.Pool         // *accumulator, sized to len(docs)
	prefixes prefixIndex       // sorted vocabulary for Expand
	version  uint64            // bumped by every change
	normMu   sync.Mutex        // serialises filling the norms cache
	norms    atomic.Pointer[docNorms]
}

// ErrStaleDoc is the panic value of Remove and Replace when the old
// document given is not the one indexed under its id (its tokens differ),
// a caller's bug that would otherwise corrupt the index.
var ErrStaleDoc = errors.New("bm25: old document differs from the indexed one")

// New returns an empty index.
func New() *Index {
	return &Index{voc: newVocab(), byID: map[uint64]uint32{}}
}

// Set indexes a document whose id is not indexed yet, in time proportional
// to its terms; use Replace to change an indexed document. A document
// without tokens is not indexed. Set panics if d.ID is already indexed.
func (ix *Index) Set(d Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, ok := ix.docNum(d.ID); ok {
		panic("bm25: Set of an indexed id; use Replace")
	}
	ix.version++
	ix.add(&d)
	ix.maybeCompactDocs()
}

// Replace swaps old, the document last indexed under old.ID (if it was
// indexed at all), for d, in time proportional to the two documents'
// terms. It panics with ErrStaleDoc, leaving the index unchanged, if old is
// not what was indexed.
func (ix *Index) Replace(old, d Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, ok := ix.docNum(d.ID); ok && d.ID != old.ID {
		panic("bm25: Replace onto another indexed id")
	}
	ix.version++
	ix.remove(&old) // checks old before changing anything
	ix.add(&d)
	ix.maybeCompactDocs()
}

// Remove drops old, the document last indexed under old.ID (a no-op if that
// id is not indexed), in time proportional to its terms. It panics with
// ErrStaleDoc if old is not what was indexed.
func (ix *Index) Remove(old Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.version++
	ix.remove(&old)
	ix.maybeCompactDocs()
}

// add indexes a document under a fresh internal number, appending one
// posting per distinct term (which keeps every list sorted by doc).
func (ix *Index) add(d *Doc) {
	ids, dl := ix.docTermIDs(d)
	if dl == 0 {
		return
	}
	doc := ix.allocDoc(d.ID, uint32(dl))
	for i := 0; i < len(ids); {
		j := i + 1
		for j < len(ids) && ids[j] == ids[i] {
			j++
		}
		t := ids[i]
		ix.postings[t] = append(ix.postings[t], posting{doc: doc, tf: uint32(j - i)})
		i = j
	}
}

// docTermIDs tokenizes a document into sorted term ids (interning new
// terms) and returns them with the token count.
func (ix *Index) docTermIDs(d *Doc) ([]uint32, int) {
	ids := ix.scratch[:0]
	tz := tokenizer{}
	for i := -1; i < len(d.Aliases); i++ {
		tz.reset(docText(d, i))
		for tz.next() {
			ids = append(ids, ix.intern(&tz))
		}
	}
	ix.scratch = ids
	slices.Sort(ids)
	return ids, len(ids)
}

// knownTermIDs is docTermIDs for a document already indexed: it interns
// nothing and reports false if a token is not in the vocabulary.
func (ix *Index) knownTermIDs(d *Doc) ([]uint32, bool) {
	ids := ix.scratch[:0]
	tz := tokenizer{}
	for i := -1; i < len(d.Aliases); i++ {
		tz.reset(docText(d, i))
		for tz.next() {
			t, ok := ix.voc.find(&tz)
			if !ok {
				return nil, false
			}
			ids = append(ids, t)
		}
	}
	ix.scratch = ids
	slices.Sort(ids)
	return ids, true
}

// docText is a document's content (i < 0) or its i-th alias.
func docText(d *Doc, i int) string {
	if i < 0 {
		return d.Content
	}
	return d.Aliases[i]
}

// intern returns the current token's term id, adding the term if it is new.
func (ix *Index) intern(tz *tokenizer) uint32 {
	t, added := ix.voc.intern(tz)
	if added {
		ix.postings = append(ix.postings, nil)
		ix.dead = append(ix.dead, 0)
		ix.prefixes.add(t)
	}
	return t
}

// docNum returns the internal number of the live document indexed under
// id: one of the first sorted documents (a Build's whose ids ascend, as
// in every file crmem or the reference writes), found by binary search
// without a map entry each, or a later one, in byID.
func (ix *Index) docNum(id uint64) (uint32, bool) {
	if doc, ok := ix.byID[id]; ok {
		return doc, true
	}
	docs := ix.docs[:ix.sorted]
	i, found := slices.BinarySearchFunc(docs, id, func(d docInfo, id uint64) int { return cmp.Compare(d.id, id) })
	if found && docs[i].live {
		return uint32(i), true
	}
	return 0, false
}

// allocDoc assigns the next internal document number to an entry.
func (ix *Index) allocDoc(id uint64, dl uint32) uint32 {
	doc := uint32(len(ix.docs))
	ix.docs = append(ix.docs, docInfo{id: id, len: dl, live: true})
	ix.byID[id] = doc
	ix.n++
	ix.total += int64(dl)
	return doc
}

// remove drops old if its id is indexed: its terms are found by
// re-tokenizing it, and its posting in each term's list (found by binary
// search) becomes a tombstone. Its document number stays allocated.
func (ix *Index) remove(old *Doc) {
	doc, ok := ix.docNum(old.ID)
	if !ok {
		return
	}
	ids, ok := ix.knownTermIDs(old)
	if !ok || len(ids) != int(ix.docs[doc].len) {
		panic(ErrStaleDoc)
	}
	ids = slices.Compact(ids)
	at := ix.findPostings(ids, doc) // before changing anything
	for k, t := range ids {
		ix.tombstone(t, at[k])
	}
	ix.n--
	ix.total -= int64(ix.docs[doc].len)
	ix.docs[doc].live = false
	delete(ix.byID, old.ID)
}

// findPostings returns where doc's live posting sits in each of the
// sorted, distinct terms' lists, panicking with ErrStaleDoc if one has none.
func (ix *Index) findPostings(terms []uint32, doc uint32) []int {
	at := ix.at[:0]
	for _, t := range terms {
		list := ix.postings[t]
		i, found := findDoc(list, doc, uint32(len(ix.docs)))
		if !found || list[i].tf == 0 {
			panic(ErrStaleDoc)
		}
		at = append(at, i)
	}
	ix.at = at
	return at
}

// tombstone marks the posting at i in term t's list dead, compacting the
// list once its tombstones outnumber its live postings (each compaction is
// paid for by the removals since the last one).
func (ix *Index) tombstone(t uint32, i int) {
	list := ix.postings[t]
	list[i].tf = 0
	ix.dead[t]++
	if 2*int(ix.dead[t]) > len(list) {
		ix.postings[t] = dropTombstones(list)
		ix.dead[t] = 0
	}
}

// dropTombstones removes a list's tombstones in place, keeping its order.
func dropTombstones(list []posting) []posting {
	k := 0
	for _, p := range list {
		if p.tf > 0 {
			list[k] = p
			k++
		}
	}
	return list[:k]
}

// maybeCompactDocs renumbers the documents densely once removed numbers
// outnumber both the live documents and a quarter of the vocabulary; the
// caller holds the write lock. Rewriting every list costs about the live
// postings plus the vocabulary, and at least that many removals (each
// freeing one number) happened since the last compaction.
func (ix *Index) maybeCompactDocs() {
	if dead := len(ix.docs) - ix.n; dead > max(ix.n, len(ix.postings)/4) {
		ix.compactDocs()
	}
}

// compactDocs gives the live documents the numbers 0..n-1 in their old
// order (so posting lists stay sorted) and drops every tombstone.
func (ix *Index) compactDocs() {
	renum := make([]uint32, len(ix.docs))
	docs := make([]docInfo, 0, ix.n+ix.n/16)
	sorted := uint32(0) // the live ones of the sorted documents come first, still ascending
	for d, info := range ix.docs {
		if info.live {
			renum[d] = uint32(len(docs))
			if uint32(d) < ix.sorted {
				sorted++
			} else {
				ix.byID[info.id] = uint32(len(docs))
			}
			docs = append(docs, info)
		}
	}
	ix.sorted = sorted
	for t, list := range ix.postings {
		k := 0
		for _, p := range list {
			if p.tf > 0 {
				list[k] = posting{doc: renum[p.doc], tf: p.tf}
				k++
			}
		}
		ix.postings[t] = list[:k]
		ix.dead[t] = 0
	}
	ix.docs = docs
}

// df returns term t's document frequency: its live postings.
func (ix *Index) df(t uint32) int { return len(ix.postings[t]) - int(ix.dead[t]) }

// Len returns N, the number of indexed documents.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.n
}

// AvgDocLen returns total tokens / N (0 for an empty index).
func (ix *Index) AvgDocLen() float64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.avgdl()
}

// TotalLen returns the indexed documents' total length in tokens.
func (ix *Index) TotalLen() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return int(ix.total)
}

func (ix *Index) avgdl() float64 {
	if ix.n == 0 {
		return 0
	}
	return float64(ix.total) / float64(ix.n)
}

// DocLen returns a document's token count (0 if not indexed).
func (ix *Index) DocLen(id uint64) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if doc, ok := ix.docNum(id); ok {
		return int(ix.docs[doc].len)
	}
	return 0
}

// DocFreq returns how many documents contain term.
func (ix *Index) DocFreq(term string) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if t, ok := ix.voc.lookup(term); ok {
		return ix.df(t)
	}
	return 0
}

// TermFreq returns how often term occurs in the document.
func (ix *Index) TermFreq(term string, id uint64) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return int(ix.tf(term, id))
}

// tf returns the term frequency of term in document id (0 if absent):
// the document's posting is found by findDoc.
func (ix *Index) tf(term string, id uint64) uint32 {
	t, ok := ix.voc.lookup(term)
	doc, ok2 := ix.docNum(id)
	if !ok || !ok2 {
		return 0
	}
	list := ix.postings[t]
	if i, found := findDoc(list, doc, uint32(len(ix.docs))); found {
		return list[i].tf
	}
	return 0
}

// Len returns the document's length in tokens as the index counts it (its
// content's tokens and every alias's, duplicates kept): the doc length the
// explain view shows and the size crmem prints for an entry.
func (d *Doc) Len() int {
	n := 0
	tz := tokenizer{}
	for i := -1; i < len(d.Aliases); i++ {
		tz.reset(docText(d, i))
		for tz.next() {
			n++
		}
	}
	return n
}
