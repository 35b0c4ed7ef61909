package reloadlog

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/store"
	"github.com/crmem/crmem/tui/part"
)

// snap holds the entries with the ids given.
type snap map[uint64]bool

func (s snap) Entries() []store.Entry { return nil }
func (s snap) Get(id uint64) (store.Entry, bool) {
	return store.Entry{ID: id}, s[id]
}

func press(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code} }

// TestLog_AlonePartOfItsOwn: the log, with no root model: a reload added
// while it is open keeps the cursor on its entry; enter on an entry gone
// since says so and stays open, on one that exists asks to go there and
// closes; its view is exactly w×h.
func TestLog_AlonePartOfItsOwn(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	c := &part.Context{Keys: &keys, Styles: &part.Styles{}, Body: 10, Snap: snap{2: true}, Loc: time.UTC}
	var l Log
	if l.Show() || l.Open() {
		t.Fatal("an empty log opened")
	}
	l.Add(Record{Added: 1, Items: []Item{{ID: 1, Name: "gone", Kind: Added}}})
	if !l.Show() || l.Cursor() != 1 {
		t.Fatalf("open %v, cursor %d: want open on the newest entry (row 1)", l.Open(), l.Cursor())
	}
	l.Add(Record{Added: 1, Items: []Item{{ID: 2, Name: "here", Kind: Added}}})
	if l.Cursor() != 3 {
		t.Fatalf("cursor on row %d after a reload, want 3 (still on gone)", l.Cursor())
	}
	reqs, _ := l.Key(c, press(tea.KeyEnter))
	if len(reqs) != 1 || reqs[0] != (part.Message{Text: "gone no longer exists"}) || !l.Open() {
		t.Fatalf("enter on a gone entry: %#v, open %v", reqs, l.Open())
	}
	l.Key(c, press(tea.KeyUp))
	reqs, _ = l.Key(c, press(tea.KeyEnter))
	if len(reqs) != 1 || reqs[0] != (part.Jump{ID: 2}) || l.Open() {
		t.Fatalf("enter on an entry: %#v, open %v", reqs, l.Open())
	}
	l.Show()
	v := l.View(c, 40, 6)
	if lines := strings.Split(v, "\n"); len(lines) != 6 || ansi.StringWidth(lines[0]) != 40 || !strings.Contains(v, "(gone)") {
		t.Fatalf("view:\n%s", v)
	}
}
