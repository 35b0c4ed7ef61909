package store

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestReadAll_LargeFileParallel reads a file above parallelReadMin through
// readAll with the size its stat gave, and with sizes as if it grew or
// shrank between the stat and the read: the bytes are always the file's.
func TestReadAll_LargeFileParallel(t *testing.T) {
	content := make([]byte, parallelReadMin+3<<16+12345)
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range content {
		content[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), "memory.db")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int64
	}{
		{"as stat said", int64(len(content))},
		{"grew after stat", int64(len(content)) - 70000},
		{"shrank after stat", int64(len(content)) + 70000},
		{"stat at the threshold, file grew", parallelReadMin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := readAll(f, tc.size)
			if err != nil {
				t.Fatalf("readAll: %v", err)
			}
			if !bytes.Equal(got, content) {
				t.Fatalf("read %d bytes, not the file's %d", len(got), len(content))
			}
		})
	}
}

// TestReadParallel_ShortFile reports a file shorter than the buffer as not
// full (the caller reads it again), without an error.
func TestReadParallel_ShortFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 1<<17), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	full, err := readParallel(f, make([]byte, 1<<18))
	if full || err != nil {
		t.Fatalf("readParallel of a short file = %v, %v; want false, nil", full, err)
	}
}
