package bm25

import (
	"math/bits"
	"runtime"
	"slices"

	"github.com/crmem/crmem/internal/workgroup"
)

// minPartDocs keeps tiny inputs on one goroutine.
const minPartDocs = 512

// bytesPerDocTerm estimates text bytes per distinct (document, term) pair,
// to size the term lists once: prose has about one per 20–30 bytes.
const bytesPerDocTerm = 24

// BuildFunc is Build over n documents that doc returns by position, so a
// caller holding its documents in another form need not copy them all into
// a []Doc first. doc is called from several goroutines, more than once per
// position, and must return the same document each time.
func BuildFunc(n int, doc func(i int) Doc) *Index {
	return buildParts(source{n, doc}, runtime.GOMAXPROCS(0))
}

// source is the documents of a Build: n of them, returned by position.
type source struct {
	n   int
	doc func(i int) Doc
}

// buildParts is Build with at most n parallel parts.
func buildParts(src source, n int) *Index { return buildPacked(src, n, termEscape) }

// buildPacked is buildParts with local term ids from packLimit on kept
// outside the packed term lists (termEscape but in tests).
func buildPacked(src source, n int, packLimit uint32) *Index {
	parts := tokenizeParts(src, n, packLimit)
	ix := New()
	remaps := ix.mergeVocab(parts)
	// The documents' numbers, ids and lengths are recorded beside the
	// filling of the posting lists: the two touch different fields.
	var ascending bool
	var g workgroup.Group
	g.Go(func() { ascending = ix.registerDocs(src.n, parts) })
	ix.fillPostings(parts, remaps)
	g.Wait()
	for _, p := range parts {
		p.dts = nil // the largest transient
	}
	if !ascending {
		ix.registerRepeatedIDs(src)
	}
	return ix
}

// buildPart is one core's share of a Build.
type buildPart struct {
	src   source
	count int        // documents in the part
	size  int        // bytes of text in the part's documents (tokenize)
	first int        // position (and internal doc number) of its first
	voc   buildTerms // token → local term id
	df    []uint32   // local term id → documents containing it
	tf    []uint32   // local term id → count in the current document (scratch)
	dls   []uint32   // per document: token count
	ids   []uint64   // per document: entry id
	ends  []uint32   // per document: end of its terms in dts
	dts   []termTF   // each document's distinct terms, in document order
	terms []uint32   // the current document's distinct terms so far (scratch)
	cands int        // the current document's candidates so far
	// Escaped fields of dts, by slot (see termTF).
	wideTerm  map[uint32]uint32
	wideTF    map[uint32]uint32
	packLimit uint32 // local term ids from here on are escaped
}

// termTF is one distinct term of a document in a build part, packed into
// 32 bits to halve a Build's largest transient array: the local term id in
// the high 24 bits and the term frequency in the low 8. A term field of
// termEscape means the id is in the part's wideTerm, a tf field of
// tfEscape that the tf is in its wideTF, both keyed by the slot in dts;
// ordinary text needs neither.
type termTF uint32

// The escape values of termTF's fields.
const (
	termEscape = 1<<24 - 1
	tfEscape   = 1<<8 - 1
)

// unpack returns the local term and tf at slot.
func (p *buildPart) unpack(slot int) (term, tf uint32) {
	x := p.dts[slot]
	term, tf = uint32(x>>8), uint32(x&tfEscape)
	if term == termEscape {
		term = p.wideTerm[uint32(slot)]
	}
	if tf == tfEscape {
		tf = p.wideTF[uint32(slot)]
	}
	return term, tf
}

// tokenizeParts splits docs into one range per core, balanced by text
// size, and tokenizes the ranges in parallel.
func tokenizeParts(src source, n int, packLimit uint32) []*buildPart {
	parts := splitDocs(src, n)
	var g workgroup.Group // the texts may be a mapped file's (store.MapFile)
	for _, p := range parts {
		p.packLimit = min(packLimit, termEscape)
		g.Go(p.tokenize)
	}
	g.Wait()
	return parts
}

// splitDocs cuts the documents into at most n contiguous parts of similar
// text size, judged by one document in every stride (splitSamples of
// them): a part sums its exact size itself, on its own core (tokenize).
func splitDocs(src source, n int) []*buildPart {
	n = max(1, min(n, src.n/minPartDocs))
	stride := max(1, src.n/splitSamples)
	var total int
	for i := 0; i < src.n; i += stride {
		d := src.doc(i)
		total += docSize(&d)
	}
	var parts []*buildPart
	lo, acc := 0, 0
	for i := 0; i < src.n && len(parts) < n-1; i += stride {
		d := src.doc(i)
		acc += docSize(&d)
		if end := min(i+stride, src.n); acc*n >= total*(len(parts)+1) && end < src.n {
			parts = append(parts, &buildPart{src: src, count: end - lo, first: lo})
			lo = end
		}
	}
	return append(parts, &buildPart{src: src, count: src.n - lo, first: lo})
}

// splitSamples is about how many documents splitDocs weighs.
const splitSamples = 4096

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
	for k := range p.count {
		d := p.src.doc(p.first + k)
		p.size += docSize(&d)
	}
	p.voc = newBuildTerms()
	p.df, p.tf = make([]uint32, len(p.voc.terms)), make([]uint32, len(p.voc.terms))
	p.dls = make([]uint32, p.count)
	p.ids = make([]uint64, p.count)
	p.ends = make([]uint32, p.count)
	p.wideTerm, p.wideTF = map[uint32]uint32{}, map[uint32]uint32{}
	p.dts = make([]termTF, 0, p.size/bytesPerDocTerm+p.count)
	sc := scanner{part: p}
	for k := range p.count {
		d := p.src.doc(p.first + k)
		p.tf[sink] = 1 // never a first occurrence: the sink is no term
		p.terms, p.cands = p.terms[:0], 0
		sc.scan(d.Content)
		for _, a := range d.Aliases {
			sc.scan(a)
		}
		p.dls[k], p.ids[k] = uint32(p.cands)-(p.tf[sink]-1), d.ID
		p.addDoc(p.terms)
		p.ends[k] = uint32(len(p.dts))
	}
	if cap(p.dts) > len(p.dts)+len(p.dts)/4 { // the estimate was far off
		p.dts = slices.Clone(p.dts)
	}
}

// lookPieces counts in tf the local term ids of the pieces the scanner
// has just bounded in s (sc.at: start, end pairs; an unpaired last start
// is still open), adding new terms to the dictionary, and appends to
// p.terms each id whose count was zero (its first occurrence in the
// document). The sink's count starts a document at one (tokenize), so
// dropped candidates are counted but never appended. Each piece is
// counted in p.cands.
//
// The pieces whose ids the fixed tables hold (nearly all) are counted by
// lookKnown, which leaves a piece it cannot take to one round of this
// loop: a new term, one the fixed tables had no room for, one near the
// end of s or longer than 16 bytes goes through buildTerms.
func (p *buildPart) lookPieces(sc *scanner, s string) {
	at := sc.at
	pairs := len(at) / 2
	p.cands += pairs
	nt := len(p.terms)
	buf := slices.Grow(p.terms, pairs)
	buf = buf[:cap(buf)]
	for k := 0; k+1 < len(at); k += 2 {
		took, added := lookKnown(at[k:], s, p.voc.shortCache, p.voc.pairCache, p.tf, buf[nt:])
		k, nt = k+2*took, nt+added
		if k+1 >= len(at) {
			break
		}
		lo, hi := int(at[k]), int(at[k+1])
		var t uint32
		if n := uint(hi - lo); n <= 8 {
			var x uint64
			if lo+8 <= len(s) {
				x = load64(s, lo)
			} else {
				x = loadTail(s, lo)
			}
			t = p.voc.shortID((x | lsbs*0x20) & lowBytes[n])
		} else if n <= 16 && lo+16 <= len(s) { // two loads, as a short one
			t = p.voc.pairID(load64(s, lo)|lsbs*0x20, (load64(s, lo+8)|lsbs*0x20)&lowBytes[n-8])
		} else {
			t = p.voc.longID(sc.lower(s, lo, hi))
		}
		if int(t) >= len(p.tf) { // a new term
			p.growCounts()
		}
		c := p.tf[t]
		buf[nt] = t
		nt += int((c - 1) >> 31)
		p.tf[t] = c + 1
	}
	p.terms = buf[:nt]
}

// lookKnownGo is lookKnown in Go: it counts in tf the ids of the pieces
// of s bounded by at (start, end pairs) for as long as the fixed tables
// cs and cp hold them, appending to buf each id whose count was zero, and
// returns the pairs it took and the ids it appended. buf has room for one
// id a pair.
//
// A piece of at most eight bytes with eight readable bytes is lowercased
// and packed with one load (as scanner.pieces does) and probed in cs; one
// of nine to 16 bytes with 16 readable bytes in cp, from two loads. It
// stops at any other piece, one the tables do not hold, or one whose id
// tf has no count for. Whether an occurrence is the first is data, not
// control flow (a mispredicted branch per token otherwise): the id is
// written at the end of buf every time, and the end advances only when
// its count was zero.
func lookKnownGo(at []uint32, s string, cs *shortCache, cp *pairCache, tf, buf []uint32) (took, added int) {
	k := 0
	for ; k+1 < len(at); k += 2 {
		lo, hi := int(at[k]), int(at[k+1])
		n := uint(hi - lo)
		var t uint32
		if n <= 8 {
			if lo+8 > len(s) {
				break
			}
			key := (load64(s, lo) | lsbs*0x20) & lowBytes[n] // never 0: n ≥ 1
			i := uint(key*fibMul) >> (64 - shortCacheBits)
			for cs[i].key != key { // probed as cacheShort does
				if cs[i].key == 0 {
					return k / 2, added // not there
				}
				i = (i + 1) & (shortCacheSize - 1)
			}
			t = cs[i].val
		} else { // nine to 16 bytes: two loads, probed as cachePair does
			if n > 16 || lo+16 > len(s) {
				break
			}
			a, b := load64(s, lo)|lsbs*0x20, (load64(s, lo+8)|lsbs*0x20)&lowBytes[n-8]
			i := uint((a^bits.RotateLeft64(b, 29))*fibMul) >> (64 - pairCacheBits)
			for cp[i].hi != b || cp[i].lo != a {
				if cp[i].hi == 0 {
					return k / 2, added // not there
				}
				i = (i + 1) & (pairCacheSize - 1)
			}
			t = cp[i].id
		}
		if int(t) >= len(tf) {
			break
		}
		c := tf[t]
		buf[added] = t
		added += int((c - 1) >> 31) // c is 0: the first occurrence
		tf[t] = c + 1
	}
	return k / 2, added
}

// takeKeys is lookPieces for the candidates the general tokenizer kept in
// sc.keys (a key each, 0 for the next long one).
func (p *buildPart) takeKeys(sc *scanner) {
	p.cands += len(sc.keys)
	long := 0
	for _, key := range sc.keys {
		var t uint32
		if key != 0 {
			t = p.voc.shortID(key)
		} else {
			t = p.voc.longID(sc.longTerm(long))
			long++
		}
		if int(t) >= len(p.tf) { // a new term
			p.growCounts()
		}
		c := p.tf[t]
		if c == 0 {
			p.terms = append(p.terms, t)
		}
		p.tf[t] = c + 1
	}
}

// growCounts gives tf and df a slot for every term of the dictionary.
func (p *buildPart) growCounts() {
	nt := len(p.voc.terms)
	p.tf = append(p.tf, make([]uint32, nt-len(p.tf))...)
	p.df = append(p.df, make([]uint32, nt-len(p.df))...)
}

// addDoc appends a document's distinct terms with their tfs to dts, in
// order of first occurrence, counts them in df and clears their counts in
// tf (and the sink's): terms are those lookPieces appended. Entries needing
// an escape take addEscaped.
func (p *buildPart) addDoc(terms []uint32) {
	tf, df := p.tf, p.df
	tf[sink] = 0
	dts := slices.Grow(p.dts, len(terms))
	for _, t := range terms {
		c := tf[t]
		tf[t] = 0
		if c >= tfEscape || t >= p.packLimit {
			p.dts = dts
			p.addEscaped(t, c)
			dts = p.dts
			continue
		}
		df[t]++
		dts = append(dts, termTF(t<<8|c))
	}
	p.dts = dts
}

// addEscaped appends term t with tf c to dts (whose capacity suffices),
// escaping the fields that do not fit (see termTF).
func (p *buildPart) addEscaped(t, c uint32) {
	p.df[t]++
	slot := uint32(len(p.dts))
	if t >= p.packLimit {
		p.wideTerm[slot] = t
		t = termEscape
	}
	if c >= tfEscape {
		p.wideTF[slot] = c
		c = tfEscape
	}
	p.dts = append(p.dts, termTF(t<<8|c))
}

// mergeVocab builds the global vocabulary from the parts' dictionaries (the
// first part's ids become global ids) and returns, per part, the map from
// local to global term ids.
func (ix *Index) mergeVocab(parts []*buildPart) [][]uint32 {
	remaps := make([][]uint32, len(parts))
	for w, p := range parts {
		remaps[w] = make([]uint32, len(p.voc.terms))
		for local, term := range p.voc.terms {
			if local == sink { // no postings: maps nowhere
				continue
			}
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
		for local, n := range p.df[sink+1:] {
			df[remaps[w][sink+1+local]] += int(n)
		}
	}
	off := make([]int, nt+1) // term → start of its list, headroom included
	for g, n := range df {
		off[g+1] = off[g] + n + headroom(n)
	}
	backing := make([]posting, off[nt])
	cursors := partCursors(parts, remaps, off)
	var g workgroup.Group
	for w, p := range parts {
		g.Go(func() { p.fill(backing, cursors[w]) })
	}
	g.Wait()
	ix.postings = make([][]posting, nt)
	ix.dead = make([]uint32, nt)
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
		for local := sink + 1; local < len(p.df); local++ {
			n, g := p.df[local], remaps[w][local]
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

// fill writes the part's postings at its cursors, in document order. A
// part with no escaped entries (ordinary text) unpacks them inline.
func (p *buildPart) fill(backing []posting, cursor []int) {
	start := 0
	if len(p.wideTerm) == 0 && len(p.wideTF) == 0 {
		dts := p.dts
		for k, end := range p.ends {
			doc := uint32(p.first + k)
			for _, x := range dts[start:end] {
				t := x >> 8
				backing[cursor[t]] = posting{doc: doc, tf: uint32(x & tfEscape)}
				cursor[t]++
			}
			start = int(end)
		}
		return
	}
	for k, end := range p.ends {
		doc := uint32(p.first + k)
		for s := start; s < int(end); s++ {
			t, tf := p.unpack(s)
			backing[cursor[t]] = posting{doc: doc, tf: tf}
			cursor[t]++
		}
		start = int(end)
	}
}

// registerDocs records every document's number, id and length (documents
// without tokens get a number that is not live) and reports whether the
// ids ascend, as in every file crmem or the reference writes. Then no id
// repeats, and all of them are sorted: found by id in docs, with no map
// entry each (docNum); otherwise byID is left to registerRepeatedIDs.
func (ix *Index) registerDocs(n int, parts []*buildPart) bool {
	// Room for new documents, so the first Sets after an open do not copy
	// the per-document array.
	ix.docs = make([]docInfo, n, n+n/16)
	ascending := true
	for _, p := range parts {
		for k, dl := range p.dls {
			doc, id := p.first+k, p.ids[k]
			if doc > 0 && id <= ix.docs[doc-1].id {
				ascending = false
			}
			ix.docs[doc] = docInfo{id: id, len: dl, live: dl > 0}
			if dl > 0 {
				ix.n++
				ix.total += int64(dl)
			}
		}
	}
	if ascending {
		ix.byID, ix.sorted = map[uint64]uint32{}, uint32(n)
	} else {
		ix.byID = make(map[uint64]uint32, n)
	}
	return ascending
}

// registerRepeatedIDs fills byID when ids may repeat: a later document with
// an id replaces the earlier one, whose postings become tombstones.
func (ix *Index) registerRepeatedIDs(src source) {
	for doc := range src.n {
		id := ix.docs[doc].id
		if prev, ok := ix.byID[id]; ok {
			old := src.doc(int(prev))
			ix.remove(&old)
		}
		if ix.docs[doc].live {
			ix.byID[id] = uint32(doc)
		}
	}
}
