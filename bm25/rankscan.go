package bm25

import "math/bits"

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
// ends) and the buffer long pieces are lowered into.
type asciiCounter struct {
	pend []uint32
	long []byte
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
// Per block, the pieces that need a look-up are gathered into two masks,
// each walked by one loop (one loop exit to mispredict, not one a length),
// each piece's length read from the alphanumerics' bits: those a stopword
// may be are looked up among the stopwords alone (stopHash), those a query
// term may be in the query's table.
func (q *queryMatcher) countASCII(ac *asciiCounter, text string, tc *termCounts) (tokens uint32, rest int) {
	ac.pend = ac.pend[:0]
	n := len(text)
	if n == 0 {
		return 0, 0
	}
	cur, ok := asciiBlock(text, 0)
	if !ok {
		return 0, 0
	}
	var dropped uint32
	tm, sm := &q.termMasks, &q.stopMasks
	mul, shift, slots := q.table.mul, q.table.shift&63, q.table.slots
	stops, smul := &stopHash.table, stopHash.mul
	carry := uint64(0) // bit 0: the byte before the block is an alphanumeric
	rest = n
	for i := 0; i < n; i += 64 {
		var next uint64
		if i+128 <= n {
			// asciiBlock's common case, inline: one test of the eight
			// words' high bits, then their alphanumerics.
			b := text[i+64 : i+128]
			w0, w1, w2, w3 := load64(b, 0), load64(b, 8), load64(b, 16), load64(b, 24)
			w4, w5, w6, w7 := load64(b, 32), load64(b, 40), load64(b, 48), load64(b, 56)
			ok = (w0|w1|w2|w3|w4|w5|w6|w7)&msbs == 0
			next = movemask8(alnumASCII(w0)) | movemask8(alnumASCII(w1))<<8 |
				movemask8(alnumASCII(w2))<<16 | movemask8(alnumASCII(w3))<<24 |
				movemask8(alnumASCII(w4))<<32 | movemask8(alnumASCII(w5))<<40 |
				movemask8(alnumASCII(w6))<<48 | movemask8(alnumASCII(w7))<<56
		} else if i+64 < n {
			next, ok = asciiBlock(text, i+64)
		}
		if i+64 < n {
			if !ok {
				// The pieces of this block may run into a multi-byte rune:
				// count goes on from here, after the piece open here (which
				// ended in this block if it is not all alphanumerics).
				rest = i
				if carry != 0 {
					if cur == ^uint64(0) {
						return 0, 0 // the open piece may go on: count it all
					}
					rest += bits.TrailingZeros64(^cur)
				}
				break
			}
		}
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
		for look := e2&sm[2] | e3&sm[3] | e4&sm[4]; look != 0; look &= look - 1 {
			k := bits.TrailingZeros64(look)
			p := i + k
			var x uint64
			if p+8 <= n {
				x = load64(text, p)
			} else {
				x = loadEnd(text, p)
			}
			l := bits.TrailingZeros64(^window(cur, next, k)) // the piece's length, 2 to 4
			key := uint32((x | lsbs*0x20) & (1<<(uint(l)*8&63) - 1))
			diff := stops[stopSlot(key, smul)] ^ key
			dropped += (diff - 1) &^ diff >> 31 // 1 if a stopword
		}
		look := e2&tm[2] | e3&tm[3] | e4&tm[4] | g5&^r5&tm[5] |
			g6&^r6&tm[6] | g7&^r7&tm[7] | g8&^r8&tm[8]
		for ; look != 0; look &= look - 1 {
			k := bits.TrailingZeros64(look)
			p := i + k
			var x uint64
			if p+8 <= n {
				x = load64(text, p)
			} else {
				x = loadEnd(text, p)
			}
			l := bits.TrailingZeros64(^window(cur, next, k)) // 2 to 8
			// classTable.class, its fields in registers; the key has two
			// bytes or more, so it is not the one-byte class.
			key := (x | lsbs*0x20) & (^uint64(0) >> ((64 - uint(l)*8) & 63))
			e := &slots[(key*mul)>>shift]
			diff := e.key ^ key
			class := e.class & (uint32((diff|-diff)>>63) - 1)
			dropped += class & 1
			if class > 1 {
				ac.pend = append(ac.pend, class>>1-1)
			}
		}
		if g9 != 0 && len(q.long) > 0 { // pieces of nine bytes or more
			q.matchLongs(ac, text, i, g9, cur, next)
		}
		carry = cur >> 63
		cur = next
	}
	for _, j := range ac.pend {
		tc.add(j)
	}
	return tokens - dropped, rest
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

// asciiBlock returns a bit per byte of text[i:i+64] (bit k for text[i+k],
// none past the end) set for the ASCII alphanumerics, or false if a byte
// is part of a multi-byte rune.
func asciiBlock(text string, i int) (uint64, bool) {
	if i+64 <= len(text) {
		return block64(text, i)
	}
	var a uint64
	for k := 0; i+k < len(text); k += 8 {
		var x uint64
		if i+k+8 <= len(text) {
			x = load64(text, i+k)
		} else {
			x = loadEnd(text, i+k)
		}
		alnum, multi := alnum8(x)
		if multi != 0 {
			return 0, false
		}
		a |= movemask8(alnum) << k
	}
	return a, true
}

// loadEnd is loadTail, from one load of the text's last eight bytes when
// it has eight: the bytes from i on (fewer than eight) as the low bytes of
// the word, zeros above. A text's last block and the pieces that end it
// are read so, where the byte-by-byte loop was a few per cent of a
// search's pass.
func loadEnd(s string, i int) uint64 {
	if len(s) < 8 {
		return loadTail(s, i)
	}
	return load64(s, len(s)-8) >> (uint(8-(len(s)-i)) * 8 & 63)
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
