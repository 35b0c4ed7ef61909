package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRanking_IsRank hands documents with ascending ids to a Ranking in
// one to three ranges, split anywhere (an empty range among them), and
// checks it ranks them as Rank does: the same hits, scores to the bit,
// order and positions; and Add says which documents are pure ASCII as
// RankASCII does.
func TestRanking_IsRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 1))
	for _, n := range []int{0, 1, 7, 300, 2 * minPartDocs} {
		docs := make([]Doc, n)
		for i := range docs {
			docs[i] = randomDoc(rng, uint64(2*i+1), rankWords)
			if i%13 == 0 {
				docs[i].Content, docs[i].Aliases = "the of a x", nil // no tokens
			}
		}
		doc := func(i int) Doc { return docs[i] }
		for range 40 {
			query := randomQuery(rng)
			limit := []int{0, 1, 3, 10, 1000}[rng.IntN(4)]
			r := NewRanking(query)
			want, mixed, _ := RankASCII(n, doc, query, limit)
			if r == nil {
				if len(want) != 0 {
					t.Fatalf("NewRanking(%q) is nil, but Rank has %d hits", query, len(want))
				}
				continue
			}
			cuts := []int{0, rng.IntN(n + 1), rng.IntN(n + 1), n}
			slices.Sort(cuts)
			cuts = cuts[:1+rng.IntN(3)]
			cuts = append(cuts, n)
			var ranges []*RankRange
			var notASCII []int
			for k := 1; k < len(cuts); k++ {
				rr := r.Range(n)
				for i := cuts[k-1]; i < cuts[k]; i++ {
					if !rr.Add(docs[i]) {
						notASCII = append(notASCII, i)
					}
				}
				if rr.Len() != cuts[k]-cuts[k-1] {
					t.Fatalf("range of %d documents: Len %d", cuts[k]-cuts[k-1], rr.Len())
				}
				ranges = append(ranges, rr)
			}
			if got := r.Ranked(ranges, limit); !slices.Equal(got, want) {
				t.Fatalf("%d documents in ranges %v, %q limit %d: Ranked %v, Rank %v", n, cuts, query, limit, got, want)
			}
			if !slices.Equal(notASCII, mixed) {
				t.Fatalf("%d documents, %q: Add found %v not ASCII, RankASCII %v", n, query, notASCII, mixed)
			}
		}
	}
	if NewRanking("the of") != nil {
		t.Error("NewRanking of a query without terms is not nil")
	}
}
