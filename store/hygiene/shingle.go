package hygiene

import (
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Near duplicates are judged by wording, not by topic: two entries are
// near when they share runs of words (word shingles), as an edited copy
// shares most of its original's, where two notes on one topic share words
// but few runs of them (Broder, "On the resemblance and containment of
// documents", 1997). A text's words are its runs of letters, digits and
// marks after Unicode NFKC normalisation and full case folding; each word
// is kept as a 32-bit hash.

// MaxWordsPerEntry bounds the words of one entry the near-duplicate check
// reads (its beginning): the work of comparing two entries is in
// proportion to their words.
const MaxWordsPerEntry = 20_000

// appendWords appends the hashes of s's words to dst, at most limit of
// them. An ASCII word needs neither normalisation nor more than ASCII case
// folding; a word holding another letter is put in NFKC and folded
// (cases.Fold: ß is ss, a final ς is σ) first, alone, so a memory of
// English pays nothing for it.
//
// ASCII is read 64 bytes at a time (wordBits), its words taken from a bit
// a byte, without a branch a byte or a load a word; text with other
// bytes, and the last 63 bytes, a byte or eight at a time.
func appendWords(dst []uint32, s string, limit int, fold *cases.Caser) []uint32 {
	n, i, from := 0, 0, -1 // from: where a word running on past the last block began
	for ; i+64 <= len(s) && n < limit; i += 64 {
		word, ascii := wordBits(s[i : i+64])
		if !ascii {
			break
		}
		if from >= 0 && word&1 == 0 { // the word ended with the last block
			dst = append(dst, hashWordIn(s, from, i))
			n, from = n+1, -1
		}
		for m := word; m != 0 && n < limit; {
			b := bits.TrailingZeros64(m)
			e := b + bits.TrailingZeros64(^(m >> b)) // the first byte after the run, 64 at most
			if b > 0 || from < 0 {
				from = i + b
			}
			if e == 64 {
				break // the word may run on into the next block
			}
			dst = append(dst, hashWordIn(s, from, i+e))
			n, from = n+1, -1
			m &^= 1<<e - 1
		}
	}
	if from >= 0 {
		i = from // read again, with what follows it
	}
	for i < len(s) && n < limit {
		// Skip ASCII that is no part of a word, then take the ASCII word
		// there: eight bytes a step (wordBytes), where a loop a byte left
		// at an unforeseen byte at the end of each word and each space
		// (a third of the words' cost), and one table look a byte in the
		// last seven bytes of s.
		for ; i+8 <= len(s); i += 8 {
			v := load8(s[i:])
			if sep := hi8 &^ (wordBytes(v) | v); sep != hi8 {
				i += bits.TrailingZeros64(sep^hi8) >> 3
				break
			}
		}
		for i < len(s) && byteClass[s[i]] == classSep {
			i++
		}
		j := i
		for ; j+8 <= len(s); j += 8 {
			if w := wordBytes(load8(s[j:])); w != hi8 {
				j += bits.TrailingZeros64(w^hi8) >> 3
				break
			}
		}
		for j < len(s) && byteClass[s[j]] == classWord {
			j++
		}
		if j == len(s) || byteClass[s[j]] == classSep {
			if j > i {
				dst = append(dst, hashWordIn(s, i, j))
				n++
			}
			i = j
			continue
		}
		// The word goes on with a rune beyond ASCII (or one starts with
		// it): read it rune by rune, then normalise it.
		plain := true
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				if byteClass[c] == classSep {
					break
				}
				j++
				continue
			}
			r, w := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsMark(r) {
				break
			}
			plain = false
			j += w
		}
		switch {
		case j == i: // a rune that is no part of a word
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		case plain:
			dst = append(dst, hashWord(s[i:j], 0x20))
		default:
			dst = append(dst, hashWord(fold.String(norm.NFKC.String(s[i:j])), 0))
		}
		n++
		i = j
	}
	return dst
}

// wordBytes marks, with its high bit, each byte of v (eight bytes of a
// text) that is an ASCII letter or digit: a letter is a byte that ORed
// with 0x20 is in 'a'..'z', a digit one in '0'..'9', each range tested in
// every byte at once by two additions that carry into the high bit
// (without a carry into the next byte: the bytes are below 128 then), a
// byte of 128 or more is none.
func wordBytes(v uint64) uint64 {
	const ones = 0x0101010101010101
	x := v &^ hi8
	l := x | 0x2020202020202020
	letters := (ones*(127+'z'+1) - l) & (l + ones*(128-'a'))
	digits := (ones*(127+'9'+1) - x) & (x + ones*(128-'0'))
	return (letters | digits) &^ v & hi8
}

// wordBits returns a bit for each of the 64 bytes of block (byte k, bit
// k) that is an ASCII letter or digit, and whether all of them are ASCII.
func wordBits(block string) (word uint64, ascii bool) {
	_ = block[63]
	var high uint64
	for k := 0; k < 64; k += 8 {
		v := load8(block[k:])
		// wordBytes' high bits, one a byte, gathered into eight bits:
		// the multiply moves byte j's to bit 56+j and sums nothing else
		// there.
		word |= (wordBytes(v) >> 7 * 0x0102040810204080 >> 56) << k
		high |= v
	}
	return word, high&hi8 == 0
}

// hi8 is the high bit of each of eight bytes.
const hi8 = 0x8080808080808080

// byteClass is each byte's part in appendWords: an ASCII letter or digit
// (classWord), other ASCII (classSep), or a byte of a longer rune.
var byteClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = classRune
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			t[c] = classWord
		default:
			t[c] = classSep
		}
	}
	return t
}()

const (
	classSep = iota
	classWord
	classRune
)

// hashWord hashes a word eight bytes at a time, each byte ORed with low
// (0x20 lowers an ASCII letter and leaves a digit as it is): a multiply a
// word of up to eight bytes, its high half folded into the low.
func hashWord(w string, low byte) uint32 {
	lows := uint64(low) * 0x0101010101010101
	h := uint64(len(w)) * 0x9e3779b97f4a7c15
	for len(w) >= 8 {
		h = (h ^ (load8(w) | lows)) * 0xff51afd7ed558ccd
		h ^= h >> 32
		w = w[8:]
	}
	var x uint64
	for k := range len(w) {
		x |= uint64(w[k]|low) << (8 * k)
	}
	h = (h ^ x) * 0xc4ceb9fe1a85ec53
	return uint32(h>>32) ^ uint32(h)
}

// hashWordIn is hashWord(s[i:j], 0x20), its last bytes (fewer than
// eight) taken with one load and a mask where s holds eight bytes from
// there, as it does but at its end: a loop a byte was a quarter of the
// words' cost.
func hashWordIn(s string, i, j int) uint32 {
	const lows = 0x2020202020202020
	h := uint64(j-i) * 0x9e3779b97f4a7c15
	for ; j-i >= 8; i += 8 {
		h = (h ^ (load8(s[i:]) | lows)) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	var x uint64
	if i+8 <= len(s) {
		x = (load8(s[i:]) | lows) & (1<<(8*(j-i)) - 1)
	} else {
		for k := i; k < j; k++ {
			x |= uint64(s[k]|0x20) << (8 * (k - i))
		}
	}
	h = (h ^ x) * 0xc4ceb9fe1a85ec53
	return uint32(h>>32) ^ uint32(h)
}

// load8 is w's first eight bytes, little-endian (one load).
func load8(w string) uint64 {
	_ = w[7]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// mix64 is splitmix64's finaliser.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// appendShingles appends the hashes of words' k-shingles (each run of k
// words; a text of fewer words than k is one shingle of all of them) to
// dst, sorted and without repeats: the set the resemblance compares.
func appendShingles(dst []uint64, words []uint32, k int) []uint64 {
	start := len(dst)
	eachShingle(words, k, func(x uint64) { dst = append(dst, x) })
	s := dst[start:]
	slices.Sort(s)
	return dst[:start+len(slices.Compact(s))]
}

// eachShingle calls f with the hash of each of words' k-shingles (k at
// most 3), in order (a text of fewer words than k is one shingle of all of
// them).
func eachShingle(words []uint32, k int, f func(uint64)) {
	if len(words) == 0 {
		return
	}
	if len(words) < k {
		k = len(words)
	}
	for i := 0; i+k <= len(words); i++ {
		f(shingleHash(words[i : i+k]))
	}
}

// shingleHash is the hash of one shingle of one to three words: the
// words packed and mixed once (splitmix64's finaliser).
func shingleHash(ws []uint32) uint64 {
	x := uint64(ws[0]) << 32
	if len(ws) > 1 {
		x |= uint64(ws[1])
	}
	if len(ws) > 2 {
		x ^= uint64(ws[2]) * 0xc2b2ae3d27d4eb4f
	}
	return mix64(x + uint64(len(ws))*0x9e3779b97f4a7c15)
}

// overlap is the number of hashes a and b (each sorted, without repeats)
// have in common.
func overlap(a, b []uint64) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// jaccard is |a ∩ b| / |a ∪ b| of two shingle sets: Broder's resemblance.
func jaccard(a, b []uint64) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	n := overlap(a, b)
	return float64(n) / float64(len(a)+len(b)-n)
}
