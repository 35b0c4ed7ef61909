package hygiene

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// topPairs returns the k most similar of pairs as addTop keeps them.
func topPairs(pairs []entryPair, k int) []entryPair {
	var top []entryPair
	for _, p := range pairs {
		top = addTop(top, p, k)
	}
	return top
}

// TestTopPairs_SameAsStableSort: a group's listed pairs (addTop) are the
// first k of its pairs sorted by similarity, most similar first, ties in
// the order found.
func TestTopPairs_SameAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 9))
	for range 2000 {
		pairs := make([]entryPair, rng.IntN(60))
		for i := range pairs {
			pairs[i] = entryPair{a: int32(i), b: int32(rng.IntN(1000)), sim: float64(rng.IntN(8)) / 8}
		}
		k := 1 + rng.IntN(25)
		want := slices.Clone(pairs)
		slices.SortStableFunc(want, func(x, y entryPair) int { return cmp.Compare(y.sim, x.sim) })
		want = want[:min(k, len(want))]
		if got := topPairs(slices.Clone(pairs), k); !slices.Equal(got, want) {
			t.Fatalf("topPairs(%v, %d) = %v, want %v", pairs, k, got, want)
		}
	}
}

// TestPairs_BoundSaysWhereItStopped: when a work bound stops the search,
// the report names the entry it stopped at, every pair at the threshold
// among the entries before it was found, and none twice. Before, when the exact
// similarities ran out, the candidates of the later entries were still
// walked (and never scored) up to the other bound, whose note named a
// later entry: on the 100k corpus the scores stopped at entry 9,061 and
// the note said 9,752.
