package hygiene

import (
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
// them. ASCII text needs neither normalisation nor more than ASCII case
// folding; other text is put in NFKC and folded (cases.Fold: ß is ss, a
// final ς is σ) first.
func appendWords(dst []uint32, s string, limit int, fold *cases.Caser) []uint32 {
	if !isASCII(s) {
		s = fold.String(norm.NFKC.String(s))
	}
	n := 0
	h, in := uint32(fnvOffset), false
	end := func() {
		if in {
			dst = append(dst, mix32(h))
			n++
		}
		h, in = fnvOffset, false
	}
	for i := 0; i < len(s) && n < limit; {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				end()
				continue
			}
			h = (h ^ uint32(c)) * fnvPrime
			in = true
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsMark(r) {
			i += w
			end()
			continue
		}
		for k := range w {
			h = (h ^ uint32(s[i+k])) * fnvPrime
		}
		i += w
		in = true
	}
	if n < limit {
		end()
	}
	return dst
}

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// mix32 spreads a word's FNV hash over all its bits (the murmur3
// finaliser), so shingle hashes built from it sample evenly.
func mix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
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
	if len(words) == 0 {
		return dst
	}
	if len(words) < k {
		k = len(words)
	}
	for i := 0; i+k <= len(words); i++ {
		x := uint64(k)
		for _, w := range words[i : i+k] {
			x = mix64(x*0x9e3779b97f4a7c15 + uint64(w))
		}
		dst = append(dst, x)
	}
	s := dst[start:]
	slices.Sort(s)
	return dst[:start+len(slices.Compact(s))]
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
