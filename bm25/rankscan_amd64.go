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
