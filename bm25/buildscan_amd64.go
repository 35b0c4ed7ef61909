//go:build amd64 && !purego

package bm25

// blockBounds is blockBoundsGo in assembly where the CPU has POPCNT: a
// block's alphanumerics found by SSE2 as alnumFull finds them, and its
// bounds written from registers, eight at a time, by the same steps as
// writeBounds64 (Go's spills and reloads the loop's values around the
// calls and writes). The blocks must be inside s, and buf must have room
// for 64 entries a block past n: the assembly reads and writes without
// bounds checks.
func blockBounds(buf []uint32, n int, s string, i, blocks int, carry uint64) (int, int, uint64) {
	if !hasPOPCNT || blocks <= 0 {
		return blockBoundsGo(buf, n, s, i, blocks, carry)
	}
	if n < 0 || i < 0 || i+64*blocks > len(s) || n+64*blocks > len(buf) {
		panic("bm25: blockBounds: a block past the text, or no room for its bounds")
	}
	k, written, carry := blockBoundsAsm(&buf[n], s[i:], blocks, uint32(i), carry)
	return k, n + written, carry
}

// blockBoundsAsm is blockBounds for the blocks from s on, their bounds
// written from dst on, counted from position u.
//
//go:noescape
func blockBoundsAsm(dst *uint32, s string, blocks int, u uint32, carry uint64) (k, written int, carryOut uint64)
