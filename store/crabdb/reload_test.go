package crabdb

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store/crabdb/crabdbtest"
)

// copyTo copies a fixture to dir/store.crmem.
func copyTo(t *testing.T, fixture string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, fixture))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "store.crmem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReload_AppendTornCompactHeader(t *testing.T) {
	path := copyTo(t, "small.crmem")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	entries := func() int { e, _ := f.Store().Entries(); return len(e) }
	value := `{"name":"zz","kind":"note","content":"x"}`
	rec := crabdbtest.Record(OpPut, ColMemory, "local/memory/zz", value)
	steps := []struct {
		name    string
		change  func()
		want    Reload
		entries int
		torn    bool
	}{
		{"nothing", func() {}, Unchanged, 25, false},
		{"half a record", func() { crabdbtest.Append(t, path, rec[:7]) }, Appended, 25, true},
		{"the rest", func() { crabdbtest.Append(t, path, rec[7:]) }, Appended, 26, false},
		{"a delete", func() { crabdbtest.Append(t, path, crabdbtest.Record(OpDelete, ColMemory, "local/memory/zz", "")) }, Appended, 25, false},
		{"compaction (rename)", func() {
			data, _ := os.ReadFile(filepath.Join(refDir, "compacted.crmem"))
			tmp := filepath.Join(filepath.Dir(path), "store.tmp")
			os.WriteFile(tmp, data, 0o600)
			os.Rename(tmp, path)
		}, Reread, 25, false},
		{"header rewritten in place (checkpoint)", func() {
			fh, _ := os.OpenFile(path, os.O_RDWR, 0)
			defer fh.Close()
			st, _ := fh.Stat()
			snap := []byte{0, 0, 0, 0} // an empty snapshot: no live keys
			fh.WriteAt(snap, st.Size())
			var h [16]byte
			binary.LittleEndian.PutUint64(h[:8], uint64(st.Size()))
			binary.LittleEndian.PutUint64(h[8:], 4)
			fh.WriteAt(h[:], 16)
		}, Reread, 0, false},
	}
	for _, s := range steps {
		s.change()
		how, err := f.Reload()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		torn := len(f.Store().Warnings()) > 0
		if how != s.want || entries() != s.entries || torn != s.torn {
			t.Errorf("%s: %v, %d entries, torn %v; want %v, %d, %v", s.name, how, entries(), torn, s.want, s.entries, s.torn)
		}
	}
	// A bad append fails the reload and leaves the store as it was.
	crabdbtest.Append(t, path, []byte{9, 0, 0})
	if _, err := f.Reload(); err == nil {
		t.Fatal("an unknown op appended: no error")
	}
	if f.Store().Len() != 0 {
		t.Errorf("store changed by a failed reload: %d keys", f.Store().Len())
	}
}

func TestReload_ReadsOnlyNewBytes(t *testing.T) {
	// Extend replays exactly the tail: a store read whole and one read in
	// two parts hold the same keys (the fuzz target checks this on any
	// log); here the tail alone is handed over, and a corrupt byte before
	// it is never looked at again.
	path := copyTo(t, "small.crmem")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	end := f.Store().End()
	fh, _ := os.OpenFile(path, os.O_RDWR, 0)
	fh.WriteAt([]byte{0xff}, 200) // inside an old record: a full read would fail
	fh.Close()
	crabdbtest.Append(t, path, crabdbtest.Record(OpPut, ColMemory, "local/memory/zz", `{"name":"zz","kind":"note","content":"x"}`))
	how, err := f.Reload()
	if err != nil || how != Appended || f.Store().End() <= end {
		t.Fatalf("reload: %v %v, end %d → %d", how, err, end, f.Store().End())
	}
	if _, ok := f.Store().Get(ColMemory, "local/memory/zz"); !ok {
		t.Error("appended entry missing")
	}
}

func TestEntries_Problems(t *testing.T) {
	data := make([]byte, HeaderLen)
	copy(data, Magic)
	data[6] = Version
	for _, r := range [][2]string{
		{"local/memory/bad-json", `{"name":"bad-json",`},
		{"local/memory/no-kind", `{"name":"no-kind","content":"x"}`},
		{"local/memory/latin1", "{\"name\":\"latin1\",\"kind\":\"note\",\"content\":\"caf\xe9\"}"},
		{"local/memory/renamed", `{"name":"other","kind":"note","content":"x"}`},
		{"local/memory/ok", `{"name":"ok","kind":"archive","content":"x","aliases":["a"],"created_at":"2026-08-20T10:00:00.25Z","extra":1}`},
	} {
		data = append(data, crabdbtest.Record(OpPut, ColMemory, r[0], r[1])...)
	}
	s, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	entries, problems := s.Entries()
	if len(entries) != 2 || entries[0].Name != "ok" || entries[0].CreatedAt != "2026-08-20T10:00:00.25Z" || entries[1].Name != "other" {
		t.Fatalf("entries %+v", entries)
	}
	want := map[string]bool{"local/memory/bad-json": true, "local/memory/no-kind": true, "local/memory/latin1": true, "local/memory/renamed": false}
	if len(problems) != len(want) {
		t.Fatalf("problems %v", problems)
	}
	for _, p := range problems {
		if skipped, ok := want[p.Key]; !ok || p.Skipped != skipped {
			t.Errorf("problem %+v", p)
		}
	}
}
