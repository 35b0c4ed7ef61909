package store_test

import (
	"os"
	"path/filepath"
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
	// The later entry with an id wins, as for names (crmem check reports it).
	if _, ok := db.Memory().Lookup("first"); ok || db.Memory().Len() != 2 {
		t.Fatalf("after open: %d entries, first found %v; want the later id-1 entry only", db.Memory().Len(), ok)
	}
	if hits := db.Memory().Search("deploy", 10); len(hits) != 2 {
		t.Fatalf("search deploy: %v, want the 2 live entries", hits)
	}
	steps := []struct {
		name string
		ops  []store.Op
	}{
		{"write first", []store.Op{store.Write{Name: "first", Content: "alpha rewritten"}}},
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
