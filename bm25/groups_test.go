package bm25

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestGroups_MatchSearch checks that Groups ranks every query of its terms
// as Search does (the same hits, scores to the bit, order, ties by id at
// the cut) at every limit it takes, on documents built to tie and with
// tombstones left by changes before the groups were made; that a query
// with a term outside them, or a limit past 64, is left to Search; and
// that a change to the index retires them.
func TestGroups_MatchSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	ix := tieIndex(rng, false)
	terms := append(QueryTerms(strings.Join(testWords, " ")), "absent")
	g := ix.Groups(terms)
	if g == nil {
		t.Fatal("Groups = nil")
	}
	queries := []string{"alpha", "alpha beta", "beta gamma deploy", "zeta", "absent", "absent alpha", "", "the of", "deployment depot café v1.2 rollback"}
	for range 80 {
		queries = append(queries, randomDoc(rng, 0, testWords).Content)
	}
	for _, q := range queries {
		qt := QueryTerms(q)
		if !g.Covers(qt) {
			t.Fatalf("Covers(%q) = false", qt)
		}
		for _, limit := range []int{1, 2, 3, 5, 8, 37, 64} {
			got, ok := g.SearchTerms(qt, limit)
			if want := ix.SearchTerms(qt, limit); !ok || !slices.Equal(got, want) {
				t.Fatalf("SearchTerms(%q, %d) = %v, %v; Search %v", qt, limit, got, ok, want)
			}
		}
		for _, limit := range []int{0, -1, 65} {
			if _, ok := g.SearchTerms(qt, limit); ok {
				t.Errorf("SearchTerms(%q, %d) ranked a limit Groups does not take", qt, limit)
			}
		}
	}
	if sub := ix.Groups([]string{"alpha"}); sub.Covers([]string{"alpha", "beta"}) {
		t.Error("groups of alpha cover beta")
	} else if _, ok := sub.SearchTerms([]string{"alpha", "beta"}, 5); ok {
		t.Error("groups of alpha ranked a query of beta")
	}
	ix.Set(Doc{ID: 9999, Content: "alpha beta"})
	if _, ok := g.SearchTerms([]string{"alpha"}, 5); ok {
		t.Error("groups made before a change ranked after it")
	}
}

// TestGroups_Bounds checks that Groups declines what it cannot rank
// cheaply: more than 64 terms.
func TestGroups_Bounds(t *testing.T) {
	var docs []Doc
	var many []string
	for i := range 70 {
		w := strings.Repeat(string(rune('a'+i%26)), 2+i/26)
		many = append(many, w)
		docs = append(docs, Doc{ID: uint64(i + 1), Content: w})
	}
	ix := Build(docs)
	if ix.Groups(many) != nil {
		t.Error("Groups of 70 terms made")
	}
	if ix.Groups(many[:64]) == nil {
		t.Error("Groups of 64 terms not made")
	}
}

// tieIndex is an index of 3,000 random documents built to tie (every
// fourth of few distinct texts: many equal scores), with pastByte some
// holding a term more than 254 times, then changed 200 times (tombstones
// and changed lengths), for the rankers that must rank as Search does.
func tieIndex(rng *rand.Rand, pastByte bool) *Index {
	var docs []Doc
	for id := uint64(1); id <= 3000; id++ {
		d := randomDoc(rng, id, testWords)
		switch {
		case id%4 == 0:
			d = Doc{ID: id, Content: strings.Repeat("alpha ", rng.IntN(3)+1) + testWords[rng.IntN(len(testWords))]}
		case pastByte && id%97 == 0:
			d = Doc{ID: id, Content: strings.Repeat("gamma ", 300) + "zeta"}
		}
		docs = append(docs, d)
	}
	ix := Build(docs)
	for i := range 200 {
		id := uint64(1 + rng.IntN(3000))
		if i%2 == 0 {
			ix.Remove(docs[id-1])
			docs[id-1] = Doc{ID: id}
			continue
		}
		d := randomDoc(rng, id, testWords)
		ix.Replace(docs[id-1], d)
		docs[id-1] = d
	}
	return ix
}
