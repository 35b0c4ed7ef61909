package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/store"
)

// randomEntries makes n entries with colliding names, sizes and times, so
// ties are exercised.
func randomEntries(r *rand.Rand, n int, firstID uint64) []store.Entry {
	es := make([]store.Entry, n)
	for i := range es {
		es[i] = store.Entry{ID: firstID + uint64(i)*2, Name: fmt.Sprintf("n%03d", r.IntN(50)),
			CreatedAt: uint64(1_700_000_000 + r.IntN(20)), Content: string(make([]byte, r.IntN(10)))}
	}
	return es
}

// Item 6: orders derived across a change equal orders sorted afresh.
func TestDeriveOrders_EqualsAFreshSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		old := newSnapshot(randomEntries(r, 1+r.IntN(60), 1))
		old.warmOrders()
		cur := slices.Clone(old.entries)
		for range r.IntN(6) { // change some entries
			if len(cur) == 0 {
				break
			}
			i := r.IntN(len(cur))
			switch r.IntN(4) {
			case 0:
				cur = slices.Delete(cur, i, i+1)
			case 1:
				cur[i].Name = fmt.Sprintf("n%03d", r.IntN(50))
			case 2:
				cur[i].Content += "xx"
			case 3:
				cur[i].CreatedAt += uint64(r.IntN(5))
			}
		}
		cur = append(cur, randomEntries(r, r.IntN(4), 1000)...) // added, higher ids
		s := newSnapshot(cur)
		s.deriveOrders(old)
		fresh := newSnapshot(cur)
		for _, o := range []sortOrder{sortNewest, sortOldest, sortName, sortSize} {
			if !s.ready(o) {
				t.Fatalf("round %d: order %v not derived", round, o)
			}
			if got, want := s.order(o), fresh.sortedIndexes(o); !slices.Equal(got, want) {
				t.Fatalf("round %d, order %v: derived %v, sorted afresh %v", round, o, got, want)
			}
		}
	}
}

// Item 6: a sort switch whose order is not built does not build it on the
// update loop; the list keeps its order until the order arrives.
func TestSortSwitch_NeverSortsOnTheLoop(t *testing.T) {
	m := openModel(t, copyFixture(t, "crmem/small.db"), 120, 40)
	m.c.snap = newSnapshot(m.c.snap.entries) // nothing built but what the test asks for
	m.c.snap.order(sortNewest)
	m.rebuild()
	before := listNames(m)
	_, cmd := m.Update(keyMsg("s"))
	if m.c.snap.ready(sortOldest) {
		t.Fatal("s built the order on the update loop")
	}
	if !slices.Equal(listNames(m), before) || m.list.Order != sortNewest {
		t.Fatal("the list changed before its order was built")
	}
	drive(m, func() tea.Msg { return cmd() })
	if m.list.Order != sortOldest || !m.c.snap.ready(sortOldest) {
		t.Fatalf("order %v after the build arrived, want oldest", m.list.Order)
	}
	if got := listNames(m); got[0] != before[len(before)-1] {
		t.Fatalf("oldest first is %q, want %q", got[0], before[len(before)-1])
	}
}

// Item 6: a reload while sorted by name brings the name order with it,
// derived off the loop from the previous one.
func TestReload_KeepsTheOrderBuilt(t *testing.T) {
	path := copyFixture(t, "crmem/small.db")
	m := openModel(t, path, 120, 40)
	drive(m, warmCmd(m.c.snap))
	press(m, "s", "s") // oldest, name
	if m.list.Order != sortName {
		t.Fatalf("order %v, want name", m.list.Order)
	}
	apply(t, path, store.Add{Name: "aaa-first", Content: "new"}, store.Rename{Name: "scratch", New: "\u9fff-last"})
	msg := reloadCmd(m.c.db, m.c.snap, false)().(reloadedMsg)
	if !msg.snap.ready(sortName) {
		t.Fatal("the reloaded snapshot lacks the name order: the loop would sort")
	}
	drive(m, func() tea.Msg { return msg })
	names := listNames(m)
	if names[0] != "aaa-first" || names[len(names)-1] != "\u9fff-last" {
		t.Fatalf("after reload by name: first %q last %q", names[0], names[len(names)-1])
	}
}
