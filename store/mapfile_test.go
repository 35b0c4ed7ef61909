package store_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestMapFile_Sizes maps (or, below 1 MiB, reads) files of sizes around
// the point where MapFile starts mapping: the bytes are the file's.
func TestMapFile_Sizes(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 100, 1<<20 - 1, 1 << 20, 3<<20 + 12345} {
		path := filepath.Join(dir, "m.db")
		want := writeRandomFile(t, path, size)
		got, err := store.MapFile(path)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("size %d: %d bytes that differ from the file's", size, len(got))
		}
	}
}

// A mapped file replaced by rename, as crabtalk and crmem write, keeps the
// bytes that were mapped.
func TestMapFile_ReplacedByRename(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.db")
	old := bytes.Repeat([]byte("old "), 1<<19) // 2 MiB: mapped
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := store.MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "m.db.tmp")
	if err := os.WriteFile(tmp, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, old) {
		t.Fatal("the mapped bytes changed when the file was replaced")
	}
}

func TestMapFile_Errors(t *testing.T) {
	dir := t.TempDir()
	if _, err := store.MapFile(filepath.Join(dir, "missing.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := store.MapFile(dir); !errors.Is(err, store.ErrNotRegular) {
		t.Errorf("a folder: %v, want ErrNotRegular", err)
	}
}
