package bm25

import "math/bits"

// SWAR ("SIMD within a register") helpers for the ASCII fast path: eight
// bytes are classified at once, so a short token costs a few word
// operations instead of a branch per byte, and comes out lowercased and
// packed as a vocabulary key.

const (
	lsbs = 0x0101010101010101
	msbs = 0x8080808080808080
)

// load64 reads s[i:i+8] as a little-endian word (one load after inlining).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// alnum8 returns, as high bits per byte of x, the ASCII alphanumerics of
// x and the bytes of multi-byte runes. Letters are found case-folded (OR
// 0x20 maps A-Z onto a-z and no separator onto a letter); the range tests
// add per byte and cannot carry because every byte is below 0x80.
func alnum8(x uint64) (alnum, multi uint64) {
	multi = x & msbs
	y := x ^ multi
	z := y | 0x2020202020202020
	letters := (z + lsbs*(0x80-'a')) &^ (z + lsbs*(0x7F-'z'))
	digits := (y + lsbs*(0x80-'0')) &^ (y + lsbs*(0x7F-'9'))
	return (letters | digits) & msbs &^ multi, multi
}

// upper8 returns the capitals among x's alphanumerics: letters whose bit 5
// (0x20) is clear (digits have it set).
func upper8(x, alnum uint64) uint64 { return alnum &^ (x << 2) }

// skipSeparators returns the index of the first byte at or after i that is
// an ASCII alphanumeric or starts a multi-byte rune (len(s) if none).
func skipSeparators(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		alnum, multi := alnum8(load64(s, i))
		if stop := alnum | multi; stop != 0 {
			return i + bits.TrailingZeros64(stop)/8
		}
	}
	for i < len(s) && byteClass[s[i]] == clSep {
		i++
	}
	return i
}

// shortPiece tries the fast path at s[i], an ASCII alphanumeric with eight
// readable bytes: when the piece is pure ASCII and ends within those bytes
// it returns its length n and its lowercase bytes packed as a key, and
// whether it had capitals. From the same word it also finds where the next
// piece may start: skip bytes on, at an ASCII alphanumeric or a multi-byte
// rune when known, else 8 (every byte after the piece is a separator).
func shortPiece(s string, i int) (n, skip int, key uint64, upper, known, ok bool) {
	x := load64(s, i)
	alnum, multi := alnum8(x)
	stop := ^alnum & msbs
	if stop == 0 {
		return 0, 0, 0, false, false, false
	}
	bit := bits.TrailingZeros64(stop) // the stop byte's high bit: 8n + 7
	if multi>>bit&1 != 0 {
		return 0, 0, 0, false, false, false // the piece may go on with a multi-byte rune
	}
	mask := uint64(1)<<(bit-7) - 1
	up := upper8(x, alnum) & mask
	skip = 8
	if after := (alnum | multi) &^ (1<<bit<<1 - 1); after != 0 {
		skip, known = bits.TrailingZeros64(after)>>3, true
	}
	return bit >> 3, skip, (x | up>>2) & mask, up != 0, known, true
}

// scanASCII returns the end of the run of ASCII alphanumerics starting at
// i and the OR of their byte classes (clUpper and/or clLower).
func scanASCII(s string, i int) (int, uint8) {
	var flags uint8
	for i < len(s) {
		cl := byteClass[s[i]]
		if cl == clSep || cl == clMulti {
			break
		}
		flags |= cl
		i++
	}
	return i, flags
}
