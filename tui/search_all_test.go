package tui

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// manyHitsMemory writes n entries that all hold "deploy" (so recall finds
// each, best first by id as their scores tie) with creation times in a
// shuffled order, so the newest hit is rarely among recall's first 1,000,
// plus a few entries without it; it returns the path and the hits' ids
// from newest to oldest.
func manyHitsMemory(t *testing.T, n int) (string, []uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 17))
	ages := r.Perm(n)
	var es []store.Entry
	for i := range n {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("hit-%05d", i), Kind: store.Kind(i % 2),
			CreatedAt: uint64(testNow.Unix()) - uint64(ages[i])*3600, Content: "deploy steps"})
	}
	for i := range 5 {
		es = append(es, store.Entry{ID: uint64(n + i + 1), Name: fmt.Sprintf("other-%d", i), CreatedAt: uint64(testNow.Unix()), Content: "unrelated"})
	}
	byAge := slices.Clone(es[:n])
	slices.SortFunc(byAge, func(a, b store.Entry) int { return cmpDesc(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	ids := make([]uint64, n)
	for i, e := range byAge {
		ids[i] = e.ID
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	writeEntries(t, path, es)
	return path, ids
}

// listedIDsOf is the ids of the list's entry rows, in order.
func listedIDsOf(m *Model) []uint64 {
	var ids []uint64
	for _, e := range m.listedEntries() {
		ids = append(ids, e.ID)
	}
	return ids
}

// TestSearch_SortListsEveryHit pins issue 17 item 5: sorting a search
// sorted only the first 1,000 hits ("21,734 hits · showing 1,000" sorted
// newest did not start with the newest hit). Sorted by a date, a name or a
// size, a search lists every hit in that order.
func TestSearch_SortListsEveryHit(t *testing.T) {
	const n = 2500
	path, newest := manyHitsMemory(t, n)
	m := openModel(t, path, 120, 40)
	press(m, "/")
	typeText(m, "deploy ")
	press(m, "enter")
	if got := m.listedCount(); got != maxHits {
		t.Fatalf("by relevance %d rows, want the cap %d", got, maxHits)
	}
	press(m, "s")
	if m.list.Order != sortNewest {
		t.Fatalf("order %v, want newest", m.list.Order)
	}
	if got := listedIDsOf(m); !slices.Equal(got, newest) {
		t.Fatalf("sorted newest lists %d hits starting %v, want all %d starting %v", len(got), got[:min(3, len(got))], n, newest[:3])
	}
	if s := statusText(m); strings.Contains(s, "showing") {
		t.Fatalf("every hit is listed, yet the status says %q", s)
	}
	press(m, "3") // archives only: every archive hit, still in order
	var want []uint64
	for _, id := range newest {
		if (id-1)%2 == 1 {
			want = append(want, id)
		}
	}
	if got := listedIDsOf(m); !slices.Equal(got, want) {
		t.Fatalf("archives sorted newest: %d rows, want %d", len(got), len(want))
	}
}

// TestMarks_StarMarksEveryHit pins issue 17 item 5: `*` marked only the
// 1,000 hits listed by relevance; the README says it marks all search
// hits. It marks every hit the filters keep, and says how many of them
// are listed.
func TestMarks_StarMarksEveryHit(t *testing.T) {
	const n = 2500
	path, _ := manyHitsMemory(t, n)
	h := newEditHarness(t, path)
	press(h.m, "/")
	typeText(h.m, "deploy ")
	press(h.m, "enter", "*")
	if got := len(h.m.marks.IDs()); got != n {
		t.Fatalf("* marked %d entries, want every hit: %d", got, n)
	}
	h.wantStatus("marked 2,500 search hits (1,000 listed)")
	press(h.m, "*")
	if got := len(h.m.marks.IDs()); got != 0 {
		t.Fatalf("* again left %d marked, want none", got)
	}
	press(h.m, "2", "*") // notes only
	if got := len(h.m.marks.IDs()); got != n/2 {
		t.Fatalf("* on notes marked %d, want %d", got, n/2)
	}
}
