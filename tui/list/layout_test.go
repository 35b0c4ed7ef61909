package list

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
)

// snap is a list.Snapshot without a root: entries in id order, sorted
// on demand.
type snap []store.Entry

func (s snap) Entries() []store.Entry { return s }

func (s snap) Get(id uint64) (store.Entry, bool) {
	i, ok := s.Index(id)
	if !ok {
		return store.Entry{}, false
	}
	return s[i], true
}

func (s snap) Index(id uint64) (int, bool) {
	for i, e := range s {
		if e.ID == id {
			return i, true
		}
	}
	return 0, false
}

func (s snap) Order(o Order) []int {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch o {
		case ByName:
			return strings.Compare(s[a].Name, s[b].Name)
		case Oldest:
			return int(s[a].CreatedAt) - int(s[b].CreatedAt)
		}
		return int(s[b].CreatedAt) - int(s[a].CreatedAt)
	})
	return idx
}

// text is the rows as the list names them: headers as they are, entries
// by name, the expand row as "+N".
func text(s snap, rows []Row) []string {
	var out []string
	for _, r := range rows {
		switch {
		case r.Header != "":
			out = append(out, r.Header)
		case r.More > 0:
			out = append(out, "+"+string(rune('0'+r.More)))
		default:
			out = append(out, s[r.Idx].Name)
		}
	}
	return out
}

// TestLayout_FromWhatItIsLent: the list lays its rows out from a
// snapshot and a search it is lent, with no root: by date with a month
// and a day header before each new one, by name without headers, the
// kind filter and the other filters applied (the selection kept on the
// nearest entry when its own is filtered out), and a search's sections
// (name matches cut to NameRows with an expand row counting the rest,
// then recall), an entry listed once, in the first section that shows it.
func TestLayout_FromWhatItIsLent(t *testing.T) {
	day := func(d int) uint64 { return uint64(time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC).Unix()) }
	s := snap{
		{ID: 1, Name: "alpha", Kind: store.Note, CreatedAt: day(2)},
		{ID: 2, Name: "beta", Kind: store.Archive, CreatedAt: day(2)},
		{ID: 3, Name: "gamma", Kind: store.Note, CreatedAt: day(29)},
		{ID: 4, Name: "alps", Kind: store.Note, CreatedAt: day(29)},
	}
	l := List{Filter: All}
	sp := l.Spec(nil, nil, 2, 5, time.UTC)
	l.Rebuild(s, sp, 10)
	want := []string{"November 2026", "  Sun 29 Nov", "gamma", "alps", "  Mon 2 Nov", "alpha", "beta"}
	if got := text(s, l.Rows()); !slices.Equal(got, want) {
		t.Errorf("newest: %q, want %q", got, want)
	}
	l.Order, l.Filter = ByName, Filter(store.Note)
	sp = l.Spec(nil, func(e store.Entry) bool { return e.ID != 3 }, 2, 5, time.UTC)
	l.Rebuild(s, sp, 10)
	// gamma was selected: the entry nearest its row is
	if got := text(s, l.Rows()); !slices.Equal(got, []string{"alpha", "alps"}) || l.Position() != "2/2" {
		t.Errorf("notes by name but gamma: %q at %s", got, l.Position())
	}
	res := &Search{
		Query: "al",
		Names: []Hit{{ID: 1, Kind: HitName}, {ID: 4, Kind: HitName}, {ID: 3, Kind: HitName}},
		Exact: []Hit{{ID: 1, Kind: HitExact, Score: 2, Via: HitExact}, {ID: 2, Kind: HitExact, Score: 1, Via: HitExact}},
		// three name matches, two of them listed
		NameTotal: 3, ExactTotal: 2,
	}
	l.Order, l.Filter = Relevance, All
	l.Rebuild(s, l.Spec(res, nil, 2, 5, time.UTC), 10)
	want = []string{"name matches (3)", "alpha", "alps", "+1", "recall (2)", "beta"}
	if got := text(s, l.Rows()); !slices.Equal(got, want) {
		t.Errorf("search: %q, want %q", got, want)
	}
}
