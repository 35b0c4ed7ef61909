package store

import (
	"slices"
	"testing"
	"time"
)

// A memory walks the decoded file's entries as they are until its first
// write (asRead), and its map and id order after: Entries and the index
// build see each write, and what Entries hands out is a copy either way.
func TestMemory_EntriesAsReadUntilAWrite(t *testing.T) {
	file := []Entry{
		{ID: 1, Name: "a", Content: "deploy the canary", Aliases: []string{"x"}},
		{ID: 4, Name: "b", Content: "roll back", Aliases: []string{}},
		{ID: 9, Name: "c", Content: "deploy again", Aliases: []string{"y", "z"}},
	}
	ids := func(es []Entry) []uint64 {
		var out []uint64
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	m := NewMemoryWith(&File{Entries: slices.Clone(file), NextID: 10}, IndexOnDemand)
	if m.asRead == nil {
		t.Fatal("a file whose ids ascend is not walked as read")
	}
	got := m.Entries()
	if !equalEntries(got, file) {
		t.Fatalf("entries as read: %v, want %v", got, file)
	}
	got[0].Aliases[0], got[1].Name = "changed", "changed" // a copy
	if again := m.Entries(); !equalEntries(again, file) {
		t.Fatalf("changing Entries' result changed the memory: %v", again)
	}
	if _, err := m.Apply(time.Unix(1_800_000_000, 0), Remove{Name: "b"}, Add{Name: "d", Content: "deploy"}); err != nil {
		t.Fatal(err)
	}
	if m.asRead != nil {
		t.Error("a write left the entries as read to walk")
	}
	if got := ids(m.Entries()); !slices.Equal(got, []uint64{1, 9, 10}) {
		t.Errorf("after a write: ids %v, want [1 9 10]", got)
	}
	if hits := m.Search("deploy", 0); len(hits) != 3 {
		t.Errorf("the index after a write: %v, want 3 hits", hits)
	}
}

func equalEntries(a, b []Entry) bool {
	return slices.EqualFunc(a, b, func(x, y Entry) bool { return sameEntry(&x, &y) })
}
