package cli

import (
	"reflect"
	"testing"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/store/recalls"
)

// TestV1RecallsInput_AsMemory checks that recalls, reading a v1 file as
// ls reads it, finds the names results give and lists the entries as a
// memory opened over the file does (Memory.ContentNamed, Memory.Entries):
// with two entries of one name (the later one's content) and with two
// entries of one id (the memory's own look-up then).
func TestV1RecallsInput_AsMemory(t *testing.T) {
	tests := []struct {
		name    string
		entries []store.Entry
	}{
		{"distinct", []store.Entry{{ID: 1, Name: "a", Content: "one"}, {ID: 2, Name: "b", Content: "two"}}},
		{"one name twice", []store.Entry{{ID: 1, Name: "a", Content: "one"}, {ID: 3, Name: "b", Content: "two"}, {ID: 7, Name: "a", Content: "three"}}},
		{"one id twice", []store.Entry{{ID: 1, Name: "a", Content: "one"}, {ID: 2, Name: "b", Content: "two"}, {ID: 2, Name: "c", Content: "three"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decode := func() *store.File {
				f, err := store.Decode(store.Encode(0, tt.entries))
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
			in := v1RecallsInput(store.V1Contents("memory.db", decode(), ""))
			mem := store.NewMemoryWith(decode(), store.IndexOnDemand)
			want := recalls.MemoryNames(mem)
			for _, name := range []string{"a", "b", "c", "d", ""} {
				gc, gok := in.known(name)
				wc, wok := want(name)
				if gc != wc || gok != wok {
					t.Errorf("known(%q) = %q, %v; the memory finds %q, %v", name, gc, gok, wc, wok)
				}
			}
			if got, want := in.entries(), mem.Entries(); !reflect.DeepEqual(got, want) {
				t.Errorf("entries %+v, the memory's %+v", got, want)
			}
		})
	}
}
