package export

import (
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeJSON rewrites encoding/json output so that it carries no raw
// character a terminal or a reader could misread (SPEC §6): DEL, the C1
// controls, Unicode format characters (category Cf: bidi overrides such as
// U+202E, zero-width characters) and line/paragraph separators become
// \uXXXX escapes (a surrogate pair above U+FFFF). Such characters can only
// stand inside JSON strings, where the escape means the same character, so
// the document decodes to the same value. Input without them is returned
// as is.
func EscapeJSON(b []byte) []byte {
	i := firstUnsafe(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if unsafeInJSON(r) {
			out = appendEscape(out, r)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// firstUnsafe returns the offset of the first character EscapeJSON must
// escape, or -1. Eight bytes that are all ASCII and none DEL are passed
// at once: an export is nearly all such text, and this scan was a quarter
// of its time byte by byte.
func firstUnsafe(b []byte) int {
	const lsbs, msbs = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(b); {
		if i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			y := x ^ 0x7f7f7f7f7f7f7f7f // a zero byte where x has DEL
			if (x|(y-lsbs)&^y)&msbs == 0 {
				i += 8
				continue
			}
		}
		if c := b[i]; c < utf8.RuneSelf {
			if c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if unsafeInJSON(r) {
			return i
		}
		i += n
	}
	return -1
}

// unsafeInJSON reports whether r is left raw by encoding/json but must not
// reach the output unescaped.
func unsafeInJSON(r rune) bool {
	return r == 0x7f || r >= 0x80 && r <= 0x9f ||
		unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

func appendEscape(out []byte, r rune) []byte {
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
	}
	return fmt.Appendf(out, `\u%04x`, r)
}
