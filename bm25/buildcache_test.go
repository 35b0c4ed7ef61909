package bm25

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A dictionary with more words of up to 16 bytes than its fixed tables
// hold (buildTerms.shortCache, pairCache) looks the others up in its
// growing tables: Build still counts every word as Set does.
func TestBuild_BeyondFixedTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var words []string
	for i := range shortCacheSize {
		words = append(words, fmt.Sprintf("w%d", i), fmt.Sprintf("Longer%dword", i))
	}
	var docs []Doc
	for i := range 3 * minPartDocs {
		var sb strings.Builder
		for range 20 + rng.IntN(40) {
			// Zipf-like, as prose: the first words are the most frequent.
			sb.WriteString(words[int(float64(len(words))*rng.Float64()*rng.Float64())])
			sb.WriteString(" the ")
		}
		docs = append(docs, Doc{ID: uint64(i + 1), Content: sb.String()})
	}
	seq := New()
	for _, d := range docs {
		seq.Set(d)
	}
	for _, parts := range []int{1, 2} {
		ps := tokenizeParts(sliceSource(docs), parts, termEscape)
		if b := ps[0].voc; 2*b.shortN < shortCacheSize-2 || 2*b.pairN < pairCacheSize-2 {
			t.Fatalf("%d parts: fixed tables hold %d and %d terms, want them full", parts, b.shortN, b.pairN)
		}
		ix := buildParts(sliceSource(docs), parts)
		checkInvariants(t, ix)
		if ix.Len() != seq.Len() || ix.AvgDocLen() != seq.AvgDocLen() || len(ix.voc.terms) != len(seq.voc.terms) {
			t.Fatalf("%d parts: N %d avgdl %v terms %d, Sets give %d %v %d", parts,
				ix.Len(), ix.AvgDocLen(), len(ix.voc.terms), seq.Len(), seq.AvgDocLen(), len(seq.voc.terms))
		}
		for _, term := range seq.voc.terms {
			if ix.DocFreq(term) != seq.DocFreq(term) {
				t.Fatalf("%d parts: DocFreq(%q) = %d, Sets give %d", parts, term, ix.DocFreq(term), seq.DocFreq(term))
			}
		}
		for _, d := range docs[:100] {
			for _, term := range Tokenize(d.Content) {
				if ix.TermFreq(term, d.ID) != seq.TermFreq(term, d.ID) {
					t.Fatalf("%d parts: TermFreq(%q, %d) = %d, Sets give %d", parts, term, d.ID,
						ix.TermFreq(term, d.ID), seq.TermFreq(term, d.ID))
				}
			}
		}
	}
}
