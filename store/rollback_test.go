package store_test

import (
	"errors"
	"os"
	"testing"

	"github.com/crmem/crmem/store"
)

// entriesOnDisk decodes the file at path.
func entriesOnDisk(t *testing.T, path string) *store.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A failed save takes its change back in memory even where the inverse ops
// would be refused (a file holding one name twice), and the next save
// starts from the file, so it never drops an entry the failed one removed.
func TestFailedSave_DuplicateNames_NothingLost(t *testing.T) {
	path := writeDB(t, 3, note(1, "A", "first"), note(2, "A", "second"))
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	store.SetSwapError(db, boom)
	if _, err := db.Apply(store.Remove{Name: "A"}); !errors.Is(err, boom) {
		t.Fatalf("remove with a failing save: %v, want %v", err, boom)
	}
	if n := db.Memory().Len(); n != 2 {
		t.Errorf("after the failed save memory holds %d entries, want 2", n)
	}
	if e, _ := db.Memory().Lookup("A"); e.ID != 2 {
		t.Errorf("after the failed save Lookup(A) = id %d, want 2", e.ID)
	}
	store.SetSwapError(db, nil)
	if _, err := db.Apply(store.Add{Name: "B", Content: "third"}); err != nil {
		t.Fatal(err)
	}
	f := entriesOnDisk(t, path)
	var ids []uint64
	for _, e := range f.Entries {
		ids = append(ids, e.ID)
	}
	if len(ids) != 3 || ids[0] != 1 || ids[1] != 2 {
		t.Fatalf("file holds ids %v after the next save, want [1 2 3]", ids)
	}
}

// Replace never lowers next_id, even with a NextID read before another
// writer added entries: ids that writer handed out are not reused.
func TestReplace_StaleNextID_NeverLowers(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "one"), note(2, "b", "two"))
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	stale := db.Memory().NextID()
	other, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Apply(store.Add{Name: "c"}, store.Add{Name: "d"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Apply(store.Remove{Name: "d"}); err != nil {
		t.Fatal(err) // next_id 5, largest id 3
	}
	if _, err := db.Apply(store.Replace{Entries: []store.Entry{note(1, "a", "new")}, NextID: stale}); err != nil {
		t.Fatal(err)
	}
	if f := entriesOnDisk(t, path); f.NextID != 5 {
		t.Fatalf("next_id on disk %d after the replace, want 5", f.NextID)
	}
	c, err := db.Apply(store.Add{Name: "e"})
	if err != nil {
		t.Fatal(err)
	}
	if c[0].After.ID != 5 {
		t.Errorf("next add got id %d, want 5", c[0].After.ID)
	}
}

// A change to one of two same-named entries that keeps the name leaves the
// later entry (in file order) the one the name finds, SPEC §1.
func TestDuplicateName_ChangeKeepsLaterFound(t *testing.T) {
	one := note(1, "A", "first", "one")
	path := writeDB(t, 3, one, note(2, "A", "second"))
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(when string) {
		t.Helper()
		if e, _ := db.Memory().Lookup("A"); e.ID != 2 {
			t.Errorf("%s: Lookup(A) = id %d, want 2", when, e.ID)
		}
	}
	lookup("after open")

	changed := one
	changed.Content = "first, changed outside"
	if err := os.WriteFile(path, store.Encode(3, []store.Entry{changed, note(2, "A", "second")}), 0o600); err != nil {
		t.Fatal(err)
	}
	if d, err := db.Reload(); err != nil || len(d.Changed) != 1 {
		t.Fatalf("reload: %+v, %v; want id 1 changed", d, err)
	}
	lookup("after an outside change to id 1")

	if _, err := db.Apply(store.Write{Name: "one", Content: "first, written"}); err != nil {
		t.Fatal(err)
	}
	lookup("after a write to id 1")
	if e, _ := db.Memory().Get(1); e.Content != "first, written" {
		t.Fatalf("write through the alias reached %q, want id 1", e.Content)
	}

	if _, err := db.Apply(store.SetAliases{Name: "one", Aliases: []string{"uno"}}, store.Add{Name: "A"}); err == nil {
		t.Fatal("adding a taken name succeeded")
	}
	lookup("after a rolled-back change to id 1")
}
