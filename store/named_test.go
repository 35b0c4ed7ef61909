package store_test

import (
	"testing"

	"github.com/crmem/crmem/store"
)

// TestNamed reads names and ids as Lookup and Get do, without copying:
// ContentNamed is Lookup's name rule without aliases (the later of two
// entries of one name, a shadow's name too), NameOf is Get's entry's
// name, LongestName counts shadows; on a file whose ids ascend (the maps
// built on first use), one with a shadowed id, and after a change.
func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []store.Entry
		ops     []store.Op
	}{
		{"ascending", []store.Entry{note(1, "deploy", "one", "ship"), note(2, "deploy", "two"), note(3, "canary", "three")}, nil},
		{"shadowed id", []store.Entry{note(1, "deploy", "one"), note(2, "a-much-longer-old-name", "shadowed", "gone"), note(2, "deploy", "two"), note(3, "canary", "three")}, nil},
		{"changed", []store.Entry{note(1, "deploy", "one"), note(2, "canary", "two")}, []store.Op{store.Remove{Name: "canary"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := store.NewMemoryWith(&store.File{Entries: tc.entries, NextID: 10}, store.IndexOnDemand)
			if len(tc.ops) > 0 {
				mustApply(t, m, tc.ops...)
			}
			for _, name := range []string{"deploy", "canary", "a-much-longer-old-name", "ship", "gone", "missing"} {
				want, wok := m.Lookup(name)
				if wok && want.Name != name { // found by an alias: not a name
					want, wok = store.Entry{}, false
				}
				if c, ok := m.ContentNamed(name); ok != wok || c != want.Content {
					t.Errorf("ContentNamed(%q) = %q, %v; Lookup by name %q, %v", name, c, ok, want.Content, wok)
				}
			}
			longest := 0
			for _, e := range m.Entries() {
				longest = max(longest, len(e.Name))
			}
			if got := m.LongestName(); got != longest {
				t.Errorf("LongestName = %d, want %d", got, longest)
			}
			for id := range uint64(5) {
				want, wok := m.Get(id)
				if name, ok := m.NameOf(id); ok != wok || name != want.Name {
					t.Errorf("NameOf(%d) = %q, %v; Get %q, %v", id, name, ok, want.Name, wok)
				}
			}
		})
	}
}
