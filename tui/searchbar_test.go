package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/crmem/crmem/keymap"
)

// TestSearchBar_AnswersWithAsks: the search line is a sub-model. Typed
// keys edit its query; what a key asks of the list comes back as a
// searchAsk, and only the line's own state changes.
func TestSearchBar_AnswersWithAsks(t *testing.T) {
	keys := keymap.DefaultKeyMap()
	b := searchBar{input: newSearchInput()}
	b.start()
	for _, r := range "po" {
		if ask, _ := b.update(&keys, tea.KeyPressMsg{Code: r, Text: string(r)}); ask != barEdited {
			t.Fatalf("typing %q asks %v, want barEdited", r, ask)
		}
	}
	if ask, by := b.update(&keys, tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}); ask != barMove || by != 1 {
		t.Errorf("ctrl+n asks %v by %d, want barMove by 1", ask, by)
	}
	if ask, _ := b.update(&keys, keyMsg("pgdown")); ask != barListKey {
		t.Errorf("pgdown asks %v, want barListKey", ask)
	}
	if ask, _ := b.update(&keys, keyMsg("enter")); ask != barKept || b.typing || b.input.Value() != "po" {
		t.Errorf("enter asks %v, typing %v, query %q: want the query kept, the line left", ask, b.typing, b.input.Value())
	}
	if b.paste("ol") || b.input.Value() != "po" {
		t.Errorf("a paste while the line is left changed the query to %q", b.input.Value())
	}
	b.start()
	if !b.paste("ol") || b.input.Value() != "pool" {
		t.Errorf("a paste while typing: query %q, want pool", b.input.Value())
	}
	if ask, _ := b.update(&keys, keyMsg("esc")); ask != barCleared || b.typing || b.input.Value() != "" {
		t.Errorf("esc asks %v, typing %v, query %q: want the line emptied and left", ask, b.typing, b.input.Value())
	}
}

// TestSearchBar_ViewGivesWayToTheQuery: the line is exactly w wide; the
// query being typed keeps its room and the parts give way, least telling
// first.
func TestSearchBar_ViewGivesWayToTheQuery(t *testing.T) {
	st := newStyles(true, true)
	b := searchBar{input: newSearchInput()}
	parts := []barPart{{"all", 3}, {"newest first", 2}, {"3/40", 4}}
	if got := b.view(st, 60, "/ ", "search (press /)", parts); ansi.StringWidth(got) != 60 ||
		!strings.Contains(got, "search (press /)") || !strings.HasSuffix(got, "all · newest first · 3/40") {
		t.Errorf("idle line %q: want the placeholder left, every part right, 60 wide", got)
	}
	b.start()
	b.input.Insert(strings.Repeat("q", 30))
	got := b.view(st, 50, "/ ", "search (press /)", parts)
	if ansi.StringWidth(got) != 50 || !strings.Contains(got, "/ "+strings.Repeat("q", 30)) {
		t.Errorf("typing line %q: want the whole query, 50 wide", got)
	}
	if strings.Contains(got, "newest first") || !strings.Contains(got, "3/40") {
		t.Errorf("typing line %q: the order (least telling) gives way first, the position stays", got)
	}
}
