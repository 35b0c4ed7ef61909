package open

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/crabdb"
	"github.com/crmem/crmem/store/owner"
)

const refDir = "../../testdata/reference"

// copyTo copies the reference fixture name into dir as base.
func copyTo(t *testing.T, dir, name, base string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(refDir, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, base)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSourceFeatures: Source picks the format by structure, and each
// format carries its capabilities: a v1 file is writable, recalled by
// BM25 over its entries, its sessions in the folder beside it (or the one
// given); crabtalk's store is writable too (through the same *store.DB)
// unless its tail is torn, recalls with its own stored index and holds
// its sessions. Recall and Sessions are never nil.
func TestSourceFeatures(t *testing.T) {
	dir := t.TempDir()
	storePath := copyTo(t, dir, "crabdb/small.crmem", "store.crmem")
	torn := copyTo(t, dir, "crabdb/torn.crmem", "torn.crmem")
	v1 := copyTo(t, dir, "crmem/small.db", "memory.db")
	elsewhere := filepath.Join(dir, "elsewhere")
	for _, tc := range []struct {
		name, path, sessionsDir, format, where string
		readOnly, stored, ids                  bool
	}{
		{"v1", v1, "", "CRMEM v1", filepath.Join(dir, "sessions"), false, false, true},
		{"v1 with a sessions folder", v1, elsewhere, "CRMEM v1", elsewhere, false, false, true},
		{"new v1", filepath.Join(dir, "new.db"), "", "CRMEM v1", filepath.Join(dir, "sessions"), false, false, true},
		{"store", storePath, elsewhere, "crabtalk store", "the store", false, true, false},
		{"torn store", torn, elsewhere, "crabtalk store", "the store", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Source(tc.path, tc.sessionsDir)
			if err != nil {
				t.Fatal(err)
			}
			f := src.Features()
			if f.Format != tc.format || f.ReadOnly() != tc.readOnly || f.ShowsIDs() != tc.ids {
				t.Errorf("features = %+v (read-only %v)", f, f.ReadOnly())
			}
			if f.Recall == nil || f.Sessions == nil {
				t.Fatalf("recall %v, sessions %v: want both", f.Recall, f.Sessions)
			}
			if f.Recall.Stored() != tc.stored || store.SessionsWhere(f.Sessions) != tc.where {
				t.Errorf("recall stored %v, sessions from %q; want %v, %q", f.Recall.Stored(), store.SessionsWhere(f.Sessions), tc.stored, tc.where)
			}
			if src.Path() != tc.path {
				t.Errorf("path = %q", src.Path())
			}
		})
	}
}

// TestContents: one read of either format gives the entries as a decoded
// file and the format's features; the store's entries come with what it
// wrote (key, kind, created_at as text) and its own recall, a v1 file's
// with BM25's; both recalls rank into the contents' own ids; a v1 file
// that does not decode is refused with its path.
func TestContents(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "memory.db")
	if err := os.WriteFile(v1, store.Encode(2, []store.Entry{{ID: 1, Name: "a", Content: "alpha beta"}}), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte("CRMEM\x01 not a memory"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Contents(v1, "")
	if err != nil || c.Features.Format != store.FormatV1 || c.Features.Stored != nil || c.Features.Recall == nil || c.Features.Recall.Stored() || len(c.File.Entries) != 1 {
		t.Fatalf("v1: %+v, %v", c, err)
	}
	if w := store.SessionsWhere(c.Features.Sessions); w != filepath.Join(dir, "sessions") {
		t.Errorf("v1 sessions from %q", w)
	}
	hits, parts, err := c.Features.Recall.Recall("alpha", 5)
	if err != nil || len(hits) != 1 || hits[0].ID != 1 || len(parts) != 1 || parts[0].Name != "a" || parts[0].Parts[0].TF != 1 {
		t.Errorf("v1 recall: %v %+v %v", hits, parts, err)
	}
	if _, err := Contents(bad, ""); err == nil {
		t.Error("a file that is neither format was read")
	} else if pe := (*store.PathError)(nil); !errors.As(err, &pe) || pe.Path != bad {
		t.Errorf("error %v does not name %s", err, bad)
	}

	c, err = Contents(filepath.Join(refDir, "crabdb/small.crmem"), "")
	if err != nil {
		t.Fatal(err)
	}
	f := c.Features
	if f.Format != crabdb.FormatName || f.Stored == nil || f.Recall == nil || !f.Recall.Stored() || !f.ReadOnly() || len(c.File.Entries) != 25 {
		t.Fatalf("store: %d entries, features %+v", len(c.File.Entries), f)
	}
	hits, err = f.Recall.Rank("deploy", 3)
	if err != nil || len(hits) == 0 {
		t.Fatalf("recall: %v, %v", hits, err)
	}
	if _, ok := f.Stored.Stored(hits[0].ID); !ok {
		t.Errorf("recall's id %d is not an entry of the contents", hits[0].ID)
	}
}

// TestDB_StoreGuardIsTheDaemonCheck: a store opened without a guard of
// its own is guarded by store/owner's check (the daemon's socket beside
// the store, then the processes holding it): while the socket answers,
// a write is refused naming the daemon and the file is left byte for byte
// as it was; once nothing listens, the same write goes through.
func TestDB_StoreGuardIsTheDaemonCheck(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("crabtalk's daemon listens on a unix socket")
	}
	dir, err := os.MkdirTemp("", "og") // short: a socket path has ~108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := copyTo(t, dir, "crabdb/small.crmem", "store.crmem")
	if err := os.Mkdir(filepath.Join(dir, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", socketBeside(path))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	before, _ := os.ReadFile(path)
	db, err := DB(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Apply(store.Add{Name: "new", Content: "x"})
	var running *owner.RunningError
	if !errors.As(err, &running) {
		t.Fatalf("write while the daemon's socket answers: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the store changed")
	}
	if _, ok := db.Memory().Lookup("new"); ok {
		t.Error("the memory holds the refused entry")
	}
	ln.Close()
	if _, err := db.Apply(store.Add{Name: "new", Content: "x"}); err != nil {
		t.Fatalf("write once the daemon is gone: %v", err)
	}
	if _, ok := db.Memory().Lookup("new"); !ok {
		t.Error("the written entry is not in the memory")
	}
	// crmem's own earlier write leaves nothing open that the check would
	// take for another writer.
	if _, err := db.Apply(store.Remove{Name: "new"}); err != nil {
		t.Fatalf("a second write by the same process: %v", err)
	}
}
