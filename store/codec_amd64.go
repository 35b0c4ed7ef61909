//go:build amd64 && !purego

package store

import "unicode/utf8"

// validUTF8 is utf8.ValidString, its ASCII stretches found 64 bytes a
// step by SSE2 (asciiPrefix) rather than eight, and the 16 bytes after
// each, where a byte of 0x80 or more is, decoded rune by rune: the check
// of a large file's strings reads nearly every byte of it, and most are
// ASCII (in prose, a multi-byte rune every few hundred bytes).
func validUTF8(s string) bool {
	for len(s) >= 16 {
		s = s[asciiPrefix(s):]
		if len(s) < 16 {
			break
		}
		i := 0
		for i < 16 {
			if s[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		}
		s = s[i:] // where a rune starts: the check goes on from there
	}
	if len(s) >= 8 && (load64(s, 0)|load64(s, len(s)-8))&0x8080808080808080 == 0 {
		return true // ASCII, as most names are
	}
	return utf8.ValidString(s)
}

// asciiPrefix is asciiPrefixGo in assembly (SSE2, which every amd64 CPU
// has), reading only whole 16-byte chunks of s.
//
//go:noescape
func asciiPrefix(s string) int

// prefetchLines asks the CPU to bring s[from:to] into its caches, a
// 64-byte line at a time, and returns where it stopped (to, or up to 63
// bytes past it). The walk of a large file's structure jumps over each
// entry's content to the next one's lengths, a miss each that the CPU's
// own prefetchers do not foresee.
//
//go:noescape
func prefetchLines(s string, from, to int) int
