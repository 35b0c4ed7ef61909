package searchbar

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
	"github.com/crmem/crmem/tui/part"
)

func press(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// TestBar_AnswersWithAsks: the search line is a part of its own. Typed
// keys edit its query; what a key asks of the list comes back as an Ask,
// and only the line's own state changes.
func TestBar_AnswersWithAsks(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	b := New()
	b.Start()
	for _, r := range "po" {
		if ask, _ := b.Key(&keys, press(string(r))); ask != Edited {
			t.Fatalf("typing %q asks %v, want Edited", r, ask)
		}
	}
	if ask, by := b.Key(&keys, tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}); ask != Move || by != 1 {
		t.Errorf("ctrl+n asks %v by %d, want Move by 1", ask, by)
	}
	if ask, _ := b.Key(&keys, press("pgdown")); ask != ListKey {
		t.Errorf("pgdown asks %v, want ListKey", ask)
	}
	if ask, _ := b.Key(&keys, press("enter")); ask != Kept || b.Typing() || b.Input.Value() != "po" {
		t.Errorf("enter asks %v, typing %v, query %q: want the query kept, the line left", ask, b.Typing(), b.Input.Value())
	}
	if b.Paste("ol") || b.Input.Value() != "po" {
		t.Errorf("a paste while the line is left changed the query to %q", b.Input.Value())
	}
	b.Start()
	if !b.Paste("ol") || b.Input.Value() != "pool" {
		t.Errorf("a paste while typing: query %q, want pool", b.Input.Value())
	}
	if ask, _ := b.Key(&keys, press("esc")); ask != Cleared || b.Typing() || b.Input.Value() != "" {
		t.Errorf("esc asks %v, typing %v, query %q: want the line emptied and left", ask, b.Typing(), b.Input.Value())
	}
}

// TestBar_ViewGivesWayToTheQuery: the line is exactly w wide; the query
// being typed keeps its room and the parts give way, least telling
// first.
func TestBar_ViewGivesWayToTheQuery(t *testing.T) {
	st := &part.Styles{Dim: lipgloss.NewStyle()}
	b := New()
	parts := []Part{{"all", 3}, {"newest first", 2}, {"3/40", 4}}
	if got := b.View(st, 60, "/ ", "search (press /)", parts); ansi.StringWidth(got) != 60 ||
		!strings.Contains(got, "search (press /)") || !strings.HasSuffix(got, "all · newest first · 3/40") {
		t.Errorf("idle line %q: want the placeholder left, every part right, 60 wide", got)
	}
	b.Start()
	b.Input.Insert(strings.Repeat("q", 30))
	got := b.View(st, 50, "/ ", "search (press /)", parts)
	if ansi.StringWidth(got) != 50 || !strings.Contains(got, "/ "+strings.Repeat("q", 30)) {
		t.Errorf("typing line %q: want the whole query, 50 wide", got)
	}
	if strings.Contains(got, "newest first") || !strings.Contains(got, "3/40") {
		t.Errorf("typing line %q: the order (least telling) gives way first, the position stays", got)
	}
}
