package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// MappedFileAt names the file MapFile mapped at an address inside it, and
// nothing for an address outside every file mapping.
func TestMappedFileAt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte{7}, 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 4096, len(data) - 1} {
		got, ok := MappedFileAt(uintptr(unsafe.Pointer(&data[i])))
		if !ok || got != path {
			t.Errorf("byte %d: MappedFileAt = %q, %v; want %q", i, got, ok, path)
		}
	}
	heap := make([]byte, 64)
	if got, ok := MappedFileAt(uintptr(unsafe.Pointer(&heap[0]))); ok {
		t.Errorf("a heap address: MappedFileAt = %q, want none", got)
	}
}

func TestMapsLineAt(t *testing.T) {
	tests := []struct {
		line string
		addr uintptr
		want string
		ok   bool
	}{
		{"7f00a000-7f00c000 r--p 00000000 fd:01 1234 /tmp/a b/m.db", 0x7f00a000, "/tmp/a b/m.db", true},
		{"7f00a000-7f00c000 r--p 00000000 fd:01 1234 /tmp/m.db", 0x7f00bfff, "/tmp/m.db", true},
		{"7f00a000-7f00c000 r--p 00000000 fd:01 1234 /tmp/m.db", 0x7f00c000, "", false},
		{"7f00a000-7f00c000 r--p 00000000 fd:01 1234 /tmp/m.db", 0x7f009fff, "", false},
		{"7f00a000-7f00c000 r--p 00000000 fd:01 1234 /tmp/m.db (deleted)", 0x7f00a010, "/tmp/m.db", true},
		{"7f00a000-7f00c000 rw-p 00000000 00:00 0 [heap]", 0x7f00a010, "", false},
		{"7f00a000-7f00c000 rw-p 00000000 00:00 0", 0x7f00a010, "", false},
		{"garbage", 1, "", false},
	}
	for _, tt := range tests {
		got, ok := mapsLineAt(tt.line, tt.addr)
		if got != tt.want || ok != tt.ok {
			t.Errorf("mapsLineAt(%q, %#x) = %q, %v; want %q, %v", tt.line, tt.addr, got, ok, tt.want, tt.ok)
		}
	}
}
