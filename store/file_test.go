package store_test

import (
	"reflect"
	"testing"

	"github.com/crmem/crmem/store"
)

// oneShotFiles are files whose lookups and listings the one-pass File
// methods must resolve as a Memory does: the reference's, one with a name
// twice, and one whose ids repeat and do not ascend.
func oneShotFiles(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"small":      readFixture(t, "crmem/small.db"),
		"medium":     readFixture(t, "crmem/medium.db"),
		"same names": readFixture(t, "bad/ok-duplicate-names.db"),
		"aliases": store.Encode(9, []store.Entry{
			{ID: 1, Name: "a", Content: "x", Aliases: []string{"shared", "b"}},
			{ID: 2, Name: "b", Content: "y", Aliases: []string{"shared"}},
			{ID: 3, Name: "a", Content: "z", Aliases: []string{}},
		}),
		"repeated ids": repeatedIDs(),
	}
}

// repeatedIDs is a file whose entries hold ids 5, 2, 5 in that order
// (Encode would sort them), written field by field.
func repeatedIDs() []byte {
	b := []byte("CRMEM\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	u32 := func(v uint32) { b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	u64 := func(v uint64) { u32(uint32(v)); u32(uint32(v >> 32)) }
	str := func(s string) { u32(uint32(len(s))); b = append(b, s...) }
	u64(9)
	u32(3)
	for _, e := range []struct {
		id            uint64
		name, content string
		aliases       []string
	}{{5, "a", "one", []string{"x"}}, {2, "b", "two", []string{"x", "y"}}, {5, "c", "three", []string{"y", "z"}}} {
		u64(e.id)
		u64(1700000000)
		u32(0)
		str(e.name)
		str(e.content)
		u32(uint32(len(e.aliases)))
		for _, a := range e.aliases {
			str(a)
		}
	}
	return b
}

func TestFileLookup_MatchesMemory(t *testing.T) {
	for name, data := range oneShotFiles(t) {
		t.Run(name, func(t *testing.T) {
			f, err := store.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			queries := []string{"", "no-such-entry"}
			for _, e := range f.Entries {
				queries = append(queries, e.Name)
				queries = append(queries, e.Aliases...)
			}
			m := store.NewMemoryWith(mustDecode(t, data), store.IndexOnDemand)
			for _, q := range queries {
				got, gok := f.Lookup(q)
				want, wok := m.Lookup(q)
				if gok != wok || !reflect.DeepEqual(got, want) {
					t.Errorf("Lookup(%q): %v %+v, Memory %v %+v", q, gok, got, wok, want)
				}
			}
		})
	}
}

func TestFileEntriesByID_MatchesMemory(t *testing.T) {
	for name, data := range oneShotFiles(t) {
		t.Run(name, func(t *testing.T) {
			got := mustDecode(t, data).EntriesByID()
			want := store.NewMemoryWith(mustDecode(t, data), store.IndexOnDemand).Entries()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("EntriesByID:\n%+v\nMemory.Entries:\n%+v", got, want)
			}
		})
	}
}

func mustDecode(t *testing.T, data []byte) *store.File {
	t.Helper()
	f, err := store.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
