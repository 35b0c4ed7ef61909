package bm25

import (
	"math/bits"
	"strings"
)

// vocab maps terms to dense ids. Terms of at most eight bytes (most of
// them) are keyed by their bytes packed into a uint64 in an open-addressing
// table, which the tokenizer can probe without building a string; longer
// terms live in a Go map.
type vocab struct {
	short shortTable
	long  map[string]uint32
	terms []string // id → term
}

// newVocab returns an empty vocabulary.
func newVocab() vocab { return vocab{long: map[string]uint32{}} }

// lookup returns a term's id.
func (v *vocab) lookup(term string) (uint32, bool) {
	if k := packKey(term); k != 0 {
		return v.short.get(k)
	}
	t, ok := v.long[term]
	return t, ok
}

// intern returns the tokenizer's current token's id, adding the term (a
// private copy of it) if it is new.
func (v *vocab) intern(tz *tokenizer) (uint32, bool) {
	if t, ok := v.find(tz); ok {
		return t, false
	}
	return v.add(strings.Clone(tz.token())), true
}

// find returns the tokenizer's current token's id, without allocating.
func (v *vocab) find(tz *tokenizer) (uint32, bool) {
	switch {
	case tz.key != 0:
		return v.short.get(tz.key)
	case tz.sub:
		t, ok := v.long[tz.text[tz.lo:tz.hi]]
		return t, ok
	}
	t, ok := v.long[string(tz.buf)]
	return t, ok
}

// add appends a term that is not in the vocabulary and returns its id.
func (v *vocab) add(term string) uint32 {
	t := uint32(len(v.terms))
	v.terms = append(v.terms, term)
	if k := packKey(term); k != 0 {
		v.short.put(k, t)
	} else {
		v.long[term] = t
	}
	return t
}

// packKey packs a term of one to eight bytes into a uint64, little-endian;
// it returns 0 for any other length. Terms never contain NUL, so the
// packing is unambiguous.
func packKey[T string | []byte](s T) uint64 {
	if len(s) == 0 || len(s) > 8 {
		return 0
	}
	var k uint64
	for i := len(s) - 1; i >= 0; i-- {
		k = k<<8 | uint64(s[i])
	}
	return k
}

// unpackKey returns the term a key packs.
func unpackKey(k uint64) string {
	var b [8]byte
	n := 0
	for ; k != 0; k >>= 8 {
		b[n] = byte(k)
		n++
	}
	return string(b[:n])
}

// shortTable is an open-addressing hash table from non-zero uint64 keys to
// uint32 values, with linear probing, kept at most half full. A key and its
// value share a slot, so a look-up reads one cache line.
type shortTable struct {
	slots []shortSlot // key 0 marks an empty slot
	n     int
	shift uint // 64 - log2(len(slots))
}

// shortSlot is one slot of a shortTable.
type shortSlot struct {
	key uint64
	val uint32
}

// fibMul is the multiplier of Fibonacci hashing: 2^64 over the golden ratio.
const fibMul = 0x9E3779B97F4A7C15

// slot is a key's home slot (Fibonacci hashing).
func (h *shortTable) slot(k uint64) int {
	return int((k * fibMul) >> h.shift)
}

// get returns the value stored under k.
func (h *shortTable) get(k uint64) (uint32, bool) {
	if len(h.slots) == 0 {
		return 0, false
	}
	mask := len(h.slots) - 1
	for i := h.slot(k); ; i = (i + 1) & mask {
		switch s := &h.slots[i]; s.key {
		case k:
			return s.val, true
		case 0:
			return 0, false
		}
	}
}

// put stores a key that is not in the table.
func (h *shortTable) put(k uint64, v uint32) {
	if 2*(h.n+1) > len(h.slots) {
		h.grow()
	}
	mask := len(h.slots) - 1
	i := h.slot(k)
	for h.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	h.slots[i] = shortSlot{k, v}
	h.n++
}

// grow doubles the table (to 64 slots at first) and reinserts every key.
func (h *shortTable) grow() {
	old := h.slots
	size := max(64, 2*len(old))
	h.slots, h.n = make([]shortSlot, size), 0
	h.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, s := range old {
		if s.key != 0 {
			h.put(s.key, s.val)
		}
	}
}
