package bm25

import (
	"encoding/binary"
	"math/bits"
)

// sink is the local term id of every candidate that is not a token: a
// stopword or a one-character ASCII piece. A build part counts it like any
// term, so dropping such candidates costs no branch, and then leaves it
// out (see buildPart).
const sink = 0

// buildTerms is a build part's dictionary from the scanner's candidates to
// local term ids. Candidates of at most eight bytes are looked up by their
// packed key in an open-addressing table that also holds every stopword and
// one-character piece (with id sink); those of nine to 16 bytes by their
// two words in a second; longer ones by a hash of their bytes in a third,
// checked against the term's text. None builds a string or hashes one the
// Go map way.
//
// The first terms of each of the two shorter kinds (a dictionary's most
// frequent, in prose) are also kept in a table of fixed size, shortCache
// and pairCache, which lookPieces probes: its size and hash shift being
// constants, a probe needs no bounds check and keeps no table length or
// shift in a register.
type buildTerms struct {
	short shortTable
	pair  pairTable
	long  longTable
	terms []string // local id → term; terms[sink] is a placeholder

	shortCache *shortCache
	pairCache  *pairCache
	shortN     int // terms in shortCache
	pairN      int // terms in pairCache
}

// The sizes of the fixed tables (powers of two), which are kept at most
// half full.
const (
	shortCacheBits = 12
	pairCacheBits  = 10
	shortCacheSize = 1 << shortCacheBits
	pairCacheSize  = 1 << pairCacheBits
)

// shortCache and pairCache are the fixed tables of buildTerms: open
// addressing with linear probing, keyed and hashed as shortTable and
// pairTable are (the top bits of the Fibonacci hash).
type (
	shortCache [shortCacheSize]shortSlot
	pairCache  [pairCacheSize]pairSlot
)

// newBuildTerms returns a dictionary of only the sink's candidates.
func newBuildTerms() buildTerms {
	b := buildTerms{terms: []string{sink: ""}, shortCache: new(shortCache), pairCache: new(pairCache)}
	for _, w := range stopwords {
		b.short.put(packKey(w), sink)
		b.cacheShort(packKey(w), sink)
	}
	for c := byte('0'); c <= 'z'; c++ {
		if byteClass[c] == clLower && !IsStopword(string(c)) {
			b.short.put(uint64(c), sink)
			b.cacheShort(uint64(c), sink)
		}
	}
	return b
}

// cacheShort puts key's id in shortCache unless it is there or the table
// is half full.
func (b *buildTerms) cacheShort(key uint64, t uint32) {
	c := b.shortCache
	for i := uint(key*fibMul) >> (64 - shortCacheBits); ; i = (i + 1) & (shortCacheSize - 1) {
		switch c[i].key {
		case key:
			return
		case 0:
			if 2*(b.shortN+1) <= shortCacheSize {
				c[i] = shortSlot{key, t}
				b.shortN++
			}
			return
		}
	}
}

// cachePair is cacheShort for pairCache.
func (b *buildTerms) cachePair(lo, hi uint64, t uint32) {
	c := b.pairCache
	for i := uint((lo^bits.RotateLeft64(hi, 29))*fibMul) >> (64 - pairCacheBits); ; i = (i + 1) & (pairCacheSize - 1) {
		switch {
		case c[i].hi == hi && c[i].lo == lo:
			return
		case c[i].hi == 0:
			if 2*(b.pairN+1) <= pairCacheSize {
				c[i] = pairSlot{lo, hi, t}
				b.pairN++
			}
			return
		}
	}
}

// shortID returns the local id of a token of at most eight bytes by its
// packed key (sink for a stopword), adding the term if it is new.
func (b *buildTerms) shortID(key uint64) uint32 {
	t, ok := b.short.get(key)
	if !ok {
		t = uint32(len(b.terms))
		b.terms = append(b.terms, unpackKey(key))
		b.short.put(key, t)
	}
	b.cacheShort(key, t)
	return t
}

// longID returns the local id of a longer token, adding the term if it is
// new. A token of at most 16 bytes (nearly all of them) is keyed by its two
// words; a longer one by its hash and text.
func (b *buildTerms) longID(term []byte) uint32 {
	if len(term) <= 16 {
		return b.pairID(binary.LittleEndian.Uint64(term), packKey(term[8:]))
	}
	h := hashTerm(term)
	if t, ok := b.long.get(h, term, b.terms); ok {
		return t
	}
	t := uint32(len(b.terms))
	b.terms = append(b.terms, string(term))
	b.long.put(h, t)
	return t
}

// pairID returns the local id of a token of nine to 16 bytes by its two
// words (the first eight bytes, little-endian, and the rest packed as by
// packKey), adding the term if it is new.
func (b *buildTerms) pairID(lo, hi uint64) uint32 {
	t, ok := b.pair.get(lo, hi)
	if !ok {
		var first [8]byte
		binary.LittleEndian.PutUint64(first[:], lo)
		t = uint32(len(b.terms))
		b.terms = append(b.terms, string(first[:])+unpackKey(hi))
		b.pair.put(lo, hi, t)
	}
	b.cachePair(lo, hi, t)
	return t
}

// pairTable is an open-addressing hash table from a term of nine to 16
// bytes, as two little-endian words (the second zero-padded, so never
// zero: terms hold no NUL), to its local id, with linear probing, kept at
// most half full. A term and its id share a slot.
type pairTable struct {
	slots []pairSlot // hi 0 marks an empty slot
	n     int
	shift uint // 64 - log2(len(slots))
}

// pairSlot is one slot of a pairTable.
type pairSlot struct {
	lo, hi uint64
	id     uint32
}

// slot is a term's home slot.
func (h *pairTable) slot(lo, hi uint64) int {
	return int(((lo ^ bits.RotateLeft64(hi, 29)) * fibMul) >> h.shift)
}

// get returns the id of the term (lo, hi).
func (h *pairTable) get(lo, hi uint64) (uint32, bool) {
	if len(h.slots) == 0 {
		return 0, false
	}
	mask := len(h.slots) - 1
	for i := h.slot(lo, hi); ; i = (i + 1) & mask {
		switch s := &h.slots[i]; {
		case s.hi == hi && s.lo == lo:
			return s.id, true
		case s.hi == 0:
			return 0, false
		}
	}
}

// put stores the id of a term that is not in the table.
func (h *pairTable) put(lo, hi uint64, id uint32) {
	if 2*(h.n+1) > len(h.slots) {
		h.grow()
	}
	mask := len(h.slots) - 1
	i := h.slot(lo, hi)
	for h.slots[i].hi != 0 {
		i = (i + 1) & mask
	}
	h.slots[i] = pairSlot{lo, hi, id}
	h.n++
}

// grow doubles the table (to 64 slots at first) and reinserts every term.
func (h *pairTable) grow() {
	old := h.slots
	size := max(64, 2*len(old))
	h.slots, h.n = make([]pairSlot, size), 0
	h.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, s := range old {
		if s.hi != 0 {
			h.put(s.lo, s.hi, s.id)
		}
	}
}

// hashTerm hashes a term's bytes eight at a time (a multiply-xorshift mix
// per word, the length folded in first).
func hashTerm(b []byte) uint64 {
	h := uint64(len(b)) * 0x9E3779B97F4A7C15
	for ; len(b) >= 8; b = b[8:] {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xFF51AFD7ED558CCD
		h ^= h >> 32
	}
	var w uint64
	for i := len(b) - 1; i >= 0; i-- {
		w = w<<8 | uint64(b[i])
	}
	h = (h ^ w) * 0xC4CEB9FE1A85EC53
	return h ^ h>>29
}

// longTable is an open-addressing hash table from a term's hash to its
// local id, with linear probing, kept at most half full. Equal hashes of
// different terms are told apart by comparing the terms' text.
type longTable struct {
	hashes []uint64
	ids    []uint32 // id + 1; 0 marks an empty slot
	n      int
	shift  uint // 64 - log2(len(ids))
}

// get returns the id of the term with hash h and text term.
func (l *longTable) get(h uint64, term []byte, terms []string) (uint32, bool) {
	if len(l.ids) == 0 {
		return 0, false
	}
	mask := len(l.ids) - 1
	for i := int(h >> l.shift); ; i = (i + 1) & mask {
		id := l.ids[i]
		if id == 0 {
			return 0, false
		}
		if l.hashes[i] == h && terms[id-1] == string(term) {
			return id - 1, true
		}
	}
}

// put stores the id of a term that is not in the table.
func (l *longTable) put(h uint64, id uint32) {
	if 2*(l.n+1) > len(l.ids) {
		l.grow()
	}
	mask := len(l.ids) - 1
	i := int(h >> l.shift)
	for l.ids[i] != 0 {
		i = (i + 1) & mask
	}
	l.hashes[i], l.ids[i] = h, id+1
	l.n++
}

// grow doubles the table (to 64 slots at first) and reinserts every term.
func (l *longTable) grow() {
	oldHashes, oldIDs := l.hashes, l.ids
	size := max(64, 2*len(oldIDs))
	l.hashes, l.ids, l.n = make([]uint64, size), make([]uint32, size), 0
	l.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for i, id := range oldIDs {
		if id != 0 {
			l.put(oldHashes[i], id-1)
		}
	}
}
