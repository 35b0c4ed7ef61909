package tui

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// sameEntries reports whether a and b hold equal entries (a nil alias list
// equal to an empty one).
func sameEntries(a, b []store.Entry) bool {
	return slices.EqualFunc(a, b, func(x, y store.Entry) bool {
		return x.ID == y.ID && x.Name == y.Name && x.Kind == y.Kind && x.CreatedAt == y.CreatedAt &&
			x.Content == y.Content && slices.Equal(x.Aliases, y.Aliases)
	})
}

// checkLikeFresh fails unless s equals a snapshot of the same entries built
// afresh: entries, counts and every order s holds, which must be those old
// had.
func checkLikeFresh(t *testing.T, round int, s, old *snapshot, cur []store.Entry) {
	t.Helper()
	fresh := newSnapshot(cur)
	if !sameEntries(s.entries, fresh.entries) {
		t.Fatalf("round %d: patched entries %v, afresh %v", round, s.entries, fresh.entries)
	}
	if s.counts != fresh.counts {
		t.Fatalf("round %d: patched counts %v, afresh %v", round, s.counts, fresh.counts)
	}
	for _, o := range []sortOrder{sortNewest, sortOldest, sortName, sortSize} {
		if s.ready(o) != old.ready(o) {
			t.Fatalf("round %d: order %v built %v, before the reload %v", round, o, s.ready(o), old.ready(o))
		}
		if !s.ready(o) {
			continue
		}
		if got, want := s.order(o), fresh.sortedIndexes(o); !slices.Equal(got, want) {
			t.Fatalf("round %d, order %v: patched %v, sorted afresh %v", round, o, got, want)
		}
	}
}

// Issue 40 §3: a snapshot patched with a reload's diff (entries removed,
// changed in every sort key, added between and after the others) equals
// one built afresh, entries, counts and orders.
func TestPatchedSnapshot_EqualsAFreshOne(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 0))
	for round := range 400 {
		old := newSnapshot(randomEntries(r, r.IntN(60), 1))
		for i := range old.entries {
			old.entries[i].Kind = store.Kind(r.IntN(3))
			if r.IntN(4) == 0 {
				old.entries[i].Aliases = []string{fmt.Sprint("a", i)}
			}
		}
		old.counts = newSnapshot(old.entries).counts
		switch r.IntN(3) {
		case 0:
			old.warmOrders()
		case 1:
			old.order(sortNewest)
			old.order(sortName)
		}
		cur := slices.Clone(old.entries)
		var d store.Diff
		for range r.IntN(6) {
			if len(cur) == 0 {
				break
			}
			i := r.IntN(len(cur))
			if slices.Contains(d.Changed, cur[i].ID) || slices.Contains(d.Added, cur[i].ID) {
				continue
			}
			switch r.IntN(5) {
			case 0:
				d.Removed = append(d.Removed, cur[i].ID)
				cur = slices.Delete(cur, i, i+1)
				continue
			case 1:
				cur[i].Name = fmt.Sprintf("n%03d", r.IntN(50))
			case 2:
				cur[i].Content += "xx"
			case 3:
				cur[i].CreatedAt += uint64(r.IntN(5))
			case 4:
				cur[i].Kind = store.Kind(r.IntN(3))
			}
			d.Changed = append(d.Changed, cur[i].ID)
		}
		for range r.IntN(4) { // added: odd ids fall between the others (even), or after them
			id := uint64(1 + 2*r.IntN(80))
			if _, ok := slices.BinarySearchFunc(cur, id, func(e store.Entry, id uint64) int { return int(e.ID) - int(id) }); ok ||
				slices.Contains(d.Removed, id) {
				continue
			}
			e := randomEntries(r, 1, id)[0]
			e.Kind = store.Kind(r.IntN(3))
			cur = append(cur, e)
			slices.SortFunc(cur, func(a, b store.Entry) int { return int(a.ID) - int(b.ID) })
			d.Added = append(d.Added, id)
		}
		get := func(id uint64) (store.Entry, bool) {
			i, ok := slices.BinarySearchFunc(cur, id, func(e store.Entry, id uint64) int { return int(e.ID) - int(id) })
			if !ok {
				return store.Entry{}, false
			}
			return cur[i], true
		}
		s, ok := old.patched(get, d)
		if !ok {
			t.Fatalf("round %d: diff %+v not patched in", round, d)
		}
		checkLikeFresh(t, round, s, old, cur)
	}
}

// A diff that does not fit the snapshot is refused, so the reload builds
// the snapshot whole.
func TestPatchedSnapshot_RefusesADiffThatDoesNotFit(t *testing.T) {
	old := newSnapshot([]store.Entry{{ID: 1, Name: "a"}, {ID: 3, Name: "b"}})
	get := func(id uint64) (store.Entry, bool) { return store.Entry{ID: id}, id != 9 }
	for _, d := range []store.Diff{
		{Removed: []uint64{2}},
		{Changed: []uint64{5}},
		{Added: []uint64{3}},
		{Added: []uint64{9}},
		{Added: []uint64{4}, Changed: []uint64{4}},
	} {
		if _, ok := old.patched(get, d); ok {
			t.Errorf("diff %+v patched in", d)
		}
	}
}

// Issue 40 §3 end to end: the agent writes a v1 file the screen follows;
// each reload's snapshot, patched from the previous one, equals the
// memory's entries with their orders sorted afresh.
func TestReloadCmd_PatchedSnapshotEqualsTheMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	agent, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if _, err := agent.Apply(store.Add{Name: fmt.Sprint("e", i), Content: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	screen, err := store.OpenWith(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap := listedSnapshot(screen.Memory(), nil)
	snap.warmOrders()
	r := rand.New(rand.NewPCG(9, 9))
	for round := range 30 {
		name := fmt.Sprint("e", r.IntN(40))
		var op store.Op
		switch r.IntN(3) {
		case 0:
			op = store.Add{Name: fmt.Sprint("new", round), Content: "added"}
		case 1:
			op = store.Write{Name: name, Content: fmt.Sprint("rewritten ", round)}
		case 2:
			op = store.Remove{Name: name}
		}
		if _, err := agent.Apply(op); err != nil {
			continue // removed already
		}
		msg, ok := reloadCmd(screen, snap, false)().(reloadedMsg)
		if !ok || msg.err != nil || msg.snap == nil {
			t.Fatalf("round %d: reload %+v", round, msg)
		}
		if !msg.snap.genKnown {
			t.Fatalf("round %d: the snapshot's generation is not known, the next reload cannot patch it", round)
		}
		checkLikeFresh(t, round, msg.snap, snap, screen.Memory().Entries())
		snap = msg.snap
	}
}
