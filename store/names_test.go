package store

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNameIndex_MatchesModel drives a nameIndex with random adds and drops
// over a few names and checks has and last against plain id slices kept in
// insertion order.
func TestNameIndex_MatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c"}
	x := newNameIndex(0)
	model := map[string][]uint64{}
	for step := range 3000 {
		name := names[rng.IntN(len(names))]
		if ids := model[name]; len(ids) > 0 && rng.IntN(2) == 0 {
			id := ids[rng.IntN(len(ids))]
			x.drop(name, id)
			model[name] = slices.DeleteFunc(ids, func(v uint64) bool { return v == id })
		} else {
			id := uint64(step) // ids are never added twice; 0 is a valid id
			x.add(name, id)
			model[name] = append(model[name], id)
		}
		x.drop(name, 1<<62) // an absent id is a no-op
		for _, n := range names {
			ids := model[n]
			got, ok := x.last(n)
			if x.has(n) != (len(ids) > 0) || ok != (len(ids) > 0) || ok && got != ids[len(ids)-1] {
				t.Fatalf("step %d: %q has=%v last=%d,%v; model %v", step, n, x.has(n), got, ok, ids)
			}
			if more := x.more[n]; len(ids) <= 1 && more != nil {
				t.Fatalf("step %d: %q keeps an overflow list %v", step, n, more)
			}
		}
	}
}
