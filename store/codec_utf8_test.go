package store

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestASCIIPrefix_SameAsGo compares asciiPrefix (SSE2 on amd64) with
// asciiPrefixGo, and validUTF8 with utf8.ValidString, on random texts of
// every length up to a few blocks: ASCII with a byte of 0x80 or more (a
// rune's, or a stray one) at some offset or none, a rune or invalid bytes
// among the last 16, from every start.
func TestASCIIPrefix_SameAsGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	for k := range 4000 {
		b := make([]byte, rng.IntN(300))
		for i := range b {
			b[i] = byte(rng.IntN(0x80))
		}
		switch k % 4 {
		case 1:
			if len(b) > 0 {
				b[rng.IntN(len(b))] = byte(0x80 + rng.IntN(0x80))
			}
		case 2:
			if len(b) > 3 {
				copy(b[rng.IntN(len(b)-3):], []string{"é", "—", "👍"}[rng.IntN(3)])
			}
		case 3: // a rune, whole or cut, or a surrogate's bytes in the last 16
			b = append(b, []string{"é", "—", "👍", "\xe2\x80", "\xed\xa0\x80", "\xc0\xaf"}[rng.IntN(6)]...)
			b = append(b, "abcdefghijklmnop"[:rng.IntN(16)]...)
		}
		s := string(b)
		from := 0
		if len(s) > 0 {
			from = rng.IntN(len(s))
		}
		s = s[from:]
		if got, want := asciiPrefix(s), asciiPrefixGo(s); got != want {
			t.Fatalf("asciiPrefix(%q) = %d, asciiPrefixGo %d", s, got, want)
		}
		if got, want := validUTF8(s), utf8.ValidString(s); got != want {
			t.Fatalf("validUTF8(%q) = %v, utf8.ValidString %v", s, got, want)
		}
	}
}

// TestPrefetchLines_Stops: prefetchLines stops at the first 64-byte step
// from from that reaches to (at once when from is there already), on
// amd64 and elsewhere alike.
func TestPrefetchLines_Stops(t *testing.T) {
	s := string(make([]byte, 1000))
	for _, c := range []struct{ from, to int }{{0, 0}, {0, 1}, {0, 64}, {0, 65}, {10, 1000}, {999, 1000}, {500, 400}} {
		want := c.from
		for want < c.to {
			want += 64
		}
		if got := prefetchLines(s, c.from, c.to); got != want {
			t.Errorf("prefetchLines(%d, %d) = %d, want %d", c.from, c.to, got, want)
		}
	}
}
