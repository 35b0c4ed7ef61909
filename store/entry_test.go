package store

import (
	"slices"
	"testing"
)

// Before the first write, entry finds an id at its place when the ids up
// to it are 1 to n, and by search past a gap: NameOf names every entry,
// and no absent id, either way.
func TestMemory_EntryAtItsPlaceOrBySearch(t *testing.T) {
	file := []Entry{
		{ID: 1, Name: "a", Content: "one"},
		{ID: 2, Name: "b", Content: "two"},
		{ID: 3, Name: "c", Content: "three"},
		{ID: 5, Name: "d", Content: "five"}, // past a gap: at index 3
		{ID: 6, Name: "e", Content: "six"},
		{ID: 7, Name: "f", Content: "seven"},
	}
	m := NewMemoryWith(&File{Entries: slices.Clone(file), NextID: 8}, IndexOnDemand)
	if m.asRead == nil || m.byID != nil {
		t.Fatal("a file whose ids ascend is not read as read")
	}
	for _, w := range file {
		if name, ok := m.NameOf(w.ID); !ok || name != w.Name {
			t.Errorf("NameOf(%d) = %q, %v; want %q", w.ID, name, ok, w.Name)
		}
	}
	for _, id := range []uint64{0, 4, 8, 1 << 63, ^uint64(0)} {
		if name, ok := m.NameOf(id); ok {
			t.Errorf("NameOf(%d) = %q: the memory holds no such id", id, name)
		}
	}
}
