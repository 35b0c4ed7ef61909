package store_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crmem/crmem/store"
)

// Two entries sharing an id are not something crmem writes, but a file
// from elsewhere can hold them and the reader accepts it. Nothing may
// panic, whatever is done to such a file.
func TestDuplicateIDs_NoPanic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "memory.db")
	dup := []store.Entry{
		{ID: 1, Name: "first", Content: "alpha beta deploy", Kind: store.Note, CreatedAt: 10},
		{ID: 1, Name: "second", Content: "gamma delta deploy", Kind: store.Note, CreatedAt: 11},
		{ID: 2, Name: "third", Content: "epsilon deploy", Kind: store.Archive, CreatedAt: 12},
	}
	if err := os.WriteFile(path, store.Encode(3, dup), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	// Both entries of id 1 are kept; the id names the later one.
	if _, ok := db.Memory().Lookup("first"); !ok || db.Memory().Len() != 3 {
		t.Fatalf("after open: %d entries, first found %v; want all 3", db.Memory().Len(), ok)
	}
	if hits := db.Memory().Search("deploy", 10); len(hits) != 2 {
		t.Fatalf("search deploy: %v, want the 2 indexed entries", hits)
	}
	steps := []struct {
		name string
		ops  []store.Op
	}{
		{"write first (shares id 1: refused)", []store.Op{store.Write{Name: "first", Content: "alpha rewritten"}}},
		{"write second", []store.Op{store.Write{Name: "second", Content: "gamma rewritten"}}},
		{"add", []store.Op{store.Add{Name: "fourth", Content: "zeta deploy"}}},
		{"remove second", []store.Op{store.Remove{Name: "second"}}},
		{"remove first", []store.Op{store.Remove{Name: "first"}}},
	}
	for _, s := range steps {
		_, err := db.Apply(s.ops...)
		t.Logf("%s: %v", s.name, err)
		_ = db.Memory().Search("deploy rewritten", 10)
	}
	// An outside writer puts the duplicates back; the reload syncs onto them.
	if err := os.WriteFile(path+".tmp", store.Encode(3, dup), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Reload(); err != nil {
		t.Logf("reload: %v", err)
	}
	_ = db.Memory().Search("deploy", 10)
	changed := append([]store.Entry(nil), dup...)
	changed[1].Content = "gamma changed outside"
	if err := os.WriteFile(path+".tmp", store.Encode(3, changed), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Reload(); err != nil {
		t.Logf("reload: %v", err)
	}
	hits := db.Memory().Search("changed", 10)
	if len(hits) != 1 || hits[0].ID != 1 {
		t.Fatalf("after the outside change, search changed = %v, want id 1", hits)
	}
}

// TestDuplicateIDs_EveryWriteKeepsBoth is the file of the issue: ids 1
// "first", 1 "second", 2 "third". All three are listed, and a write that
// has nothing to do with them keeps all three, in their order.
func TestDuplicateIDs_EveryWriteKeepsBoth(t *testing.T) {
	dup := []store.Entry{note(1, "first", "a"), note(1, "second", "b"), note(2, "third", "c")}
	steps := []struct {
		name string
		op   store.Op
		want []string // names on disk after the step, in file order
	}{
		{"add", store.Add{Name: "unrelated", Content: "x"}, []string{"first", "second", "third", "unrelated"}},
		{"write the entry id 1 names", store.Write{Name: "second", Content: "b2"}, []string{"first", "second", "third", "unrelated"}},
		{"rename third", store.Rename{Name: "third", New: "3rd"}, []string{"first", "second", "3rd", "unrelated"}},
		{"remove the shadowed first", store.Remove{Name: "first"}, []string{"second", "3rd", "unrelated"}},
	}
	path := writeDB(t, 3, dup...)
	db := openDB(t, path)
	if got := len(db.Memory().Entries()); got != 3 {
		t.Fatalf("Entries lists %d, want 3", got)
	}
	if ids := db.Memory().DuplicateIDs(); len(ids) != 1 || ids[0] != 1 {
		t.Errorf("DuplicateIDs %v, want [1]", ids)
	}
	if _, err := db.Apply(store.Write{Name: "first", Content: "z"}); !errors.Is(err, store.ErrSharedID) {
		t.Errorf("write on the shadowed entry: %v, want ErrSharedID", err)
	}
	if _, err := db.Apply(store.Add{Name: "first"}); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("add of the shadowed entry's name: %v, want ErrNameTaken", err)
	}
	// A removal whose save fails leaves the shadow in memory and on disk.
	store.SetSwapError(db, errors.New("boom"))
	if _, err := db.Apply(store.Remove{Name: "first"}); err == nil {
		t.Fatal("save with a failing swap succeeded")
	}
	store.SetSwapError(db, nil)
	if _, ok := db.Memory().Lookup("first"); !ok || db.Memory().Len() != 3 {
		t.Fatalf("after a failed removal: first found %v, %d entries", ok, db.Memory().Len())
	}
	for _, s := range steps {
		dbApply(t, db, s.op)
		var got []string
		for _, e := range onDisk(t, path).Entries {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, s.want) {
			t.Errorf("after %s: file holds %v, want %v", s.name, got, s.want)
		}
		if fresh := openDB(t, path); len(fresh.Memory().Entries()) != len(s.want) {
			t.Errorf("after %s: a fresh open lists %d entries", s.name, len(fresh.Memory().Entries()))
		}
	}
}
