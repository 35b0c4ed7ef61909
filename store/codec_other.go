//go:build !amd64 || purego

package store

import "unicode/utf8"

// validUTF8 is utf8.ValidString.
func validUTF8(s string) bool { return utf8.ValidString(s) }

// asciiPrefix is asciiPrefixGo.
func asciiPrefix(s string) int { return asciiPrefixGo(s) }

// prefetchLines asks nothing of the CPU here; it returns where the
// assembly would stop: the first 64-byte step from from that reaches to.
func prefetchLines(_ string, from, to int) int {
	if from < to {
		from += (to - from + 63) &^ 63
	}
	return from
}
