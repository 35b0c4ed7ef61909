package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBuildAsked_AsBuild: an index of the asked terms only ranks every
// query of them as the whole index does, by Search, Subsets, Groups and
// Many (the same hits, scores to the bit), with the same document
// frequencies and statistics; over one part and several, with empty
// documents, aliases, non-ASCII words and asked terms no document holds.
// Ids that do not ascend are refused.
func TestBuildAsked_AsBuild(t *testing.T) {
	for _, n := range []int{0, 1, 40, 3 * minPartDocs} {
		rng := rand.New(rand.NewPCG(uint64(n), 17))
		docs := make([]Doc, n)
		for i := range docs {
			docs[i] = randomDoc(rng, uint64(2*i+1), rankWords)
		}
		full := Build(docs)
		var queries [][]string
		var asked []string
		for range 60 {
			q := QueryTerms(randomQuery(rng))
			queries = append(queries, q)
			asked = append(asked, q...)
		}
		asked = append(asked, "neverinanydoc")
		ix, ok := BuildAsked(n, func(i int) Doc { return docs[i] }, asked)
		if !ok {
			t.Fatalf("n=%d: ascending ids refused", n)
		}
		if ix.Len() != full.Len() || ix.TotalLen() != full.TotalLen() || ix.AvgDocLen() != full.AvgDocLen() {
			t.Fatalf("n=%d: N %d, total %d, avgdl %v; whole index %d, %d, %v", n, ix.Len(), ix.TotalLen(), ix.AvgDocLen(), full.Len(), full.TotalLen(), full.AvgDocLen())
		}
		for _, d := range docs {
			if ix.DocLen(d.ID) != full.DocLen(d.ID) {
				t.Fatalf("n=%d: doc %d length %d, whole index %d", n, d.ID, ix.DocLen(d.ID), full.DocLen(d.ID))
			}
		}
		for _, term := range asked {
			if ix.DocFreq(term) != full.DocFreq(term) {
				t.Fatalf("n=%d: DocFreq(%q) %d, whole index %d", n, term, ix.DocFreq(term), full.DocFreq(term))
			}
		}
		subsets, wholeSubsets := ix.Subsets(), full.Subsets()
		many, wholeMany := ix.Many(), full.Many()
		groupTerms := normalizeTerms(slices.Clone(asked))
		groups, wholeGroups := ix.Groups(groupTerms), full.Groups(groupTerms)
		for _, q := range queries {
			for _, limit := range []int{1, 5, 64} {
				same := func(how string, got, want []Hit) {
					t.Helper()
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d %s %q limit %d:\n asked %v\n whole %v", n, how, q, limit, got, want)
					}
				}
				same("Search", ix.SearchTerms(q, limit), full.SearchTerms(q, limit))
				same("Many", many.SearchTerms(q, limit), wholeMany.SearchTerms(q, limit))
				got, gok := subsets.SearchTerms(q, limit)
				want, wok := wholeSubsets.SearchTerms(q, limit)
				if gok != wok {
					t.Fatalf("n=%d Subsets %q: ok %v, whole %v", n, q, gok, wok)
				}
				same("Subsets", got, want)
				if (groups == nil) != (wholeGroups == nil) {
					t.Fatalf("n=%d: Groups %v, whole %v", n, groups != nil, wholeGroups != nil)
				}
				if groups != nil {
					got, gok := groups.SearchTerms(q, limit)
					want, wok := wholeGroups.SearchTerms(q, limit)
					if gok != wok {
						t.Fatalf("n=%d Groups %q: ok %v, whole %v", n, q, gok, wok)
					}
					same("Groups", got, want)
				}
			}
		}
	}
	docs := []Doc{{ID: 2, Content: "alpha"}, {ID: 1, Content: "beta"}}
	if _, ok := BuildAsked(len(docs), func(i int) Doc { return docs[i] }, []string{"alpha"}); ok {
		t.Error("ids that do not ascend: built")
	}
}
