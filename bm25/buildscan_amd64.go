//go:build amd64 && !purego

package bm25

import "unsafe"

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
	k, written, carry := blockBoundsAsm(&buf[n], s[i:], blocks, uint32(i), carry, hasBMI1)
	return k, n + written, carry
}

// tailBounds is tailBoundsGo by blockBoundsAsm, on a copy of the bytes
// padded to a block.
func tailBounds(buf []uint32, n int, s string, i int, carry uint64) (int, bool) {
	if !hasPOPCNT {
		return tailBoundsGo(buf, n, s, i, carry)
	}
	if n < 0 || i < 0 || i > len(s) || len(s)-i >= 64 || n+64 > len(buf) {
		panic("bm25: tailBounds: not a text's last bytes, or no room for their bounds")
	}
	var pad [64]byte
	copy(pad[:], s[i:])
	k, written, _ := blockBoundsAsm(&buf[n], unsafe.String(&pad[0], len(pad)), 1, uint32(i), carry, hasBMI1)
	return n + written, k == 1
}

// blockBoundsAsm is blockBounds for the blocks from s on, their bounds
// written from dst on, counted from position u; with bmi1, by BMI1's
// TZCNT and BLSR.
//
//go:noescape
func blockBoundsAsm(dst *uint32, s string, blocks int, u uint32, carry uint64, bmi1 bool) (k, written int, carryOut uint64)

// hasBMI1 says whether the CPU has BMI1 (TZCNT, BLSR), which
// blockBoundsAsm uses when it has.
var hasBMI1 = cpuidBMI1()

func cpuidBMI1() bool

// lookKnown is lookKnownGo in assembly, where a piece costs about 25
// instructions and Go's reloads about six of its values from the stack
// (the register allocator, amd64's registers). buf must have room for one
// id a pair of at: the assembly writes without bounds checks. Its reads
// of s are checked as lookKnownGo's are, and an id tf has no count for
// ends the run as lookKnownGo's does.
func lookKnown(at []uint32, s string, cs *shortCache, cp *pairCache, tf, buf []uint32) (took, added int) {
	if len(at) < 2 {
		return 0, 0
	}
	if len(buf) < len(at)/2 {
		panic("bm25: lookKnown: no room for the ids")
	}
	return lookKnownAsm(at, s, cs, cp, tf, &buf[0], &keyMasks)
}

//go:noescape
func lookKnownAsm(at []uint32, s string, cs *shortCache, cp *pairCache, tf []uint32, buf *uint32, masks *[18]uint64) (took, added int)

// keyMasks are lowBytes and then the bits lsbs*0x20 sets in those bytes:
// a piece's key, (x | lsbs*0x20) & lowBytes[n], is x&keyMasks[n] |
// keyMasks[9+n], with no constant held in a register.
var keyMasks = func() (m [18]uint64) {
	for n, b := range lowBytes {
		m[n], m[9+n] = b, b&(lsbs*0x20)
	}
	return m
}()
