package tui

import (
	"fmt"
	"testing"
	"time"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
)

// TestListView_OwnsItsKeys: the list moves its own cursor on the
// navigation keys, skipping headers, keeping it in sight, and says
// whether the selection moved (the root shows the entry only then).
func TestListView_OwnsItsKeys(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	var l listView
	l.setRows([]row{{header: "today"}, {idx: 0}, {idx: 1}, {header: "yesterday"}, {idx: 2}, {idx: 3}, {idx: 4}})
	l.cursor = 1
	const h = 3
	steps := []struct {
		key    string
		moved  bool
		cursor int
	}{
		{"k", false, 1}, // already on the first entry
		{"j", true, 2},
		{"j", true, 4}, // over the header
		{"G", true, 6},
		{"j", false, 6}, // already on the last
		{"x", false, 6}, // not a navigation key
		{"g", true, 1},
		{"pgdown", true, 3 + 1}, // a page is h-1 rows: 1+2 is the header, so the entry after it
	}
	for _, s := range steps {
		if moved := l.key(&keys, keyMsg(s.key), h); moved != s.moved || l.cursor != s.cursor {
			t.Fatalf("%s: moved %v, cursor %d; want %v, %d", s.key, moved, l.cursor, s.moved, s.cursor)
		}
		if l.cursor < l.offset || l.cursor >= l.offset+h {
			t.Fatalf("%s: cursor %d out of sight (offset %d, %d rows)", s.key, l.cursor, l.offset, h)
		}
	}
}

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
	sp := rowsSpec{filter: filterAll, order: sortName, loc: time.UTC}
	const h = 4
	var l listView
	l.rebuild(s, sp, h)
	if id, ok := l.selectedID(s); !ok || id != 1 || l.position() != "1/8" {
		t.Fatalf("first layout: selected %d %v at %s", id, ok, l.position())
	}
	l.moveBy(5, h) // e6
	sp.order = sortNewest
	l.rebuild(s, sp, h) // date headers now: the same entry stays selected
	if e, ok := l.selectedEntry(s); !ok || e.Name != "e6" {
		t.Fatalf("after the order changed: selected %q %v", e.Name, ok)
	}
	if got := l.listedIDs(s); len(got) != 8 || got[0] != 8 {
		t.Fatalf("listed %v, want the 8 newest first", got)
	}
	sp.keep = func(e store.Entry) bool { return e.ID != 6 }
	pos := l.cursor
	l.rebuild(s, sp, h) // e6 no longer listed: the entry nearest its row
	if _, ok := l.selected(); !ok || l.cursor > pos+1 || l.entries != 7 {
		t.Fatalf("after e6 went: cursor %d (was %d), %d entries", l.cursor, pos, l.entries)
	}
	if !l.selectFirst(h, true) || l.offset != 0 || l.position() != "1/7" {
		t.Fatalf("selectFirst: offset %d, position %s", l.offset, l.position())
	}
	off := l.shownOffset(h)
	for y := range h {
		i := off + y
		want := i < len(l.rows) && l.rows[i].header == ""
		before := l.cursor
		if got := l.click(y, h); got != want || got && l.cursor != i || !got && l.cursor != before {
			t.Fatalf("click on line %d (row %d): %v, cursor %d; want %v", y, i, got, l.cursor, want)
		}
	}
	if l.click(h, h) {
		t.Error("a click below the pane selected a row")
	}
}

// TestListView_SaysWhatItLists: the list keeps what it lists (its kind
// filter, order, expanded name matches, the recall view) and lays itself
// out from them; the recall view needs a search to show.
func TestListView_SaysWhatItLists(t *testing.T) {
	l := listView{filter: kindFilter(store.Archive), order: sortOldest, expanded: true, recallView: true}
	sp := l.spec(nil, nil, defaultLimits(), time.UTC)
	if sp.filter != l.filter || sp.order != sortOldest || !sp.expanded || sp.recall {
		t.Errorf("without a search: %+v", sp)
	}
	if sp := l.spec(&searchResult{}, nil, defaultLimits(), time.UTC); !sp.recall {
		t.Error("the recall view is off with a search")
	}
	s := newSnapshot([]store.Entry{{ID: 1, Name: "n", Kind: store.Note}, {ID: 2, Name: "a", Kind: store.Archive, CreatedAt: 5}})
	l.rebuild(s, sp, 5)
	if got := l.listedIDs(s); len(got) != 1 || got[0] != 2 {
		t.Errorf("archives only: listed %v", got)
	}
}
