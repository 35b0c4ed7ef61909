package list

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

// keyMsg builds a key press from its name ("j", "pgdown").
func keyMsg(name string) tea.KeyPressMsg {
	if name == "pgdown" {
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}

// TestListView_OwnsItsKeys: the list moves its own cursor on the
// navigation keys, skipping headers, keeping it in sight, and says
// whether the selection moved (the root shows the entry only then).
func TestListView_OwnsItsKeys(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	c := &part.Context{Keys: &keys, Body: 3}
	var l List
	l.SetRows([]Row{{Header: "today"}, {Idx: 0}, {Idx: 1}, {Header: "yesterday"}, {Idx: 2}, {Idx: 3}, {Idx: 4}})
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
		if moved := len(l.Key(c, keyMsg(s.key))) > 0; moved != s.moved || l.cursor != s.cursor {
			t.Fatalf("%s: moved %v, cursor %d; want %v, %d", s.key, moved, l.cursor, s.moved, s.cursor)
		}
		if l.cursor < l.offset || l.cursor >= l.offset+h {
			t.Fatalf("%s: cursor %d out of sight (offset %d, %d rows)", s.key, l.cursor, l.offset, h)
		}
	}
}
