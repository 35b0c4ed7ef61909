package check

import (
	"strings"
	"testing"

	"github.com/crmem/crmem/store"
)

// TestAnomalies checks every oddity check reports, one file each.
func TestAnomalies(t *testing.T) {
	e := func(id uint64, name string, aliases ...string) store.Entry {
		return store.Entry{ID: id, Name: name, Aliases: aliases}
	}
	cases := []struct {
		name string
		file store.File
		want []string
	}{
		{"clean", store.File{NextID: 3, Entries: []store.Entry{e(1, "a", "x"), e(2, "b", "y")}}, nil},
		{"self alias is fine", store.File{NextID: 2, Entries: []store.Entry{e(1, "a", "a")}}, nil},
		{"trailing", store.File{NextID: 2, Entries: []store.Entry{e(1, "a")}, Trailing: 5}, []string{"trailing_bytes"}},
		{"duplicate name", store.File{NextID: 3, Entries: []store.Entry{e(1, "a"), e(2, "a")}}, []string{"duplicate_name"}},
		{"duplicate id", store.File{NextID: 3, Entries: []store.Entry{e(2, "a"), e(2, "b")}}, []string{"duplicate_id"}},
		{"stale next_id", store.File{NextID: 1, Entries: []store.Entry{e(9, "a")}}, []string{"stale_next_id"}},
		{"reserved id", store.File{NextID: 2, Entries: []store.Entry{e(1, "a"), e(store.ReservedID, "z")}}, []string{"reserved_id"}},
		{"stale beside the reserved id", store.File{NextID: 1, Entries: []store.Entry{e(4, "a"), e(store.ReservedID, "z")}}, []string{"stale_next_id", "reserved_id"}},
		{"no ids left", store.File{NextID: store.ReservedID, Entries: []store.Entry{e(1, "a")}}, []string{"no_ids_left"}},
		{"shared alias", store.File{NextID: 3, Entries: []store.Entry{e(1, "a", "x"), e(2, "b", "x")}}, []string{"shared_alias"}},
		{"alias is a name", store.File{NextID: 3, Entries: []store.Entry{e(1, "a", "b"), e(2, "b")}}, []string{"alias_is_name"}},
		{"unsafe name", store.File{NextID: 2, Entries: []store.Entry{e(1, "a/b")}}, []string{"unsafe_name"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, a := range v1Anomalies(&c.file) {
				got = append(got, a.Kind)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestSomeQuoted(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a", "b"}, `"a", "b"`},
		{[]string{"a", "b", "c", "d", "e", "f", "g"}, `"a", "b", "c", "d", "e", … and 2 more`},
	} {
		if got := someQuoted(c.names); got != c.want {
			t.Errorf("someQuoted(%q) = %s, want %s", c.names, got, c.want)
		}
	}
}
