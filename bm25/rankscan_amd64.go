//go:build amd64 && !purego

package bm25

// alnumFull sets dst[k] to the alphanumerics' mask (block64's) of the k-th
// 64-byte block of s, for as many blocks as dst has (s must hold them), and
// returns how many it set before the first block that holds a byte of 0x80
// or more, which it leaves unset. On amd64 it is SSE2 (every amd64 CPU has
// it), 16 bytes a compare: a block costs about a third of the instructions
// of block64's word-by-word masks. The build tag purego, or another
// architecture, gives alnumFullGo.
func alnumFull(dst []uint64, s string) int {
	if len(s) < 64*len(dst) {
		panic("bm25: alnumFull: text shorter than its blocks")
	}
	if len(dst) == 0 {
		return 0
	}
	return alnumBlocksSSE2(&dst[0], s, len(dst))
}

// alnumBlocksSSE2 is alnumFull for n blocks, dst[0:n] from dst on.
//
//go:noescape
func alnumBlocksSSE2(dst *uint64, s string, n int) int

// stopLooks returns how many of the pieces of text at i + each of places,
// each of two to four bytes, are stopwords: stopLooksGo, in assembly,
// where a piece costs about 30 instructions rather than 40 (Go's keeps
// reloading its constants and values). text has eight bytes or more, and
// every place is inside it: the assembly reads without bounds checks.
func stopLooks(text string, i int, places []uint32) uint32 {
	if len(places) == 0 {
		return 0
	}
	if len(text) < 8 || i+int(places[len(places)-1]) >= len(text) {
		panic("bm25: stopLooks: a place past the text")
	}
	return stopLooksAsm(text, i, places, &stopTable, &alnumByte)
}

//go:noescape
func stopLooksAsm(text string, i int, places []uint32, stops *[1 << stopTableBits]uint32, alnum *[256]uint32) uint32

// termLooksIn is termLooksGo in assembly, where a piece costs about 45
// instructions rather than 80. text has eight bytes or more, every place
// is inside it, and pend has room for one a place: the assembly writes
// without bounds checks.
func termLooksIn(text string, i int, places []uint32, t *classTable, pend []uint32) (dropped uint32, terms int) {
	if len(places) == 0 {
		return 0, 0
	}
	if len(text) < 8 || i+int(places[len(places)-1]) >= len(text) || len(pend) < len(places) ||
		len(t.slots) != 1<<(64-t.shift) {
		panic("bm25: termLooksIn: a place past the text, or no room")
	}
	return termLooksAsm(text, i, places, &t.slots[0], t.mul, t.shift, &pend[0])
}

//go:noescape
func termLooksAsm(text string, i int, places []uint32, slots *classSlot, mul uint64, shift uint, pend *uint32) (dropped uint32, terms int)

// hasPOPCNT says whether the CPU has POPCNT, which findLooksAsm uses.
var hasPOPCNT = cpuidPOPCNT()

func cpuidPOPCNT() bool

// findLooks is findLooksGo, its block loop in assembly (findLooksAsm)
// where the CPU has POPCNT: about 200 instructions a block rather than
// 300 (Go's spills the loop's values around each of its writes' bounds).
func (q *queryMatcher) findLooks(ac *asciiCounter, text string, i, last int, carry uint64) (tokens uint32, ns, nt int, _ uint64) {
	if !hasPOPCNT || last <= 0 {
		return q.findLooksGo(ac, text, i, last, carry)
	}
	if last > maskChunk {
		panic("bm25: findLooks: more blocks than a chunk")
	}
	sm, tm := &q.stopMasks, &q.termMasks
	tokens, ns, nt, carry = findLooksAsm(&ac.masks, last, carry, &ac.stops, &ac.terms, &ac.longs,
		sm[2], sm[3], sm[4], tm[2], tm[3], tm[4], tm[5], tm[6], tm[7], tm[8])
	if len(q.long) > 0 {
		for b, g9 := range ac.longs[:last] {
			if g9 != 0 {
				q.matchLongs(ac, text, i+64*b, g9, ac.masks[b], ac.masks[b+1])
			}
		}
	}
	return tokens, ns, nt, carry
}

//go:noescape
func findLooksAsm(m *[maskChunk + 1]uint64, last int, carry uint64, stops, terms *[maxLooks]uint32, longs *[maskChunk]uint64,
	sm2, sm3, sm4, tm2, tm3, tm4, tm5, tm6, tm7, tm8 uint64) (tokens uint32, ns, nt int, carryOut uint64)
