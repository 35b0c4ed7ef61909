package hygiene

import (
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"strings"
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

// TestKeyParts checks that keyParts sorts as slices.Sort does, on keys
// added document by document, in one part to eight (parts sorted by radix
// and by slices.Sort), with room for them all, for more (the room's tails
// never written) and for fewer (parts that overflow theirs).
func TestKeyParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 3))
	for _, n := range []int{0, 1, 100, 1 << 14, 400_000} {
		var docs [][]keyed
		var all []keyed
		shared := make([]uint64, 500)
		for i := range shared {
			shared[i] = rng.Uint64()
		}
		for d := int32(0); len(all) < n; d++ {
			var one []keyed
			for range 1 + rng.IntN(40) {
				switch x := rng.Uint64(); rng.IntN(10) {
				case 0:
					one = append(one, pack(shared[rng.IntN(len(shared))], d))
				case 1:
					one = append(one, pack(x>>20, d)) // all in the first part
				case 2:
					one = append(one, pack(x, d), pack(x, d))
				default:
					one = append(one, pack(x, d))
				}
			}
			docs, all = append(docs, one), append(all, one...)
		}
		want := slices.Clone(all)
		slices.Sort(want)
		for _, room := range []int{len(all), 2 * len(all), len(all) / 2} {
			for _, least := range []int{partKeys, 1 << 15, 1 << 10} {
				kp := newKeyParts(room, room/8, least)
				for _, one := range docs {
					kp.addKeys(one)
				}
				if got := kp.sorted(); !slices.Equal(got, want) {
					t.Fatalf("%d keys, room for %d, %d parts: not sorted as slices.Sort sorts them", len(all), room, 1<<kp.bits)
				}
			}
		}
	}
}

// TestRadixSort checks radixSort against slices.Sort, for both widths.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 3))
	for _, n := range []int{0, 5, 1 << 12, 50_000} {
		a, b := make([]uint64, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = rng.Uint64()>>uint(rng.IntN(64)), rng.Uint32()>>uint(rng.IntN(32))
		}
		wa, wb := slices.Clone(a), slices.Clone(b)
		slices.Sort(wa)
		slices.Sort(wb)
		radixSort(a)
		radixSort(b)
		if !slices.Equal(a, wa) || !slices.Equal(b, wb) {
			t.Fatalf("%d: not sorted as slices.Sort sorts", n)
		}
	}
}

// TestSharedBeginnings_AsTheMap checks that the entries sharedBeginnings
// finds by sorting are those the map from each beginning's hash finds
// (the path kept for more entries than a key holds), on 40,000 entries of
// which some begin alike: copies, copies in capitals or spaced out,
// blanks, and 3,000 of one template.
func TestSharedBeginnings_AsTheMap(t *testing.T) {
	es := corpus(40_000)
	rng := rand.New(rand.NewPCG(39, 4))
	for i := range es {
		switch r := rng.IntN(20); {
		case r == 0 && i > 0:
			es[i].Content = es[rng.IntN(i)].Content
		case r == 1 && i > 0:
			es[i].Content = strings.ToUpper(strings.ReplaceAll(es[rng.IntN(i)].Content, " ", "  \n"))
		case r == 2:
			es[i].Content = []string{"", " ", "\t\n"}[rng.IntN(3)]
		case r < 5:
			es[i].Content = strings.Repeat("| step | owner | status |\n", 8) + es[i].Content
		}
	}
	seed := maphash.MakeSeed()
	got, want := sharedBeginnings(es, seed), sharedBeginningsMap(es, seed)
	slices.Sort(got)
	slices.Sort(want)
	// Sorted, hashes agreeing in their top bits share a run: rarely (the
	// seed is random), an entry or two more.
	extra := len(got) - len(want)
	for _, i := range want {
		if _, ok := slices.BinarySearch(got, i); !ok {
			extra = -1
		}
	}
	if extra < 0 || extra > 2 || len(want) < 3000 {
		t.Fatalf("%d entries share a beginning by sorting, %d by the map", len(got), len(want))
	}
}
