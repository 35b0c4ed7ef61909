package hygiene

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeyed checks that sortKeyed sorts as slices.Sort does, on keys
// appended document by document as nearCandidates appends them: many held
// by one document, some by a few or by hundreds, some repeated within a
// document, a bucket or two far larger than the others.
func TestSortKeyed(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 2))
	for _, n := range []int{0, 1, 100, 1 << 14, 200_000} {
		var keys []keyed
		shared := make([]uint64, 500)
		for i := range shared {
			shared[i] = rng.Uint64()
		}
		for d := int32(0); len(keys) < n; d++ {
			for range 1 + rng.IntN(40) {
				switch x := rng.Uint64(); rng.IntN(10) {
				case 0:
					keys = append(keys, pack(shared[rng.IntN(len(shared))], d))
				case 1:
					keys = append(keys, pack(x>>20, d)) // all in the first bucket
				case 2:
					keys = append(keys, pack(x, d), pack(x, d))
				default:
					keys = append(keys, pack(x, d))
				}
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sortKeyed(keys)
		if !slices.Equal(keys, want) {
			t.Fatalf("%d keys: not sorted as slices.Sort sorts them", len(keys))
		}
	}
}
