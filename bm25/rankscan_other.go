//go:build !amd64 || purego

package bm25

// alnumFull sets dst[k] to the alphanumerics' mask (block64's) of the k-th
// 64-byte block of s, for as many blocks as dst has (s must hold them), and
// returns how many it set before the first block that holds a byte of 0x80
// or more, which it leaves unset.
func alnumFull(dst []uint64, s string) int { return alnumFullGo(dst, s) }

// stopLooks returns how many of the pieces of text at i + each of places,
// each of two to four bytes, are stopwords (stopLooksGo).
func stopLooks(text string, i int, places []uint32) uint32 {
	return stopLooksGo(text, i, places)
}

// termLooksIn is termLooksGo.
func termLooksIn(text string, i int, places []uint32, t *classTable, pend []uint32) (dropped uint32, terms int) {
	return termLooksGo(text, i, places, t, pend)
}

// findLooks is findLooksGo.
func (q *queryMatcher) findLooks(ac *asciiCounter, text string, i, last int, carry uint64) (tokens uint32, ns, nt int, _ uint64) {
	return q.findLooksGo(ac, text, i, last, carry)
}
