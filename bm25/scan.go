package bm25

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"
)

// scanner is the tokenizer Build uses: it finds the pieces of pure-ASCII
// stretches of a text eight bytes at a time and leaves everything near a
// multi-byte rune to the general tokenizer, so it yields exactly the tokens
// of Tokenize (pinned by TestScanner_* and FuzzScannerMatchesPlain), only
// in another form and with some stopwords left in for the caller to drop.
//
// Fast path: for each eight-byte word, alnum8 marks its ASCII
// alphanumerics (one high bit per byte); a piece starts at an alphanumeric
// whose previous byte is not one and ends at the first byte that is not,
// so two shifts and masks give every start and end in the word, walked
// with TrailingZeros. A piece of ASCII alphanumerics lowercases by setting
// bit 5 of every byte (digits and lowercase letters have it already), so a
// piece of up to eight bytes is one load, an OR and a mask away from its
// packed key (packKey).
//
// Fallback: a word holding a byte of a multi-byte rune (or invalid UTF-8)
// hands over to the general tokenizer from where no piece is open (the
// open piece's start, else the word's start); once that tokenizer has
// passed the word, the fast path resumes where it stopped, which is never
// inside a piece.
//
// scan writes one text's candidates at once, so the loop keeps its state
// in registers: keys holds, in order, each token of at most eight bytes as
// its packed key and each longer one as 0, whose lowercase text is the
// next of long (cut at longEnds). A key from the fast path may be a
// stopword (isStopKey) or a piece of one ASCII character; every other
// candidate is a token.
type scanner struct {
	keys     []uint64
	long     []byte
	longEnds []uint32
	at       []uint32 // piece bounds of the stretch being scanned
	tz       tokenizer

	// With a table (Rank's), the short pieces of pure-ASCII stretches are
	// classified as they are found instead of kept as keys (classify):
	// counted counts them, dropped counts the stopwords and one-character
	// pieces among them, and tc their query terms' frequencies. Long
	// pieces are kept only with keepLong (the query has a long term);
	// otherwise they are counted too.
	table    *classTable
	tc       *termCounts
	keepLong bool
	counted  uint32
	dropped  uint32

	// With a part (Build's), the candidates are turned into the part's
	// term ids as they are found (buildPart.lookPieces, buildPart.flush)
	// instead of kept as keys; lowered is the scratch a long piece is
	// lowercased into.
	part    *buildPart
	lowered []byte
}

// longTerm returns the k-th long candidate's text.
func (sc *scanner) longTerm(k int) []byte {
	lo := uint32(0)
	if k > 0 {
		lo = sc.longEnds[k-1]
	}
	return sc.long[lo:sc.longEnds[k]]
}

// stretchBytes bounds the text one call of bounds covers, so the bounds
// buffer stays small however long a text is.
const stretchBytes = 4096

// scan replaces the candidates with those of text.
func (sc *scanner) scan(text string) {
	sc.keys, sc.long, sc.longEnds = sc.keys[:0], sc.long[:0], sc.longEnds[:0]
	if len(text) > 1<<31 { // beyond the bounds' uint32 positions
		sc.general(text, 0, len(text))
		sc.flush()
		return
	}
	st := stretch{}
	for {
		done := sc.bounds(text, &st)
		switch {
		case sc.table != nil:
			sc.classify(text)
		case sc.part != nil:
			sc.part.lookPieces(sc, text)
		default:
			sc.pieces(text)
		}
		if done {
			return
		}
		if st.multi {
			from := st.i
			if st.open {
				from = st.lo
			}
			st.i = sc.general(text, from, st.i+8)
			sc.flush()
			if st.i == len(text) {
				return
			}
			st = stretch{i: st.i}
		}
	}
}

// stretch is where bounds goes on: the word at i is the next to read;
// carry is 0x80 when the byte before it is an alphanumeric, so a piece is
// open, which started at lo; multi says the word at i holds a byte of a
// multi-byte rune.
type stretch struct {
	i     int
	carry uint64
	open  bool
	lo    int
	multi bool
}

// bounds records in sc.at the starts and ends of the pieces of s from
// st.i on, eight bytes at a time, up to the end of s (it reports done), a
// word holding a byte of a multi-byte rune (st.multi), or stretchBytes;
// st says where to go on. A piece left open by the previous call is
// carried over as sc.at's first start; one left open now is sc.at's last
// entry (an unpaired start).
//
// A word's starts and ends, which alternate, are written four at a time
// without branching on how many there are (the count moves the end of the
// buffer; a word has at most eight), so no branch is mispredicted per
// piece.
func (sc *scanner) bounds(s string, st *stretch) (done bool) {
	if cap(sc.at) < stretchBytes+boundsSlack {
		sc.at = make([]uint32, 0, stretchBytes+boundsSlack)
	}
	buf := sc.at[:cap(sc.at)]
	n := 0
	if st.open {
		buf[0], n = uint32(st.lo), 1
	}
	i, carry := st.i, st.carry
	for stop := i + stretchBytes; i < stop; {
		if i+64 <= len(s) {
			blocks := min(stop-i+63, len(s)-i) >> 6
			var k int
			k, n, carry = blockBounds(buf, n, s, i, blocks, carry)
			i += 64 * k
			if k == blocks {
				continue
			}
			// The block at i holds a byte of 0x80 or more: word by word.
		} else if m, ok := tailBounds(buf, n, s, i, carry); ok {
			// The last bytes, fewer than 64, as a block padded with
			// zero bytes (separators), as loadTail pads the last word.
			n, done = m, true
			break
		}
		var x uint64
		last := i+8 > len(s)
		if last {
			x = loadTail(s, i) // zero bytes (separators) pad it
		} else {
			x = load64(s, i)
		}
		alnum, multi := alnum8(x)
		if multi != 0 {
			st.multi = true
			break
		}
		prev := alnum<<8 | carry // high bit: the byte before is an alphanumeric
		ev := alnum&^prev | prev&^alnum
		carry = alnum >> 56
		cnt := bits.OnesCount64(ev)
		// The entries past cnt are overwritten later; past the last
		// event, TrailingZeros64(0)>>3 is 8, a harmless value.
		out := (*[8]uint32)(buf[n : n+8])
		u := uint32(i)
		out[0] = u + uint32(bits.TrailingZeros64(ev)>>3)
		ev &= ev - 1
		out[1] = u + uint32(bits.TrailingZeros64(ev)>>3)
		ev &= ev - 1
		out[2] = u + uint32(bits.TrailingZeros64(ev)>>3)
		ev &= ev - 1
		out[3] = u + uint32(bits.TrailingZeros64(ev)>>3)
		if cnt > 4 {
			for k := 4; k < cnt; k++ {
				ev &= ev - 1
				out[k] = u + uint32(bits.TrailingZeros64(ev)>>3)
			}
		}
		n += cnt
		if last {
			done = true
			break
		}
		i += 8
	}
	sc.at = buf[:n]
	st.i, st.carry, st.open = i, carry, n&1 != 0
	if st.open {
		st.lo = int(buf[n-1])
	}
	return done
}

// blockBoundsGo is blockBounds in Go: for each of up to blocks 64-byte
// blocks of s from i on, stopping before the first that holds a byte of
// 0x80 or more, it appends to buf[:n] the positions of the block's piece
// starts and ends (its alphanumerics' mask, block64's, against the byte
// before: carry is 0x80 when that is an alphanumeric), and returns the
// blocks it took, the new length and the carry after them. buf has room
// for 72 entries past the last bound (writeBounds64).
func blockBoundsGo(buf []uint32, n int, s string, i, blocks int, carry uint64) (k, _ int, _ uint64) {
	for ; k < blocks; k++ {
		word, ok := block64(s, i+64*k)
		if !ok {
			break
		}
		n = writeBounds64(buf, n, i+64*k, word^(word<<1|carry>>7))
		carry = word >> 63 << 7
	}
	return k, n, carry
}

// tailBoundsGo is tailBounds in Go: blockBoundsGo for the bytes of s from
// i on, fewer than 64, read as a block padded with zero bytes; ok is false,
// and nothing is written, when one of them is 0x80 or more.
func tailBoundsGo(buf []uint32, n int, s string, i int, carry uint64) (_ int, ok bool) {
	var pad [64]byte
	copy(pad[:], s[i:])
	word, ok := block64(unsafe.String(&pad[0], len(pad)), 0)
	if !ok {
		return n, false
	}
	return writeBounds64(buf, n, i, word^(word<<1|carry>>7)), true
}

// boundsSlack is the room the bounds buffer needs past stretchBytes: a
// stretch may end up to 56 bytes late (a block), a piece left open is
// carried over, and writes run up to 72 entries past the last bound.
const boundsSlack = 256

// block64 classifies the 64 bytes at s[i:] and returns a bit per byte (bit
// k for s[i+k]) set for the ASCII alphanumerics, or false if a byte is
// part of a multi-byte rune. One test of the eight words' high bits rules
// those out, so each word's alphanumerics are found without alnum8's
// masking of them (alnumASCII); the masks are gathered into bytes by a
// multiply (movemask8).
func block64(s string, i int) (uint64, bool) {
	b := s[i : i+64]
	w0, w1, w2, w3 := load64(b, 0), load64(b, 8), load64(b, 16), load64(b, 24)
	w4, w5, w6, w7 := load64(b, 32), load64(b, 40), load64(b, 48), load64(b, 56)
	if (w0|w1|w2|w3|w4|w5|w6|w7)&msbs != 0 {
		return 0, false
	}
	return movemask8(alnumASCII(w0)) | movemask8(alnumASCII(w1))<<8 |
		movemask8(alnumASCII(w2))<<16 | movemask8(alnumASCII(w3))<<24 |
		movemask8(alnumASCII(w4))<<32 | movemask8(alnumASCII(w5))<<40 |
		movemask8(alnumASCII(w6))<<48 | movemask8(alnumASCII(w7))<<56, true
}

// movemask8 gathers the high bits of a's bytes (and nothing else may be
// set) into the low byte, byte k's into bit k: the multiply moves bit 8k
// to bit 56+k with no carries between the partial products.
func movemask8(a uint64) uint64 { return (a >> 7) * 0x0102040810204080 >> 56 }

// writeBounds64 appends to buf[:n] the positions i+k of ev's set bits in
// ascending order and returns the new length. It writes eight at a time
// without looking at how many are left (past the last, the value is i+64,
// overwritten later), so the only branch is the loop's, once per eight.
func writeBounds64(buf []uint32, n, i int, ev uint64) int {
	cnt := bits.OnesCount64(ev)
	out := (*[72]uint32)(buf[n : n+72])
	u := uint32(i)
	for k := 0; k < cnt; k += 8 {
		o := (*[8]uint32)(out[k : k+8])
		o[0] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[1] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[2] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[3] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[4] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[5] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[6] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
		o[7] = u + uint32(bits.TrailingZeros64(ev))
		ev &= ev - 1
	}
	return n + cnt
}

// pieces turns the recorded bounds (start, end pairs) into candidates: a
// pure-ASCII piece lowercases by setting bit 5 of every byte and, when it
// fits in eight bytes, is packed with one load; a longer one is appended
// to long. The inner loop takes the short pieces with eight readable bytes
// (nearly all) and calls nothing, so its state stays in registers; any
// other piece leaves it for one round of the outer loop.
func (sc *scanner) pieces(s string) {
	at := sc.at
	nk := len(sc.keys)
	buf := slices.Grow(sc.keys, len(at)/2)
	buf = buf[:cap(buf)]
	for k := 0; k+1 < len(at); k += 2 { // an unpaired last start is still open
		for ; k+1 < len(at); k += 2 {
			lo, hi := int(at[k]), int(at[k+1])
			n := uint(hi - lo)
			if n > 8 || lo+8 > len(s) {
				break
			}
			buf[nk] = (load64(s, lo) | lsbs*0x20) & lowBytes[n]
			nk++
		}
		if k+1 >= len(at) {
			break
		}
		lo, hi := int(at[k]), int(at[k+1])
		if n := uint(hi - lo); n <= 8 {
			buf[nk] = (loadTail(s, lo) | lsbs*0x20) & lowBytes[n]
			nk++
			continue
		}
		sc.keys = buf[:nk]
		sc.appendLong(s, lo, hi)
		nk = len(sc.keys)
		buf = sc.keys[:cap(sc.keys)]
	}
	sc.keys = buf[:nk]
}

// classify is pieces for a scanner with a table: a short piece is
// classified (classTable.class) and counted, not kept; a long one is kept
// as pieces keeps it when sc.keepLong, and only counted otherwise.
func (sc *scanner) classify(s string) {
	at, t, tc := sc.at, sc.table, sc.tc
	var counted, dropped uint32
	for k := 0; k+1 < len(at); k += 2 { // an unpaired last start is still open
		lo, hi := int(at[k]), int(at[k+1])
		if n := uint(hi - lo); n <= 8 {
			var x uint64
			if lo+8 <= len(s) {
				x = load64(s, lo)
			} else {
				x = loadTail(s, lo)
			}
			class := t.class((x | lsbs*0x20) & lowBytes[n])
			counted++
			dropped += class & 1
			if class > 1 {
				tc.add(class>>1 - 1)
			}
			continue
		}
		if !sc.keepLong {
			counted++ // a token no query term can be
			continue
		}
		sc.appendLong(s, lo, hi)
	}
	sc.counted += counted
	sc.dropped += dropped
}

// appendLong keeps the piece s[lo:hi] of more than eight pure-ASCII bytes
// as a long candidate, lowercased.
func (sc *scanner) appendLong(s string, lo, hi int) {
	buf := sc.long
	end := len(buf) + hi - lo
	for ; lo < hi; lo += 8 { // whole words; the bytes past hi are cut
		var x uint64
		if lo+8 <= len(s) {
			x = load64(s, lo)
		} else {
			x = loadTail(s, lo)
		}
		buf = binary.LittleEndian.AppendUint64(buf, x|lsbs*0x20)
	}
	sc.long = buf[:end]
	sc.longEnds = append(sc.longEnds, uint32(end))
	sc.keys = append(sc.keys, 0)
}

// flush hands the candidates kept so far to the part, if any, and drops
// them.
func (sc *scanner) flush() {
	if sc.part != nil {
		sc.part.takeKeys(sc)
		sc.keys, sc.long, sc.longEnds = sc.keys[:0], sc.long[:0], sc.longEnds[:0]
	}
}

// lower returns the piece s[lo:hi] of pure-ASCII alphanumerics lowercased,
// in a scratch buffer valid until the next call.
func (sc *scanner) lower(s string, lo, hi int) []byte {
	buf := sc.lowered[:0]
	n := hi - lo
	for ; lo < hi; lo += 8 { // whole words; the bytes past hi are cut
		var x uint64
		if lo+8 <= len(s) {
			x = load64(s, lo)
		} else {
			x = loadTail(s, lo)
		}
		buf = binary.LittleEndian.AppendUint64(buf, x|lsbs*0x20)
	}
	sc.lowered = buf
	return buf[:n]
}

// lowBytes[n] masks the low n bytes of a word.
var lowBytes = [9]uint64{0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFF_FFFFFFFF,
	0xFFFF_FFFFFFFF, 0xFF_FFFF_FFFFFFFF, 0xFFFFFFFF_FFFFFFFF}

// loadTail reads s[i:] (fewer than eight bytes) as a little-endian word
// padded with zero bytes.
func loadTail(s string, i int) uint64 {
	var x uint64
	for k := len(s) - 1; k >= i; k-- {
		x = x<<8 | uint64(s[k])
	}
	return x
}

// general adds the general tokenizer's tokens of s from position from
// (where no piece is open) until it has passed position until, and returns
// where it stopped: len(s), or the end of the piece it took last or a
// position past it among separators. No piece is open there, and the byte
// there is not an alphanumeric continuing one, so the fast path can resume
// with no carry.
func (sc *scanner) general(s string, from, until int) int {
	tz := &sc.tz
	tz.reset(s)
	tz.pos = from
	for tz.pos < until {
		if !tz.next() {
			return len(s)
		}
		switch {
		case tz.key != 0:
			sc.keys = append(sc.keys, tz.key)
			continue
		case tz.sub:
			sc.long = append(sc.long, s[tz.lo:tz.hi]...)
		default:
			sc.long = append(sc.long, tz.buf...)
		}
		sc.longEnds = append(sc.longEnds, uint32(len(sc.long)))
		sc.keys = append(sc.keys, 0)
	}
	return tz.pos
}
