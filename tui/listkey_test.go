package tui

import (
	"testing"

	"github.com/crmem/crmem/keymap"
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
