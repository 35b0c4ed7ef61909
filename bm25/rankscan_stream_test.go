package bm25

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRanking_IsRank hands documents with ascending ids to a Ranking in
// one to three ranges, split anywhere (an empty range among them), and
// checks it ranks them as Rank does: the same hits, scores to the bit,
// order and positions; Add (or Text, then End) says which documents are
// pure ASCII as RankASCII does, and End which may rank.
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
			matched := make([]bool, n)
			for k := 1; k < len(cuts); k++ {
				rr := r.Range(n)
				for i := cuts[k-1]; i < cuts[k]; i++ {
					var ascii bool
					if i%2 == 0 {
						ascii = rr.Add(docs[i])
					} else { // as Add does it, saying which documents match
						ascii = rr.Text(docs[i].Content)
						for _, a := range docs[i].Aliases {
							ascii = rr.Text(a) && ascii
						}
						matched[i] = rr.End(docs[i].ID)
					}
					if !ascii {
						notASCII = append(notASCII, i)
					}
				}
				if rr.Len() != cuts[k]-cuts[k-1] {
					t.Fatalf("range of %d documents: Len %d", cuts[k]-cuts[k-1], rr.Len())
				}
				ranges = append(ranges, rr)
			}
			got := r.Ranked(ranges, limit)
			if !slices.Equal(got, want) {
				t.Fatalf("%d documents in ranges %v, %q limit %d: Ranked %v, Rank %v", n, cuts, query, limit, got, want)
			}
			for _, h := range got {
				if h.Pos%2 == 1 && !matched[h.Pos] {
					t.Fatalf("%q: document %d ranks, but End said it holds no query term", query, h.Pos)
				}
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
