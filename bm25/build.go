package bm25

import (
	"runtime"
	"slices"
	"sync"
)

// minPartDocs keeps tiny inputs on one goroutine.
const minPartDocs = 512

// bytesPerDocTerm estimates text bytes per distinct (document, term) pair,
// to size the term lists once: prose has about one per 20–30 bytes.
const bytesPerDocTerm = 24

// Build indexes many documents using every core; it equals calling Set for
// each document in order (a later duplicate id replaces an earlier one).
//
// Each core tokenizes a contiguous range of documents into its own term
// dictionary and per-document (term, tf) lists; the dictionaries are then
// merged, every posting list gets its exact size in one shared array, and
// the cores fill it in parallel, so posting lists come out in document order
// with no reallocation.
func Build(docs []Doc) *Index {
	return buildParts(docs, runtime.GOMAXPROCS(0))
}

// buildParts is Build with at most n parallel parts.
func buildParts(docs []Doc, n int) *Index {
	parts := tokenizeParts(docs, n)
	ix := New()
	remaps := ix.mergeVocab(parts)
	ix.fillPostings(parts, remaps)
	ix.registerDocs(docs, parts)
	return ix
}

// buildPart is one core's share of a Build.
type buildPart struct {
	docs  []Doc
	size  int        // bytes of text in docs
	first int        // internal doc number of docs[0]
	voc   vocab      // term ↔ local term id
	df    []uint32   // local term id → documents containing it
	last  []lastSeen // local term id → last document seen with it
	dls   []uint32   // per document: token count
	ends  []int      // per document: end of its terms in dts
	// dts holds each document's distinct terms: (local term, tf) after
	// tokenizing, (global term, posting position) after filling.
	dts []docTerm
}

// tokenizeParts splits docs into one range per core, balanced by text
// size, and tokenizes the ranges in parallel.
func tokenizeParts(docs []Doc, n int) []*buildPart {
	parts := splitDocs(docs, n)
	var wg sync.WaitGroup
	for _, p := range parts {
		wg.Go(p.tokenize)
	}
	wg.Wait()
	return parts
}

// splitDocs cuts docs into at most n contiguous parts of similar text size.
func splitDocs(docs []Doc, n int) []*buildPart {
	n = max(1, min(n, len(docs)/minPartDocs))
	var total int
	for i := range docs {
		total += docSize(&docs[i])
	}
	var parts []*buildPart
	lo, acc, size := 0, 0, 0
	for i := range docs {
		acc += docSize(&docs[i])
		if len(parts) < n-1 && acc*n >= total*(len(parts)+1) {
			parts = append(parts, &buildPart{docs: docs[lo : i+1], first: lo, size: acc - size})
			lo, size = i+1, acc
		}
	}
	return append(parts, &buildPart{docs: docs[lo:], first: lo, size: total - size})
}

// docSize is a document's text size in bytes.
func docSize(d *Doc) int {
	n := len(d.Content)
	for _, a := range d.Aliases {
		n += len(a)
	}
	return n
}

// tokenize fills the part's dictionary and per-document term lists.
func (p *buildPart) tokenize() {
	p.voc = newVocab()
	p.dls = make([]uint32, len(p.docs))
	p.ends = make([]int, len(p.docs))
	p.dts = make([]docTerm, 0, p.size/bytesPerDocTerm+len(p.docs))
	tz := tokenizer{}
	for k := range p.docs {
		d := &p.docs[k]
		start := len(p.dts)
		p.tokenizeText(&tz, d.Content, uint32(k+1))
		for _, a := range d.Aliases {
			p.tokenizeText(&tz, a, uint32(k+1))
		}
		p.ends[k] = len(p.dts)
		p.dls[k] = uint32(p.countTokens(start))
	}
	if cap(p.dts) > len(p.dts)+len(p.dts)/4 { // the estimate was far off
		p.dts = slices.Clone(p.dts)
	}
}

// tokenizeText adds the tokens of one text of document stamp-1 (whose
// terms are the tail of dts), counting each distinct term once in dts (tf
// in the low half) and in df.
func (p *buildPart) tokenizeText(tz *tokenizer, text string, stamp uint32) {
	tz.reset(text)
	for tz.next() {
		t, ok := uint32(0), false
		if tz.key != 0 { // the usual short term: probe inline
			t, ok = p.voc.short.get(tz.key)
		}
		if !ok {
			t = p.intern(tz)
		}
		if ls := &p.last[t]; ls.stamp == stamp {
			p.dts[ls.slot]++ // tf
		} else {
			ls.stamp, ls.slot = stamp, uint32(len(p.dts))
			p.dts = append(p.dts, makeDocTerm(t, 1))
			p.df[t]++
		}
	}
}

// lastSeen records, per local term, the last document (1-based) that had
// it and where that document's entry for it sits in dts.
type lastSeen struct{ stamp, slot uint32 }

// countTokens sums the term frequencies of the document whose terms start
// at dts[start].
func (p *buildPart) countTokens(start int) int {
	n := 0
	for _, dt := range p.dts[start:] {
		n += int(dt.pos())
	}
	return n
}

// intern returns the current token's local term id, adding the term.
func (p *buildPart) intern(tz *tokenizer) uint32 {
	t, added := p.voc.intern(tz)
	if added {
		p.df = append(p.df, 0)
		p.last = append(p.last, lastSeen{})
	}
	return t
}

// mergeVocab builds the global vocabulary from the parts' dictionaries (the
// first part's ids become global ids) and returns, per part, the map from
// local to global term ids.
func (ix *Index) mergeVocab(parts []*buildPart) [][]uint32 {
	ix.voc = parts[0].voc
	remaps := make([][]uint32, len(parts))
	for w, p := range parts {
		remaps[w] = make([]uint32, len(p.voc.terms))
		for local, term := range p.voc.terms {
			g, ok := ix.voc.lookup(term)
			if !ok {
				g = ix.voc.add(term)
			}
			remaps[w][local] = g
		}
	}
	return remaps
}

// fillPostings sizes every posting list exactly in one shared array and
// lets each part write its postings, in document order, in parallel.
func (ix *Index) fillPostings(parts []*buildPart, remaps [][]uint32) {
	nt := len(ix.voc.terms)
	df := make([]int, nt)
	for w, p := range parts {
		for local, n := range p.df {
			df[remaps[w][local]] += int(n)
		}
	}
	off := make([]int, nt+1) // term → start of its list, headroom included
	for g, n := range df {
		off[g+1] = off[g] + n + headroom(n)
	}
	backing := make([]posting, off[nt])
	cursors := partCursors(parts, remaps, off)
	var wg sync.WaitGroup
	for w, p := range parts {
		wg.Go(func() { p.fill(backing, off, cursors[w], remaps[w]) })
	}
	wg.Wait()
	ix.postings = make([][]posting, nt)
	for g := range ix.postings {
		ix.postings[g] = backing[off[g] : off[g]+df[g] : off[g+1]]
	}
}

// partCursors returns, per part and local term, where the part's postings
// for the term start: after the earlier parts' postings for it.
func partCursors(parts []*buildPart, remaps [][]uint32, off []int) [][]int {
	next := slices.Clone(off[:len(off)-1])
	cursors := make([][]int, len(parts))
	for w, p := range parts {
		cursors[w] = make([]int, len(p.df))
		for local, n := range p.df {
			g := remaps[w][local]
			cursors[w][local] = next[g]
			next[g] += int(n)
		}
	}
	return cursors
}

// headroom is the spare capacity Build leaves after a posting list of n
// entries, so the first Sets after an open append in place instead of
// copying a long list; short lists are cheap to copy and get none.
func headroom(n int) int {
	if n < 256 {
		return 0
	}
	return n / 16
}

// fill writes the part's postings at its cursors and turns its term lists
// into (global term, position) lists sorted by term.
func (p *buildPart) fill(backing []posting, off, cursor []int, remap []uint32) {
	start := 0
	for k, end := range p.ends {
		doc := uint32(p.first + k)
		dts := p.dts[start:end]
		for j, dt := range dts {
			local := dt.term()
			g := remap[local]
			c := cursor[local]
			cursor[local]++
			backing[c] = posting{doc: doc, tf: dt.pos()}
			dts[j] = makeDocTerm(g, uint32(c-off[g]))
		}
		sortDocTerms(dts)
		start = end
	}
}

// registerDocs records every document's number, id and length; documents
// without tokens are left out, and a later duplicate id replaces an earlier
// document.
func (ix *Index) registerDocs(docs []Doc, parts []*buildPart) {
	// Room for new documents, so the first Sets after an open do not copy
	// the per-document arrays.
	ix.docs = make([]docInfo, len(docs), len(docs)+len(docs)/16)
	ix.docTerms = make([][]docTerm, len(docs), cap(ix.docs))
	ix.byID = make(map[uint64]uint32, len(docs))
	for _, p := range parts {
		start := 0
		for k, end := range p.ends {
			doc := p.first + k
			if p.dls[k] > 0 {
				ix.docs[doc] = docInfo{id: docs[doc].ID, len: p.dls[k], live: true}
				ix.docTerms[doc] = p.dts[start:end:end]
				ix.n++
				ix.total += int64(p.dls[k])
			}
			start = end
		}
	}
	for doc := range docs {
		id := docs[doc].ID
		ix.remove(id) // an earlier document with the same id
		if ix.docs[doc].live {
			ix.byID[id] = uint32(doc)
		} else {
			ix.free = append(ix.free, uint32(doc))
		}
	}
}

// sortDocTerms sorts one document's terms: insertion sort for the usual few
// dozen, the library sort beyond.
func sortDocTerms(dts []docTerm) {
	if len(dts) > 48 {
		slices.Sort(dts)
		return
	}
	for i := 1; i < len(dts); i++ {
		v := dts[i]
		j := i
		for ; j > 0 && dts[j-1] > v; j-- {
			dts[j] = dts[j-1]
		}
		dts[j] = v
	}
}
