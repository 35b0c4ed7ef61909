package hygiene

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// TestAppendWords_NormalFormsAndCase: words are compared after NFKC and
// full case folding, so a word in NFC or NFD, in capitals, with a final
// sigma or a ligature is one word; punctuation and other scripts' spaces
// separate words; different words differ.
func TestAppendWords_NormalFormsAndCase(t *testing.T) {
	fold := cases.Fold()
	words := func(s string) []uint32 { return appendWords(nil, s, MaxWordsPerEntry, &fold) }
	same := [][2]string{
		{"Café crème", "cafe\u0301 CRE\u0300ME"},
		{"ΣΟΦΟΣ λόγος", "σοφος ΛΌΓΟΣ"},
		{"the ﬁle — Straße", "THE file, strasse"},
		{"deploy-steps v2", "Deploy steps V2"},
		{"東京 タワー", "東京\u3000タワー"},
	}
	for _, c := range same {
		if a, b := words(c[0]), words(c[1]); !slices.Equal(a, b) || len(a) == 0 {
			t.Errorf("%q and %q: words %v and %v, want the same", c[0], c[1], a, b)
		}
	}
	if a, b := words("deploy canary"), words("deploy canary2"); slices.Equal(a, b) {
		t.Errorf("different words hash alike: %v", a)
	}
	if got := len(words("one, two; three... four")); got != 4 {
		t.Errorf("%d words, want 4", got)
	}
}

// TestAppendWords_AsDefined checks appendWords, which reads ASCII eight
// bytes at a time, against its definition read a rune at a time: a word
// is a longest run of ASCII letters and digits and of other letters,
// numbers and marks; an ASCII word is hashed lowered, another in NFKC and
// folded; at most limit words. Random texts of words, punctuation, runes
// beyond ASCII, invalid bytes and control bytes, of every length around
// eight.
func TestAppendWords_AsDefined(t *testing.T) {
	fold := cases.Fold()
	define := func(s string, limit int) []uint32 {
		var out []uint32
		for i := 0; i < len(s) && len(out) < limit; {
			j, plain := i, true
			for j < len(s) {
				r, w := utf8.DecodeRuneInString(s[j:])
				if r < utf8.RuneSelf && !('a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9') ||
					r >= utf8.RuneSelf && !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsMark(r) {
					break
				}
				plain = plain && r < utf8.RuneSelf
				j += w
			}
			switch {
			case j == i:
				_, w := utf8.DecodeRuneInString(s[i:])
				i += w
				continue
			case plain:
				out = append(out, hashWord(s[i:j], 0x20))
			default:
				out = append(out, hashWord(fold.String(norm.NFKC.String(s[i:j])), 0))
			}
			i = j
		}
		return out
	}
	pieces := []string{"a", "Z", "deploy", "Canary7", "x9", "0", "ABCDEFGHIJ", "abcdefghijklmnopq", " ", "  ", ", ", ".", "-", "_", "@", "[", "`", "{",
		"\n", "\t", "\x00", "\x10", "\x19", "\x7f", "é", "e\u0301", "Σ", "ς", "東京", "\u3000", "\u212a", "ﬁ", "\xff", "\xc3", "٣", "—"}
	rng := rand.New(rand.NewPCG(39, 5))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(60) {
			if rng.IntN(3) > 0 { // mostly ASCII, so some 64-byte blocks are
				b.WriteString(pieces[rng.IntN(12)])
			} else {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		s, limit := b.String(), MaxWordsPerEntry
		if rng.IntN(5) == 0 {
			limit = rng.IntN(4)
		}
		if got, want := appendWords(nil, s, limit, &fold), define(s, limit); !slices.Equal(got, want) {
			t.Fatalf("%q (limit %d): %v, want %v", s, limit, got, want)
		}
	}
}

// TestNearGroups_NoChain: A is near B and B near C, but A is not near C:
// no group holds A and C; every near pair is listed in some group.
func TestNearGroups_NoChain(t *testing.T) {
	pairs := []entryPair{{0, 1, 0.6}, {1, 2, 0.5}, {3, 4, 0.9}, {3, 5, 0.8}, {4, 5, 0.7}}
	groups := nearGroups(pairs)
	near := map[[2]int32]bool{}
	for _, p := range pairs {
		near[[2]int32{p.a, p.b}], near[[2]int32{p.b, p.a}] = true, true
	}
	listed := map[[2]int32]bool{}
	for _, g := range groups {
		for i, a := range g.members {
			for _, b := range g.members[i+1:] {
				if !near[[2]int32{a, b}] {
					t.Errorf("group %v holds %d and %d, not near each other", g.members, a, b)
				}
				listed[[2]int32{min(a, b), max(a, b)}] = true
			}
		}
	}
	for _, p := range pairs {
		if !listed[[2]int32{p.a, p.b}] {
			t.Errorf("pair %d-%d is in no group: %+v", p.a, p.b, groups)
		}
	}
	if len(groups) != 3 {
		t.Errorf("%d groups, want 3 ({0,1}, {3,4,5}, {1,2}): %+v", len(groups), groups)
	}
}
