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

// Until its first write a memory of a file whose ids ascend keeps no map
// from id to entry (an open for search or bench would build 100,000 of
// them beside the index for nothing): every reader finds an id in the
// entries as read, absent ids included, and the first write builds the
// map that later writes keep.
func TestMemory_NoIDMapUntilAWrite(t *testing.T) {
	file := []Entry{
		{ID: 2, Name: "a", Content: "deploy the canary", Aliases: []string{"x"}},
		{ID: 5, Name: "b", Content: "roll back", Aliases: []string{}},
		{ID: 6, Name: "c", Content: "deploy again", Aliases: []string{"y"}},
		{ID: 11, Name: "d", Content: "ship", Aliases: []string{}},
	}
	m := NewMemoryWith(&File{Entries: slices.Clone(file), NextID: 12}, IndexNow)
	check := func(when string, want []Entry, absent []uint64) {
		t.Helper()
		if m.Len() != len(want) {
			t.Errorf("%s: Len %d, want %d", when, m.Len(), len(want))
		}
		for _, w := range want {
			if e, ok := m.Get(w.ID); !ok || !sameEntry(&e, &w) {
				t.Errorf("%s: Get(%d) = %v, %v; want %v", when, w.ID, e, ok, w)
			}
			if name, ok := m.NameOf(w.ID); !ok || name != w.Name {
				t.Errorf("%s: NameOf(%d) = %q, %v; want %q", when, w.ID, name, ok, w.Name)
			}
			if c, ok := m.ContentNamed(w.Name); !ok || c != w.Content {
				t.Errorf("%s: ContentNamed(%q) = %q, %v", when, w.Name, c, ok)
			}
		}
		for _, id := range absent {
			if _, ok := m.Get(id); ok {
				t.Errorf("%s: Get(%d) found an entry the memory does not hold", when, id)
			}
			if _, ok := m.NameOf(id); ok {
				t.Errorf("%s: NameOf(%d) found an entry the memory does not hold", when, id)
			}
		}
		if e, ok := m.Lookup("y"); !ok || e.ID != 6 {
			t.Errorf("%s: Lookup of alias y = %v, %v; want id 6", when, e, ok)
		}
	}
	check("as read", file, []uint64{0, 1, 3, 7, 12, 1 << 63})
	if m.byID != nil {
		t.Fatal("an open of ascending ids built the id map before any write")
	}
	if _, err := m.Apply(time.Unix(1_800_000_000, 0), Remove{Name: "b"}); err != nil {
		t.Fatal(err)
	}
	if m.byID == nil || m.asRead != nil {
		t.Fatal("the first write did not move the entries to the id map")
	}
	check("after a write", []Entry{file[0], file[2], file[3]}, []uint64{0, 5, 12})
	if hits := m.Search("deploy", 0); len(hits) != 2 {
		t.Errorf("the index after a write: %v, want 2 hits", hits)
	}
}
