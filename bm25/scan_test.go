package bm25

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// scanTokens returns the tokens the scanner finds in text: its candidates
// in order, stopwords dropped, as Build sees them.
func scanTokens(sc *scanner, text string) []string {
	sc.scan(text)
	var out []string
	long := 0
	for _, key := range sc.keys {
		if key == 0 {
			out = append(out, string(sc.longTerm(long)))
			long++
			continue
		}
		if key > 0xFF && !isStopKey(key) { // neither one character nor a stopword
			out = append(out, unpackKey(key))
		}
	}
	if long != len(sc.longEnds) {
		panic("scanner: long candidates left over")
	}
	return out
}

// partTerms returns what a build part makes of one document of text (the
// scanner handing its pieces to the part, buildPart.lookPieces): its
// distinct terms in order of first occurrence, their counts, and the
// document's length.
func partTerms(text string) (terms []string, tfs []uint32, dl uint32) {
	p := &buildPart{src: source{1, func(int) Doc { return Doc{ID: 1, Content: text} }}, count: 1, packLimit: termEscape}
	p.tokenize()
	for slot := range int(p.ends[0]) {
		term, tf := p.unpack(slot)
		terms, tfs = append(terms, p.voc.terms[term]), append(tfs, tf)
	}
	return terms, tfs, p.dls[0]
}

// checkScanner fails unless the scanner's tokens of text are the plain
// rune-by-rune tokenizer's, and a build part's terms of it (the scanner
// looking its pieces up as it goes) are theirs, counted.
func checkScanner(t *testing.T, sc *scanner, text string) {
	t.Helper()
	got, want := scanTokens(sc, text), slowTokenize(text)
	if !slices.Equal(got, want) {
		t.Fatalf("scanner(%q) = %q, plain tokenizer says %q", text, got, want)
	}
	var wantTerms []string
	var wantTFs []uint32
	at := map[string]int{}
	for _, w := range want {
		k, ok := at[w]
		if !ok {
			k = len(wantTerms)
			at[w] = k
			wantTerms, wantTFs = append(wantTerms, w), append(wantTFs, 0)
		}
		wantTFs[k]++
	}
	terms, tfs, dl := partTerms(text)
	if !slices.Equal(terms, wantTerms) || !slices.Equal(tfs, wantTFs) || int(dl) != len(want) {
		t.Fatalf("build part(%q) = %q %v length %d, plain tokenizer says %q %v length %d",
			text, terms, tfs, dl, wantTerms, wantTFs, len(want))
	}
}

func TestScanner_Cases(t *testing.T) {
	long := strings.Repeat("Abcdefgh", 700) // one piece across stretches
	texts := []string{
		"", "a", "ab", "AB", "a b", "The quick Brown fox", "x86_64 ABCDEFGH abcdefghi",
		"1234567", "12345678", "123456789", "abcdefgh", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		"café au lait", "naïve ÀB", "ΣΟΦΟΣ σοφός", "emoji👍inside words", "end with é", "é start",
		"\xffab cd", "ab\xff", "aa.aaaaa" + strings.Repeat("aa.aaaaa", 1100), long, long + "é" + long,
		strings.Repeat("a ", 3000) + "Zebra", strings.Repeat("ab ", 3000) + "The end",
		strings.Repeat("word ", 819) + "éclair " + strings.Repeat("Word ", 900),
		"tab\tsep\nnl\r\nCRLF", "İstanbul İSTANBUL", "ǅemal Ǆemal",
	}
	sc := &scanner{}
	for _, text := range texts {
		checkScanner(t, sc, text)
	}
}

// TestScanner_EveryOffset puts words of every length at every offset from
// a word boundary and at the end of the text, beside ASCII and multi-byte
// neighbours, in texts too short for a 64-byte block and after enough
// text for one or two.
func TestScanner_EveryOffset(t *testing.T) {
	sc := &scanner{}
	for n := 1; n <= 19; n++ {
		word := strings.Repeat("aB3", n)[:n]
		for _, pad := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 55, 56, 57, 60, 63, 64, 65, 71, 120, 127, 128, 129} {
			for _, before := range []string{"", " ", "é", "—", "\xff"} {
				for _, after := range []string{"", " ", "é", "—", ".x", "\xff"} {
					text := strings.Repeat("x ", pad)[:pad] + before + word + after
					checkScanner(t, sc, text)
					checkScanner(t, sc, text+" tail of the text")
				}
			}
		}
	}
}

// TestScanner_RandomMatchesPlain drives the scanner with random texts of
// edge bytes, long enough to cross stretch boundaries.
func TestScanner_RandomMatchesPlain(t *testing.T) {
	alphabet := []string{
		"a", "z", "A", "Z", "0", "9", "@", "[", "`", "{", "/", ":", "\x7f", "\x00", "_", " ", " ", "\n",
		"é", "É", "Σ", "İ", "東", "—", "👍", "\u0301", "\xff", "the", "THE", "Of", "ab", "ABCDEFGH", "abcdefgh", "ǅ",
	}
	rng := rand.New(rand.NewPCG(13, 14))
	sc := &scanner{}
	for k := range 3000 {
		var sb strings.Builder
		size := rng.IntN(40)
		if k%100 == 0 {
			size = 3000 + rng.IntN(3000)
		}
		ascii := rng.IntN(2) == 0 // mostly-ASCII texts take the fast path longer
		for range size {
			w := alphabet[rng.IntN(len(alphabet))]
			if ascii && w[0] >= 0x80 && rng.IntN(20) != 0 {
				w = "x"
			}
			sb.WriteString(w)
		}
		checkScanner(t, sc, sb.String())
	}
}

// FuzzScannerMatchesPlain compares Build's tokenizer (scanner) with the
// plain rune-by-rune one on arbitrary input, valid UTF-8 or not.
func FuzzScannerMatchesPlain(f *testing.F) {
	for _, s := range []string{
		"", "Hello World", "ΣΟΦΟΣ", "x86_64 ABCDEFGH abcdefghi", "café", "ab\xffcd", "a.aaaaaaa.aaaaaaaaa",
		"The quick brown fox jumps over THE lazy dog", "emoji👍inside", "ǅemal Ǆemal", "1234567 12345678 123456789",
	} {
		f.Add(s)
	}
	sc := &scanner{}
	f.Fuzz(func(t *testing.T, text string) {
		checkScanner(t, sc, text)
	})
}

// TestBuild_AllTermLengths pins Build's dictionary (packed keys with the
// stopwords and one-character pieces as the sink, two-word keys for 9-16
// bytes, hashed text beyond) and its counting to the general tokenizer's
// Set: words of every length from 1 to 24 bytes, in upper, lower and mixed
// case, stopwords, digits, multi-byte neighbours and separators, over
// enough documents for several build parts and long enough for 64-byte
// blocks. Every term's df, every document's length and every (term,
// document) tf must agree.
func TestBuild_AllTermLengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var words []string
	for n := 1; n <= 24; n++ {
		base := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 1)[:n]
		words = append(words, base, strings.ToUpper(base), strings.Repeat("Qz7", 9)[:n])
	}
	words = append(words, "the", "THE", "of", "a", "I", "x", "naïve", "café", "ΣΟΦΟΣ", "東京", "—", "ab\u0301cd", "\xff")
	seps := []string{" ", " ", " ", ", ", "\n", ".", "-", "é", "—"}
	var docs []Doc
	for i := range 3 * minPartDocs {
		var sb strings.Builder
		for range rng.IntN(40) {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteString(seps[rng.IntN(len(seps))])
		}
		d := Doc{ID: uint64(i + 1), Content: sb.String()}
		if i%5 == 0 {
			d.Aliases = []string{words[rng.IntN(len(words))], "Alias" + words[rng.IntN(len(words))]}
		}
		docs = append(docs, d)
	}
	seq := New()
	for _, d := range docs {
		seq.Set(d)
	}
	for _, parts := range []int{1, 2, 3} {
		ix := buildParts(sliceSource(docs), parts)
		checkInvariants(t, ix)
		if ix.Len() != seq.Len() || ix.AvgDocLen() != seq.AvgDocLen() || len(ix.voc.terms) != len(seq.voc.terms) {
			t.Fatalf("%d parts: N %d avgdl %v terms %d, Sets give %d %v %d", parts,
				ix.Len(), ix.AvgDocLen(), len(ix.voc.terms), seq.Len(), seq.AvgDocLen(), len(seq.voc.terms))
		}
		for _, d := range docs {
			if ix.DocLen(d.ID) != seq.DocLen(d.ID) {
				t.Fatalf("%d parts: DocLen(%d) = %d, Sets give %d", parts, d.ID, ix.DocLen(d.ID), seq.DocLen(d.ID))
			}
		}
		for _, term := range seq.voc.terms {
			if ix.DocFreq(term) != seq.DocFreq(term) {
				t.Fatalf("%d parts: DocFreq(%q) = %d, Sets give %d", parts, term, ix.DocFreq(term), seq.DocFreq(term))
			}
			for _, d := range docs[:200] {
				if ix.TermFreq(term, d.ID) != seq.TermFreq(term, d.ID) {
					t.Fatalf("%d parts: TermFreq(%q, %d) = %d, Sets give %d", parts, term, d.ID,
						ix.TermFreq(term, d.ID), seq.TermFreq(term, d.ID))
				}
			}
		}
	}
}
