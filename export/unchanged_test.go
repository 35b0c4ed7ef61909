package export

import (
	"testing"

	"github.com/crmem/crmem/store"
)

func TestKeepUnchanged(t *testing.T) {
	cur := []store.Entry{
		{ID: 7, Name: "a", Kind: store.Note, CreatedAt: 100, Aliases: []string{"x"}, Content: "line one\n\n"},
		{ID: 9, Name: "b", Kind: store.Archive, CreatedAt: 200, Content: "b text"},
	}
	dumped := func(name string, kind store.Kind, created uint64, aliases []string, content string, id uint64) store.Entry {
		return store.Entry{ID: id, Name: name, Kind: kind, CreatedAt: created, Aliases: aliases, Content: content}
	}
	cases := []struct {
		name     string
		in       []store.Entry
		contents []string
		same     bool
	}{
		{"unedited: the dump's trim is no change", []store.Entry{dumped("a", store.Note, 100, []string{"x"}, "line one", 1), dumped("b", store.Archive, 200, nil, "b text", 2)},
			[]string{"line one\n\n", "b text"}, true},
		{"one edited", []store.Entry{dumped("a", store.Note, 100, []string{"x"}, "line ONE", 1), dumped("b", store.Archive, 200, nil, "b text", 2)},
			[]string{"line ONE", "b text"}, false},
		{"aliases edited", []store.Entry{dumped("a", store.Note, 100, nil, "line one", 1), dumped("b", store.Archive, 200, nil, "b text", 2)},
			[]string{"line one", "b text"}, false},
		{"created edited", []store.Entry{dumped("a", store.Note, 101, []string{"x"}, "line one", 1), dumped("b", store.Archive, 200, nil, "b text", 2)},
			[]string{"line one", "b text"}, false},
		{"kind moved", []store.Entry{dumped("a", store.Topic, 100, []string{"x"}, "line one", 1), dumped("b", store.Archive, 200, nil, "b text", 2)},
			[]string{"line one", "b text"}, false},
		{"one removed", []store.Entry{dumped("b", store.Archive, 200, nil, "b text", 1)},
			[]string{"b text"}, false},
		{"one added", []store.Entry{dumped("a", store.Note, 100, []string{"x"}, "line one", 1), dumped("b", store.Archive, 200, nil, "b text", 2), dumped("c", store.Note, 5, nil, "c", 3)},
			[]string{"line one\n\n", "b text", "c"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, same := KeepUnchanged(cur, c.in)
			if same != c.same {
				t.Errorf("same = %v, want %v", same, c.same)
			}
			for i, e := range out {
				if e.Content != c.contents[i] || e.ID != c.in[i].ID {
					t.Errorf("entry %d: %q (id %d), want %q (id %d)", i, e.Content, e.ID, c.contents[i], c.in[i].ID)
				}
			}
		})
	}
}
