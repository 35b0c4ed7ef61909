package bm25

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Parameters of the reference ranking.
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
// number and the term frequency.
type posting struct{ doc, tf uint32 }

// docTerm is one distinct term of a document (high 32 bits) and where the
// document's posting sits in that term's posting list (low 32 bits, for
// swap-remove). Packing makes a document's terms sortable by term as plain
// integers.
type docTerm uint64

func makeDocTerm(term, pos uint32) docTerm { return docTerm(term)<<32 | docTerm(pos) }
func (dt docTerm) term() uint32            { return uint32(dt >> 32) }
func (dt docTerm) pos() uint32             { return uint32(dt) }

// docInfo describes one internal document number.
type docInfo struct {
	id   uint64
	len  uint32 // token count; 0 when the number is free
	live bool
}

// Index is an inverted index with BM25 ranking identical to the reference.
// It is safe for concurrent use. Make one with New or Build; the zero Index
// is not ready for use.
type Index struct {
	mu sync.RWMutex

	voc      vocab       // term text ↔ term id
	postings [][]posting // term id → postings (df = len)

	docs     []docInfo         // internal doc number → id and length
	docTerms [][]docTerm       // internal doc number → its terms, sorted by term id
	byID     map[uint64]uint32 // entry id → internal doc number
	free     []uint32          // unused internal doc numbers
	n        int               // indexed documents
	total    int64             // tokens over indexed documents
	scratch  []uint32          // term ids of the document being set
	accPool  sync.Pool         // *accumulator, sized to len(docs)
	prefixes prefixIndex       // sorted vocabulary for Expand
	version  uint64            // bumped by every change
	normMu   sync.Mutex        // serialises filling the norms cache
	norms    atomic.Pointer[docNorms]
}

// New returns an empty index.
func New() *Index {
	return &Index{voc: newVocab(), byID: map[uint64]uint32{}}
}

// Set inserts or replaces one document, in time proportional to its terms.
// A document without tokens is not indexed.
func (ix *Index) Set(d Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.version++
	ix.remove(d.ID)
	ids, dl := ix.docTermIDs(d)
	if dl == 0 {
		return
	}
	doc := ix.allocDoc(d.ID, uint32(dl))
	dts := make([]docTerm, 0, countRuns(ids))
	for i := 0; i < len(ids); {
		j := i + 1
		for j < len(ids) && ids[j] == ids[i] {
			j++
		}
		t := ids[i]
		dts = append(dts, makeDocTerm(t, uint32(len(ix.postings[t]))))
		ix.postings[t] = append(ix.postings[t], posting{doc: doc, tf: uint32(j - i)})
		i = j
	}
	ix.docTerms[doc] = dts
}

// docTermIDs tokenizes a document into sorted term ids (interning new
// terms) and returns them with the token count.
func (ix *Index) docTermIDs(d Doc) ([]uint32, int) {
	ids := ix.scratch[:0]
	tz := tokenizer{}
	for i := -1; i < len(d.Aliases); i++ {
		if i < 0 {
			tz.reset(d.Content)
		} else {
			tz.reset(d.Aliases[i])
		}
		for tz.next() {
			ids = append(ids, ix.intern(&tz))
		}
	}
	ix.scratch = ids
	slices.Sort(ids)
	return ids, len(ids)
}

// intern returns the current token's term id, adding the term if it is new.
func (ix *Index) intern(tz *tokenizer) uint32 {
	t, added := ix.voc.intern(tz)
	if added {
		ix.postings = append(ix.postings, nil)
		ix.prefixes.add(t)
	}
	return t
}

// countRuns returns the number of distinct values in a sorted slice.
func countRuns(ids []uint32) int {
	n := 0
	for i := range ids {
		if i == 0 || ids[i] != ids[i-1] {
			n++
		}
	}
	return n
}

// allocDoc assigns an internal document number to an entry.
func (ix *Index) allocDoc(id uint64, dl uint32) uint32 {
	var doc uint32
	if k := len(ix.free); k > 0 {
		doc = ix.free[k-1]
		ix.free = ix.free[:k-1]
	} else {
		doc = uint32(len(ix.docs))
		ix.docs = append(ix.docs, docInfo{})
		ix.docTerms = append(ix.docTerms, nil)
	}
	ix.docs[doc] = docInfo{id: id, len: dl, live: true}
	ix.byID[id] = doc
	ix.n++
	ix.total += int64(dl)
	return doc
}

// Remove drops one document, in time proportional to its terms.
func (ix *Index) Remove(id uint64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.version++
	ix.remove(id)
}

// remove drops a document if it is indexed: each of its postings is
// replaced by the last one of its list, whose owner learns its new position.
func (ix *Index) remove(id uint64) {
	doc, ok := ix.byID[id]
	if !ok {
		return
	}
	for _, dt := range ix.docTerms[doc] {
		t, pos := dt.term(), dt.pos()
		list := ix.postings[t]
		last := list[len(list)-1]
		list[pos] = last
		ix.postings[t] = list[:len(list)-1]
		if last.doc != doc {
			ix.movePos(last.doc, t, pos)
		}
	}
	ix.n--
	ix.total -= int64(ix.docs[doc].len)
	ix.docs[doc] = docInfo{}
	ix.docTerms[doc] = nil
	ix.free = append(ix.free, doc)
	delete(ix.byID, id)
}

// movePos records that doc's posting for term now sits at pos.
func (ix *Index) movePos(doc, term, pos uint32) {
	dts := ix.docTerms[doc]
	i, _ := findTerm(dts, term)
	dts[i] = makeDocTerm(term, pos)
}

// findTerm binary-searches a document's sorted terms for term.
func findTerm(dts []docTerm, term uint32) (int, bool) {
	i, _ := slices.BinarySearch(dts, makeDocTerm(term, 0))
	return i, i < len(dts) && dts[i].term() == term
}

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
	if doc, ok := ix.byID[id]; ok {
		return int(ix.docs[doc].len)
	}
	return 0
}

// DocFreq returns how many documents contain term.
func (ix *Index) DocFreq(term string) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if t, ok := ix.voc.lookup(term); ok {
		return len(ix.postings[t])
	}
	return 0
}

// TermFreq returns how often term occurs in the document.
func (ix *Index) TermFreq(term string, id uint64) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return int(ix.tf(term, id))
}

// tf returns the term frequency of term in document id (0 if absent).
func (ix *Index) tf(term string, id uint64) uint32 {
	t, ok := ix.voc.lookup(term)
	doc, ok2 := ix.byID[id]
	if !ok || !ok2 {
		return 0
	}
	dts := ix.docTerms[doc]
	i, found := findTerm(dts, t)
	if !found {
		return 0
	}
	return ix.postings[t][dts[i].pos()].tf
}
