package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestIndexBuildOfFileCutShort maps a memory file, decodes it (the entries
// alias the mapping), cuts the file to nothing and builds the index and
// the name maps in the background, as `search --explain` and `bench` do:
// the faults on those goroutines come back as a panic on the goroutine
// that waits for them (where the command turns it into one line), never
// as a crash of the process.
func TestIndexBuildOfFileCutShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "memory.db")
	entries := make([]store.Entry, 30000)
	for i := range entries {
		entries[i] = store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("note-%05d", i), Kind: store.Note,
			CreatedAt: 1767225600, Content: strings.Repeat("text ", 12)}
	}
	if err := os.WriteFile(path, store.Encode(uint64(len(entries)+1), entries), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := store.MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	for _, wait := range []struct {
		name string
		do   func(m *store.Memory)
	}{
		{"index", func(m *store.Memory) { m.WaitIndexed() }},
		{"lookup", func(m *store.Memory) { m.Lookup("note-00001") }},
	} {
		t.Run(wait.name, func(t *testing.T) {
			f := *f
			f.Entries = append([]store.Entry(nil), f.Entries...) // the memory takes ownership
			r := func() (r any) {
				defer debug.SetPanicOnFault(debug.SetPanicOnFault(true)) // as execute does
				defer func() { r = recover() }()
				m := store.NewMemoryWith(&f, store.IndexBackground)
				wait.do(m)
				m.WaitIndexed()
				m.Lookup("note-00001")
				return nil
			}()
			fault, ok := r.(interface{ Addr() uintptr })
			if !ok {
				t.Fatalf("recovered %v (%T), want a fault with its address", r, r)
			}
			if got, ok := store.MappedFileAt(fault.Addr()); !ok || got != path {
				t.Errorf("the fault is in %q, want %s", got, path)
			}
		})
	}
}
