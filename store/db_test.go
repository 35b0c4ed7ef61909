package store_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

func openDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.OpenWith(path, store.Options{Index: store.IndexOnDemand})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func dbApply(t testing.TB, db *store.DB, ops ...store.Op) []store.Change {
	t.Helper()
	c, err := db.Apply(ops...)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	return c
}

// onDisk decodes the file at path.
func onDisk(t testing.TB, path string) *store.File {
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

func diskNames(t testing.TB, path string) []string {
	t.Helper()
	var out []string
	for _, e := range onDisk(t, path).Entries {
		out = append(out, e.Name)
	}
	slices.Sort(out)
	return out
}

// externalWrite replaces the file the way crabtalk does: write <name>.tmp,
// rename it over the target.
func externalWrite(t testing.TB, path string, nextID uint64, entries ...store.Entry) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, store.Encode(nextID, entries), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// checkBadOpen opens a rejected fixture: the error names the file and the
// reference reason, and the file is left byte for byte as it was.
func checkBadOpen(t *testing.T, file string) {
	var expected map[string]string
	if err := json.Unmarshal(readFixture(t, "bad/expected.json"), &expected); err != nil {
		t.Fatal(err)
	}
	want, ok := expected[file]
	if !ok {
		t.Fatalf("%s is not in bad/expected.json", file)
	}
	orig := readFixture(t, "bad/"+file)
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(path)
	if err == nil || err.Error() != path+": "+want {
		t.Fatalf("error %v, want %q", err, path+": "+want)
	}
	if !errors.Is(err, store.ErrBadFormat) {
		t.Errorf("%v does not match ErrBadFormat", err)
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, orig) {
		t.Error("open changed the file")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("open left %d files in the directory", len(entries))
	}
}

func TestOpen_BadMagic(t *testing.T)          { checkBadOpen(t, "bad-magic.db") }
func TestOpen_Empty(t *testing.T)             { checkBadOpen(t, "empty.db") }
func TestOpen_ShortHeader(t *testing.T)       { checkBadOpen(t, "short-header.db") }
func TestOpen_UnknownFlags(t *testing.T)      { checkBadOpen(t, "flags-set.db") }
func TestOpen_Version2(t *testing.T)          { checkBadOpen(t, "version-2.db") }
func TestOpen_Version99(t *testing.T)         { checkBadOpen(t, "version-99.db") }
func TestOpen_HeaderOnly(t *testing.T)        { checkBadOpen(t, "header-only.db") }
func TestOpen_TruncatedCount(t *testing.T)    { checkBadOpen(t, "truncated-count.db") }
func TestOpen_TruncatedMidEntry(t *testing.T) { checkBadOpen(t, "truncated-mid-entry.db") }
func TestOpen_HugeCount(t *testing.T)         { checkBadOpen(t, "huge-count.db") }
func TestOpen_HugeAliasCount(t *testing.T)    { checkBadOpen(t, "huge-alias-count.db") }
func TestOpen_HugeString(t *testing.T)        { checkBadOpen(t, "huge-string.db") }
func TestOpen_InvalidUTF8Name(t *testing.T)   { checkBadOpen(t, "invalid-utf8-name.db") }
func TestOpen_InvalidUTF8Alias(t *testing.T)  { checkBadOpen(t, "invalid-utf8-alias.db") }
func TestOpen_UnknownKind(t *testing.T)       { checkBadOpen(t, "unknown-kind.db") }

// TestOpen_EveryBadFixtureHasATest keeps the named tests above in step with
// the fixture list.
func TestOpen_EveryBadFixtureHasATest(t *testing.T) {
	var expected map[string]string
	if err := json.Unmarshal(readFixture(t, "bad/expected.json"), &expected); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("db_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for file := range expected {
		if !bytes.Contains(src, []byte(`checkBadOpen(t, "`+file+`")`)) {
			t.Errorf("no TestOpen_ case for %s", file)
		}
	}
}

func TestOpen_Missing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "memory.db")
	db := openDB(t, path)
	if db.Exists() || db.Memory().Len() != 0 {
		t.Errorf("missing file: exists %v, %d entries", db.Exists(), db.Memory().Len())
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
		t.Error("open created the directory")
	}
}

func TestOpen_OddFiles(t *testing.T) {
	for _, file := range []string{"ok-duplicate-names.db", "ok-empty-db.db", "ok-huge-timestamp.db",
		"ok-stale-next-id.db", "ok-topic-kind.db", "ok-trailing-bytes.db"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory.db")
			orig := readFixture(t, "bad/"+file)
			os.WriteFile(path, orig, 0o600)
			db := openDB(t, path)
			if data, _ := os.ReadFile(path); !bytes.Equal(data, orig) {
				t.Error("open changed the file")
			}
			before := db.Memory().Entries()
			c := dbApply(t, db, store.Add{Name: "added-" + strings.TrimSuffix(file, ".db"), Content: "x"})
			for _, e := range before {
				if c[0].After.ID <= e.ID {
					t.Errorf("new id %d not above existing id %d", c[0].After.ID, e.ID)
				}
			}
			f := onDisk(t, path)
			if f.Trailing != 0 || len(f.Entries) != len(before)+1 {
				t.Errorf("saved %d entries (+%d trailing bytes), want %d", len(f.Entries), f.Trailing, len(before)+1)
			}
		})
	}
}

func TestApply_CreatesFilePrivately(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dir")
	path := filepath.Join(dir, "memory.db")
	db := openDB(t, path)
	dbApply(t, db, store.Add{Name: "a", Content: "x"})
	for p, want := range map[string]fs.FileMode{dir: 0o700, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s mode %o, want %o", p, got, want)
		}
	}
	if !db.Exists() {
		t.Error("Exists false after save")
	}
}

func TestApply_KeepsPermissions(t *testing.T) {
	path := writeDB(t, 1, note(1, "a", "x"))
	os.Chmod(path, 0o640)
	db := openDB(t, path)
	dbApply(t, db, store.Write{Name: "a", Content: "y"})
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %o, want 640", fi.Mode().Perm())
	}
}

func TestApply_WritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "data", "real.db")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, store.Encode(1, []store.Entry{note(1, "a", "x")}), 0o600)
	link := filepath.Join(dir, "memory.db")
	if err := os.Symlink("data/real.db", link); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, link)
	dbApply(t, db, store.Add{Name: "b", Content: "y"})
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi.Mode(), err)
	}
	if got := diskNames(t, real); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("target holds %v", got)
	}
	// A dangling link is written through too: the target is created.
	dangling := filepath.Join(dir, "dangling.db")
	os.Symlink("data/later.db", dangling)
	dbApply(t, openDB(t, dangling), store.Add{Name: "c"})
	if got := diskNames(t, filepath.Join(dir, "data", "later.db")); !slices.Equal(got, []string{"c"}) {
		t.Errorf("dangling target holds %v", got)
	}
}

func TestApply_IDsNeverReusedAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	db := openDB(t, path)
	dbApply(t, db, store.Add{Name: "a"}, store.Add{Name: "b"})
	dbApply(t, db, store.Remove{Name: "b"})
	c := dbApply(t, openDB(t, path), store.Add{Name: "c"})
	if c[0].After.ID != 3 {
		t.Errorf("id after reopen %d, want 3", c[0].After.ID)
	}
}

func TestApply_NoChangeWritesNothing(t *testing.T) {
	path := writeDB(t, 1, note(1, "a", "x"))
	old, _ := os.Stat(path)
	db := openDB(t, path)
	if c := dbApply(t, db, store.Write{Name: "a", Content: "x"}); len(c) != 0 {
		t.Errorf("%d changes", len(c))
	}
	if _, err := db.Apply(store.Remove{Name: "zz"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("error %v, want ErrNotFound", err)
	} else if !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("error %q does not name the file", err)
	}
	if fi, _ := os.Stat(path); !fi.ModTime().Equal(old.ModTime()) {
		t.Error("file rewritten")
	}
}

func TestApply_LeavesNoTempFiles(t *testing.T) {
	path := writeDB(t, 1, note(1, "a", "x"))
	// A temp file left by a crmem writer that was killed mid-save.
	stale := filepath.Join(filepath.Dir(path), ".memory.db.crmem-dead.tmp")
	os.WriteFile(stale, []byte("half"), 0o600)
	db := openDB(t, path)
	for i := range 3 {
		dbApply(t, db, store.Write{Name: "a", Content: strings.Repeat("y", i)})
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if want := []string{"memory.db"}; !slices.Equal(got, want) {
		t.Errorf("directory holds %v, want %v", got, want)
	}
}

func TestApply_ExternalWriteSurvives(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := openDB(t, path)
	// The agent rewrites the file after we read it: adds c, removes b.
	externalWrite(t, path, 4, note(1, "a", "x"), note(3, "c", "z"))
	dbApply(t, db, store.Add{Name: "d", Content: "mine"})
	if got := diskNames(t, path); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Errorf("file holds %v, want [a c d]", got)
	}
	if e, _ := db.Memory().Lookup("d"); e.ID != 4 {
		t.Errorf("d got id %d, want 4 (above the agent's ids)", e.ID)
	}
}

// TestApply_WriterInSwapWindow makes a foreign writer replace the file after
// our check, just before our swap: its change must survive ours, with
// renameat2's exchange and with the check-then-rename fallback.
func TestApply_WriterInSwapWindow(t *testing.T) {
	inBothSwapModes(t, testWriterInSwapWindow)
}

// inBothSwapModes runs test once with renameat2's exchange and once with the
// check-then-rename fallback; open opens a file in the mode under test.
func inBothSwapModes(t *testing.T, test func(t *testing.T, open func(path string) *store.DB)) {
	for _, fallback := range []bool{false, true} {
		t.Run(fmt.Sprintf("fallback=%v", fallback), func(t *testing.T) {
			test(t, func(path string) *store.DB {
				db := openDB(t, path)
				if fallback {
					store.SetNoRenameat(db)
				}
				return db
			})
		})
	}
}

func testWriterInSwapWindow(t *testing.T, open func(string) *store.DB) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := open(path)
	fired := 0
	store.SetBeforeSwap(db, func() {
		if fired++; fired == 1 {
			externalWrite(t, path, 4, note(1, "a", "x"), note(2, "b", "y"), note(3, "theirs", "z"))
		}
	})
	dbApply(t, db, store.Add{Name: "mine", Content: "m"})
	if got := diskNames(t, path); !slices.Equal(got, []string{"a", "b", "mine", "theirs"}) {
		t.Errorf("file holds %v", got)
	}
	if fired != 2 {
		t.Errorf("%d swaps, want 2 (one merge)", fired)
	}
	if d, err := db.Reload(); err != nil || !d.Empty() {
		t.Errorf("reload after own save: %+v %v", d, err)
	}
}

// TestApply_WriterInSwapWindowConflict: the foreign writer removed the entry
// our op changes; our write is abandoned and theirs is put back (or, in the
// fallback, never replaced).
func TestApply_WriterInSwapWindowConflict(t *testing.T) {
	inBothSwapModes(t, testWriterInSwapWindowConflict)
}

func testWriterInSwapWindowConflict(t *testing.T, open func(string) *store.DB) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := open(path)
	store.SetBeforeSwap(db, func() {
		store.SetBeforeSwap(db, nil)
		externalWrite(t, path, 3, note(1, "a", "x"))
	})
	a, _ := db.Memory().Lookup("b")
	if _, err := db.Apply(store.Update{Name: "b", Content: "mine", Expect: &a}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("error %v, want ErrNotFound", err)
	}
	if got := diskNames(t, path); !slices.Equal(got, []string{"a"}) {
		t.Errorf("file holds %v, want theirs [a]", got)
	}
	if names := names(db.Memory()); !slices.Equal(names, []string{"1:a"}) {
		t.Errorf("memory holds %v, want theirs", names)
	}
}

func TestApply_ExpectConflict(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "original"))
	mine, theirs := openDB(t, path), openDB(t, path)
	seen, _ := mine.Memory().Lookup("a")
	dbApply(t, theirs, store.Write{Name: "a", Content: "theirs"})
	_, err := mine.Apply(store.Update{Name: "a", Content: "mine", Expect: &seen})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("error %v, want ErrConflict", err)
	}
	if e := onDisk(t, path).Entries[0]; e.Content != "theirs" {
		t.Errorf("file content %q, want theirs", e.Content)
	}
	if e, _ := mine.Memory().Lookup("a"); e.Content != "theirs" {
		t.Errorf("memory content %q, want the fresh file's", e.Content)
	}
}

func TestApply_RefusesToOverwriteUnreadableFile(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	db := openDB(t, path)
	os.WriteFile(path, []byte("garbage"), 0o600)
	if _, err := db.Apply(store.Add{Name: "b"}); !errors.Is(err, store.ErrBadFormat) {
		t.Fatalf("error %v, want ErrBadFormat", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "garbage" {
		t.Error("unreadable file was overwritten")
	}
}

func TestReload(t *testing.T) {
	path := writeDB(t, 3, note(1, "a", "x"), note(2, "b", "y"))
	db := openDB(t, path)
	if d, err := db.Reload(); err != nil || !d.Empty() {
		t.Fatalf("unchanged reload: %+v %v", d, err)
	}
	externalWrite(t, path, 4, note(1, "a", "x2"), note(3, "c", "z"))
	d, err := db.Reload()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Added, []uint64{3}) || !slices.Equal(d.Removed, []uint64{2}) || !slices.Equal(d.Changed, []uint64{1}) {
		t.Errorf("diff %+v", d)
	}
	// A broken file keeps the last good state; a deleted one too.
	os.WriteFile(path, []byte("CRMEM\x00\x01"), 0o600)
	if _, err := db.Reload(); !errors.Is(err, store.ErrBadFormat) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("error %v, want %s: bad memory file format", err, path)
	}
	os.Remove(path)
	if _, err := db.Reload(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v, want not exist", err)
	}
	if got := names(db.Memory()); !slices.Equal(got, []string{"1:a", "3:c"}) {
		t.Errorf("memory %v after failed reloads", got)
	}
	// It recovers on the next good write.
	externalWrite(t, path, 4, note(1, "a", "x2"))
	if d, err := db.Reload(); err != nil || !slices.Equal(d.Removed, []uint64{3}) {
		t.Errorf("recovery: %+v %v", d, err)
	}
}

// TestApply_FileCreatedInSwapWindow: the file did not exist when we checked
// and someone created it before our rename; theirs is merged, not replaced.
func TestApply_FileCreatedInSwapWindow(t *testing.T) {
	inBothSwapModes(t, func(t *testing.T, open func(string) *store.DB) {
		path := filepath.Join(t.TempDir(), "memory.db")
		db := open(path)
		store.SetBeforeSwap(db, func() {
			store.SetBeforeSwap(db, nil)
			externalWrite(t, path, 2, note(1, "theirs", "z"))
		})
		dbApply(t, db, store.Add{Name: "mine"})
		if got := diskNames(t, path); !slices.Equal(got, []string{"mine", "theirs"}) {
			t.Errorf("file holds %v", got)
		}
	})
}

// TestReload_AfterOwnSaveIsNoOp: the watcher's reload after our own write
// finds nothing to do.
func TestReload_AfterOwnSaveIsNoOp(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	db := openDB(t, path)
	dbApply(t, db, store.Add{Name: "b"}, store.Write{Name: "a", Content: "y"})
	if d, err := db.Reload(); err != nil || !d.Empty() {
		t.Errorf("reload after own save: %+v %v", d, err)
	}
	if fp := db.Fingerprint(); !fp.Exists || fp.Size == 0 {
		t.Errorf("fingerprint %+v", fp)
	}
}

// TestApply_GarbageInSwapWindow: a writer slips an unreadable file in just
// before our swap. We never replace it silently: it is put back, the error
// says why, and the next Reload reports it too.
func TestApply_GarbageInSwapWindow(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	db := openDB(t, path)
	store.SetBeforeSwap(db, func() {
		store.SetBeforeSwap(db, nil)
		os.WriteFile(path+".tmp", []byte("garbage"), 0o600)
		os.Rename(path+".tmp", path)
	})
	if _, err := db.Apply(store.Add{Name: "b"}); !errors.Is(err, store.ErrBadFormat) {
		t.Fatalf("error %v, want ErrBadFormat", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "garbage" {
		t.Errorf("file holds %q, want the other writer's bytes", data)
	}
	if _, err := db.Reload(); !errors.Is(err, store.ErrBadFormat) {
		t.Errorf("reload: %v, want ErrBadFormat", err)
	}
	if got := names(db.Memory()); !slices.Equal(got, []string{"1:a"}) {
		t.Errorf("memory %v, want the last good state", got)
	}
}

// TestReload_DeletedHereWrittenBackIsAdded: an entry removed through Apply
// and written back by another writer's stale copy (same id) is added by
// the reload, not changed: its id staying in the memory's order until the
// next compaction must not show (issue 17 item 9).
func TestReload_DeletedHereWrittenBackIsAdded(t *testing.T) {
	var es []store.Entry
	for i := range 20 { // enough that one removal leaves the id in order
		es = append(es, note(uint64(i+1), fmt.Sprintf("e%02d", i+1), "x"))
	}
	path := writeDB(t, 21, es...)
	stale, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path)
	dbApply(t, db, store.Remove{Name: "e02"})
	if err := os.WriteFile(path, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := db.Reload()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Added, []uint64{2}) || len(d.Changed)+len(d.Removed) != 0 {
		t.Errorf("diff %+v, want only 2 added", d)
	}
}
