package hygiene

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestKeywords_EveryOccurrence checks that rulesIn reports every occurrence
// of every keyword, in order, as a plain search for each keyword in the
// text's lowered copy does, on random texts of keywords (some in capitals),
// their pieces and prose (the bit sets must turn away only positions where
// no keyword starts).
func TestKeywords_EveryOccurrence(t *testing.T) {
	rs, err := ruleSet()
	if err != nil {
		t.Fatal(err)
	}
	var all []keyword
	for _, ws := range rs.kw.start {
		all = append(all, ws...)
	}
	rng := rand.New(rand.NewPCG(30, 3))
	type hit struct {
		rule int32
		at   int
	}
	for range 300 {
		var b strings.Builder
		for range 50 + rng.IntN(200) {
			switch w := all[rng.IntN(len(all))].text; rng.IntN(4) {
			case 0:
				if rng.IntN(3) == 0 {
					w = strings.ToUpper(w)
				}
				b.WriteString(w)
			case 1:
				b.WriteString(w[:1+rng.IntN(len(w))])
			case 2:
				b.WriteString(" the tests. ")
			default:
				b.WriteByte(byte(rng.IntN(256)))
			}
		}
		text := b.String()
		lower := asciiLower(nil, text)
		var got []hit
		rs.kw.rulesIn(text, func(r int32, at int) { got = append(got, hit{r, at}) })
		var want []hit
		for i := range lower {
			for _, w := range rs.kw.start[uint16(lower[i])|uint16(lower[min(i+1, len(lower)-1)])<<8] {
				if i+1 < len(lower) && hasPrefix(lower[i:], w.text) {
					want = append(want, hit{w.rule, i})
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\ngot  %v\nwant %v", text, got, want)
		}
		if len(want) == 0 {
			t.Fatalf("no keyword in %q", lower)
		}
	}
}

// asciiLower appends s with ASCII letters lowered.
func asciiLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func hasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }
