package bm25

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// checkCountASCII fails unless countText (countASCII as far as text is
// ASCII, then the scanner) counts text's tokens and query terms as the
// plain rune-by-rune tokenizer finds them, and countASCII takes the whole
// of a pure-ASCII text.
func checkCountASCII(t *testing.T, q *queryMatcher, terms []string, ac *asciiCounter, text string) {
	t.Helper()
	tc := &termCounts{n: make([]uint32, len(terms))}
	tc.add(0) // counts from an earlier text stay
	var sc scanner
	got, ascii := q.countText(&sc, ac, text, tc)
	tokens := slowTokenize(text)
	want := make([]uint32, len(terms))
	want[0] = 1
	for _, tok := range tokens {
		for j, term := range terms {
			if tok == term {
				want[j]++
			}
		}
	}
	if got != uint32(len(tokens)) {
		t.Fatalf("countText(%q) = %d; the tokenizer finds %d tokens: %q", text, got, len(tokens), tokens)
	}
	for j := range terms {
		if tc.n[j] != want[j] {
			t.Fatalf("countText(%q): %q counted %d times, want %d (one more than the tokenizer finds for the first term)", text, terms[j], tc.n[j], want[j])
		}
	}
	if pure := !strings.ContainsFunc(text, func(r rune) bool { return r >= 0x80 }); ascii != pure {
		t.Fatalf("countText(%q): ascii %v, want %v", text, ascii, pure)
	}
	if !strings.ContainsFunc(text, func(r rune) bool { return r >= 0x80 }) {
		if _, rest := q.countASCII(ac, text, &termCounts{n: make([]uint32, len(terms))}); rest != len(text) {
			t.Fatalf("countASCII(%q) stopped at %d of %d bytes of ASCII", text, rest, len(text))
		}
	}
}

// asciiQueries have short terms of every length (two to four bytes among
// them, which are then looked up with the stopwords), none, long terms,
// and more long terms than are compared one by one.
var asciiQueries = []string{
	"deploy canary rollback",
	"rollback",
	"the zz",
	"ab xyz abcd",
	"abcde abcdef abcdefg abcdefgh",
	"internationalization abcdefghi",
	"x86 k8s 42 1234567890123",
	"a1 b2 c3 d4 e5 f6 g7 h8 i9 j10 abcdefghij abcdefghijk abcdefghijkl abcdefghijklm abcdefghijklmn abcdefghijklmno abcdefghijklmnop abcdefghijklmnopq abcdefghijklmnopqr",
}

// TestCountASCII_EveryOffset puts the query's words and words of every
// length from one to 19 bytes at the offsets around a 64-byte block's end
// and the text's, beside separators of every kind, before multi-byte runes
// in the same block and in a later one.
func TestCountASCII_EveryOffset(t *testing.T) {
	ac := &asciiCounter{}
	for _, query := range asciiQueries {
		terms := QueryTerms(query)
		q := newQueryMatcher(terms)
		words := append(strings.Fields(query), "THE", "With", "ABCDEFGHIJ")
		for n := 1; n <= 19; n++ {
			words = append(words, "aB3aB3aB3aB3aB3aB3a"[:n])
		}
		for _, word := range words {
			for _, pad := range []int{0, 1, 7, 8, 56, 57, 61, 62, 63, 64, 65, 120, 127, 128} {
				for _, after := range []string{"", " ", ".x", "\x00", "\x7f", "-the", "é", "\xff", "—x"} {
					text := strings.Repeat("of ", pad)[:pad] + word + after
					checkCountASCII(t, q, terms, ac, text)
					checkCountASCII(t, q, terms, ac, text+" tail of the TEXT")
					checkCountASCII(t, q, terms, ac, text+strings.Repeat(" x", pad%37)+"é")
				}
			}
		}
	}
}

// TestCountASCII_Random counts random texts of edge bytes, stopwords and
// query words in every case, short and long enough for several blocks.
func TestCountASCII_Random(t *testing.T) {
	alphabet := []string{
		"a", "z", "A", "Z", "0", "9", "@", "[", "`", "{", "/", ":", "\x7f", "\x00", "_", " ", " ", "\n",
		"the", "THE", "Of", "ab", "with", "Your", "ABCDEFGH", "abcdefgh", "deploy", "Canary", "ROLLBACK",
		"internationalization", "abcdefghi", "k8s", "X86", "1234567890123",
	}
	rng := rand.New(rand.NewPCG(17, 18))
	ac := &asciiCounter{}
	for k := range 2000 {
		query := asciiQueries[k%len(asciiQueries)]
		terms := QueryTerms(query)
		q := newQueryMatcher(terms)
		var sb strings.Builder
		size := rng.IntN(60)
		if k%50 == 0 {
			size = 1000 + rng.IntN(2000)
		}
		for range size {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		if k%10 == 0 { // the scanner's from here on
			sb.WriteString([]string{"naïve", "é", "ΣΟΦΟΣ", "\xff", "—"}[rng.IntN(5)])
			for range rng.IntN(200) {
				sb.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
		}
		checkCountASCII(t, q, terms, ac, sb.String())
	}
}

// TestAlnumFull_SameAsGo compares alnumFull (SSE2 on amd64) with
// alnumFullGo on random blocks: ASCII-heavy ones of every byte below 0x80
// and the edges of each class, with a byte of 0x80 or more in some block
// at some offset, or none.
func TestAlnumFull_SameAsGo(t *testing.T) {
	edges := []byte("/09:@AZ[`az{ \x00\x7f_-.")
	rng := rand.New(rand.NewPCG(40, 1))
	for k := range 3000 {
		blocks := rng.IntN(9)
		buf := make([]byte, 64*blocks+rng.IntN(64))
		for i := range buf {
			if rng.IntN(2) == 0 {
				buf[i] = edges[rng.IntN(len(edges))]
			} else {
				buf[i] = byte(rng.IntN(0x80))
			}
		}
		if k%3 == 0 && len(buf) > 0 {
			buf[rng.IntN(len(buf))] = byte(0x80 + rng.IntN(0x80))
		}
		s := string(buf)
		got, want := make([]uint64, blocks), make([]uint64, blocks)
		n, wantN := alnumFull(got, s), alnumFullGo(want, s)
		if n != wantN || !slices.Equal(got[:n], want[:n]) {
			t.Fatalf("alnumFull(%q) = %d %x, alnumFullGo %d %x", s, n, got[:n], wantN, want[:wantN])
		}
	}
}

// TestStopTable holds stopMul and stopTable to stopHash's.
func TestStopTable(t *testing.T) {
	if stopHash.mul != stopMul || stopTable != stopHash.table {
		t.Fatalf("stopMul %#x, stopHash.mul %#x: set stopMul to it", uint32(stopMul), stopHash.mul)
	}
}

// TestStopLooks_SameAsGo compares stopLooks (assembly on amd64) with
// stopLooksGo on random texts of words, stopwords and edge bytes, at every
// place, near the text's end among them.
func TestStopLooks_SameAsGo(t *testing.T) {
	words := []string{"the", "THE", "Of", "a", "an", "With", "your", "ab", "x9", "0", "zz", "Then", " ", ".", "\x00", "\x7f", "@", "[", "`", "{", "/", ":"}
	rng := rand.New(rand.NewPCG(40, 2))
	for range 2000 {
		text, i, places := randomLooks(rng, words)
		if got, want := stopLooks(text, i, places), stopLooksGo(text, i, places); got != want {
			t.Fatalf("stopLooks(%q, %d, %v) = %d, stopLooksGo %d", text, i, places, got, want)
		}
	}
}

// randomLooks is a random text of words, at least eight bytes, a place i
// in it, and some of the offsets from i to the text's end: the look-ups'
// input as the count gives it, near the end among them.
func randomLooks(rng *rand.Rand, words []string) (text string, i int, places []uint32) {
	var sb strings.Builder
	for sb.Len() < 8 || rng.IntN(40) != 0 {
		sb.WriteString(words[rng.IntN(len(words))])
	}
	text = sb.String()
	i = rng.IntN(len(text))
	for p := i; p < len(text); p++ {
		if rng.IntN(3) == 0 {
			places = append(places, uint32(p-i))
		}
	}
	return text, i, places
}

// TestTermLooks_SameAsGo compares termLooksIn (assembly on amd64) with
// termLooksGo on random texts of query words, stopwords and edge bytes, at
// every place, near the text's end among them, for each asciiQueries table.
func TestTermLooks_SameAsGo(t *testing.T) {
	words := []string{"the", "Of", "deploy", "CANARY", "rollback", "abcdefgh", "abcd", "ab", "xyz", "x86", "k8s", "42", "a1", "j10", "abcdefg",
		" ", ".", "\x00", "\x7f", "@", "[", "`", "{", "/", ":"}
	rng := rand.New(rand.NewPCG(40, 3))
	for k := range 2000 {
		q := newQueryMatcher(QueryTerms(asciiQueries[k%len(asciiQueries)]))
		if q.table == nil {
			continue
		}
		text, i, places := randomLooks(rng, words)
		got, want := make([]uint32, len(places)), make([]uint32, len(places))
		d, n := termLooksIn(text, i, places, q.table, got)
		wd, wn := termLooksGo(text, i, places, q.table, want)
		if d != wd || n != wn || !slices.Equal(got[:n], want[:wn]) {
			t.Fatalf("termLooksIn(%q, %d, %v) = %d, %v; termLooksGo %d, %v", text, i, places, d, got[:n], wd, want[:wn])
		}
	}
}

// TestFindLooks_SameAsGo compares findLooks (assembly on amd64 with
// POPCNT) with findLooksGo on the first chunk of random ASCII texts of
// words of every length, for each asciiQueries matcher: the tokens, the
// places to look up, the carry and the long terms noted.
func TestFindLooks_SameAsGo(t *testing.T) {
	words := []string{"the", "Of", "a", "deploy", "CANARY", "rollback", "abcdefgh", "abcdefghi", "internationalization",
		"abcd", "ab", "xyz", "x86", "k8s", "1234567890123", " ", " ", ".", "\x00", "\x7f", "@", "[", "`", "{", "/", ":"}
	rng := rand.New(rand.NewPCG(40, 4))
	for k := range 1000 {
		q := newQueryMatcher(QueryTerms(asciiQueries[k%len(asciiQueries)]))
		var sb strings.Builder
		for size := 8 + rng.IntN(3000); sb.Len() < size; {
			sb.WriteString(words[rng.IntN(len(words))])
		}
		text := sb.String()
		var a, b asciiCounter
		n, _ := alnumBlocks(&a.masks, 0, text, 0)
		last := min(n, maskChunk)
		b.masks = a.masks
		carry := uint64(rng.IntN(2))
		tok, ns, nt, c := q.findLooks(&a, text, 0, last, carry)
		wtok, wns, wnt, wc := q.findLooksGo(&b, text, 0, last, carry)
		if tok != wtok || ns != wns || nt != wnt || c != wc ||
			!slices.Equal(a.stops[:ns], b.stops[:wns]) || !slices.Equal(a.terms[:nt], b.terms[:wnt]) ||
			!slices.Equal(a.pend, b.pend) {
			t.Fatalf("findLooks(%q, %d blocks) = %d %d %d %d, findLooksGo %d %d %d %d", text, last, tok, ns, nt, c, wtok, wns, wnt, wc)
		}
	}
}
