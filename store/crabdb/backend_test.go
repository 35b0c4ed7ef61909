package crabdb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// passGuard is a guard that proves nothing and lets every write through.
func passGuard(string) (string, error) { return "test: no daemon", nil }

// startsAfter is a guard that lets its first n checks through, then finds
// the daemon running (err): one that starts while a write is under way.
func startsAfter(n int, err error) store.Guard {
	return func(string) (string, error) {
		if n > 0 {
			n--
			return "test: no daemon yet", nil
		}
		return "", err
	}
}

// copyBefore copies the write fixtures' before.crmem into a temp folder
// as name.
func copyBefore(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(writesDir, "before.crmem"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// clockAt is a clock that reads t.
func clockAt(t *time.Time) func() time.Time { return func() time.Time { return *t } }

// TestDB_WritesAsCrabtalk: crmem's ops through store.DB.Apply (the one
// write path of both formats) append exactly the records crabtalk's own
// put_memory/remove_memory would for the same change, applied to a twin
// copy through the fixture-checked Batch: add (created_at now as chrono
// prints it), edit (created_at and kind kept, an archive stays one),
// rename, remove, undo of a remove (the entry comes back byte for byte),
// a bulk remove in one append; after the first three ops the state is
// crabtalk's step-03.
func TestDB_WritesAsCrabtalk(t *testing.T) {
	dir := t.TempDir()
	path := copyBefore(t, dir, "store.crmem")
	twinPath := copyBefore(t, t.TempDir(), "store.crmem")
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	db, err := OpenDB(path, store.Options{Guard: passGuard, Now: clockAt(&now)})
	if err != nil {
		t.Fatal(err)
	}
	twin, err := Open(twinPath)
	if err != nil {
		t.Fatal(err)
	}
	ops := readFixtureOps(t)
	step := func(what string, twinOps []fixtureOp, ops ...store.Op) []store.Change {
		t.Helper()
		size0 := fileSize(t, path)
		changes, err := db.Apply(ops...)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		b := twin.Store().NewBatch()
		for _, op := range twinOps {
			batchOp(t, twin.Store(), b, op)
		}
		if err := twin.Append(b); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		want, _ := os.ReadFile(twinPath)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the store differs from crabtalk's writes (%d bytes, want %d; appended %d)", what, len(got), len(want), int64(len(got))-size0)
		}
		return changes
	}
	step("add k8s-upgrade", ops[0:1], store.Add{Name: ops[0].Name, Content: ops[0].Content})
	now = time.Date(2026, 3, 2, 9, 5, 0, 250e6, time.UTC)
	step("add oncall-rota", ops[1:2], store.Add{Name: ops[1].Name, Content: ops[1].Content, Aliases: ops[1].Aliases})
	step("edit deploy-steps", ops[2:3], store.Update{Name: ops[2].Name, Content: ops[2].Content, Aliases: ops[2].Aliases})
	g, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	checkStep(t, g.Store(), 3, writesLines(t, "queries.jsonl"))

	arch := "archive-sess-0001-1767300000000000000"
	e, _ := db.Memory().Lookup(arch)
	st := storedOf(t, twin.Store(), arch)
	step("aliases of an archive", []fixtureOp{{Op: "put", Name: arch, Kind: "archive", Content: e.Content, Aliases: []string{"pipeline"}, CreatedAt: st.CreatedAt}},
		store.SetAliases{Name: arch, Aliases: []string{"pipeline"}})
	step("rename", ops[6:7], store.Rename{Name: "k8s-upgrade", New: "kubernetes upgrade notes"})
	raw := storedOf(t, twin.Store(), "final-note").Raw
	removed := step("remove", ops[7:8], store.Remove{Name: "final-note"})
	var restore []fixtureOp
	fe, _ := decodeEntry(MemoryKey("final-note"), raw)
	restore = append(restore, fixtureOp{Op: "put", Name: fe.Name, Kind: fe.Kind, Content: fe.Content, Aliases: fe.Aliases, CreatedAt: fe.CreatedAt})
	step("undo the remove", restore, store.Undo(removed)...)
	if got := storedOf(t, twin.Store(), "final-note").Raw; !bytes.Equal(got, raw) {
		t.Errorf("undo wrote %s, want %s", got, raw)
	}
	step("bulk remove", []fixtureOp{{Op: "remove", Name: "螃蟹"}, {Op: "remove", Name: "scratch"}, {Op: "remove", Name: "empty-note"}},
		store.Remove{Name: "螃蟹"}, store.Remove{Name: "scratch"}, store.Remove{Name: "empty-note"})
	// Nothing left behind, and a fresh reader agrees with the memory.
	if _, err := os.Stat(IntentPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("intent note left: %v", err)
	}
	g, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	checkIndexMatchesEntries(t, g.Store())
	entries, problems := g.Store().Entries()
	if len(problems) > 0 || len(entries) != db.Memory().Len() {
		t.Errorf("re-read: %d entries (%v), memory %d", len(entries), problems, db.Memory().Len())
	}
	for _, e := range entries {
		m, ok := db.Memory().Lookup(e.Name)
		if !ok || m.Content != e.Content || strings.Join(m.Aliases, "\x00") != strings.Join(e.Aliases, "\x00") {
			t.Errorf("entry %q: memory %+v, file %+v", e.Name, m, e)
		}
	}
}

// readFixtureOps reads ops.jsonl.
func readFixtureOps(t *testing.T) []fixtureOp {
	t.Helper()
	var out []fixtureOp
	for _, l := range writesLines(t, "ops.jsonl") {
		var op fixtureOp
		if err := json.Unmarshal(l, &op); err != nil {
			t.Fatal(err)
		}
		out = append(out, op)
	}
	return out
}

// storedOf is the stored entry name of s.
func storedOf(t *testing.T, s *Store, name string) Entry {
	t.Helper()
	v, ok := s.Get(ColMemory, MemoryKey(name))
	if !ok {
		t.Fatalf("no entry %q", name)
	}
	e, err := decodeEntry(MemoryKey(name), v)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// batchOp adds one fixture op to b (remember is not used here).
func batchOp(t *testing.T, s *Store, b *Batch, op fixtureOp) {
	t.Helper()
	var err error
	switch op.Op {
	case "put":
		err = b.PutMemory(Entry{Name: op.Name, Kind: op.Kind, Content: op.Content, Aliases: op.Aliases, CreatedAt: op.CreatedAt})
	case "remember":
		e := Entry{Name: op.Name, Kind: "note", Content: op.Content, Aliases: op.Aliases}
		if v, ok := b.get(ColMemory, MemoryKey(op.Name)); ok {
			old, _ := decodeEntry(MemoryKey(op.Name), v)
			e.CreatedAt, e.Kind = old.CreatedAt, old.Kind
		} else {
			now, _ := time.Parse(time.RFC3339Nano, op.Now)
			e.CreatedAt = RFC3339(now)
		}
		err = b.PutMemory(e)
	case "remove":
		_, err = b.RemoveMemory(op.Name)
	case "rename":
		v, _ := b.get(ColMemory, MemoryKey(op.From))
		old, _ := decodeEntry(MemoryKey(op.From), v)
		old.Name = op.To
		if err = b.PutMemory(old); err == nil {
			_, err = b.RemoveMemory(op.From)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// fileSize is the size of the file at path.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// putRaw appends one memory entry written as given (kind and created_at
// as any writer may have stored them) to the store at path.
func putRaw(t *testing.T, path string, e Entry) {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b := f.Store().NewBatch()
	if err := b.PutMemory(e); err != nil {
		t.Fatal(err)
	}
	if err := f.Append(b); err != nil {
		t.Fatal(err)
	}
}

// TestDB_KeepsStoredStrings: an edit keeps the kind and created_at
// strings an entry was stored with, even where crmem's own entry has no
// room for them (an unknown kind, a created_at that is not RFC 3339).
func TestDB_KeepsStoredStrings(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	putRaw(t, path, Entry{Name: "odd", Kind: "insight", Content: "first", Aliases: []string{}, CreatedAt: "last tuesday"})
	db, err := OpenDB(path, store.Options{Guard: passGuard})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(store.Write{Name: "odd", Content: "second"}); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := f.Store().Get(ColMemory, MemoryKey("odd"))
	if want := `{"name":"odd","kind":"insight","content":"second","aliases":[],"created_at":"last tuesday"}`; string(v) != want {
		t.Errorf("stored %s\nwant   %s", v, want)
	}
}

// TestDB_Refusals: a write is refused, with its reason and nothing
// written, when the guard says the daemon runs, when there is no guard,
// when the store's tail is torn (naming the offset and what to do), and
// when an entry of the store is not one; the store stays readable.
func TestDB_Refusals(t *testing.T) {
	running := errors.New("crabtalk's daemon is running (pid 42): stop it first")
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
		guard store.Guard
		want  string
	}{
		{"daemon running", nil, func(string) (string, error) { return "", running }, "pid 42"},
		{"daemon started while the write waited", nil, startsAfter(1, running), "pid 42"},
		{"no guard", nil, nil, "nothing checks"},
		{"torn tail", func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			os.WriteFile(path, append(data, 0, ColMemory, 9, 0, 0, 0, 'l'), 0o600)
		}, passGuard, "torn record at offset 110751 (7 bytes)"},
		{"not an entry", func(t *testing.T, path string) {
			f, _ := Open(path)
			b := f.Store().NewBatch()
			b.put(ColMemory, MemoryKey("junk"), []byte("[1,2]"))
			if err := f.Append(b); err != nil {
				t.Fatal(err)
			}
		}, passGuard, `memory entry "junk": value is not an entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := copyBefore(t, t.TempDir(), "store.crmem")
			if tc.setup != nil {
				tc.setup(t, path)
			}
			before, _ := os.ReadFile(path)
			db, err := OpenDB(path, store.Options{Guard: tc.guard})
			if err != nil {
				t.Fatalf("not readable: %v", err)
			}
			if tc.guard != nil && tc.setup != nil {
				// The store itself is not writable: the screen is told why.
				if ft := db.Features(); ft.Writer != nil || !slices.ContainsFunc(ft.Warnings, func(w string) bool { return strings.Contains(w, tc.want) }) {
					t.Errorf("features: writer %v, warnings %q", ft.Writer, ft.Warnings)
				}
			}
			_, err = db.Apply(store.Remove{Name: "scratch"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Error("the store changed")
			}
			if _, ok := db.Memory().Lookup("scratch"); !ok {
				t.Error("the memory lost the entry")
			}
		})
	}
}

// TestDB_TwoWritersQueue: two crmem writers of one store (two DBs, as two
// processes would hold) queue on the folder's lock, and each reads what
// the other appended before it appends: nothing is lost or overwritten,
// and the index still recounts from the entries.
func TestDB_TwoWritersQueue(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	var dbs [2]*store.DB
	for i := range dbs {
		db, err := OpenDB(path, store.Options{Guard: passGuard})
		if err != nil {
			t.Fatal(err)
		}
		dbs[i] = db
	}
	errs := make(chan error, 2)
	for w, db := range dbs {
		go func() {
			for i := range 25 {
				if _, err := db.Apply(store.Add{Name: fmt.Sprintf("w%d-%02d", w, i), Content: fmt.Sprintf("writer %d entry %d", w, i)}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range dbs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	f, err := Open(path)
	if err != nil || len(f.Store().Warnings()) > 0 {
		t.Fatalf("%v %q", err, f.Store().Warnings())
	}
	entries, _ := f.Store().Entries()
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name, "w0-") || strings.HasPrefix(e.Name, "w1-") {
			n++
		}
	}
	if n != 50 {
		t.Errorf("%d of 50 entries in the store", n)
	}
	checkIndexMatchesEntries(t, f.Store())
}

// TestDB_LoadRenameOntoSameValue: a load that renames X to Y while Y's
// own entry goes, where the new Y is stored byte for byte as the old Y
// already is, puts nothing for Y but still removes X.
func TestDB_LoadRenameOntoSameValue(t *testing.T) {
	path := copyBefore(t, t.TempDir(), "store.crmem")
	for _, n := range []string{"x-entry", "y-entry"} {
		putRaw(t, path, Entry{Name: n, Kind: "note", Content: "same words", Aliases: []string{}, CreatedAt: "2026-01-01T00:00:00+00:00"})
	}
	db, err := OpenDB(path, store.Options{Guard: passGuard})
	if err != nil {
		t.Fatal(err)
	}
	var entries []store.Entry
	for _, e := range db.Memory().Entries() {
		switch e.Name {
		case "y-entry":
		case "x-entry":
			e.Name = "y-entry"
			entries = append(entries, e)
		default:
			entries = append(entries, e)
		}
	}
	if _, err := db.Apply(store.Replace{Entries: entries}); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Store().Get(ColMemory, MemoryKey("x-entry")); ok {
		t.Error("x-entry is still stored")
	}
	if _, ok := f.Store().Get(ColMemory, MemoryKey("y-entry")); !ok {
		t.Error("y-entry is gone")
	}
	checkIndexMatchesEntries(t, f.Store())
}
