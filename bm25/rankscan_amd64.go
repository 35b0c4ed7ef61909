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
