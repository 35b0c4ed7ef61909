package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/list"
)

// TestListView_OwnsItsRebuildAndSelection: the list lays itself out again
// keeping the selected entry (or the same position when it went), says
// which entry is selected and where it stands, selects the best hit, and
// maps a click through the rows as drawn; no root model is involved.
func TestListView_OwnsItsRebuildAndSelection(t *testing.T) {
	var es []store.Entry
	for i := range 8 {
		es = append(es, store.Entry{ID: uint64(i + 1), Name: fmt.Sprintf("e%d", i+1), Kind: store.Note, CreatedAt: uint64(1_700_000_000 + i)})
	}
	s := newSnapshot(es)
	sp := rowsSpec{Filter: filterAll, Order: sortName, Loc: time.UTC}
	const h = 4
	var l list.List
	l.Rebuild(s, sp, h)
	if id, ok := l.SelectedID(s); !ok || id != 1 || l.Position() != "1/8" {
		t.Fatalf("first layout: selected %d %v at %s", id, ok, l.Position())
	}
	l.MoveBy(5, h) // e6
	sp.Order = sortNewest
	l.Rebuild(s, sp, h) // date headers now: the same entry stays selected
	if e, ok := l.SelectedEntry(s); !ok || e.Name != "e6" {
		t.Fatalf("after the order changed: selected %q %v", e.Name, ok)
	}
	if got := l.ListedIDs(s); len(got) != 8 || got[0] != 8 {
		t.Fatalf("listed %v, want the 8 newest first", got)
	}
	sp.Keep = func(e store.Entry) bool { return e.ID != 6 }
	pos := l.Cursor()
	l.Rebuild(s, sp, h) // e6 no longer listed: the entry nearest its row
	if _, ok := l.Selected(); !ok || l.Cursor() > pos+1 || l.Entries() != 7 {
		t.Fatalf("after e6 went: cursor %d (was %d), %d entries", l.Cursor(), pos, l.Entries())
	}
	if !l.SelectFirst(h, true) || l.Offset() != 0 || l.Position() != "1/7" {
		t.Fatalf("selectFirst: offset %d, position %s", l.Offset(), l.Position())
	}
	off := l.ShownOffset(h)
	for y := range h {
		i := off + y
		want := i < len(l.Rows()) && l.Rows()[i].Header == ""
		before := l.Cursor()
		if got := l.Click(y, h); got != want || got && l.Cursor() != i || !got && l.Cursor() != before {
			t.Fatalf("click on line %d (row %d): %v, cursor %d; want %v", y, i, got, l.Cursor(), want)
		}
	}
	if l.Click(h, h) {
		t.Error("a click below the pane selected a row")
	}
}

// TestListView_SaysWhatItLists: the list keeps what it lists (its kind
// filter, order, expanded name matches, the recall view) and lays itself
// out from them; the recall view needs a search to show.
func TestListView_SaysWhatItLists(t *testing.T) {
	l := list.List{Filter: kindFilter(store.Archive), Order: sortOldest, Expanded: true, RecallView: true}
	sp := listSpec(&l, nil, nil, defaultLimits(), time.UTC)
	if sp.Filter != l.Filter || sp.Order != sortOldest || !sp.Expanded || sp.Recall {
		t.Errorf("without a search: %+v", sp)
	}
	if sp := listSpec(&l, &searchResult{}, nil, defaultLimits(), time.UTC); !sp.Recall {
		t.Error("the recall view is off with a search")
	}
	s := newSnapshot([]store.Entry{{ID: 1, Name: "n", Kind: store.Note}, {ID: 2, Name: "a", Kind: store.Archive, CreatedAt: 5}})
	l.Rebuild(s, sp, 5)
	if got := l.ListedIDs(s); len(got) != 1 || got[0] != 2 {
		t.Errorf("archives only: listed %v", got)
	}
}
