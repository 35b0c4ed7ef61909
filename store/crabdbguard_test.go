package store_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// crabdbAsV1 lists crabtalk stores that the v1 reader alone accepts, as an
// empty memory with trailing bytes: a fresh store, log-only stores (never
// checkpointed) and one whose header names a snapshot past the end.
var crabdbAsV1 = []string{
	"crabdb/empty.crmem",
	"crabdb/bad/ok-tiny-log.crmem",
	"crabdb/bad/unknown-op.crmem",
	"crabdb/bad/big-index-len.crmem",
}

// TestDB_NeverWritesOverACrabdbStore: store's write path refuses a crabdb
// store itself (defence in depth: the CLI and the TUI detect one first),
// whether the store is there at open or is renamed over the memory file
// before a write; the store's bytes are never changed.
func TestDB_NeverWritesOverACrabdbStore(t *testing.T) {
	for _, name := range crabdbAsV1 {
		t.Run(filepath.Base(name), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("../testdata/reference", name))
			if err != nil {
				t.Fatal(err)
			}
			if f, err := store.Decode(want); err != nil || f.Trailing == 0 {
				t.Fatalf("the v1 reader no longer accepts %s (err %v): the case is gone", name, err)
			}
			path := filepath.Join(t.TempDir(), "memory.db")
			if err := os.WriteFile(path, want, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Open(path); !errors.Is(err, store.ErrCrabdb) {
				t.Errorf("Open: error %v, want ErrCrabdb", err)
			}

			v1 := writeDB(t, 2, note(1, "a", "x"))
			db := openDB(t, v1)
			if err := os.WriteFile(v1+".new", want, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(v1+".new", v1); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Apply(store.Add{Name: "b", Content: "y"}); !errors.Is(err, store.ErrCrabdb) {
				t.Errorf("Apply over a store: error %v, want ErrCrabdb", err)
			}
			if _, err := db.Reload(); !errors.Is(err, store.ErrCrabdb) {
				t.Errorf("Reload of a store: error %v, want ErrCrabdb", err)
			}
			if got, _ := os.ReadFile(v1); !bytes.Equal(got, want) {
				t.Error("the store's bytes changed")
			}
		})
	}
}

// TestDB_V1WithTrailingBytesStillWrites: the guard spares a v1 file with
// bytes after its last entry that do not look like a store's header.
func TestDB_V1WithTrailingBytesStillWrites(t *testing.T) {
	path := writeDB(t, 2, note(1, "a", "x"))
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(data, 0xff, 0xff, 0xff, 0xff), 0o600); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, path)
	dbApply(t, db, store.Add{Name: "b", Content: "y"})
	if f := onDisk(t, path); len(f.Entries) != 2 || f.Trailing != 0 {
		t.Errorf("after a write: %d entries, %d trailing bytes", len(f.Entries), f.Trailing)
	}
}

// TestReadCrabdbHeader: each field is read from its bytes (SPEC §10),
// little-endian, and a buffer shorter than the header reads nothing.
func TestReadCrabdbHeader(t *testing.T) {
	b := []byte("CRMEM\x00" + "\x01\x00\x00\x00" + "\x02\x00" + "\x00\x00\x00\x00" +
		"\x40\x00\x00\x00\x00\x00\x00\x00" + "\x10\x00\x00\x00\x01\x00\x00\x00")
	h, ok := store.ReadCrabdbHeader(b)
	want := store.CrabdbHeader{Magic: "CRMEM\x00", Version: 1, Flags: 2, IndexAt: 64, IndexLen: 1<<32 + 16}
	if !ok || h != want {
		t.Errorf("ReadCrabdbHeader = %+v, %v; want %+v", h, ok, want)
	}
	if _, ok := store.ReadCrabdbHeader(b[:31]); ok {
		t.Error("31 bytes read as a header")
	}
}
