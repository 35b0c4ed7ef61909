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
type buildTerms struct {
	short shortTable
	pair  pairTable
	long  longTable
	terms []string // local id → term; terms[sink] is a placeholder
}

// newBuildTerms returns a dictionary of only the sink's candidates.
func newBuildTerms() buildTerms {
	b := buildTerms{terms: []string{sink: ""}}
	b.pair.grow() // never empty, so lookPieces may probe it without a check
	for _, w := range stopwords {
		b.short.put(packKey(w), sink)
	}
	for c := byte('0'); c <= 'z'; c++ {
		if byteClass[c] == clLower && !IsStopword(string(c)) {
			b.short.put(uint64(c), sink)
		}
	}
	return b
}

// shortID returns the local id of a token of at most eight bytes by its
// packed key (sink for a stopword), adding the term if it is new.
func (b *buildTerms) shortID(key uint64) uint32 {
	if t, ok := b.short.get(key); ok {
		return t
	}
	t := uint32(len(b.terms))
	b.terms = append(b.terms, unpackKey(key))
	b.short.put(key, t)
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
	if t, ok := b.pair.get(lo, hi); ok {
		return t
	}
	var first [8]byte
	binary.LittleEndian.PutUint64(first[:], lo)
	t := uint32(len(b.terms))
	b.terms = append(b.terms, string(first[:])+unpackKey(hi))
	b.pair.put(lo, hi, t)
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

// slot is a term's home slot (lookPieces inlines it).
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
