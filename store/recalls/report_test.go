package recalls

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortByKey: the rows sorted by key then name are in the order a
// comparison of (key, name) sorts them, whatever their names share (the
// 16 bytes kept of each, or all but the end); rows with the same key and
// name are left as they were, for the caller's sort; a row without a key
// leaves them all as they were.
func TestSortByKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := func(n int, dup bool) []string {
		seen := map[string]bool{}
		var out []string
		for len(out) < n {
			var name string
			switch rng.IntN(4) {
			case 0:
				name = fmt.Sprint("n", rng.IntN(1000)) // short
			case 1:
				name = fmt.Sprint("archive-eun-ji-testing-", rng.IntN(1000)) // past 16 bytes alike
			case 2:
				name = strings.Repeat("a", rng.IntN(20)) + string(rune('a'+rng.IntN(3))) // a prefix of another
			default:
				name = fmt.Sprint("abcdefgh\x00", rng.IntN(100)) // a zero byte within 16
			}
			if !seen[name] || dup {
				seen[name] = true
				out = append(out, name)
			}
		}
		return out
	}
	byKey := func(a, b EntryUse) int {
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), strings.Compare(a.Name, b.Name))
	}
	key := func(u *EntryUse) (uint64, bool) { return u.CreatedAt, true }
	for round := range 200 {
		n := rng.IntN(300)
		dup := round%4 == 3
		var us []EntryUse
		for i, name := range names(n, dup) {
			us = append(us, EntryUse{Name: name, CreatedAt: uint64(rng.IntN(5)) << (32 * (round % 2)), Size: i})
		}
		want := slices.Clone(us)
		slices.SortFunc(want, byKey)
		got := slices.Clone(us)
		if !sortByKey(got, key) {
			if !slices.Equal(got, us) {
				t.Fatalf("round %d: sortByKey declined but moved rows", round)
			}
			tied := false
			for i := 1; i < len(want); i++ {
				tied = tied || byKey(want[i-1], want[i]) == 0
			}
			if !tied {
				t.Fatalf("round %d: sortByKey declined rows without ties", round)
			}
			continue
		}
		for i := range want {
			if got[i].Name != want[i].Name || got[i].CreatedAt != want[i].CreatedAt {
				t.Fatalf("round %d: row %d = %q %d, want %q %d", round, i, got[i].Name, got[i].CreatedAt, want[i].Name, want[i].CreatedAt)
			}
		}
		if dup {
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: rows differ", round)
		}
	}
	us := []EntryUse{{Name: "b"}, {Name: "a"}}
	if sortByKey(us, func(u *EntryUse) (uint64, bool) { return 0, u.Name == "b" }) || us[0].Name != "b" {
		t.Errorf("a row without a key: sorted anyway, %v", us)
	}
}
