package export_test

import (
	"testing"

	"github.com/crmem/crmem/export"
	"github.com/crmem/crmem/store"
)

// current is a small memory for merge tests (next id 10).
func current() []store.Entry {
	return []store.Entry{
		{ID: 1, Name: "keep", Kind: store.Note, CreatedAt: 100, Content: "untouched", Aliases: []string{"k"}},
		{ID: 2, Name: "edit", Kind: store.Note, CreatedAt: 200, Content: "old", Aliases: []string{"o"}},
		{ID: 3, Name: "rekind", Kind: store.Note, CreatedAt: 300, Content: "was a note"},
		{ID: 4, Name: "same", Kind: store.Archive, CreatedAt: 400, Content: "same"},
		{ID: 5, Name: "alias-holder", Kind: store.Note, CreatedAt: 500, Content: "has alias", Aliases: []string{"newbie"}},
	}
}

// applyMerge merges incoming into current() in one Memory.Apply and
// returns the result by name.
func applyMerge(t *testing.T, incoming []store.Entry, mode export.MergeMode) (export.Plan, map[string]store.Entry) {
	t.Helper()
	m := store.NewMemoryWith(&store.File{NextID: 10, Entries: current()}, store.IndexNow)
	p := export.MergeOps(m.Entries(), incoming, mode)
	if _, err := m.Apply(fixedNow, p.Ops...); err != nil {
		t.Fatalf("apply %+v: %v", p.Ops, err)
	}
	out := map[string]store.Entry{}
	for _, e := range m.Entries() {
		out[e.Name] = e
	}
	return p, out
}

// wantEntry fails unless got equals want (aliases compared as lists).
func wantEntry(t *testing.T, got map[string]store.Entry, want store.Entry) {
	t.Helper()
	g, ok := got[want.Name]
	if !ok {
		t.Errorf("%s missing", want.Name)
		return
	}
	checkImported(t, []store.Entry{g}, []store.Entry{want})
}

func TestMergeOps_Tree(t *testing.T) {
	incoming := []store.Entry{
		{ID: 1, Name: "edit", Kind: store.Note, CreatedAt: 9, Content: "new", Aliases: []string{"n"}},
		{ID: 2, Name: "rekind", Kind: store.Archive, CreatedAt: 9, Content: "now an archive"},
		{ID: 3, Name: "same", Kind: store.Archive, CreatedAt: 9, Content: "same"},
		{ID: 4, Name: "newbie", Kind: store.Topic, CreatedAt: 77, Content: "added"},
	}
	p, got := applyMerge(t, incoming, export.MergeTree)
	if p.Replaced != 2 || p.Added != 1 || p.Unchanged != 1 {
		t.Errorf("plan counts %+v", p)
	}
	if len(got) != 6 {
		t.Errorf("%d entries after merge, want 6", len(got))
	}
	wantEntry(t, got, current()[0])
	wantEntry(t, got, store.Entry{ID: 2, Name: "edit", Kind: store.Note, CreatedAt: 200, Content: "new", Aliases: []string{"n"}})
	wantEntry(t, got, store.Entry{ID: 3, Name: "rekind", Kind: store.Archive, CreatedAt: 300, Content: "now an archive"})
	wantEntry(t, got, current()[3])
	wantEntry(t, got, current()[4])
	wantEntry(t, got, store.Entry{ID: 10, Name: "newbie", Kind: store.Topic, CreatedAt: 77, Content: "added"})
}

func TestMergeOps_Exact(t *testing.T) {
	incoming := []store.Entry{
		{ID: 42, Name: "edit", Kind: store.Archive, CreatedAt: 9, Content: "new", Aliases: []string{"n"}},
		{ID: 4, Name: "same", Kind: store.Archive, CreatedAt: 400, Content: "same"},
		{ID: 20, Name: "free-id", Kind: store.Note, CreatedAt: 20, Content: "keeps id 20"},
		{ID: 1, Name: "taken-id", Kind: store.Note, CreatedAt: 21, Content: "id 1 is taken"},
	}
	p, got := applyMerge(t, incoming, export.MergeExact)
	if p.Replaced != 1 || p.Added != 2 || p.Unchanged != 1 {
		t.Errorf("plan counts %+v", p)
	}
	wantEntry(t, got, store.Entry{ID: 2, Name: "edit", Kind: store.Archive, CreatedAt: 9, Content: "new", Aliases: []string{"n"}})
	wantEntry(t, got, store.Entry{ID: 20, Name: "free-id", Kind: store.Note, CreatedAt: 20, Content: "keeps id 20"})
	wantEntry(t, got, store.Entry{ID: 21, Name: "taken-id", Kind: store.Note, CreatedAt: 21, Content: "id 1 is taken"})
	wantEntry(t, got, current()[0])
}

func TestMergeOps_NothingToDo(t *testing.T) {
	p := export.MergeOps(current(), current(), export.MergeExact)
	if len(p.Ops) != 0 || p.Unchanged != 5 {
		t.Errorf("plan %+v", p)
	}
}

// TestMergeOps_StalePlanTouchesNoOtherEntry: a plan is made on the memory
// as read and applied on the file as it is when the save runs. If the
// entry it replaces was removed meanwhile and another entry now has its
// name as an alias, the plan must not reach that other entry through the
// alias (an Update would overwrite its content, a Remove delete it): it
// fails instead, changing nothing, and the command says so.
func TestMergeOps_StalePlanTouchesNoOtherEntry(t *testing.T) {
	read := []store.Entry{
		{ID: 1, Name: "x", Kind: store.Note, CreatedAt: 100, Content: "old", Aliases: []string{}},
		{ID: 2, Name: "y", Kind: store.Note, CreatedAt: 200, Content: "keep", Aliases: []string{}},
	}
	y := store.Entry{ID: 2, Name: "y", Kind: store.Note, CreatedAt: 200, Content: "keep", Aliases: []string{"x"}}
	for _, tc := range []struct {
		what string
		in   store.Entry
		mode export.MergeMode
	}{
		{"update", store.Entry{Name: "x", Kind: store.Note, Content: "new"}, export.MergeTree},
		{"new kind", store.Entry{Name: "x", Kind: store.Archive, Content: "new"}, export.MergeTree},
		{"exact", store.Entry{ID: 1, Name: "x", Kind: store.Note, CreatedAt: 100, Content: "new"}, export.MergeExact},
	} {
		p := export.MergeOps(read, []store.Entry{tc.in}, tc.mode)
		fresh := store.NewMemoryWith(&store.File{NextID: 3, Entries: []store.Entry{y}}, store.IndexNow)
		if _, err := fresh.Apply(fixedNow, p.Ops...); err == nil {
			t.Errorf("%s: the stale plan applied without error", tc.what)
		}
		got, ok := fresh.Lookup("y")
		if !ok || got.Content != "keep" || len(got.Aliases) != 1 || fresh.Len() != 1 {
			t.Errorf("%s: y is %+v (found %v), %d entries; want it untouched", tc.what, got, ok, fresh.Len())
		}
	}
}
