package store_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestReadFile_Sizes reads files below, at and above the sizes where reads
// go parallel and ask for huge pages (whole 2 MiB pages inside the buffer),
// at lengths that leave partial pages at both ends.
func TestReadFile_Sizes(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 100, 4<<20 - 1, 4 << 20, 9<<20 + 12345} {
		path := filepath.Join(dir, "m.db")
		want := writeRandomFile(t, path, size)
		got, err := store.ReadFile(path)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("size %d: read %d bytes that differ from the file's", size, len(got))
		}
	}
}

// writeRandomFile writes size random bytes (seeded by size) to path and
// returns them.
func writeRandomFile(t *testing.T, path string, size int) []byte {
	t.Helper()
	data := make([]byte, size)
	rng := rand.New(rand.NewPCG(uint64(size), 1))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}
