package store

import (
	"os"
	"path/filepath"
	"testing"
)

// OpenWith hashes the file beside its decode; the fingerprint is the one
// readState gives, for a file that decodes and one that does not (whose
// open fails without waiting on a hash forever).
func TestOpenWith_FingerprintIsReadStates(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "memory.db")
	if err := os.WriteFile(good, Encode(3, []Entry{{ID: 1, Name: "a", Content: "deploy"}, {ID: 2, Name: "b", Aliases: []string{"c"}}}), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := OpenWith(good, Options{Index: IndexOnDemand})
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := readState(good)
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Fingerprint(); !got.Equal(want) || got.Hash == 0 {
		t.Errorf("open's fingerprint %+v, readState's %+v", got, want)
	}
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte("CRMEM\x01 not a memory"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWith(bad, Options{Index: IndexOnDemand}); err == nil {
		t.Error("a file that does not decode opened")
	}
}
