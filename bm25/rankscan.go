package bm25

import (
	"math/bits"
	"slices"
)

// Rank's counter for pure-ASCII text: a text's token count and its query
// terms come from bit masks of 64 bytes at a time, without listing the
// pieces. In ASCII a piece is a run of alphanumerics, and which of them
// are tokens depends on the length alone but for two to four bytes:
//
//   - one byte: never a token;
//   - two to four bytes: a token unless it is a stopword (all of them are
//     that short);
//   - five bytes or more: always a token.
//
// So for a block of 64 bytes, with A its alphanumerics as bits and the
// next block's to look ahead, the pieces starting in it are S = A &^ (A<<1)
// (with the previous block's last bit carried in), and those of exactly L
// bytes are S & A>>1 & … & A>>(L−1) &^ A>>L. Only the pieces of a length
// that a stopword or a query term has are looked up (those of a stopword's
// length among the stopwords, stopHash; those of a term's in the query's
// table, classTable); the others are counted by popcount. In prose about
// half the pieces are one byte or five and more, which cost nothing each.
//
// From the first block that holds a byte of a multi-byte rune (or the one
// before, whose pieces may run into it), the text is counted by the
// scanner instead, so the Unicode rules stay in one place (tokenizer).

// asciiCounter is the state countASCII keeps between texts: the query
// terms found in the text so far (added to the counts once its counting
// ends), the buffer long pieces are lowered into, and a chunk's masks and
// places to look up.
type asciiCounter struct {
	pend  []uint32
	long  []byte
	masks [maskChunk + 1]uint64 // the alphanumerics of blocks (alnumBlocks)
	longs [maskChunk]uint64     // their pieces of nine bytes or more (findLooksAsm)
	// A chunk's pieces to look up, by their place in it (findLooks).
	stops, terms [maxLooks]uint32
}

// lookMasks returns, by length (0 to 8), all ones in term for the
// lengths whose pieces must be looked up in the query's table (its short
// terms'), and in stop for those only a stopword can have: 2 to 4, unless
// a short term has one of them too, which the table then looks up with
// the stopwords.
func lookMasks(short []uint64) (term, stop [9]uint64) {
	for _, k := range short {
		term[(bits.Len64(k)+7)/8] = ^uint64(0)
	}
	if term[2]|term[3]|term[4] != 0 {
		term[2], term[3], term[4] = ^uint64(0), ^uint64(0), ^uint64(0)
		return term, stop
	}
	stop[2], stop[3], stop[4] = ^uint64(0), ^uint64(0), ^uint64(0)
	return term, stop
}

// countASCII counts the tokens of text up to rest and adds their query
// terms' frequencies to tc, as count does; rest is len(text) when text is
// pure ASCII, else where count must go on: a position after which no
// counted piece goes on and before which no uncounted one starts (the end
// of the piece open where the counting stopped, or that position if none
// is), 0 when nothing was counted. q must have a table.
//
// The text is counted in chunks of up to maskChunk blocks, in phases of a
// function each (so that each loop keeps its few values in registers):
// the chunk's masks (alnumBlocks); per block, the pieces counted and the
// places of those that need a look-up written to two lists, by the masks
// of the lengths a stopword or a query term may have (findLooks); then
// each list looked up in one loop, the stopwords' (stopLooks) and the
// query's table's (termLooks), each piece's key cut from its own bytes.
// A loop's exit is mispredicted once a chunk rather than once a block.
// On amd64 the phases' loops are assembly (rankscan_amd64.s), with their
// Go twins (findLooksGo, stopLooksGo, termLooksGo, alnumFullGo) elsewhere.
func (q *queryMatcher) countASCII(ac *asciiCounter, text string, tc *termCounts) (tokens uint32, rest int) {
	ac.pend = ac.pend[:0]
	n := len(text)
	if n < 8 {
		return q.countShort(ac, text, tc)
	}
	m := &ac.masks
	k, ok := alnumBlocks(m, 0, text, 0)
	if k == 0 {
		return 0, 0
	}
	var dropped uint32
	carry := uint64(0) // bit 0: the byte before the block is an alphanumeric
	rest = n
	i := 0 // where the block m[0] starts
	for {
		// m[:k] are the masks of the blocks from i on; the last of them is
		// counted here only if the text ends there or a multi-byte rune
		// follows it, else it is the next chunk's first.
		last := k - 1
		if i+64*k >= n && k < len(m) {
			last = k
		}
		// Each phase is a function of its own, called once a chunk, so
		// that its loop keeps its few values in registers.
		var ns, nt int
		var c uint32
		c, ns, nt, carry = q.findLooks(ac, text, i, last, carry)
		tokens += c
		dropped += stopLooks(text, i, ac.stops[:ns])
		if nt > 0 {
			dropped += q.table.termLooks(ac, text, i, ac.terms[:nt])
		}
		if last == k {
			break // the text's end
		}
		if !ok {
			// The pieces of block m[last] may run into a multi-byte rune:
			// count goes on from there, after the piece open there (which
			// ended in that block if it is not all alphanumerics).
			cur := m[last]
			rest = i + 64*last
			if carry != 0 {
				if cur == ^uint64(0) {
					return 0, 0 // the open piece may go on: count it all
				}
				rest += bits.TrailingZeros64(^cur)
			}
			break
		}
		i += 64 * last
		m[0] = m[last]
		k, ok = alnumBlocks(m, 1, text, i+64)
		k++
	}
	for _, j := range ac.pend {
		tc.add(j)
	}
	return tokens - dropped, rest
}

// findLooksGo is findLooks in Go: it counts the pieces of two bytes or
// more that start in the blocks m[:last] of ac.masks (text's from i on;
// m[last] the block after them, 0 past the end) and writes to ac.stops and ac.terms the places in
// the chunk of those to look up: ns among the stopwords, nt in the query's
// table. carry is bit 63 of the mask of the block before, and is returned
// for the next chunk. Pieces of nine bytes or more are matched here.
func (q *queryMatcher) findLooksGo(ac *asciiCounter, text string, i, last int, carry uint64) (tokens uint32, ns, nt int, _ uint64) {
	m := &ac.masks
	tm, sm := &q.termMasks, &q.stopMasks
	for b := 0; b < last; b++ {
		cur, next := m[b], m[b+1]
		// rL: byte L of a piece starting here is an alphanumeric.
		r1, r2, r3, r4 := cur>>1|next<<63, cur>>2|next<<62, cur>>3|next<<61, cur>>4|next<<60
		r5, r6, r7, r8 := cur>>5|next<<59, cur>>6|next<<58, cur>>7|next<<57, cur>>8|next<<56
		g1 := cur &^ (cur<<1 | carry) // the pieces starting in the block
		g2 := g1 & r1                 // gL: those of L bytes or more
		g3 := g2 & r2
		g4 := g3 & r3
		g5 := g4 & r4
		g6 := g5 & r5
		g7 := g6 & r6
		g8 := g7 & r7
		g9 := g8 & r8
		e2, e3, e4 := g2&^r2, g3&^r3, g4&^r4 // eL: those of exactly L bytes
		tokens += uint32(bits.OnesCount64(g2))
		stop := e2&sm[2] | e3&sm[3] | e4&sm[4]
		term := e2&tm[2] | e3&tm[3] | e4&tm[4] | g5&^r5&tm[5] |
			g6&^r6&tm[6] | g7&^r7&tm[7] | g8&^r8&tm[8]
		if g9 != 0 && len(q.long) > 0 { // pieces of nine bytes or more
			q.matchLongs(ac, text, i+64*b, g9, cur, next)
		}
		carry = cur >> 63
		// The places of the pieces to look up, in the chunk: eight
		// written whatever their number (past the last, a place of u + 63,
		// overwritten later), so that a block with up to eight costs no
		// branch on it. Written here rather than by a call, which would
		// have every value of the loop kept on the stack.
		u := uint32(64 * b)
		cs, ct := bits.OnesCount64(stop), bits.OnesCount64(term)
		{
			o := (*[8]uint32)(ac.stops[ns : ns+8])
			o[0] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[1] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[2] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[3] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[4] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[5] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[6] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			o[7] = u + uint32(bits.TrailingZeros64(stop|1<<63))
			stop &= stop - 1
			if stop != 0 { // more than eight
				writeRest(&ac.stops, ns+8, u, stop)
			}
		}
		{
			o := (*[8]uint32)(ac.terms[nt : nt+8])
			o[0] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[1] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[2] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[3] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[4] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[5] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[6] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			o[7] = u + uint32(bits.TrailingZeros64(term|1<<63))
			term &= term - 1
			if term != 0 { // more than eight
				writeRest(&ac.terms, nt+8, u, term)
			}
		}
		ns, nt = ns+cs, nt+ct
	}
	return tokens, ns, nt, carry
}

// stopLooksGo is stopLooks in Go: how many of the pieces of text at i +
// each of places, each of two to four bytes, are stopwords. text has
// eight bytes or more.
func stopLooksGo(text string, i int, places []uint32) (dropped uint32) {
	n := len(text)
	for _, u := range places {
		p := i + int(u)
		var x uint64
		if p+8 <= n {
			x = load64(text, p)
		} else { // the bytes from p on, zeros above: separators
			x = load64(text, n-8) >> (uint(p+8-n) * 8 & 63)
		}
		// The piece has two to four bytes: its third and fourth are
		// its own if alphanumerics.
		b2 := alnumByte[uint8(x>>16)]
		b3 := alnumByte[uint8(x>>24)] & b2
		key := (uint32(x) | 0x20202020) & (0xffff | b2<<16 | b3<<24)
		diff := stopTable[stopSlot(key, stopMul)] ^ key
		dropped += (diff - 1) &^ diff >> 31 // 1 if a stopword
	}
	return dropped
}

// pieceKey is the packed key (packKey) of the piece x starts with, of
// eight bytes or fewer, in ASCII, as is the byte after it (if x has it).
// The piece's end is found from its bytes, not from the masks: no shift
// by a variable count (on amd64 each needs the one register CL), no bit
// scan.
func pieceKey(x uint64) uint64 {
	z := x | lsbs*0x20
	letters := (z + lsbs*(0x80-'a')) &^ (z + lsbs*(0x7F-'z'))
	digits := (x + lsbs*(0x80-'0')) &^ (x + lsbs*(0x7F-'9'))
	end := ^(letters | digits) & msbs // the high bits of the separators
	end &= -end                       // the first's alone, or 0 for none
	return z & (end>>7 - 1)           // the bytes before it (all eight if none)
}

// termLooks looks up in the table the pieces of text at i + each of
// places, each of two to eight bytes: it notes the query terms in ac.pend
// and returns the number of stopwords.
func (t *classTable) termLooks(ac *asciiCounter, text string, i int, places []uint32) uint32 {
	np := len(ac.pend)
	pend := slices.Grow(ac.pend, len(places))[:np+len(places)]
	dropped, terms := termLooksIn(text, i, places, t, pend[np:])
	ac.pend = pend[:np+terms]
	return dropped
}

// termLooksGo is termLooksIn in Go: it looks up in t the pieces of text at
// i + each of places, each of two to eight bytes, writes the query terms'
// indexes to pend (which has room for one a place) and returns the number
// of stopwords and of terms. Every piece is written to pend, the count
// moved on only for a term, so that the loop has no branch on it (in
// prose a query's words are common: such a branch is often mispredicted).
// text has eight bytes or more.
func termLooksGo(text string, i int, places []uint32, t *classTable, pend []uint32) (dropped uint32, np int) {
	mul, shift, slots := t.mul, t.shift&63, t.slots
	n := len(text)
	pend = pend[:len(places)]
	for _, u := range places {
		p := i + int(u)
		var x uint64
		if p+8 <= n {
			x = load64(text, p)
		} else { // the bytes from p on, zeros above: separators
			x = load64(text, n-8) >> (uint(p+8-n) * 8 & 63)
		}
		// classTable.class; the key has two bytes or more, so it is not
		// the one-byte class.
		key := pieceKey(x)
		e := &slots[(key*mul)>>shift]
		diff := e.key ^ key
		class := e.class & (uint32((diff|-diff)>>63) - 1)
		dropped += class & 1
		term := class >> 1 // 1 + the term's index, or 0 for none
		pend[np] = term - 1
		np += int((term | -term) >> 31)
	}
	return dropped, np
}

// stopMul is stopHash's multiplier (TestStopTable), and stopTable its
// table, both where the count's loop needs no register to reach them.
const stopMul = 0x9E3779B1

var stopTable = stopHash.table

// countShort is countASCII for a text of fewer than eight bytes (most
// aliases), which the block loop's loads cannot take: one word, each
// piece of two bytes or more looked up in the query's table.
func (q *queryMatcher) countShort(ac *asciiCounter, text string, tc *termCounts) (tokens uint32, rest int) {
	x := loadTail(text, 0)
	alnum, multi := alnum8(x)
	if multi != 0 {
		return 0, 0
	}
	a := movemask8(alnum)
	for starts := a &^ (a << 1); starts != 0; starts &= starts - 1 {
		k := uint(bits.TrailingZeros64(starts))
		l := uint(bits.TrailingZeros64(^(a >> k)))
		if l < 2 {
			continue // one byte: never a token
		}
		class := q.table.class((x>>(8*k) | lsbs*0x20) & (1<<(8*l) - 1))
		tokens += 1 - class&1
		if class > 1 {
			tc.add(class>>1 - 1)
		}
	}
	return tokens, len(text)
}

// alnumByte is 0xff for the bytes of ASCII alphanumerics, else 0.
var alnumByte = func() (t [256]uint32) {
	for c := range t {
		if byteClass[c]&(clUpper|clLower) != 0 {
			t[c] = 0xff
		}
	}
	return t
}()

// maxLooks bounds a chunk's pieces to look up, with room for findLooks
// to write past them: a piece of two bytes or more and the separator after
// it take three.
const maxLooks = 64*maskChunk/3 + 1 + 72

// writeRest writes to buf from n the places u + k of the set bits k of
// look, in ascending order: those of a block's pieces to look up after its
// first eight.
func writeRest(buf *[maxLooks]uint32, n int, u uint32, look uint64) {
	for ; look != 0; look &= look - 1 {
		buf[n] = u + uint32(bits.TrailingZeros64(look))
		n++
	}
}

// maskChunk is the number of blocks whose masks alnumBlocks finds at once.
const maskChunk = 32

// alnumBlocks sets m[from:] to the masks of the 64-byte blocks of text
// from i on (asciiBlock's), as many as m holds and the text has, and
// returns how many it set, and false if it stopped at a block that holds
// a byte of a multi-byte rune. m[from+k] is 0 after the text's last block.
func alnumBlocks(m *[maskChunk + 1]uint64, from int, text string, i int) (k int, ok bool) {
	n := len(text)
	b := from
	if full := min(len(m)-b, (n-i)>>6); full > 0 {
		done := alnumFull(m[b:b+full], text[i:i+64*full])
		b, i = b+done, i+64*done
		if done < full {
			return b - from, false
		}
	}
	for ; b < len(m); b++ {
		if i < n {
			// The text's last bytes, fewer than 64: from the 64 that end
			// it when it has them (those before i are ASCII: their blocks
			// were read), else word by word, the last word the one that
			// ends the text.
			var a uint64
			ascii := true
			if i >= 64 {
				a, ascii = block64(text, n-64)
				a >>= uint(64-(n-i)) & 63
			} else {
				for k := 0; k < n; k += 8 {
					j := min(k, n-8)
					alnum, multi := alnum8(load64(text, j) >> (uint(k-j) << 3))
					ascii = ascii && multi == 0
					a |= movemask8(alnum) << (uint(k) & 63)
				}
			}
			if !ascii {
				return b - from, false
			}
			m[b] = a
		} else {
			m[b] = 0
			return b - from, true
		}
		i += 64
	}
	return len(m) - from, true
}

// alnumFullGo is alnumFull in Go: block64 block by block.
func alnumFullGo(dst []uint64, s string) int {
	for k := range dst {
		a, ok := block64(s, 64*k)
		if !ok {
			return k
		}
		dst[k] = a
	}
	return len(dst)
}

// window is the 64 bits of the alphanumerics from bit k of cur on, next's
// following: cur>>k | next<<(64−k) for k < 64, with shifts the compiler
// need not guard for counts of 64 (next<<1<<63 is next<<64, zero).
func window(cur, next uint64, k int) uint64 {
	return cur>>(uint(k)&63) | next<<1<<(uint(63-k)&63)
}

// alnumASCII is alnum8 for a word of ASCII bytes (no high bit set): the
// high bit of each byte that is a letter or a digit.
func alnumASCII(x uint64) uint64 {
	z := x | lsbs*0x20
	letters := (z + lsbs*(0x80-'a')) &^ (z + lsbs*(0x7F-'z'))
	digits := (x + lsbs*(0x80-'0')) &^ (x + lsbs*(0x7F-'9'))
	return (letters | digits) & msbs
}

// matchLongs notes in ac.pend the long query terms among the pieces of
// text starting at i + each set bit of starts, each of nine bytes or more.
// A piece shorter than 64 bytes whose length no long term has is passed
// over on its length alone, read from the alphanumerics' bits (cur, and
// next after it).
func (q *queryMatcher) matchLongs(ac *asciiCounter, text string, i int, starts, cur, next uint64) {
	for ; starts != 0; starts &= starts - 1 {
		k := bits.TrailingZeros64(starts)
		if l := bits.TrailingZeros64(^window(cur, next, k)); l < 64 && q.longLens>>l&1 == 0 {
			continue
		}
		buf := ac.long[:0]
		for p := i + k; p < len(text) && byteClass[text[p]]&(clUpper|clLower) != 0; p++ {
			buf = append(buf, text[p]|0x20) // digits have bit 5 already
		}
		ac.long = buf
		if j, ok := q.longIndex(buf); ok {
			ac.pend = append(ac.pend, j)
		}
	}
}
