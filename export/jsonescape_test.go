package export

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// firstUnsafeBytewise is firstUnsafe one character at a time, as it was.
func firstUnsafeBytewise(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if unsafeInJSON(r) {
			return i
		}
		i += n
	}
	return -1
}

func TestFirstUnsafe(t *testing.T) {
	text := `{"name":"deploy-steps","content":"Ship it: canary first, then all."}`
	tests := []string{
		"", "a", text, "\x7f", text + "\x7f", "\x7f" + text, text[:7] + "\x7f" + text,
		text[:8] + "\u202e" + text, text + "\u0085", "é" + text + "\u200b",
		strings.Repeat("é", 9) + "\u2028", strings.Repeat("a", 15) + "\xc2\x9f",
		text + "\xff\xfe" + "\u202e", // invalid UTF-8 before an unsafe character
	}
	for _, s := range tests {
		if got, want := firstUnsafe([]byte(s)), firstUnsafeBytewise([]byte(s)); got != want {
			t.Errorf("firstUnsafe(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzFirstUnsafe(f *testing.F) {
	f.Add("plain ascii text, long enough for a word\x7f")
	f.Add("ab\u202ecd\u00a0\u0085")
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []string{"", "1234567", strings.Repeat("x", 16)} {
			b := []byte(p + s)
			if got, want := firstUnsafe(b), firstUnsafeBytewise(b); got != want {
				t.Fatalf("firstUnsafe(%q) = %d, want %d", b, got, want)
			}
		}
	})
}
